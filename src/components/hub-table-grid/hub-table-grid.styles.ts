// Lit's css tag from its own module, which touches no DOM: the server's first view reads these styles too.
import { css } from '@lit/reactive-element/css-tag.js';

export const styles = css`
  /*
   * A card list holds its cards in screens (see #place in hub-table-grid.ts), stacked in a column; its
   * skeletons in one. Not a grid of screens: a grid with a thousand cards' screens for items cost each
   * frame a pass over all of them (a frame that added a card took 60 ms at 4x CPU with 140 screens). The
   * list holds the columns and the gaps, for a page's ::part(grid) rules too, and its screens take them.
   */
  [part~="grid"] {
    display: flex;
    flex-direction: column;
    grid-template-columns: repeat(auto-fill, minmax(min(100%, var(--hub-card-min-width, 15em)), 1fr));
    gap: var(--_space);
  }

  /*
   * A screen is a grid of whole rows on the list's own columns and gaps, so that the cards line up across
   * screens as in one grid. A screen off screen is not rendered until it scrolls near: with 10,000 tables
   * the first render and a filter change cost a fraction of the time. Until then it has the height of its
   * rows of assumed cards and their gaps; \`auto\` keeps its real height once it has been rendered, so
   * scrolling back never shifts the layout. The first screen is always rendered: a screen that Chromium
   * skips has the assumed height in its first frame and its own in the next, which would move what is
   * below it on screen.
   */
  .screen {
    --_height: calc(var(--_rows) * (var(--hub-card-height, 88px) + var(--_space)));
    display: grid;
    grid-template-columns: inherit;
    gap: inherit;
  }

  .screen + .screen {
    content-visibility: auto;
    contain-intrinsic-size: auto var(--_height);
  }

  /*
   * Each card of those screens too: Chromium renders a screen new to it in its first frame, before it
   * knows the screen is off screen, and its cards then cost boxes of the assumed height, not their layout.
   */
  .screen + .screen > * {
    content-visibility: auto;
    contain-intrinsic-size: auto var(--hub-card-height, 88px);
  }

  /* The divider before the tables the service added to fill its limit: a label, then a rule. */
  [part~="more"] {
    display: flex;
    align-items: center;
    gap: var(--_space);
    margin: var(--_space) 0;
    color: var(--_muted);
  }

  [part~="more"]::after {
    content: "";
    flex: 1;
    border-top: 1px solid var(--_border);
  }

  /*
   * Reloading with tables shown: the old cards stay readable at full contrast (faded text fails WCAG's
   * 4.5:1) and say they are about to change by an accent rule above them, under the count line. Not on the
   * list: its screens inherit from it explicitly, so that any change to the list's own style restyles and
   * lays out every screen again (4.3 ms with 140 screens, against 0.4 ms, at full CPU speed).
   */
  [part~="count"]:has(~ [aria-busy="true"]) {
    box-shadow: 0 2px 0 var(--_accent);
  }

  [part~="skeleton"] {
    color: transparent;
    height: 88px;
    border-radius: var(--_radius);
    background: var(--_surface);
  }

  [part~="count"],
  [part~="empty"] {
    color: var(--_muted);
    margin: var(--_space) 0;
  }
`;
