/**
 * A tiny PDF 1.4 writer: pages of text and rules in the standard Helvetica fonts, nothing else.
 * Enough for an account statement without a dependency.
 *
 * The file: header, the catalog, the page tree, two font objects (Helvetica and Helvetica-Bold in
 * WinAnsiEncoding), an info dictionary, then a page object and an uncompressed content stream per
 * page, then the cross-reference table (one 20-byte line per object, each giving the byte offset
 * of its `N 0 obj`), the trailer, `startxref` with the table's offset, and `%%EOF`.
 *
 * Text: the standard fonts only have WinAnsi (Windows-1252) glyphs. Characters outside it are
 * transliterated (Cyrillic to Latin, accented letters without a WinAnsi form to their base letter,
 * a few letters such as ł by hand) or become '?'. Strings are written with ( ) \ escaped and
 * every byte outside printable ASCII as an octal escape, so the file's streams stay ASCII.
 */

export const A4 = { width: 595, height: 842 } as const;

export type PdfFont = 'regular' | 'bold';

export interface PdfText {
  x: number;
  y: number;
  text: string;
  size: number;
  font?: PdfFont;
  /** right: x is where the text ends */
  align?: 'left' | 'right';
}

export interface PdfRule {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  width?: number;
}

export interface PdfPage {
  texts: PdfText[];
  rules?: PdfRule[];
}

export interface PdfInfo {
  title: string;
  author?: string;
  createdAt: Date;
}

/** Unicode code points of WinAnsi's 0x80-0x9F bytes (the rest of 0xA0-0xFF is Latin-1 itself). */
const WIN_ANSI_HIGH: Readonly<Record<number, number>> = {
  0x20ac: 0x80,
  0x201a: 0x82,
  0x0192: 0x83,
  0x201e: 0x84,
  0x2026: 0x85,
  0x2020: 0x86,
  0x2021: 0x87,
  0x02c6: 0x88,
  0x2030: 0x89,
  0x0160: 0x8a,
  0x2039: 0x8b,
  0x0152: 0x8c,
  0x017d: 0x8e,
  0x2018: 0x91,
  0x2019: 0x92,
  0x201c: 0x93,
  0x201d: 0x94,
  0x2022: 0x95,
  0x2013: 0x96,
  0x2014: 0x97,
  0x02dc: 0x98,
  0x2122: 0x99,
  0x0161: 0x9a,
  0x203a: 0x9b,
  0x0153: 0x9c,
  0x017e: 0x9e,
  0x0178: 0x9f,
};

/** Russian / Ukrainian letters in a plain Latin transliteration (lower case; upper case derived). */
const CYRILLIC: Readonly<Record<string, string>> = {
  а: 'a', б: 'b', в: 'v', г: 'g', ґ: 'g', д: 'd', е: 'e', ё: 'e', є: 'ye', ж: 'zh', з: 'z', и: 'i', і: 'i', ї: 'yi', й: 'y',
  к: 'k', л: 'l', м: 'm', н: 'n', о: 'o', п: 'p', р: 'r', с: 's', т: 't', у: 'u', ф: 'f', х: 'kh', ц: 'ts', ч: 'ch',
  ш: 'sh', щ: 'shch', ъ: '', ы: 'y', ь: '', э: 'e', ю: 'yu', я: 'ya',
};

/** Letters that do not decompose to a base letter. */
const SPECIAL_LATIN: Readonly<Record<string, string>> = { ł: 'l', Ł: 'L', đ: 'd', Đ: 'D', ħ: 'h', Ħ: 'H', ı: 'i', ŀ: 'l', Ŀ: 'L', ß: 'ss' };

/** The WinAnsi byte of one character, or null. */
function winAnsiByte(codePoint: number): number | null {
  if ((codePoint >= 0x20 && codePoint <= 0x7e) || (codePoint >= 0xa0 && codePoint <= 0xff)) return codePoint;
  return WIN_ANSI_HIGH[codePoint] ?? null;
}

/** Text as WinAnsi bytes: transliterated where possible, '?' where not; control characters dropped. */
export function toWinAnsi(text: string): number[] {
  const bytes: number[] = [];
  for (const char of text) {
    const codePoint = char.codePointAt(0)!;
    if (codePoint < 0x20 || codePoint === 0x7f) {
      if (char === '\t' || char === '\n' || char === '\r') bytes.push(0x20);
      continue;
    }
    const direct = winAnsiByte(codePoint);
    if (direct !== null) {
      bytes.push(direct);
      continue;
    }
    const lower = char.toLowerCase();
    const cyrillic = CYRILLIC[lower];
    if (cyrillic !== undefined) {
      const latin = lower === char ? cyrillic : cyrillic.charAt(0).toUpperCase() + cyrillic.slice(1);
      for (const c of latin) bytes.push(c.charCodeAt(0));
      continue;
    }
    const special = SPECIAL_LATIN[char];
    if (special !== undefined) {
      for (const c of special) bytes.push(c.charCodeAt(0));
      continue;
    }
    // An accented letter WinAnsi lacks (ą, č, ș): its base letter.
    const base = char.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
    const baseBytes = [...base].map((c) => winAnsiByte(c.codePointAt(0)!));
    if (base.length > 0 && base !== char && baseBytes.every((b) => b !== null)) {
      bytes.push(...(baseBytes as number[]));
      continue;
    }
    bytes.push(0x3f);
  }
  return bytes;
}

/** A PDF literal string of WinAnsi bytes: ( ) \ escaped, non-printable bytes as octal. */
export function pdfString(text: string): string {
  let out = '(';
  for (const byte of toWinAnsi(text)) {
    if (byte === 0x28 || byte === 0x29 || byte === 0x5c) out += `\\${String.fromCharCode(byte)}`;
    else if (byte >= 0x20 && byte <= 0x7e) out += String.fromCharCode(byte);
    else out += `\\${byte.toString(8).padStart(3, '0')}`;
  }
  return `${out})`;
}

/** Helvetica advance widths (1/1000 em) of ASCII 32-126, from the standard font metrics. */
const HELVETICA_WIDTHS = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584,
  584, 556, 1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278,
  278, 278, 469, 556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500,
  500, 334, 260, 334, 584,
];

/**
 * The width of a text in points. Exact for ASCII in Helvetica; other bytes count as 556 and bold
 * as regular plus 5% (close enough to right-align figures and to cut a description to its column).
 */
export function textWidth(text: string, size: number, font: PdfFont = 'regular'): number {
  let units = 0;
  for (const byte of toWinAnsi(text)) units += byte >= 32 && byte <= 126 ? HELVETICA_WIDTHS[byte - 32]! : 556;
  return ((units * size) / 1000) * (font === 'bold' ? 1.05 : 1);
}

/** The text cut (with an ellipsis) so it fits in maxWidth points. */
export function fitText(text: string, maxWidth: number, size: number, font: PdfFont = 'regular'): string {
  if (textWidth(text, size, font) <= maxWidth) return text;
  const chars = [...text];
  while (chars.length > 0 && textWidth(`${chars.join('')}…`, size, font) > maxWidth) chars.pop();
  return `${chars.join('').trimEnd()}…`;
}

const fmt = (n: number) => (Math.round(n * 100) / 100).toString();

function contentStream(page: PdfPage): string {
  const ops: string[] = [];
  for (const rule of page.rules ?? []) {
    ops.push(`${fmt(rule.width ?? 0.5)} w ${fmt(rule.x1)} ${fmt(rule.y1)} m ${fmt(rule.x2)} ${fmt(rule.y2)} l S`);
  }
  for (const t of page.texts) {
    const x = t.align === 'right' ? t.x - textWidth(t.text, t.size, t.font) : t.x;
    ops.push(`BT /${t.font === 'bold' ? 'F2' : 'F1'} ${fmt(t.size)} Tf ${fmt(x)} ${fmt(t.y)} Td ${pdfString(t.text)} Tj ET`);
  }
  return ops.join('\n');
}

/** A date as a PDF date string: D:YYYYMMDDHHmmSSZ (UTC). */
function pdfDate(at: Date): string {
  return `D:${at.toISOString().replace(/[-:T]/g, '').slice(0, 14)}Z`;
}

/** The whole file. */
export function buildPdf(pages: readonly PdfPage[], info: PdfInfo): Buffer {
  if (pages.length === 0) throw new Error('a PDF needs at least one page');
  // Objects 1 catalog, 2 pages, 3 and 4 fonts, 5 info; then page i at 6 + 2i, its content at 7 + 2i.
  const pageObjectId = (i: number) => 6 + 2 * i;
  const objects: string[] = [];
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pages.map((_, i) => `${pageObjectId(i)} 0 R`).join(' ')}] /Count ${pages.length} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  objects[4] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>';
  objects[5] = `<< /Title ${pdfString(info.title)}${info.author ? ` /Author ${pdfString(info.author)}` : ''} /Producer (White-label banking platform) /CreationDate ${pdfString(pdfDate(info.createdAt))} >>`;
  pages.forEach((page, i) => {
    const stream = contentStream(page);
    objects[pageObjectId(i)] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${A4.width} ${A4.height}] /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${pageObjectId(i) + 1} 0 R >>`;
    // The stream is ASCII (pdfString escapes everything else), so its length in bytes is its length.
    objects[pageObjectId(i) + 1] = `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`;
  });

  // A binary comment after the header tells transfer programs the file is binary (PDF 1.4 §3.4.1).
  let file = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = Buffer.byteLength(file, 'latin1');
    file += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xrefOffset = Buffer.byteLength(file, 'latin1');
  // Each cross-reference line is exactly 20 bytes: 10-digit offset, 5-digit generation, n/f, space, LF.
  file += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++) file += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  file += `trailer\n<< /Size ${objects.length} /Root 1 0 R /Info 5 0 R >>\nstartxref\n${xrefOffset}\n%%EOF\n`;
  return Buffer.from(file, 'latin1');
}
