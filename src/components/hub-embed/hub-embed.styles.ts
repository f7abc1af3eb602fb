// Lit's css tag from its own module, which touches no DOM: the server's first view reads these styles too.
import { css } from '@lit/reactive-element/css-tag.js';

export const styles = css`
  /*
   * A box of the height the page reserves (--hub-reserved-height), from the first frame to the last: what
   * the body shows (loading, a list long or short, an error, a retry) scrolls inside it under a filter
   * that stays put, and never changes its height. A box that grew with its list would push the page's
   * content below down as the cards came in, and one that shrank to a short list would pull it up: with
   * that content on screen either is a layout shift, so the box neither grows nor shrinks. The default
   * holds the filter at its tallest (--hub-tags-max-height), the count and two rows of cards, whole, on a
   * desktop (whose cards are the taller, with their tags on a line of their own) and on a phone: a first
   * screen that shows one row and the top of the next reads as a list that ends there. A page that gives the element a height
   * (its own, or a flex or grid parent's) sets the box instead; an open inline form takes the height it
   * needs below. The box rests on no \`display\` of the host, which page rules override (\`hub-embed {
   * display: block }\` is how pages commonly style custom elements): the body is laid out over the host
   * (absolute, inset 0), so it adds nothing to the host's height, whatever the host's display. An
   * inline-block host sits at the top of its line: on the baseline, the line's descent would show under it
   * once the script ran, a shift of what is below.
   */
  :host {
    position: relative;
    vertical-align: top;
    min-height: var(--hub-reserved-height, 440px);
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
   * No height of its own: the body covers the box, whatever it holds. Its scrollbar's room is kept while
   * nothing overflows: a scrollbar that came with a longer list would narrow the cards and move them. A
   * card that focus scrolls into view stops below the filter at its tallest (the chips' most, their
   * padding and the ring's reach), not under it.
   */
  [part~="body"] {
    position: absolute;
    inset: 0;
    display: flex;
    flex-direction: column;
    gap: var(--_space);
    overflow: auto;
    scrollbar-gutter: stable;
    scroll-padding-top: calc(var(--hub-tags-max-height, 8.5em) + 12px);
  }

  /*
   * Above the cards that scroll under it, the 49th and later too (each a stacking context of its own). The
   * filter by what it forwards: <hub-tag-filter>, and its place in a server's first view (src/first-view/).
   */
  [exportparts^="toolbar"] {
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
