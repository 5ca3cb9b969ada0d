/**
 * Reads the text back out of the platform's PDFs (pdfkit with embedded DejaVu subsets) the way a
 * viewer's copy and search do: each font's ToUnicode CMap maps the glyph ids that the content
 * streams show (hex strings in TJ arrays) back to Unicode. No PDF library and no pdftotext: the
 * objects are found by `N 0 obj`, streams inflated when FlateDecode.
 */
import { inflateSync } from 'node:zlib';

export interface PlacedText {
  text: string;
  /** the text matrix's origin (pdfkit: from the page's bottom-left) */
  x: number;
  y: number;
  size: number;
  /** the font's BaseFont without its subset tag, e.g. DejaVuSans-Bold */
  font: string;
}

export interface PdfTextPage {
  /** each TJ operation's text: one placed line */
  lines: string[];
  placed: PlacedText[];
}

export interface ReadPdf {
  version: string;
  pages: PdfTextPage[];
  /** every line of every page */
  lines: string[];
  /** BaseFont names of the fonts (subset tag + name) */
  fonts: string[];
  info: string;
}

interface PdfObject {
  dict: string;
  stream: Buffer | null;
}

function objectsOf(file: Buffer): Map<number, PdfObject> {
  const text = file.toString('latin1');
  const objects = new Map<number, PdfObject>();
  const re = /(\d+) 0 obj\s*/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    const start = m.index + m[0].length;
    const end = text.indexOf('endobj', start);
    const body = text.slice(start, end);
    const streamAt = body.indexOf('stream\n');
    if (streamAt >= 0 && /\/Length (\d+)/.test(body.slice(0, streamAt))) {
      const dict = body.slice(0, streamAt);
      const length = Number(/\/Length (\d+)/.exec(dict)![1]);
      const raw = file.subarray(start + streamAt + 'stream\n'.length, start + streamAt + 'stream\n'.length + length);
      objects.set(Number(m[1]), { dict, stream: dict.includes('/FlateDecode') ? inflateSync(raw) : raw });
    } else {
      objects.set(Number(m[1]), { dict: body, stream: null });
    }
    re.lastIndex = end;
  }
  return objects;
}

const ref = (dict: string, key: string): number | null => {
  const m = new RegExp(`/${key} (\\d+) 0 R`).exec(dict);
  return m ? Number(m[1]) : null;
};

/** glyph id (hex, 4 digits) -> text, from a ToUnicode CMap's bfrange / bfchar sections. */
function cmapOf(cmap: string): Map<string, string> {
  const map = new Map<string, string>();
  const hexText = (hex: string) => {
    let s = '';
    for (let i = 0; i < hex.length; i += 4) s += String.fromCharCode(parseInt(hex.slice(i, i + 4), 16));
    return s;
  };
  for (const section of cmap.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    for (const r of section[1]!.matchAll(/<([0-9a-f]+)>\s*<([0-9a-f]+)>\s*(\[[^\]]*\]|<[0-9a-f]+>)/gi)) {
      const lo = parseInt(r[1]!, 16);
      const hi = parseInt(r[2]!, 16);
      if (r[3]!.startsWith('[')) {
        // A ligature's glyph maps to several characters: <0066 0069> is "fi".
        const targets = [...r[3]!.matchAll(/<([0-9a-f\s]+)>/gi)].map((t) => t[1]!.replace(/\s+/g, ''));
        for (let g = lo; g <= hi; g++) map.set(g.toString(16).padStart(4, '0'), hexText(targets[g - lo] ?? ''));
      } else {
        const first = parseInt(r[3]!.slice(1, -1), 16);
        for (let g = lo; g <= hi; g++) map.set(g.toString(16).padStart(4, '0'), String.fromCharCode(first + g - lo));
      }
    }
  }
  for (const section of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const c of section[1]!.matchAll(/<([0-9a-f]+)>\s*<([0-9a-f]+)>/gi)) map.set(c[1]!.toLowerCase().padStart(4, '0'), hexText(c[2]!));
  }
  return map;
}

export function readPdf(file: Buffer): ReadPdf {
  const text = file.toString('latin1');
  const version = /^%PDF-(\d\.\d)/.exec(text)?.[1] ?? '';
  const objects = objectsOf(file);
  const catalog = [...objects.values()].find((o) => /\/Type \/Catalog/.test(o.dict))!;
  const pagesObj = objects.get(ref(catalog.dict, 'Pages')!)!;
  const kids = [.../\/Kids \[([^\]]*)\]/.exec(pagesObj.dict)![1]!.matchAll(/(\d+) 0 R/g)].map((k) => Number(k[1]));
  const fonts: string[] = [];
  const cmaps = new Map<number, Map<string, string>>();
  const fontMap = (id: number) => {
    let map = cmaps.get(id);
    if (!map) {
      const font = objects.get(id)!;
      const toUnicode = ref(font.dict, 'ToUnicode');
      map = toUnicode === null ? new Map() : cmapOf(objects.get(toUnicode)!.stream!.toString('latin1'));
      cmaps.set(id, map);
    }
    return map;
  };
  for (const o of objects.values()) {
    const base = /\/Subtype \/Type0[\s\S]*?\/BaseFont \/(\S+)/.exec(o.dict) ?? /\/BaseFont \/(\S+)[\s\S]*?\/Subtype \/Type0/.exec(o.dict);
    if (base) fonts.push(base[1]!);
  }
  const pages = kids.map((kid) => {
    const page = objects.get(kid)!;
    const resourcesRef = ref(page.dict, 'Resources');
    const resources = resourcesRef === null ? page.dict : objects.get(resourcesRef)!.dict;
    const fontDict = /\/Font <<([\s\S]*?)>>/.exec(resources)?.[1] ?? '';
    const byName = new Map([...fontDict.matchAll(/\/(\S+) (\d+) 0 R/g)].map((f) => [f[1]!, Number(f[2])]));
    // one content stream (pdfkit) or an array of them (pdf-lib, after drawing on a loaded page)
    const contentsIds = ref(page.dict, 'Contents') !== null ? [ref(page.dict, 'Contents')!] : [.../\/Contents \[([^\]]*)\]/.exec(page.dict)![1]!.matchAll(/(\d+) 0 R/g)].map((c) => Number(c[1]));
    const contents = contentsIds.map((id) => objects.get(id)!.stream!.toString('latin1')).join('\n');
    const lines: string[] = [];
    const placed: PlacedText[] = [];
    let font: Map<string, string> = new Map();
    let fontName = '';
    let size = 0;
    let x = 0;
    let y = 0;
    for (const op of contents.matchAll(/1 0 0 1 ([-\d.]+) ([-\d.]+) Tm|\/(\S+) ([\d.]+) Tf|\[((?:<[0-9a-f]*>|[-\d.\s])*)\] TJ|(<[0-9a-f]*>) Tj/gi)) {
      if (op[1] !== undefined) {
        x = Number(op[1]);
        y = Number(op[2]);
        continue;
      }
      if (op[3] !== undefined) {
        const id = byName.get(op[3])!;
        font = fontMap(id);
        fontName = (/\/BaseFont \/(?:[A-Z]{6}\+)?(\S+)/.exec(objects.get(id)!.dict)?.[1] ?? '');
        size = Number(op[4]);
        continue;
      }
      let line = '';
      for (const hex of (op[5] ?? op[6]!).matchAll(/<([0-9a-f]*)>/gi)) {
        for (let i = 0; i < hex[1]!.length; i += 4) line += font.get(hex[1]!.slice(i, i + 4).toLowerCase()) ?? '\uFFFD';
      }
      lines.push(line);
      placed.push({ text: line, x, y, size, font: fontName });
    }
    return { lines, placed };
  });
  const infoRef = ref(/trailer[\s\S]*$/.exec(text)?.[0] ?? '', 'Info');
  const infoObj = infoRef === null ? null : objects.get(infoRef);
  const info = infoObj ? infoObj.dict.replace(/(\d+) 0 R/g, (_, id: string) => objects.get(Number(id))?.dict.trim() ?? '') : '';
  return { version, pages, lines: pages.flatMap((p) => p.lines), fonts, info };
}
