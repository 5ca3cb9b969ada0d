/**
 * What an uploaded document holds beyond its first bytes (issue 11, finding 9). The magic
 * number (documents.service.ts detectMime) says which type a file claims to be; these checks
 * refuse a file that is also something else or carries active content, because documents are
 * downloaded by customers and reviewed by administrators in their browsers and PDF readers:
 *
 * - a PDF with script or actions that run by themselves: /JavaScript, /JS, /Launch,
 *   /EmbeddedFile(s), /RichMedia, /XFA, and an /OpenAction that is an action (a destination,
 *   "open at page 1", is fine). Names are read with their #xx escapes decoded, and Flate
 *   streams (where object streams hide dictionaries) are inflated and read too.
 * - a polyglot: an image with more than a little data after its end (PNG IEND, JPEG EOI), a PDF
 *   header inside an image, HTML or script markers inside an image, or a ZIP directory at the end
 *   of any file (ZIP readers look for it there: a PDF or image that is also a ZIP archive).
 *
 * Only positive evidence is refused: a file these parsers cannot walk to its end is judged by the
 * marker scans alone.
 */
import { inflateSync } from 'node:zlib';
import type { DetectedMime } from './documents.service.ts';

/** Bytes tolerated after an image's end marker (some encoders pad with a few zero bytes). */
export const IMAGE_TRAILER_SLACK_BYTES = 16;
/** Inflated bytes read per PDF file at most: a larger "zip bomb" stream is refused. */
export const PDF_INFLATE_MAX_BYTES = 64 * 1000 * 1000;

export type ContentProblem = 'activePdf' | 'polyglot';

/** Names long enough to look for in the whole file, binary stream bodies included, without false alarms. */
const PDF_ACTIVE_LONG_NAMES = /\/(JavaScript|Launch|EmbeddedFiles?|RichMedia|XFA)(?![A-Za-z0-9_.#-])/;
/** /JS too, where the file's syntax is (a 3-byte name turns up in compressed bytes by chance). */
const PDF_ACTIVE_NAMES = /\/(JavaScript|JS|Launch|EmbeddedFiles?|RichMedia|XFA)(?![A-Za-z0-9_.#-])/;
const HTML_MARKERS = /<(script|html|!doctype html|svg|iframe|\?php)[\s>/]/i;
const ZIP_END_OF_DIRECTORY = Buffer.from([0x50, 0x4b, 0x05, 0x06]);
const ZIP_DIRECTORY_ENTRY = Buffer.from([0x50, 0x4b, 0x01, 0x02]);
/** The end-of-directory record sits in the last 22 + 65535 (comment) bytes of a ZIP. */
const ZIP_TAIL_BYTES = 22 + 65_535;

/** The problem with a file's content, or null when it is a plain document of its type. */
export function contentProblem(content: Buffer, mime: DetectedMime): ContentProblem | null {
  if (isZip(content)) return 'polyglot';
  if (mime === 'application/pdf') return pdfProblem(content);
  const latin1 = content.toString('latin1');
  if (latin1.includes('%PDF-', 1) || HTML_MARKERS.test(latin1)) return 'polyglot';
  const end = mime === 'image/png' ? pngEnd(content) : jpegEnd(content);
  if (end !== null && hasTrailer(content, end)) return 'polyglot';
  return null;
}

function isZip(content: Buffer): boolean {
  const tail = content.subarray(Math.max(0, content.length - ZIP_TAIL_BYTES));
  const eocd = tail.lastIndexOf(ZIP_END_OF_DIRECTORY);
  if (eocd < 0) return false;
  // Random compressed bytes may hold the 4-byte signature; a ZIP's directory entries are there too.
  return content.includes(ZIP_DIRECTORY_ENTRY);
}

/** More than the slack after the end, unless it is all zero padding. */
function hasTrailer(content: Buffer, end: number): boolean {
  const rest = content.subarray(end);
  return rest.length > IMAGE_TRAILER_SLACK_BYTES && rest.some((b) => b !== 0);
}

/** The offset just past a PNG's IEND chunk (its CRC included), or null when the chunks do not lead there. */
export function pngEnd(content: Buffer): number | null {
  let at = 8;
  while (at + 12 <= content.length) {
    const length = content.readUInt32BE(at);
    const type = content.subarray(at + 4, at + 8).toString('latin1');
    const next = at + 12 + length;
    if (length > 0x7fffffff || next > content.length) return null;
    if (type === 'IEND') return next;
    at = next;
  }
  return null;
}

/** The offset just past a JPEG's EOI marker (FFD9) reached through its segments and scans, or null. */
export function jpegEnd(content: Buffer): number | null {
  let at = 2;
  while (at + 1 < content.length) {
    if (content[at] !== 0xff) return null;
    let marker = content[at + 1]!;
    // Fill bytes: any number of 0xFF before a marker.
    while (marker === 0xff && at + 2 < content.length) marker = content[++at + 1]!;
    at += 2;
    if (marker === 0xd9) return at;
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) continue;
    if (at + 2 > content.length) return null;
    const length = content.readUInt16BE(at);
    if (length < 2) return null;
    at += length;
    if (marker === 0xda) {
      // Entropy-coded data up to the next marker that is neither a stuffed 0xFF00 nor a restart.
      while (at + 1 < content.length && !(content[at] === 0xff && content[at + 1] !== 0x00 && !(content[at + 1]! >= 0xd0 && content[at + 1]! <= 0xd7))) at++;
    }
  }
  return null;
}

/** PDF names with their #xx escapes decoded (/J#61vaScript is /JavaScript). */
function decodeNames(text: string): string {
  return text.replace(/\/[^\s/<>[\]()%{}]*/g, (name) => name.replace(/#([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))));
}

function pdfProblem(content: Buffer): ContentProblem | null {
  const raw = content.toString('latin1');
  // The file's syntax without stream bodies (compressed bytes match anything by chance), then
  // the inflated Flate streams that can hold syntax (object streams hold whole dictionaries).
  const syntax: string[] = [];
  const texts: string[] = [];
  let inflated = 0;
  let copiedTo = 0;
  const streamStart = /(?<!end)stream\r?\n/g;
  for (let m = streamStart.exec(raw); m; m = streamStart.exec(raw)) {
    const from = m.index + m[0].length;
    const to = raw.indexOf('endstream', from);
    if (to < 0) break;
    syntax.push(raw.slice(copiedTo, from));
    copiedTo = to;
    streamStart.lastIndex = to + 'endstream'.length;
    // The stream's dictionary: from its object's header (bounded) to the keyword.
    const head = raw.slice(Math.max(raw.lastIndexOf('obj', m.index), m.index - 4000, 0), m.index);
    // Image samples hold no PDF syntax; inflating a scan would only spend the budget.
    if (!/\/FlateDecode/.test(head) || /\/Subtype\s*\/Image/.test(head)) continue;
    if (inflated >= PDF_INFLATE_MAX_BYTES) return 'activePdf';
    try {
      const out = inflateSync(content.subarray(from, to), { maxOutputLength: PDF_INFLATE_MAX_BYTES - inflated });
      inflated += out.length;
      texts.push(out.toString('latin1'));
    } catch (err) {
      // A stream past the budget is refused; a corrupt one is left to the reader (it shows nothing).
      if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return 'activePdf';
    }
  }
  syntax.push(raw.slice(copiedTo));
  // The whole file too: what is cut out as a "stream" is the file's word, and a crafted file may
  // hide a dictionary there (a string holding the keyword). JavaScript actions also need the long
  // name /JavaScript, so /JS alone is looked for in the syntax only.
  const whole = decodeNames(raw);
  if (PDF_ACTIVE_LONG_NAMES.test(whole)) return 'activePdf';
  const all = [syntax.join(''), ...texts].map(decodeNames);
  if (openActionIsAction(whole, [whole, ...all])) return 'activePdf';
  for (const text of all) {
    if (PDF_ACTIVE_NAMES.test(text)) return 'activePdf';
    if (openActionIsAction(text, all)) return 'activePdf';
  }
  return null;
}

/** /OpenAction given as an action dictionary, or as a reference to an object that is not a destination array. */
function openActionIsAction(text: string, all: readonly string[]): boolean {
  const openAction = /\/OpenAction\s*(<<|\[|(\d+)\s+(\d+)\s+R)/g;
  for (let m = openAction.exec(text); m; m = openAction.exec(text)) {
    if (m[1] === '<<') return true;
    if (m[1] === '[') continue;
    const object = new RegExp(`(?:^|[^0-9])${m[2]}\\s+${m[3]}\\s+obj\\s*(\\S)`);
    const target = all.map((t) => object.exec(t)).find((x) => x);
    // An unresolvable target is refused: an action hidden where this reader cannot look.
    if (!target || target[1] !== '[') return true;
  }
  return false;
}
