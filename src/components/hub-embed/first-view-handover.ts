// The later half's part of taking a server's first view over (first-view-takeover.ts says when): the view
// goes, and what the user did on it passes to the element's own cards.
import { nextTask } from '../form-half-imports.js';
import { reportMismatch } from './view-mismatch.js';

// The longest the view waits for ours to draw as many cards as it shows: a list shorter than the view's
// (another limit) never gets there, and the view then goes without the rest.
export const HANDOVER_WAIT_MS = 1000;

// The cards drawn in the shadow root of `grid` (the element's, or the view's <div>).
const cardsIn = (grid: Element | null | undefined) =>
  grid?.shadowRoot?.querySelectorAll('[role="listitem"]').length ?? 0;

/**
 * Removes `view`, the server's first view in `element`'s shadow root, once the element's own content or
 * error is drawn, laid out unseen beside it (Lit renders before a root's first child), with as many cards as
 * the view: in one task, so that no frame shows neither. The focused chip or card hands the focus to ours at
 * its place, and the body its scroll. One the user pressed meanwhile (a click or a tap, which focused it
 * without a focus ring, even before the script ran; `pressed`, Enter or Space once it had) is pressed on
 * ours, once. A view drawn for
 * other settings than `ours` (its mark holds them, as viewSettings in src/first-view/first-view-markup.ts
 * writes them) is only removed, with a console error naming the settings that differ (view-mismatch.ts):
 * its chips and cards are not ours, and a press on one would open another table.
 */
export async function handOver(
  element: HTMLElement,
  view: HTMLElement,
  ours: string,
  pressed: EventTarget | undefined,
): Promise<void> {
  const root = element.shadowRoot!;
  const drawn = view.dataset.firstView;
  if (drawn != ours) reportMismatch(drawn, ours);
  // The element's first screen is what its window shows, the server's a large screen's: the card the user
  // scrolled to, focused or pressed may be past ours. Ours draws on, unseen, until it has as many as the view.
  // (None while ours shows an error, and no more than its tables.)
  const grid = root.querySelector('hub-table-grid');
  const wanted = Math.min(Math.max(...[...view.children].map(cardsIn)), grid?.tables.length ?? 0);
  const until = performance.now() + HANDOVER_WAIT_MS;
  while (drawn == ours && cardsIn(grid) < wanted && performance.now() < until) await nextTask();
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
}
