/**
 * The layout of the tax forms over the platform's PDF canvas (history/pdf-document.ts: DejaVu
 * Sans embedded so every script prints, tagged PDF, fixed creation date so the same input gives
 * the same bytes): a form header, part headings (the IRS's black "Part I" tab), rows of boxed
 * fields (a small label, the value beneath), check boxes (☒ / ☐, which a screen reader and a
 * text extraction read too), wrapped paragraphs and the signature box the e-signature adapter
 * draws in. Coordinates are points from the page's top-left, like the canvas; only the signature
 * box is turned into the adapter's bottom-left origin.
 */
import { PdfCanvas, type PdfFont, type StructElement } from '../../history/pdf-document.ts';
import type { TaxFormDocument } from './types.ts';
import type { FormLanguage } from './common.ts';

export const PAGE_SIZES = {
  LETTER: { width: 612, height: 792, margin: 36 },
  A4: { width: 595.28, height: 841.89, margin: 42 },
} as const;

export type SignatureBox = NonNullable<TaxFormDocument['signatureBox']>;

const LABEL = 6.5;
const VALUE = 9.5;
const VALUE_LINE = 12;
const GREY = '#555555';
const LIGHT = '#777777';

export interface Cell {
  /** the line number ("1", "9a"), printed bold before the label */
  line?: string;
  label: string;
  /** a second label line in a lighter grey (the English beside a translated label) */
  sub?: string;
  /** one or more lines; an empty string leaves the box blank for the signer */
  value: string | string[];
  /** share of the row's width (the cells' shares are normalised) */
  width?: number;
}

export class FormLayout {
  readonly canvas: PdfCanvas;
  readonly page: { width: number; height: number; margin: number };
  y: number;

  constructor(info: { title: string; author: string; lang: FormLanguage; createdAt: Date; size: keyof typeof PAGE_SIZES }) {
    this.page = PAGE_SIZES[info.size];
    this.canvas = new PdfCanvas({ title: info.title, author: info.author, lang: info.lang, createdAt: info.createdAt, size: info.size });
    this.y = this.page.margin;
  }

  get left(): number {
    return this.page.margin;
  }
  get right(): number {
    return this.page.width - this.page.margin;
  }
  get width(): number {
    return this.right - this.left;
  }
  /** content stops here; the footer sits below */
  get bottom(): number {
    return this.page.height - this.page.margin - 14;
  }
  get pageIndex(): number {
    return this.canvas.pageCount - 1;
  }

  /** A new page when `height` more points do not fit on this one. */
  ensure(height: number): void {
    if (this.y + height > this.bottom) {
      this.canvas.addPage();
      this.y = this.page.margin;
    }
  }

  private colored(color: string, draw: () => void): void {
    this.canvas.doc.fillColor(color);
    draw();
    this.canvas.doc.fillColor('#000000');
  }

  private box(x: number, y: number, w: number, h: number, options: { fill?: string; stroke?: string; width?: number } = {}): void {
    this.canvas.artifact(() => {
      const doc = this.canvas.doc.rect(x, y, w, h).lineWidth(options.width ?? 0.5);
      if (options.fill && options.stroke) doc.fillAndStroke(options.fill, options.stroke);
      else if (options.fill) doc.fill(options.fill);
      else doc.strokeColor(options.stroke ?? '#000000').stroke();
      this.canvas.doc.fillColor('#000000').strokeColor('#000000');
    });
  }

  /**
   * The form's head: on the left the form's number (large) and its revision, in the middle the
   * title and the notes, on the right a short column (e.g. "Give this form to ..."); a heavy rule under it.
   */
  header(head: { form: string; formNote: string[]; title: string[]; notes: string[]; aside: string[] }): void {
    const c = this.canvas;
    const leftW = 118;
    const asideW = 130;
    const midX = this.left + leftW + 8;
    const midW = this.width - leftW - asideW - 16;
    const top = this.y;
    const sect = c.group('Sect');
    // the form's number as large as fits (17 pt for "Form W-9", smaller for "Form W-8BEN-E")
    let formSize = 17;
    while (formSize > 10 && c.width(head.form, formSize, 'bold') > leftW - 4) formSize -= 0.5;
    c.text(this.left, top + (17 - formSize) / 2, head.form, { size: formSize, font: 'bold', tag: 'H1', parent: sect });
    let ly = top + 22;
    for (const note of head.formNote) {
      for (const line of c.wrap(note, leftW, 6.5)) {
        c.text(this.left, ly, line, { size: 6.5, tag: 'Span', parent: sect });
        ly += 8;
      }
    }
    let my = top;
    head.title.forEach((t, i) => {
      for (const line of c.wrap(t, midW, i === 0 ? 11.5 : 9, 'bold')) {
        c.text(midX, my, line, { size: i === 0 ? 11.5 : 9, font: 'bold', tag: 'P', parent: sect });
        my += i === 0 ? 14 : 11;
      }
    });
    my += 2;
    for (const note of head.notes) {
      for (const line of c.wrap(note, midW, 7)) {
        c.text(midX, my, line, { size: 7, tag: 'P', parent: sect });
        my += 9;
      }
    }
    let ay = top;
    for (const note of head.aside) {
      for (const line of c.wrap(note, asideW, 7)) {
        c.text(this.right - asideW, ay, line, { size: 7, tag: 'P', parent: sect });
        ay += 9;
      }
    }
    sect.end();
    this.y = Math.max(ly, my, ay) + 4;
    c.rule(this.left + leftW + 2, this.left + leftW + 2, this.y);
    this.canvas.artifact(() => {
      const x1 = this.left + leftW + 2;
      const x2 = this.right - asideW - 6;
      this.canvas.doc
        .moveTo(x1, top - 2)
        .lineTo(x1, this.y)
        .moveTo(x2, top - 2)
        .lineTo(x2, this.y)
        .lineWidth(0.5)
        .stroke();
    });
    c.rule(this.left, this.right, this.y, 2);
    this.y += 6;
  }

  /** "Part I  Identification of Beneficial Owner": a black tab with the part's label, its title beside. */
  part(label: string, title: string, sub?: string): void {
    const c = this.canvas;
    const tabW = Math.max(44, c.width(label, 9, 'bold') + 10);
    const titleLines = c.wrap(title, this.width - tabW - 8, 9, 'bold');
    const subLines = sub ? c.wrap(sub, this.width - tabW - 8, 7) : [];
    const height = Math.max(14, titleLines.length * 11 + subLines.length * 9 + 3);
    this.ensure(height + 40);
    const top = this.y;
    this.box(this.left, top, tabW, height, { fill: '#000000' });
    const heading = c.group('Sect');
    this.colored('#ffffff', () => c.text(this.left + 5, top + 3, label, { size: 9, font: 'bold', tag: 'Span', parent: heading }));
    let ty = top + 2;
    for (const line of titleLines) {
      c.text(this.left + tabW + 8, ty, line, { size: 9, font: 'bold', tag: 'Span', parent: heading });
      ty += 11;
    }
    for (const line of subLines) {
      this.colored(LIGHT, () => c.text(this.left + tabW + 8, ty, line, { size: 7, tag: 'Span', parent: heading }));
      ty += 9;
    }
    heading.end();
    c.rule(this.left, this.right, top, 1);
    this.y = top + height;
    c.rule(this.left, this.right, this.y, 1);
    this.y += 3;
  }

  /** A row of boxed fields: each a label (with its line number) and its value beneath. */
  row(cells: Cell[]): void {
    const c = this.canvas;
    const total = cells.reduce((s, cell) => s + (cell.width ?? 1), 0);
    let x = this.left;
    const laid = cells.map((cell) => {
      const w = (this.width * (cell.width ?? 1)) / total;
      const labelText = cell.line ? `${cell.line}  ${cell.label}` : cell.label;
      const labelLines = c.wrap(labelText, w - 6, LABEL);
      const subLines = cell.sub ? c.wrap(cell.sub, w - 6, LABEL) : [];
      const raw = Array.isArray(cell.value) ? cell.value : [cell.value];
      const values = raw.flatMap((v) => (v === '' ? [] : c.wrap(v, w - 8, VALUE)));
      const placed = { cell, x, w, labelLines, subLines, values };
      x += w;
      return placed;
    });
    const labelH = Math.max(...laid.map((l) => (l.labelLines.length + l.subLines.length) * 7.5));
    const valueH = Math.max(1, ...laid.map((l) => l.values.length)) * VALUE_LINE;
    const height = 3 + labelH + valueH + 3;
    this.ensure(height);
    const top = this.y;
    for (const l of laid) {
      const p = c.group('P');
      let ly = top + 2;
      l.labelLines.forEach((line, i) => {
        // the line number in bold: drawn as its own span before the label's first line
        if (i === 0 && l.cell.line) {
          c.text(l.x + 3, ly, l.cell.line, { size: LABEL, font: 'bold', tag: 'Span', parent: p });
          const rest = line.slice(l.cell.line.length).trimStart();
          this.colored(GREY, () => c.text(l.x + 3 + c.width(`${l.cell.line!}  `, LABEL, 'bold'), ly, rest, { size: LABEL, tag: 'Span', parent: p }));
        } else {
          this.colored(GREY, () => c.text(l.x + 3, ly, line, { size: LABEL, tag: 'Span', parent: p }));
        }
        ly += 7.5;
      });
      for (const line of l.subLines) {
        this.colored(LIGHT, () => c.text(l.x + 3, ly, line, { size: LABEL, tag: 'Span', parent: p }));
        ly += 7.5;
      }
      let vy = top + 3 + labelH;
      for (const line of l.values) {
        c.text(l.x + 4, vy, line, { size: VALUE, tag: 'Span', parent: p });
        vy += VALUE_LINE;
      }
      p.end();
      this.canvas.artifact(() => {
        if (l.x > this.left)
          this.canvas.doc
            .moveTo(l.x, top)
            .lineTo(l.x, top + height)
            .lineWidth(0.5)
            .strokeColor('#000000')
            .stroke();
      });
    }
    this.y = top + height;
    c.rule(this.left, this.right, this.y);
  }

  /** Check boxes, one a line (or `columns` a line): ☒ checked, ☐ not. */
  checks(items: { checked: boolean; text: string }[], options: { columns?: number; widths?: number[]; indent?: number; size?: number } = {}): void {
    const c = this.canvas;
    const columns = options.widths?.length ?? options.columns ?? 1;
    const size = options.size ?? 8;
    const indent = options.indent ?? 4;
    // each column's share of the width (equal unless told)
    const shares = options.widths ?? Array.from({ length: columns }, () => 1);
    const totalShare = shares.reduce((a, b) => a + b, 0);
    const colW = (k: number) => ((this.width - indent) * shares[k]!) / totalShare;
    const colX = (k: number) => this.left + indent + shares.slice(0, k).reduce((a, b) => a + ((this.width - indent) * b) / totalShare, 0);
    for (let i = 0; i < items.length; i += columns) {
      const slice = items.slice(i, i + columns);
      // a checked choice in bold when it is a short one (a status); a checked certification
      // paragraph stays regular, its box says it is checked
      const fontOf = (item: { checked: boolean; text: string }): PdfFont => (item.checked && item.text.length <= 100 ? 'bold' : 'regular');
      const wrapped = slice.map((item, k) => c.wrap(item.text, colW(k) - 16, size, fontOf(item)));
      const lines = Math.max(...wrapped.map((w) => w.length));
      this.ensure(lines * (size + 2.5) + 3);
      slice.forEach((item, k) => {
        const x = colX(k);
        const p = c.group('P');
        c.text(x, this.y + 2, item.checked ? '☒' : '☐', { size: size + 1, tag: 'Span', parent: p });
        wrapped[k]!.forEach((line, j) => c.text(x + 13, this.y + 3 + j * (size + 2.5), line, { size, font: fontOf(item), tag: 'Span', parent: p }));
        p.end();
      });
      this.y += lines * (size + 2.5) + 3;
    }
  }

  /** A wrapped paragraph; `bullet` hangs a "•" before it. */
  paragraph(text: string, options: { size?: number; font?: PdfFont; indent?: number; bullet?: boolean; color?: string; after?: number; parent?: StructElement } = {}): void {
    const c = this.canvas;
    const size = options.size ?? 8;
    const indent = options.indent ?? 0;
    const font = options.font ?? 'regular';
    const x = this.left + indent + (options.bullet ? 9 : 0);
    const lines = c.wrap(text, this.right - x, size, font);
    const lineH = size + 2.5;
    const p = c.group('P', options.parent);
    lines.forEach((line, i) => {
      this.ensure(lineH);
      if (i === 0 && options.bullet) c.text(this.left + indent + 1, this.y, '•', { size, tag: 'Artifact' });
      this.colored(options.color ?? '#000000', () => c.text(x, this.y, line, { size, font, tag: 'Span', parent: p }));
      this.y += lineH;
    });
    p.end();
    this.y += options.after ?? 2;
  }

  gap(points: number): void {
    this.y += points;
  }

  rule(width = 0.5): void {
    this.canvas.rule(this.left, this.right, this.y, width);
  }

  /**
   * The signing block: `label` on the left ("Sign Here"), the box the e-signature adapter draws
   * the signature, the typed name and the date in, the box's caption under it, then the lines
   * under the caption (print name, capacity). Answers the box for the adapter (bottom-left origin).
   */
  signature(block: { label: string; caption: string; lines: { label: string; value: string }[]; boxWidth?: number }): SignatureBox {
    const c = this.canvas;
    const height = 50;
    const labelW = 58;
    const captionLines = c.wrap(block.caption, (block.boxWidth ?? 330) - 4, 7);
    this.ensure(height + 8 + captionLines.length * 9 + block.lines.length * 14 + 8);
    const top = this.y + 6;
    const sect = c.group('Sect');
    // "Sign Here" on two lines like the IRS forms; a long single word ("Semnătura") in a smaller size
    let size = 11;
    const longest = () => Math.max(...block.label.split(' ').map((word) => c.width(word, size, 'bold')));
    while (size > 7 && longest() > labelW - 6) size -= 0.5;
    const labelLines = c.wrap(block.label, labelW - 6, size, 'bold');
    const lineH = size + 2;
    labelLines.forEach((line, i) =>
      c.text(this.left, top + height / 2 - (labelLines.length * lineH) / 2 + i * lineH, line, { size, font: 'bold', tag: 'Span', parent: sect, maxWidth: labelW - 4 }),
    );
    const x = this.left + labelW;
    const width = block.boxWidth ?? Math.min(330, this.right - x);
    this.box(x, top, width, height, { stroke: '#888888' });
    let y = top + height + 2;
    for (const line of captionLines) {
      this.colored(GREY, () => c.text(x, y, line, { size: 7, tag: 'Span', parent: sect }));
      y += 9;
    }
    y += 2;
    for (const line of block.lines) {
      const p = c.group('P', sect);
      this.colored(GREY, () => c.text(x, y + 2, line.label, { size: 7, tag: 'Span', parent: p }));
      const lx = x + c.width(line.label, 7) + 6;
      if (line.value !== '') c.text(lx, y, line.value, { size: VALUE, tag: 'Span', parent: p, maxWidth: this.right - lx });
      p.end();
      c.rule(lx - 2, this.right, y + 11);
      y += 14;
    }
    sect.end();
    this.y = y + 4;
    return { page: this.pageIndex, x, y: this.page.height - top - height, width, height };
  }

  /** Page furniture: the form's name on the left, "Page i of n" on the right of every page. */
  footers(left: string, page: (i: number, n: number) => string): void {
    const c = this.canvas;
    const y = this.page.height - this.page.margin + 2;
    c.eachPage((i, n) => {
      c.rule(this.left, this.right, y - 4);
      c.text(this.left, y, left, { size: 7, tag: 'Artifact', maxWidth: this.width - 80 });
      c.text(this.right, y, page(i + 1, n), { size: 7, align: 'right', tag: 'Artifact' });
    });
  }

  finish(): Promise<Buffer> {
    return this.canvas.finish();
  }
}
