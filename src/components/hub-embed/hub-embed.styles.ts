import { css } from 'lit';

export const styles = css`
  /*
   * A box of the height the page reserves (--hub-reserved-height), from the first frame to the last: what
   * the body shows (loading, a list long or short, an error, a retry) scrolls inside it under a filter
   * that stays put, and never changes its height. A box that grew with its list would push the page's
   * content below down as the cards came in, and one that shrank to a short list would pull it up: with
   * that content on screen either is a layout shift, so the box neither grows nor shrinks. The default
   * is a phone's first screen of cards, a row of chips, the count and two rows of cards: a short list
   * leaves less than a card row of blank, and a long one scrolls. A page that gives the element a height
   * (its own, or a flex or grid parent's) sets the box instead; an open inline form takes the height it
   * needs below.
   */
  :host {
    display: flex;
    flex-direction: column;
    min-height: var(--hub-reserved-height, 300px);
    color-scheme: light dark;
    background: var(--_bg);
  }

  :host([theme="light"]) {
    color-scheme: light;
  }

  :host([theme="dark"]) {
    color-scheme: dark;
  }

  /*
   * No height of its own: the body takes the box, whatever it holds. Its scrollbar's room is kept while
   * nothing overflows: a scrollbar that came with a longer list would narrow the cards and move them. A
   * card that focus scrolls into view stops below the filter at its tallest (the chips' most, their
   * padding and the ring's reach), not under it.
   */
  [part~="body"] {
    display: flex;
    flex-direction: column;
    gap: var(--_space);
    flex: 1 0 0;
    overflow: auto;
    scrollbar-gutter: stable;
    scroll-padding-top: calc(var(--hub-tags-max-height, 8.5em) + 12px);
  }

  /* Above the cards that scroll under it, the 49th and later too (each a stacking context of its own). */
  hub-tag-filter {
    position: sticky;
    top: 0;
    z-index: 1;
    background: var(--_bg);
  }

  /* Room for the retry control's focus ring: the widget may sit flush at the top of a WebView. */
  [part~="error"] {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: var(--_space);
    padding-block: 4px;
  }
`;
