/**
 * The faster getComputedStyle of the UI tests (tests/ui/fast-computed-style.ts) answers display,
 * visibility and pointer-events as jsdom does, on every element of a page that holds each case it
 * reasons about and of real design-system views.
 */
import { describe, expect, it } from 'vitest';
import { render } from '@testing-library/react';
import { I18nProvider } from '@lingui/react';
import { i18n } from '@lingui/core';
import { Dialog } from '../../src/ui/dialog.tsx';
import { Tabs } from '../../src/ui/tabs.tsx';
import { TextField } from '../../src/ui/text-field.tsx';
import { jsdomComputedStyle } from './fast-computed-style.ts';

const FIXTURE = `
  <div hidden><span>hidden by the attribute</span></div>
  <div hidden="until-found"><p>found later</p></div>
  <dialog><p>closed dialog</p></dialog>
  <dialog open><p>open dialog</p></dialog>
  <input type="hidden" name="h"><input type="HIDDEN"><input type="text"><input>
  <template><p>template</p></template><noscript>no script</noscript>
  <p style="display: none">inline none</p><span style="display: block">inline block</span>
  <section style="visibility: hidden"><p>inherits hidden <b style="visibility: visible">visible again</b>
    <i style="visibility: inherit">inherits</i></p></section>
  <div style="pointer-events: none"><button type="button">inert to the pointer</button></div>
  <table><caption>c</caption><thead><tr><th>h</th></tr></thead><tbody><tr hidden><td>r</td></tr><tr><td>d</td></tr></tbody></table>
  <ul><li>item</li></ul><ol><li>one</li></ol><dl><dt>t</dt><dd>d</dd></dl>
  <details><summary>more</summary><p>inside</p></details><details open><summary>open</summary><summary>second</summary></details>
  <div popover><p>popover</p></div>
  <label>name <select><option>a</option><optgroup label="g"><option>b</option></optgroup></select></label>
  <textarea></textarea><fieldset><legend>l</legend></fieldset><output>o</output><progress></progress>
  <svg viewBox="0 0 10 10" role="img" aria-label="chart"><title>t</title><g><path d="M0 0L1 1"/><text>x</text></g></svg>
  <a href="#x">link</a><img alt="i"><br><hr><abbr>a</abbr><code>c</code><pre>p</pre><nav><h2>h</h2></nav>
`;

function expectAgreement(): number {
  const real = jsdomComputedStyle.get(window)!;
  const elements = [...document.querySelectorAll('*')];
  const differences: string[] = [];
  for (const el of elements) {
    const fast = window.getComputedStyle(el);
    const jsdom = real(el);
    for (const property of ['display', 'visibility', 'pointer-events'] as const) {
      if (fast.getPropertyValue(property) !== jsdom.getPropertyValue(property)) differences.push(`${el.outerHTML.slice(0, 60)} ${property}`);
    }
    if (fast.display !== jsdom.display || fast.visibility !== jsdom.visibility || fast.pointerEvents !== jsdom.pointerEvents)
      differences.push(`${el.outerHTML.slice(0, 60)} (property)`);
    // what it does not answer itself is jsdom's
    expect(fast.getPropertyValue('color')).toBe(jsdom.getPropertyValue('color'));
  }
  expect(differences).toEqual([]);
  return elements.length;
}

describe('the UI tests’ getComputedStyle', () => {
  it('is installed, and agrees with jsdom on every element of a page of the cases it reasons about', () => {
    expect(jsdomComputedStyle.get(window)).toBeTypeOf('function');
    expect(window.getComputedStyle).not.toBe(jsdomComputedStyle.get(window));
    document.body.innerHTML = FIXTURE;
    expect(expectAgreement()).toBeGreaterThan(60);
    // and on the display values it reads from the tags themselves
    expect(window.getComputedStyle(document.querySelector('li')!).display).toBe('list-item');
    expect(window.getComputedStyle(document.querySelector('dialog[open]')!).display).toBe('block');
    expect(window.getComputedStyle(document.querySelector('b')!).visibility).toBe('visible');
    expect(window.getComputedStyle(document.querySelector('i')!).visibility).toBe('hidden');
    document.body.innerHTML = '';
  });

  it('agrees with jsdom on design-system views, a dialog open and closed', () => {
    const view = (open: boolean) => (
      <I18nProvider i18n={i18n}>
        <main>
          <TextField label="Amount" name="amount" value="1" onChange={() => {}} error="Too much" hint="In euro" />
          <Tabs
            label="Filter"
            tabs={[
              { id: 'a', label: 'All', content: <p>all</p> },
              { id: 'b', label: 'Some', content: <p>some</p> },
            ]}
          />
          <Dialog open={open} title="Error" onClose={() => {}}>
            <p>The account does not hold enough money</p>
          </Dialog>
        </main>
      </I18nProvider>
    );
    const { rerender } = render(view(true));
    expect(expectAgreement()).toBeGreaterThan(10);
    rerender(view(false));
    expectAgreement();
  });
});
