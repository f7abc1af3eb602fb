import { loadFormOpener } from './form-opener-loader.js';

/**
 * How `element` takes a server's first view over. The view shows until the element's own content or error
 * is drawn, laid out unseen beside it (Lit renders before a root's first child; the <script> bundles' Lit,
 * build/lean-lit.ts, after it); the function returned removes it, in the task that drew ours, so that no
 * frame shows neither. The focused chip or card hands the focus to ours at its place, and the body its
 * scroll. One the user pressed meanwhile (a click or a tap, which focused it without a focus ring, even
 * before the script ran; Enter or Space once it had, heard from now on) is pressed on ours, once.
 * Without a first view it does nothing. A view drawn for other `settings` (its mark holds them, as
 * viewSettings in src/first-view/first-view-markup.ts writes them) is only removed, with a console error
 * naming the settings that differ (view-mismatch.ts): its chips and cards are not ours, and a press on one would open another table.
 */
export function firstViewTakeover(
  element: HTMLElement,
  settings: () => [baseUrl: string, formUrl: string, tags: string[]],
): () => void {
  /** The chip or card of the view that Enter or Space pressed. */
  let pressed: EventTarget | undefined;
  element.addEventListener('keydown', (event) => {
    if (event.key == 'Enter' || event.key == ' ') pressed = event.composedPath()[0];
  });
  return () => {
    const root = element.shadowRoot!;
    // The server's mark (FIRST_VIEW, src/first-view/first-view-markup.ts) written out: a bundler keeps an
    // imported constant a variable, and these bytes are the first file's. The e2e tests take real views over.
    const view = root.querySelector<HTMLElement>('[data-first-view]');
    if (!view) return;
    const drawn = view.dataset.firstView;
    const ours = JSON.stringify(settings());
    // A view for other settings hands on nothing (its cards are not ours: a press would open another
    // table). The later half says so, naming what differs: no words in the first file.
    if (drawn != ours)
      void loadFormOpener().then(
        (half) => half.reportMismatch(drawn, ours),
        () => {},
      );
    const body = root.querySelector<HTMLElement>('[part~=body]:not([data-first-view])')!;
    // The chips and the cards, in their order: the same in the view and in ours.
    const focusable = (within?: Element | null) => [
      ...(within?.shadowRoot?.querySelectorAll<HTMLElement>('[tabindex]') ?? []),
    ];
    const holder = root.activeElement;
    const focused = holder?.shadowRoot?.activeElement as HTMLElement | null | undefined;
    const to =
      drawn == ours
        ? focusable(body.children[[...view.children].indexOf(holder!)])[focusable(holder).indexOf(focused!)]
        : undefined;
    const press = pressed == focused || !focused?.matches(':focus-visible');
    // Ours is laid out unseen beside the view, so it takes the scroll now.
    body.scrollTop = view.scrollTop;
    // Gone first: with it goes the rule that hides ours, and a hidden card takes no focus. Focused without
    // scrolling a card half under the sticky filter into view (WebKit would, after this task): the user's
    // scroll stands.
    view.remove();
    to?.focus({ preventScroll: true });
    if (press) to?.click();
  };
}
