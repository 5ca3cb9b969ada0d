/**
 * Stamps a signature onto a document's PDF (pdf-lib): the drawn strokes as vector lines (or the
 * typed name in an italic face when the signer adopted it as the signature), the typed name and
 * "Signed electronically <UTC time>" under them, in the document's signature box; then one
 * "Signature certificate" page with the evidence (document title, envelope id, the unsigned PDF's
 * SHA-256, the signer's typed name and e-mail, the time in UTC, the IP address and user agent).
 *
 * DejaVu is embedded through fontkit (as subsets) so a Cyrillic or accented name is drawn as
 * typed. The certificate is in English: it is an evidence record read by the provider and, in a
 * dispute, by others (not shown in the spec). The file is saved without object streams (every
 * object readable on its own, as the platform's other PDFs).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import fontkit from '@pdf-lib/fontkit';
import { LineCapStyle, PDFDocument, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { SIGNATURE_BOX } from '../../../api/esign.ts';

const require = createRequire(import.meta.url);
const FONT_FILES = {
  regular: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
  bold: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
  /** the adopted signature: a serif italic reads as handwriting more than a sans oblique */
  script: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSerif-Italic.ttf'),
} as const;

let fontData: Record<keyof typeof FONT_FILES, Buffer> | null = null;
function fontBytes(): Record<keyof typeof FONT_FILES, Buffer> {
  fontData ??= { regular: readFileSync(FONT_FILES.regular), bold: readFileSync(FONT_FILES.bold), script: readFileSync(FONT_FILES.script) };
  return fontData;
}

export interface SignatureBox {
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface StampInput {
  unsignedPdf: Uint8Array;
  unsignedSha256: string;
  /** where the signature goes; absent: the last page's foot */
  signatureBox: SignatureBox | null;
  title: string;
  envelopeClientId: string;
  typedName: string;
  signerEmail: string | null;
  /** the drawn strokes in the 0-1000 x 0-300 box; empty: the typed name is the signature */
  strokes: number[][][];
  signedAt: Date;
  ip: string;
  userAgent: string;
}

const INK = rgb(0.05, 0.12, 0.35);
const TEXT = rgb(0.1, 0.1, 0.1);
const MUTED = rgb(0.35, 0.35, 0.35);

/** 2026-11-27 21:52:20 UTC */
export function utcText(at: Date): string {
  return `${at.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** The largest font size at which the text fits the width (down to a floor). */
function fitSize(font: PDFFont, text: string, width: number, size: number, floor = 5): number {
  let s = size;
  while (s > floor && font.widthOfTextAtSize(text, s) > width) s -= 0.5;
  return s;
}

/** Cuts a text to a width (with an ellipsis) at a size: a very long user agent stays on its line. */
function clip(font: PDFFont, text: string, width: number, size: number): string {
  if (font.widthOfTextAtSize(text, size) <= width) return text;
  let t = text;
  while (t.length > 1 && font.widthOfTextAtSize(`${t}…`, size) > width) t = t.slice(0, -1);
  return `${t}…`;
}

/** Splits a text into lines of at most a width (at spaces where possible, else anywhere). */
function wrap(font: PDFFont, text: string, width: number, size: number, maxLines: number): string[] {
  const lines: string[] = [];
  let rest = text;
  while (rest.length > 0 && lines.length < maxLines) {
    if (font.widthOfTextAtSize(rest, size) <= width) {
      lines.push(rest);
      break;
    }
    let cut = rest.length;
    while (cut > 1 && font.widthOfTextAtSize(rest.slice(0, cut), size) > width) cut--;
    const space = rest.lastIndexOf(' ', cut);
    const at = space > cut / 2 ? space : cut;
    lines.push(rest.slice(0, at));
    rest = rest.slice(at).trimStart();
  }
  if (rest.length > 0 && lines.length === maxLines) {
    const used = lines.join(' ').length;
    if (used < text.length) lines[maxLines - 1] = clip(font, lines[maxLines - 1]!, width, size);
  }
  return lines;
}

function defaultBox(page: PDFPage, pageIndex: number): SignatureBox {
  const { width } = page.getSize();
  return { page: pageIndex, x: 50, y: 40, width: Math.min(260, width - 100), height: 80 };
}

function drawSignature(page: PDFPage, box: SignatureBox, input: StampInput, fonts: { regular: PDFFont; script: PDFFont }): void {
  const captionSize = Math.max(5, Math.min(8, box.height / 8));
  const captionHeight = captionSize * 2 + 4;
  const area = { x: box.x, y: box.y + captionHeight, width: box.width, height: Math.max(8, box.height - captionHeight) };
  if (input.strokes.length > 0) {
    // the pad's box scaled into the area, aspect kept, centred vertically, left-aligned
    const scale = Math.min(area.width / SIGNATURE_BOX.width, area.height / SIGNATURE_BOX.height);
    const top = area.y + area.height - (area.height - SIGNATURE_BOX.height * scale) / 2;
    for (const stroke of input.strokes) {
      const path = stroke.map(([x, y], i) => `${i === 0 ? 'M' : 'L'} ${(x! * scale).toFixed(2)} ${(y! * scale).toFixed(2)}`).join(' ');
      page.drawSvgPath(path, { x: area.x, y: top, borderColor: INK, borderWidth: Math.max(0.6, 3 * scale), borderLineCap: LineCapStyle.Round });
    }
  } else {
    const size = fitSize(fonts.script, input.typedName, area.width, Math.min(22, area.height * 0.7), 6);
    page.drawText(input.typedName, { x: area.x, y: area.y + (area.height - size) / 2 + size * 0.2, size, font: fonts.script, color: INK });
  }
  page.drawLine({ start: { x: box.x, y: box.y + captionHeight - 1 }, end: { x: box.x + box.width, y: box.y + captionHeight - 1 }, thickness: 0.5, color: MUTED });
  const nameSize = fitSize(fonts.regular, input.typedName, box.width, captionSize);
  page.drawText(input.typedName, { x: box.x, y: box.y + captionSize + 2, size: nameSize, font: fonts.regular, color: TEXT });
  const signedLine = `Signed electronically ${utcText(input.signedAt)}`;
  page.drawText(signedLine, { x: box.x, y: box.y + 1, size: fitSize(fonts.regular, signedLine, box.width, captionSize), font: fonts.regular, color: MUTED });
}

function drawCertificate(doc: PDFDocument, input: StampInput, size: [number, number], fonts: { regular: PDFFont; bold: PDFFont }): void {
  const page = doc.addPage(size);
  const [width, height] = size;
  const margin = 50;
  const textWidth = width - margin * 2;
  let y = height - margin - 18;
  page.drawText('Signature certificate', { x: margin, y, size: 18, font: fonts.bold, color: TEXT });
  y -= 22;
  for (const line of wrap(fonts.regular, 'This page records how this document was signed electronically.', textWidth, 9, 2)) {
    page.drawText(line, { x: margin, y, size: 9, font: fonts.regular, color: MUTED });
    y -= 12;
  }
  y -= 14;
  const rows: [string, string][] = [
    ['Document', input.title],
    ['Envelope', input.envelopeClientId],
    ['Document SHA-256 (unsigned)', input.unsignedSha256],
    ['Signer', input.typedName],
    ['E-mail', input.signerEmail ?? '—'],
    ['Signed at', utcText(input.signedAt)],
    ['Signature', input.strokes.length > 0 ? 'Drawn by the signer' : 'Typed name adopted as the signature'],
    ['IP address', input.ip],
    ['User agent', input.userAgent || '—'],
  ];
  for (const [label, value] of rows) {
    page.drawText(label, { x: margin, y, size: 8, font: fonts.bold, color: MUTED });
    y -= 13;
    const lines = wrap(fonts.regular, value, textWidth, 10, 4);
    for (const line of lines) {
      page.drawText(line, { x: margin, y, size: 10, font: fonts.regular, color: TEXT });
      y -= 13;
    }
    y -= 8;
  }
  y -= 6;
  const note =
    "The signer typed the name above, signed and agreed that the electronic signature is the legal equivalent of a handwritten one. The SHA-256 of the signed file, this page included, is kept with the signature's record.";
  for (const line of wrap(fonts.regular, note, textWidth, 8, 4)) {
    page.drawText(line, { x: margin, y, size: 8, font: fonts.regular, color: MUTED });
    y -= 11;
  }
}

/** The signed PDF: the signature in its box and the certificate page appended. */
export async function stampSignature(input: StampInput): Promise<Uint8Array> {
  const doc = await PDFDocument.load(input.unsignedPdf, { updateMetadata: false });
  doc.registerFontkit(fontkit);
  const bytes = fontBytes();
  const [regular, bold, script] = await Promise.all([
    doc.embedFont(bytes.regular, { subset: true }),
    doc.embedFont(bytes.bold, { subset: true }),
    doc.embedFont(bytes.script, { subset: true }),
  ]);
  const pages = doc.getPages();
  if (pages.length === 0) throw new Error('the document has no page');
  const requested = input.signatureBox;
  const pageIndex = requested && requested.page >= 0 && requested.page < pages.length ? requested.page : pages.length - 1;
  const page = pages[pageIndex]!;
  const box = requested && requested.page === pageIndex ? requested : defaultBox(page, pageIndex);
  drawSignature(page, box, input, { regular, script });
  const { width, height } = pages[0]!.getSize();
  drawCertificate(doc, input, [width, height], { regular, bold });
  // a fixed modification date: the same signature gives the same bytes (and so the same hash)
  doc.setModificationDate(input.signedAt);
  return doc.save({ useObjectStreams: false });
}

/** The number of pages of a PDF (shown on the signing page: a headless browser shows no PDF). */
export async function pdfPageCount(pdf: Uint8Array): Promise<number> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  return doc.getPageCount();
}
