/**
 * How `element` takes a server's first view over. The view shows until the element's own content or error
 * is drawn, laid out unseen beside it (Lit renders before a root's first child; the <script> bundles' Lit,
 * build/lean-lit.ts, after it); the function returned removes it, in the task that drew ours, so that no
 * frame shows neither. The focused chip or card hands the focus to ours at its place, and the body its
 * scroll. One the user pressed meanwhile (a click or a tap, which focused it without a focus ring, even
 * before the script ran; Enter or Space once it had, heard from now on) is pressed on ours, once.
 * Without a first view it does nothing.
 */
export function firstViewTakeover(element: HTMLElement): () => void {
  /** The chip or card of the view that Enter or Space pressed. */
  let pressed: EventTarget | undefined;
  element.addEventListener('keydown', (event) => {
    if (event.key == 'Enter' || event.key == ' ') pressed = event.composedPath()[0];
  });
  return () => {
    const root = element.shadowRoot!;
    // The server's mark (FIRST_VIEW, src/first-view/first-view-markup.ts) written out: a bundler keeps an
    // imported constant a variable, and these bytes are the first file's. The e2e tests take real views over.
    const view = root.querySelector('[data-first-view]');
    if (!view) return;
    const ours = root.querySelector<HTMLElement>('[part~=body]:not([data-first-view])')!;
    // The chips and the cards, in their order: the same in the view and in ours.
    const focusable = (within?: Element | null) => [
      ...(within?.shadowRoot?.querySelectorAll<HTMLElement>('[tabindex]') ?? []),
    ];
    const holder = root.activeElement;
    const focused = holder?.shadowRoot?.activeElement as HTMLElement | null | undefined;
    const to = focusable(ours.children[[...view.children].indexOf(holder!)])[focusable(holder).indexOf(focused!)];
    const press = pressed == focused || !focused?.matches(':focus-visible');
    const scroll = view.scrollTop;
    // Gone first: with it goes the rule that hides ours, and a hidden card takes no focus.
    view.remove();
    ours.scrollTop = scroll;
    to?.focus();
    if (press) to?.click();
  };
}
