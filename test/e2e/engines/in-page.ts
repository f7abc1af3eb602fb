// The one selector engine of the end-to-end layer. It runs inside the page (its source is sent as
// text), so every engine resolves `hub-embed [part="name"]` the same way: each
// whitespace-separated compound is looked up anywhere below the previous matches in the composed tree,
// open shadow roots included, as Playwright's CSS engine does. Self-contained on purpose: no imports,
// no helpers from outside, nothing a transpiler could rename.

/** Text to match: a regular expression (source + flags) or a string. */
export type TextMatch = { source: string; flags: string } | { text: string };

export type Step =
  | { kind: 'css'; selector: string; hasText?: TextMatch }
  | { kind: 'role'; role: string; name?: TextMatch; exact?: boolean }
  | { kind: 'filter'; hasText: TextMatch }
  | { kind: 'nth'; index: number };

export type Op = 'count' | 'all' | 'one' | 'point' | 'element';

/**
 * Resolves `steps` in this document and applies `op`:
 * count: the number of matches; all: `fn(elements, arg)`; one: `fn(element, arg)` when exactly one
 * matches (else `{ missing }` or `{ strict }`); point: where a click on the one match lands, after
 * scrolling it into view and checking nothing covers it; element: the one match itself.
 */
export function inPage(steps: Step[], op: Op, arg: unknown, fn: ((target: any, arg: unknown) => unknown) | null) {
  const IMPLICIT: Record<string, string> = {
    button: 'button, input[type="button"], input[type="submit"], input[type="reset"]',
    status: 'output',
    dialog: 'dialog',
    link: 'a[href]',
    checkbox: 'input[type="checkbox"]',
    textbox: 'input:not([type]), input[type="text"], input[type="search"], textarea',
    toolbar: '',
    alert: '',
  };
  const normalize = (text: string) => text.replace(/\s+/g, ' ').trim();

  /** Every element below `root` in the composed tree: its shadow root's, then its light children. */
  const below = (root: ParentNode, out: Element[]) => {
    const shadow = (root as Element).shadowRoot;
    if (shadow) below(shadow, out);
    for (const child of Array.from(root.children)) {
      out.push(child);
      below(child, out);
    }
    return out;
  };

  /** The text a reader sees inside `node`, shadow trees included (styles and scripts left out). */
  const deepText = (node: Node): string => {
    const shadow = (node as Element).shadowRoot;
    let text = shadow ? deepText(shadow) : '';
    for (const child of Array.from(node.childNodes)) {
      if (child.nodeType === 3) text += (child as Text).data;
      else if (child.nodeType === 1 && !/^(STYLE|SCRIPT|TEMPLATE)$/.test((child as Element).tagName))
        text += deepText(child);
    }
    return text;
  };

  const matches = (text: string, match: TextMatch, exact: boolean) => {
    if ('source' in match) return new RegExp(match.source, match.flags).test(text);
    const have = normalize(text);
    const want = normalize(match.text);
    return exact ? have === want : have.toLowerCase().includes(want.toLowerCase());
  };

  /** Splits a selector into its compounds at whitespace outside brackets, parentheses and quotes. */
  const compounds = (selector: string) => {
    const parts: string[] = [];
    let depth = 0;
    let quote = '';
    let current = '';
    for (const ch of selector) {
      if (quote) {
        if (ch === quote) quote = '';
      } else if (ch === '"' || ch === "'") quote = ch;
      else if (ch === '(' || ch === '[') depth++;
      else if (ch === ')' || ch === ']') depth--;
      else if (/\s/.test(ch) && depth === 0) {
        if (current) parts.push(current);
        current = '';
        continue;
      }
      current += ch;
    }
    if (current) parts.push(current);
    return parts;
  };

  const unique = (list: Element[]) => Array.from(new Set(list));

  const accessibleName = (element: Element) => {
    const label = element.getAttribute('aria-label');
    if (label) return label;
    const by = element.getAttribute('aria-labelledby');
    if (by) {
      const root = element.getRootNode() as Document | ShadowRoot;
      return by
        .split(/\s+/)
        .map((id) => (root.getElementById ? root.getElementById(id) : null))
        .map((node) => (node ? deepText(node) : ''))
        .join(' ');
    }
    if (element instanceof HTMLInputElement) return element.value;
    return deepText(element);
  };

  const rendered = (element: Element) =>
    typeof (element as any).checkVisibility === 'function'
      ? (element as any).checkVisibility()
      : element.getClientRects().length > 0;

  let scopes: Element[] | null = null; // null: the whole document
  for (const step of steps) {
    const roots: ParentNode[] = scopes ?? [document];
    if (step.kind === 'css') {
      let found: Element[] = [];
      let from: ParentNode[] = roots;
      for (const compound of compounds(step.selector)) {
        found = unique(from.flatMap((root) => below(root, []).filter((element) => element.matches(compound))));
        from = found;
      }
      if (step.hasText) {
        const wanted = step.hasText;
        found = found.filter((element) => matches(deepText(element), wanted, false));
      }
      scopes = found;
    } else if (step.kind === 'role') {
      const implicit = IMPLICIT[step.role] ?? '';
      const wanted = step.name;
      scopes = unique(
        roots.flatMap((root) =>
          below(root, []).filter(
            (element) =>
              (element.getAttribute('role') === step.role ||
                (!element.hasAttribute('role') && implicit !== '' && element.matches(implicit))) &&
              rendered(element) &&
              element.getAttribute('aria-hidden') !== 'true' &&
              (!wanted || matches(accessibleName(element), wanted, step.exact === true)),
          ),
        ),
      );
    } else if (step.kind === 'filter') {
      const wanted = step.hasText;
      const list: Element[] = scopes ?? [];
      scopes = list.filter((element) => matches(deepText(element), wanted, false));
    } else {
      const list: Element[] = scopes ?? [];
      const picked: Element | undefined = list[step.index < 0 ? list.length + step.index : step.index];
      scopes = picked ? [picked] : [];
    }
  }
  const found = scopes ?? [];

  if (op === 'count') return found.length;
  if (op === 'all') return fn!(found, arg);
  if (found.length === 0) return { missing: true };
  if (found.length > 1) return { strict: found.length };
  const target = found[0]!;
  if (op === 'element') return target;
  if (op === 'one') return { value: fn!(target, arg) };

  // point: the middle of the element, in this frame's viewport, once nothing else is on top of it.
  let box = target.getBoundingClientRect();
  if (box.width === 0 || box.height === 0) return { retry: 'the element has no size (hidden or not laid out)' };
  /** What a click in the middle of the element hits, across shadow boundaries, and whether that is the element. */
  const hitAtMiddle = () => {
    const x = box.left + box.width / 2;
    const y = box.top + box.height / 2;
    let hit: Element | null = document.elementFromPoint(x, y);
    while (hit?.shadowRoot) {
      const inner = hit.shadowRoot.elementFromPoint(x, y);
      if (!inner || inner === hit) break;
      hit = inner;
    }
    // The hit must be the target or inside it, across shadow boundaries.
    for (let node: Node | null = hit; node; node = node.parentNode ?? (node as ShadowRoot).host ?? null)
      if (node === target) return { x, y, hit, ok: true };
    return { x, y, hit, ok: false };
  };
  // Out of the viewport, or in it but clipped by a scroll container (the widget's box): scrolled into view,
  // every scroll container on the way included, as a reader would.
  const outside = box.top < 0 || box.left < 0 || box.bottom > innerHeight || box.right > innerWidth;
  let at = outside ? undefined : hitAtMiddle();
  if (!at?.ok) {
    target.scrollIntoView({ block: 'center', inline: 'center' });
    box = target.getBoundingClientRect();
    at = hitAtMiddle();
  }
  if (at.ok) return { x: at.x, y: at.y, scrollX, scrollY };
  return { retry: `another element is on top: ${at.hit ? at.hit.outerHTML.slice(0, 120) : 'nothing'}` };
}
