import { css } from '../form-half-imports.js';

export const styles = css`
  /*
   * The loading and error states lie over the page's place, not above it: when the page loads, nothing
   * moves (no layout shift).
   *
   * Once the page reports its height (--_page-height, which the element sets), the frame is its bar and
   * the page at that height, bounded; until then, and always on a form site that does not report it, the
   * minimum holds (--_page is unset while --_page-height is). It grows and shrinks at its bottom edge, so
   * nothing above it moves. A box that gives the frame a height (the dialog) sets the iframe's through
   * ::part, which wins, and the page scrolls inside.
   */
  :host {
    --_page: clamp(120px, var(--_page-height), var(--hub-frame-max-height, 2400px));
    display: grid;
    grid-template: auto 1fr/100%;
    min-height: min(var(--hub-frame-min-height, 480px), var(--_page, var(--hub-frame-min-height, 480px)));
    background: var(--_bg);
  }

  [part~="bar"] {
    display: flex;
    align-items: center;
    gap: var(--_space);
    padding: var(--_space);
  }

  [part~="title"] {
    overflow: hidden;
    white-space: nowrap;
    text-overflow: ellipsis;
    flex: 1;
    font-weight: 600;
  }

  [part~="loading"],
  [part~="error"],
  [part~="iframe"] {
    grid-area: 2/1;
  }

  [part~="loading"],
  [part~="error"] {
    z-index: 1;
    padding: var(--_space);
    background: var(--_bg);
  }

  [part~="iframe"] {
    width: 100%;
    height: var(--_page, 100%);
    border: 0;
  }
`;
