/**
 * The platform's PDF documents (statement-pdf.ts, receipt-pdf.ts) drawn with pdfkit in DejaVu Sans
 * and DejaVu Sans Bold, embedded as subsets: every script the font covers (Latin with its
 * diacritics, Cyrillic, Greek, Armenian, Georgian...) is shown as written. The standard 14 PDF
 * fonts only have WinAnsi glyphs, which is why the fonts are embedded. Known limit: pdfkit does no
 * bidirectional reordering, so a right-to-left name (Hebrew, Arabic) keeps its glyphs but is laid
 * out left to right; characters the font lacks (Chinese, Japanese) show as the font's empty box.
 *
 * The font files come from the dejavu-fonts-ttf package, resolved from this module with Node's
 * resolver: under tsx that is node_modules from the source tree, in the built server
 * (scripts/build-server.ts keeps packages as imports) node_modules from dist-server/. The paths
 * are resolved when the module loads, so a server without the package fails at start rather than
 * at the first download; the files (about 1.4 MB) are read on the first document and kept.
 *
 * Layout helpers work in points from the page's top-left corner (pdfkit's own convention); text
 * never wraps or breaks pages by itself (lineBreak: false): the documents place every line, so a
 * page break is always theirs. Each document gets a fixed CreationDate (its generatedAt), so
 * the same data gives the same bytes.
 *
 * Accessibility: the files are tagged PDF (PDF 1.7, MarkInfo Marked, a structure tree in reading
 * order, the document's language and its title shown as the window title), so a screen reader
 * reads a heading, paragraphs and real tables (header cells, rows) instead of loose glyphs. Rules
 * and repeated page furniture (a table header repeated on a continuation page, the footer after
 * the first page) are marked as artifacts and skipped.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';
import { activeVariant } from '../../../variants/index.ts';
import type { Variant } from '../../../variants/schema.ts';
import { formatSupportHours } from '../../../variants/support-hours.ts';
import type { DocumentLanguage, DocumentWords } from './document-words.ts';

const require = createRequire(import.meta.url);
export const FONT_FILES = {
  regular: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
  bold: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
} as const;

export type PdfFont = keyof typeof FONT_FILES;

let fontData: Record<PdfFont, Buffer> | null = null;
function fonts(): Record<PdfFont, Buffer> {
  fontData ??= { regular: readFileSync(FONT_FILES.regular), bold: readFileSync(FONT_FILES.bold) };
  return fontData;
}

export const PAGE = { width: 595.28, height: 841.89, margin: 50 } as const;
export const CONTENT_RIGHT = PAGE.width - PAGE.margin;

export interface DocumentInfo {
  title: string;
  author: string;
  lang: DocumentLanguage;
  createdAt: Date;
  /** the page size (A4 unless told; the IRS forms are US Letter) */
  size?: 'A4' | 'LETTER';
}

export type StructElement = ReturnType<PDFKit.PDFDocument['struct']>;

/** Structure types a text may take (PDF 32000-1 §14.8.4); Artifact: not content (page furniture). */
export type TextTag = 'H1' | 'P' | 'Span' | 'TH' | 'TD' | 'Artifact';

export interface TextOptions {
  size: number;
  font?: PdfFont;
  /** right: x is where the text ends */
  align?: 'left' | 'right';
  /** cut with an ellipsis to this width */
  maxWidth?: number;
  /** its structure element (P unless told) */
  tag?: TextTag;
  /** the element it belongs to (the document unless told) */
  parent?: StructElement;
}

/** Control characters become spaces (a note may hold line breaks; each line is placed by us). */
const CONTROL = /[\u0000-\u001f\u007f]/g;
export const clean = (text: string) => text.replace(CONTROL, ' ');

export class PdfCanvas {
  readonly doc: PDFKit.PDFDocument;
  /** the structure tree's Document element: everything read belongs to it */
  readonly root: StructElement;
  private readonly chunks: Buffer[] = [];
  private readonly done: Promise<void>;

  constructor(info: DocumentInfo) {
    const f = fonts();
    this.doc = new PDFDocument({
      size: info.size ?? 'A4',
      margin: PAGE.margin,
      bufferPages: true,
      pdfVersion: '1.7',
      tagged: true,
      // null, not undefined: no default font, else pdfkit loads Helvetica's metrics for nothing.
      font: null as unknown as string,
      lang: info.lang,
      displayTitle: true,
      info: { Title: info.title, Author: info.author, Creator: info.author, Producer: 'White-label banking platform', CreationDate: info.createdAt },
    });
    this.doc.registerFont('regular', f.regular);
    this.doc.registerFont('bold', f.bold);
    this.doc.font('regular');
    this.root = this.doc.struct('Document');
    this.doc.addStructure(this.root);
    this.doc.on('data', (chunk: Buffer) => this.chunks.push(chunk));
    this.done = new Promise((resolve, reject) => {
      this.doc.on('end', () => resolve());
      this.doc.on('error', reject);
    });
  }

  width(text: string, size: number, font: PdfFont = 'regular'): number {
    return this.doc.font(font).fontSize(size).widthOfString(clean(text));
  }

  /** The text cut (with an ellipsis) so it fits in maxWidth points. */
  fit(text: string, maxWidth: number, size: number, font: PdfFont = 'regular'): string {
    const cleaned = clean(text);
    if (this.width(cleaned, size, font) <= maxWidth) return cleaned;
    // The longest prefix that fits with the ellipsis, by bisection: a statement cuts hundreds of
    // descriptions, and each width is a text layout (a character-by-character search blocked the
    // event loop for over a second on a 1000-row month).
    const chars = [...cleaned];
    let lo = 0;
    let hi = chars.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (this.width(`${chars.slice(0, mid).join('')}…`, size, font) <= maxWidth) lo = mid;
      else hi = mid - 1;
    }
    return `${chars.slice(0, lo).join('').trimEnd()}…`;
  }

  /** The text in lines of at most maxWidth points (words kept whole unless one alone is too wide). */
  wrap(text: string, maxWidth: number, size: number, font: PdfFont = 'regular'): string[] {
    const lines: string[] = [];
    for (const paragraph of text.split(/\r\n|\r|\n/)) {
      let line = '';
      for (const word of clean(paragraph).split(/ +/).filter((w) => w !== '')) {
        const candidate = line === '' ? word : `${line} ${word}`;
        if (this.width(candidate, size, font) <= maxWidth) {
          line = candidate;
          continue;
        }
        if (line !== '') lines.push(line);
        line = this.width(word, size, font) <= maxWidth ? word : this.fit(word, maxWidth, size, font);
      }
      if (line !== '') lines.push(line);
    }
    return lines;
  }

  /**
   * A structure element holding others (a table, a row, a paragraph of spans), added to its parent
   * at once: pdfkit runs a child's drawing only once the child is attached to the tree. end() it
   * when its children are drawn.
   */
  group(tag: 'Table' | 'TR' | 'TD' | 'P' | 'Sect', parent: StructElement = this.root): StructElement {
    const element = this.doc.struct(tag);
    parent.add(element);
    return element;
  }

  /** One line of text whose top is at y. */
  text(x: number, y: number, text: string, options: TextOptions): void {
    const font = options.font ?? 'regular';
    const shown = options.maxWidth === undefined ? clean(text) : this.fit(text, options.maxWidth, options.size, font);
    const left = options.align === 'right' ? x - this.width(shown, options.size, font) : x;
    const draw = () => {
      this.doc.font(font).fontSize(options.size).text(shown, left, y, { lineBreak: false });
    };
    const tag = options.tag ?? 'P';
    if (tag === 'Artifact') this.artifact(draw);
    else (options.parent ?? this.root).add(this.doc.struct(tag, {}, draw));
  }

  /** Drawing that is not content: rules, repeated headers, page furniture. */
  artifact(draw: () => void): void {
    this.doc.markContent('Artifact');
    draw();
    this.doc.endMarkedContent();
  }

  rule(x1: number, x2: number, y: number, width = 0.5): void {
    this.artifact(() => this.doc.moveTo(x1, y).lineTo(x2, y).lineWidth(width).strokeColor('#000000').stroke());
  }

  addPage(): void {
    this.doc.addPage();
  }

  get pageCount(): number {
    return this.doc.bufferedPageRange().count;
  }

  /** Runs draw on each page (0-based index) after the content is laid out: footers with "Page i of n". */
  eachPage(draw: (index: number, count: number) => void): void {
    const { start, count } = this.doc.bufferedPageRange();
    for (let i = 0; i < count; i++) {
      this.doc.switchToPage(start + i);
      draw(i, count);
    }
  }

  async finish(): Promise<Buffer> {
    this.root.end();
    this.doc.end();
    await this.done;
    return Buffer.concat(this.chunks);
  }
}

/** The provider's legal footer and support contacts, in the document's language. */
export function footerLines(words: DocumentWords, lang: DocumentLanguage, variant: Pick<Variant, 'letter' | 'support'> = activeVariant): string[] {
  const { letter, support } = variant;
  return [
    `${letter.legalName} · ${words.registrationNumber(letter.registrationNumber)} · ${letter.address}`,
    `${letter.licence} · ${words.regulatedBy(letter.regulator)}`,
    `${words.support}: ${support.email} · ${support.phone} · ${formatSupportHours(support.hours, lang)}`,
  ];
}

export const FOOTER_SIZE = 7.5;
const FOOTER_LINE = 10;

/**
 * Draws the footer on every page: the legal lines, then "Generated ..." and "Page i of n"; returns
 * nothing. footerTop() says where it starts, so content stops above it.
 */
export function drawFooters(canvas: PdfCanvas, lines: readonly string[], generated: string, words: DocumentWords): void {
  const wrapped = lines.flatMap((l) => canvas.wrap(l, CONTENT_RIGHT - PAGE.margin, FOOTER_SIZE));
  const top = footerTop(wrapped.length);
  canvas.eachPage((i, n) => {
    // The legal lines are read once, at the end of the document's content; their repeats on
    // later pages, and the page numbers, are page furniture.
    const tag = i === 0 ? 'P' : 'Artifact';
    canvas.rule(PAGE.margin, CONTENT_RIGHT, top - 6);
    wrapped.forEach((line, k) => canvas.text(PAGE.margin, top + k * FOOTER_LINE, line, { size: FOOTER_SIZE, tag }));
    const last = top + wrapped.length * FOOTER_LINE + 2;
    canvas.text(PAGE.margin, last, generated, { size: FOOTER_SIZE, tag });
    canvas.text(CONTENT_RIGHT, last, words.page(i + 1, n), { size: FOOTER_SIZE, align: 'right', tag: 'Artifact' });
  });
}

/** The top of the footer of `lineCount` wrapped legal lines (plus the generated / page line). */
export function footerTop(lineCount: number): number {
  return PAGE.height - 36 - (lineCount + 1) * FOOTER_LINE;
}

/** How many lines the footer takes once wrapped (for footerTop before drawing). */
export function footerLineCount(canvas: PdfCanvas, lines: readonly string[]): number {
  return lines.reduce((n, l) => n + canvas.wrap(l, CONTENT_RIGHT - PAGE.margin, FOOTER_SIZE).length, 0);
}

/** "2026-03-04 05:06" (UTC). */
export function utcMinute(at: Date): string {
  return at.toISOString().slice(0, 16).replace('T', ' ');
}
