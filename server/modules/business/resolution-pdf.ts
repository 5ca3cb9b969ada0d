/**
 * The board resolution of document 3 §4 ("A business resolution can be generated for chosen
 * directors") as a PDF, in the house style of the statements and receipts (history/pdf-document.ts:
 * DejaVu Sans embedded, tagged PDF, the provider's legal footer on every page, a fixed creation
 * date so the same data gives the same bytes).
 *
 * What it says (the spec shows no wording; this is the usual form of a bank's account-opening
 * resolution): the directors of the company resolve to open an account with the provider, accept
 * its terms, and authorise the users listed, with their access rights, to act for the company on
 * it; a signature block (name, signature, date) for each chosen director follows. English, as the
 * contract's header (api/business-declarations.ts) explains.
 */
import { activeVariant } from '../../../variants/index.ts';
import { wordsFor } from '../history/document-words.ts';
import { CONTENT_RIGHT, PAGE, PdfCanvas, drawFooters, footerLineCount, footerLines, footerTop, utcMinute } from '../history/pdf-document.ts';

export interface ResolutionData {
  providerName: string;
  providerLegalName: string;
  company: { name: string; registrationNumber: string | null; countryCode: string | null; address: string | null };
  directors: { firstName: string; lastName: string }[];
  users: { firstName: string; lastName: string; email: string; accessRights: number }[];
  generatedAt: Date;
}

/** Access rights in words (document 1 §4 levels). */
export const ACCESS_RIGHT_WORDS: Record<number, string> = {
  1: 'view only',
  2: 'full access, including managing users',
  3: 'initiate payments (approved by a user with full access)',
  4: 'make confirmed payments',
  5: 'upload documents',
};

export function resolutionFileName(companyName: string, at: Date): string {
  const slug = companyName
    .normalize('NFKD')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase()
    .slice(0, 60);
  return `board-resolution-${slug || 'company'}-${at.toISOString().slice(0, 10)}.pdf`;
}

const SIZE = 10;
const LINE = 14;

/** The resolution's paragraphs, in order (also what the tests read back). */
export function resolutionParagraphs(data: ResolutionData): string[] {
  const c = data.company;
  const registered = [c.registrationNumber ? `registration number ${c.registrationNumber}` : null, c.countryCode ? `registered in ${c.countryCode}` : null]
    .filter(Boolean)
    .join(', ');
  const who = `${c.name}${registered ? ` (${registered})` : ''}${c.address ? `, of ${c.address}` : ''}`;
  return [
    `The undersigned, being directors of ${who} (the "Company"), resolve as follows:`,
    `1. The Company opens and keeps one or more accounts with ${data.providerLegalName} ("${data.providerName}"), and accepts the terms and conditions that govern them.`,
    `2. The persons listed below are authorised to act for the Company on those accounts, each with the access rights shown, until the directors withdraw that authority in writing to ${data.providerName}.`,
    `3. ${data.providerName} may rely on this resolution until it receives notice of its withdrawal.`,
  ];
}

export async function renderResolutionPdf(data: ResolutionData): Promise<Buffer> {
  const w = wordsFor('en');
  const title = `Board resolution: ${data.company.name}`;
  const canvas = new PdfCanvas({ title, author: data.providerName, lang: 'en', createdAt: data.generatedAt });
  const footer = footerLines(w, 'en', { ...activeVariant, letter: { ...activeVariant.letter, legalName: data.providerLegalName } });
  const bottom = footerTop(footerLineCount(canvas, footer)) - 14;
  const width = CONTENT_RIGHT - PAGE.margin;
  let y = PAGE.margin;
  const room = (lines: number) => {
    if (y + lines * LINE > bottom) {
      canvas.addPage();
      y = PAGE.margin;
    }
  };
  const paragraph = (text: string, font: 'regular' | 'bold' = 'regular') => {
    const lines = canvas.wrap(text, width, SIZE, font);
    room(lines.length);
    const p = canvas.group('P');
    for (const line of lines) {
      canvas.text(PAGE.margin, y, line, { size: SIZE, font, tag: 'Span', parent: p });
      y += LINE;
    }
    p.end();
    y += 6;
  };

  canvas.text(PAGE.margin, y, data.providerName, { size: 16, font: 'bold', maxWidth: width });
  y += 24;
  canvas.text(PAGE.margin, y, 'Resolution of the board of directors', { size: 13, font: 'bold', tag: 'H1' });
  y += 20;
  canvas.text(PAGE.margin, y, data.company.name, { size: 11, font: 'bold', maxWidth: width });
  y += 16;
  canvas.text(PAGE.margin, y, `Date: ${data.generatedAt.toISOString().slice(0, 10)}`, { size: SIZE });
  y += 22;

  for (const text of resolutionParagraphs(data)) paragraph(text);

  // The authorised users as a table: name, e-mail, rights.
  const cols = [PAGE.margin, PAGE.margin + 150, PAGE.margin + 320] as const;
  room(2);
  const table = canvas.group('Table');
  const header = canvas.group('TR', table);
  ['Authorised person', 'E-mail', 'Access rights'].forEach((label, i) =>
    canvas.text(cols[i]!, y, label, { size: SIZE, font: 'bold', tag: 'TH', parent: header, maxWidth: (cols[i + 1] ?? CONTENT_RIGHT) - cols[i]! - 6 }),
  );
  header.end();
  y += LINE;
  canvas.rule(PAGE.margin, CONTENT_RIGHT, y - 2);
  for (const user of data.users) {
    room(1);
    const row = canvas.group('TR', table);
    const cells = [`${user.firstName} ${user.lastName}`.trim(), user.email, ACCESS_RIGHT_WORDS[user.accessRights] ?? String(user.accessRights)];
    cells.forEach((value, i) => canvas.text(cols[i]!, y, value, { size: SIZE, tag: 'TD', parent: row, maxWidth: (cols[i + 1] ?? CONTENT_RIGHT) - cols[i]! - 6 }));
    row.end();
    y += LINE;
  }
  table.end();
  y += 18;

  paragraph('Signed by the directors:', 'bold');
  for (const director of data.directors) {
    room(4);
    const block = canvas.group('Sect');
    canvas.text(PAGE.margin, y, `${director.firstName} ${director.lastName}`.trim(), { size: SIZE, font: 'bold', parent: block, maxWidth: width });
    y += LINE + 18;
    canvas.rule(PAGE.margin, PAGE.margin + 220, y);
    canvas.rule(PAGE.margin + 260, PAGE.margin + 400, y);
    y += 4;
    canvas.text(PAGE.margin, y, 'Signature', { size: 8, parent: block });
    canvas.text(PAGE.margin + 260, y, 'Date', { size: 8, parent: block });
    block.end();
    y += 22;
  }

  drawFooters(canvas, footer, w.generated(utcMinute(data.generatedAt)), w);
  return canvas.finish();
}
