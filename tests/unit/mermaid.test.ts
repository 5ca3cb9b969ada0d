// @vitest-environment jsdom
/**
 * Every Mermaid block of docs/*.md parses and renders with the mermaid package, so a chart that
 * would not draw fails the suite. Parsing alone is not enough: an empty composite state
 * (`state x { }`) parses and only fails when drawn ("No such shape: roundedWithTitle"), so each
 * block is rendered too, in jsdom, with text measured by a fixed advance per character (jsdom
 * has no layout engine; the sizes only have to be numbers for Mermaid's layout to run).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Mermaid } from 'mermaid';
import { docsDir } from '../../scripts/diagrams.ts';

function mermaidBlocks(text: string): string[] {
  return [...text.matchAll(/```mermaid\n([\s\S]*?)```/g)].map((m) => m[1] as string);
}

const docs = readdirSync(docsDir)
  .filter((f) => f.endsWith('.md'))
  .map((f) => ({ file: f, blocks: mermaidBlocks(readFileSync(resolve(docsDir, f), 'utf8')) }))
  .filter((d) => d.blocks.length > 0);

let mermaid: Mermaid;

beforeAll(async () => {
  const advance = function (this: Element) {
    return (this.textContent ?? '').length * 8;
  };
  const proto = window.SVGElement.prototype as unknown as Record<string, unknown>;
  proto.getBBox = function (this: Element) {
    return { x: 0, y: 0, width: advance.call(this) + 10, height: 20 };
  };
  proto.getComputedTextLength = advance;
  mermaid = (await import('mermaid')).default;
  mermaid.initialize({ startOnLoad: false, securityLevel: 'strict' });
});

describe('Mermaid charts in docs/', () => {
  it('finds the generated charts', () => {
    expect(docs.length).toBeGreaterThanOrEqual(20);
  });

  it.each(docs.map((d) => [d.file, d] as const))('%s parses and renders', async (file, doc) => {
    for (const [i, block] of doc.blocks.entries()) {
      await expect(mermaid.parse(block), `${file} block ${i + 1}`).resolves.toBeTruthy();
      const { svg } = await mermaid.render(`chart-${file.replace(/\W/g, '-')}-${i}`, block);
      expect(svg).toContain('<svg');
    }
    // jsdom draws slowly: the largest charts take seconds on a busy machine
  }, 60_000);

  it('a chart with an empty composite state fails (the fault this test guards against)', async () => {
    await expect(mermaid.render('broken', 'stateDiagram-v2\n  state "a" as a {\n  }\n  [*] --> a\n')).rejects.toThrow(/roundedWithTitle|shape/);
  }, 60_000);
});
