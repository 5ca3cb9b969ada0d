/**
 * A faster `getComputedStyle` for the jsdom test DOM (tests only).
 *
 * Testing Library asks for an element's style on every role query (is it hidden?) and while it
 * computes each accessible name (every descendant: hidden? block or inline?). jsdom answers by
 * matching its whole default stylesheet against the element and its ancestors again after every
 * DOM change: in the transfer model test that was a quarter of the run's CPU (issue 12). The test
 * DOM has no author stylesheet (vitest does not load the app's CSS), so the three properties
 * those libraries read follow from the element alone, and this answers them so:
 * - display: none for the default stylesheet's hidden elements (`[hidden]`, a closed dialog,
 *   input type=hidden, head, script, template and the rest), else the inline style's, else the
 *   tag's own default, which jsdom itself computes once per tag;
 * - visibility and pointer-events: the inline style's, else the parent's (both inherit; a hidden
 *   table row or group collapses).
 * Any other property, a pseudo-element, or a document with a stylesheet of its own goes to
 * jsdom. tests/ui/fast-computed-style.test.tsx checks that both agree on every element of real
 * views.
 */
const FAST = new Set(['display', 'visibility', 'pointer-events']);
const HIDDEN_TAGS = new Set(
  ['area', 'base', 'basefont', 'datalist', 'head', 'link', 'meta', 'noembed', 'noframes', 'param', 'rp', 'script', 'style', 'template', 'title'].map((t) => t.toUpperCase()),
);
/** table parts a `hidden` attribute collapses (visibility: collapse, inherited) */
const COLLAPSING = new Set(['COLGROUP', 'COL', 'THEAD', 'TBODY', 'TFOOT', 'TR']);
const INHERITED_INITIAL: Record<string, string> = {
  visibility: 'visible',
  'pointer-events': 'auto',
};
const CAMEL: Record<string, string> = {
  display: 'display',
  visibility: 'visibility',
  pointerEvents: 'pointer-events',
};

/** jsdom's own getComputedStyle of each window the faster one is installed on (for the check) */
export const jsdomComputedStyle = new WeakMap<Window, Window['getComputedStyle']>();

export function installFastComputedStyle(win: Window & typeof globalThis): void {
  const real = win.getComputedStyle.bind(win);
  jsdomComputedStyle.set(win, real);
  const tagDisplay = new Map<string, string>();

  function defaultDisplay(el: Element): string {
    // (a shown dialog is the one tag whose default depends on an attribute: dialog:not([open]))
    const open = el.localName === 'dialog' && el.hasAttribute('open');
    const key = `${el.namespaceURI}|${el.localName}|${open}`;
    let display = tagDisplay.get(key);
    if (display === undefined) {
      // the tag's own default, computed by jsdom on a bare element of the same name in a document
      // of its own (so this page's style cache stays)
      const scratch = win.document.implementation.createHTMLDocument('');
      const bare = scratch.createElementNS(el.namespaceURI, el.localName);
      if (open) bare.setAttribute('open', '');
      scratch.body.append(bare);
      display = real(bare).getPropertyValue('display');
      tagDisplay.set(key, display);
    }
    return display;
  }

  function hiddenByDefault(el: Element): boolean {
    if (el.namespaceURI !== 'http://www.w3.org/1999/xhtml') return false;
    if (HIDDEN_TAGS.has(el.tagName)) return true;
    const hidden = el.getAttribute('hidden');
    if (hidden !== null && hidden.toLowerCase() !== 'until-found' && el.localName !== 'embed') return true;
    if (el.localName === 'dialog' && !el.hasAttribute('open')) return true;
    return el.localName === 'input' && (el.getAttribute('type') ?? '').toLowerCase() === 'hidden';
  }

  function inline(el: Element, property: string): string {
    return (el as HTMLElement).style?.getPropertyValue(property) ?? '';
  }

  function value(el: Element, property: string): string {
    if (property === 'display') {
      if (hiddenByDefault(el)) return 'none';
      return inline(el, 'display') || defaultDisplay(el);
    }
    for (let node: Element | null = el; node; node = node.parentElement) {
      const own = inline(node, property);
      if (own && own !== 'inherit') return own;
      if (property === 'visibility' && COLLAPSING.has(node.tagName) && node.hasAttribute('hidden')) return 'collapse';
    }
    return INHERITED_INITIAL[property]!;
  }

  function fast(el: Element, pseudo?: string | null): CSSStyleDeclaration {
    // jsdom decides where its default stylesheet looks at more than the element itself: a summary
    // (details > summary:first-of-type) and a popover
    if (pseudo || win.document.styleSheets.length > 0 || !el.isConnected || el.tagName === 'SUMMARY' || el.hasAttribute('popover')) return real(el, pseudo);
    let full: CSSStyleDeclaration | undefined;
    const jsdom = () => (full ??= real(el));
    return new Proxy({} as CSSStyleDeclaration, {
      get(_target, prop) {
        if (prop === 'getPropertyValue') return (name: string) => (FAST.has(name) ? value(el, name) : jsdom().getPropertyValue(name));
        if (typeof prop === 'string' && prop in CAMEL) return value(el, CAMEL[prop]!);
        const v = Reflect.get(jsdom(), prop) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(jsdom()) : v;
      },
    });
  }

  win.getComputedStyle = fast as typeof win.getComputedStyle;
}
