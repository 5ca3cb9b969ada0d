/**
 * The tiny PDF 1.4 writer (server/modules/history/pdf.ts) and the statement layout: the file's
 * structure is checked the way a reader walks it (startxref -> xref table -> each offset points
 * at `N 0 obj`), and the text operands are read back.
 */
import { describe, expect, it } from 'vitest';
import { buildPdf, fitText, pdfString, textWidth, toWinAnsi } from '../../server/modules/history/pdf.ts';
import { renderStatementPdf, summarise, type StatementMovement } from '../../server/modules/history/statement-pdf.ts';

/** Walks the file from its end; returns the objects by number and the trailer. */
function readPdf(file: Buffer) {
  const text = file.toString('latin1');
  expect(text.startsWith('%PDF-1.4\n')).toBe(true);
  expect(text.endsWith('%%EOF\n')).toBe(true);
  const startxref = /startxref\n(\d+)\n%%EOF\n$/.exec(text);
  expect(startxref).not.toBeNull();
  const xrefAt = Number(startxref![1]);
  expect(text.slice(xrefAt, xrefAt + 5)).toBe('xref\n');
  const header = /^xref\n0 (\d+)\n/.exec(text.slice(xrefAt))!;
  const size = Number(header[1]);
  const entriesAt = xrefAt + header[0].length;
  const objects = new Map<number, string>();
  for (let i = 0; i < size; i++) {
    const line = text.slice(entriesAt + 20 * i, entriesAt + 20 * (i + 1));
    expect(line).toMatch(/^\d{10} \d{5} [nf] \n$/);
    if (i === 0) {
      expect(line).toBe('0000000000 65535 f \n');
      continue;
    }
    const offset = Number(line.slice(0, 10));
    expect(text.slice(offset, offset + `${i} 0 obj`.length)).toBe(`${i} 0 obj`);
    const end = text.indexOf('endobj', offset);
    objects.set(i, text.slice(offset, end));
  }
  const trailer = text.slice(entriesAt + 20 * size);
  expect(trailer.startsWith('trailer\n')).toBe(true);
  expect(trailer).toContain(`/Size ${size}`);
  const root = Number(/\/Root (\d+) 0 R/.exec(trailer)![1]);
  expect(objects.get(root)).toContain('/Type /Catalog');
  const pagesRef = Number(/\/Pages (\d+) 0 R/.exec(objects.get(root)!)![1]);
  const pagesObj = objects.get(pagesRef)!;
  const kids = [...(/\/Kids \[([^\]]*)\]/.exec(pagesObj)![1]!.matchAll(/(\d+) 0 R/g))].map((m) => Number(m[1]));
  const count = Number(/\/Count (\d+)/.exec(pagesObj)![1]);
  expect(kids).toHaveLength(count);
  const pages = kids.map((k) => {
    const page = objects.get(k)!;
    expect(page).toContain('/Type /Page ');
    const contentRef = Number(/\/Contents (\d+) 0 R/.exec(page)![1]);
    const content = objects.get(contentRef)!;
    const length = Number(/\/Length (\d+)/.exec(content)![1]);
    const streamStart = content.indexOf('stream\n') + 'stream\n'.length;
    const stream = content.slice(streamStart, streamStart + length);
    expect(content.slice(streamStart + length)).toBe('\nendstream\n');
    const texts = [...stream.matchAll(/\(((?:\\.|[^\\)])*)\) Tj/g)].map((m) =>
      m[1]!.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8))).replace(/\\([()\\])/g, '$1'),
    );
    return { stream, texts };
  });
  return { objects, pages, count };
}

describe('pdf writer', () => {
  it('writes a well-formed file: header, objects at their xref offsets, trailer, startxref, %%EOF', () => {
    const file = buildPdf(
      [
        { texts: [{ x: 50, y: 800, text: 'Hello (world) \\ back', size: 12 }], rules: [{ x1: 50, y1: 790, x2: 200, y2: 790 }] },
        { texts: [{ x: 545, y: 800, text: 'Right', size: 12, font: 'bold', align: 'right' }] },
      ],
      { title: 'Test', createdAt: new Date('2026-01-02T03:04:05Z') },
    );
    const pdf = readPdf(file);
    expect(pdf.count).toBe(2);
    expect(pdf.pages[0]!.texts).toEqual(['Hello (world) \\ back']);
    expect(pdf.pages[0]!.stream).toContain('(Hello \\(world\\) \\\\ back) Tj');
    expect(pdf.pages[0]!.stream).toContain('50 790 m 200 790 l S');
    expect(pdf.pages[1]!.stream).toContain('/F2 12 Tf');
    // Right-aligned: ends at x = 545 (Right = 722+222+556+556+278 units, bold +5%).
    const x = Number(/\/F2 12 Tf ([\d.]+) 800 Td/.exec(pdf.pages[1]!.stream)![1]);
    expect(x).toBeCloseTo(545 - textWidth('Right', 12, 'bold'), 1);
    expect(textWidth('Right', 10)).toBeCloseTo(23.34, 2);
    expect(file.toString('latin1')).toContain('/CreationDate (D:20260102030405Z)');
    expect(() => buildPdf([], { title: 'x', createdAt: new Date() })).toThrow();
  });

  it('writes text as WinAnsi: Latin-1 and € kept, Cyrillic and other Latin letters transliterated, the rest ?', () => {
    expect(Buffer.from(toWinAnsi('Müller €5 – “ok”')).toString('latin1')).toBe('M\xfcller \x805 \x96 \x93ok\x94');
    expect(String.fromCharCode(...toWinAnsi('Борис Петров, Юлія Щербак'))).toBe('Boris Petrov, Yuliya Shcherbak');
    expect(String.fromCharCode(...toWinAnsi('Łukasz Żółć Ștefan'))).toBe('Lukasz Z\xf3lc Stefan');
    expect(String.fromCharCode(...toWinAnsi('東京 😀'))).toBe('?? ?');
    expect(String.fromCharCode(...toWinAnsi('a\u0000b\nc'))).toBe('ab c');
    expect(pdfString('ü(x)\\')).toBe('(\\374\\(x\\)\\\\)');
  });

  it('cuts text to a width with an ellipsis', () => {
    const long = 'A very long description that will not fit in the column at all';
    const cut = fitText(long, 100, 9);
    expect(cut.endsWith('…')).toBe(true);
    expect(textWidth(cut, 9)).toBeLessThanOrEqual(100);
    expect(fitText('short', 100, 9)).toBe('short');
  });
});

describe('statement layout', () => {
  const movements = (n: number): StatementMovement[] =>
    Array.from({ length: n }, (_, i) => ({ bookedAt: new Date(Date.UTC(2026, 2, 1 + (i % 28), 10)), description: `Movement ${i + 1}`, amountMinor: i % 2 === 0 ? 150n : -100n }));

  it('sums the movements: totals in and out, running and closing balances', () => {
    const s = summarise({ openingBalanceMinor: 1000n, movements: movements(4) });
    expect(s).toEqual({ totalInMinor: 300n, totalOutMinor: 200n, closingBalanceMinor: 1100n, runningMinor: [1150n, 1050n, 1200n, 1100n] });
  });

  it('puts every movement on a page, the header on each, and numbers the pages', () => {
    const data = {
      providerName: 'Lumen Wallet',
      customerName: 'Юлія Щербак',
      accountId: 42,
      currency: 'EUR',
      year: 2026,
      month: 3,
      openingBalanceMinor: 100000n,
      movements: movements(120),
      generatedAt: new Date('2026-04-01T08:00:00Z'),
    };
    const pdf = readPdf(renderStatementPdf(data));
    expect(pdf.count).toBeGreaterThanOrEqual(3);
    const all = pdf.pages.flatMap((p) => p.texts);
    for (let i = 1; i <= 120; i++) expect(all).toContain(`Movement ${i}`);
    pdf.pages.forEach((p, i) => {
      expect(p.texts).toContain('Description');
      expect(p.texts).toContain(`Page ${i + 1} of ${pdf.count}`);
    });
    expect(pdf.pages[0]!.texts).toContain('Yuliya Shcherbak');
    expect(pdf.pages[0]!.texts).toContain('Account statement, March 2026');
    expect(pdf.pages[0]!.texts).toContain('2026-03-01 to 2026-03-31');
    expect(pdf.pages[0]!.texts).toContain('1000.00 EUR');
    const lastPage = pdf.pages.at(-1)!.texts;
    expect(lastPage).toContain('+90.00 EUR');
    expect(lastPage).toContain('-60.00 EUR');
    expect(lastPage).toContain('1030.00 EUR');
  });

  it('writes a one-page statement with no movements', () => {
    const pdf = readPdf(
      renderStatementPdf({ providerName: 'P', customerName: 'C', accountId: 1, currency: 'BTC', year: 2026, month: 2, openingBalanceMinor: 5n, movements: [], generatedAt: new Date() }),
    );
    expect(pdf.count).toBe(1);
    expect(pdf.pages[0]!.texts).toContain('No movements in this period.');
    expect(pdf.pages[0]!.texts).toContain('2026-02-01 to 2026-02-28');
    expect(pdf.pages[0]!.texts).toContain('0.00000005 BTC');
  });
});
