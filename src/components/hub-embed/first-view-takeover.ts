import { loadFormOpener } from './form-opener-loader.js';

/**
 * When `element` takes a server's first view over: once its own content or error is drawn, by the later
 * half (first-view-handover.ts), which an element made over a view starts loading at once, beside its
 * token and its lists. The first file keeps only what cannot wait: the chip or card that Enter or Space
 * pressed before the handover. The function returned calls `then` once the view is gone: at once without
 * one. A later half that does not load (the network) drops the view plainly, so
 * that ours, or the error, shows.
 */
export function firstViewTakeover(
  element: HTMLElement,
  settings: () => [baseUrl: string, formUrl: string, tags: string[]],
): (then?: () => void) => void {
  let pressed: EventTarget | undefined;
  element.addEventListener('keydown', (event) => {
    if (event.key == 'Enter' || event.key == ' ') pressed = event.composedPath()[0];
  });
  // The server's mark (FIRST_VIEW, src/first-view/first-view-markup.ts) written out: a bundler keeps an
  // imported constant a variable, and these bytes are the first file's. The e2e tests take real views over.
  const view = () => element.shadowRoot?.querySelector<HTMLElement>('[data-first-view]');
  // Parsed before this element was made, a view is there now; the half's load is retried by the handover.
  if (view()) loadFormOpener().catch(() => {});
  return (then) => {
    const drawn = view();
    if (!drawn) return then?.();
    void loadFormOpener()
      .then(
        (half) => half.handOver(element, drawn, JSON.stringify(settings()), pressed),
        () => drawn.remove(),
      )
      .then(then);
  };
}
