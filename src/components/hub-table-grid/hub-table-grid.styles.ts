import { css } from 'lit';

export const styles = css`
  [part~="grid"] {
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(min(100%, var(--hub-card-min-width, 15em)), 1fr));
    gap: var(--_space);
  }

  /*
   * Cards off screen are not rendered until they scroll near: with 10,000 tables the first render and
   * a filter change cost a fraction of the time. \`auto\` keeps a card's real height once it has been
   * rendered, so scrolling back never shifts the layout. A screenful is always rendered: a new card
   * that Chromium skips has the assumed height in its first frame and its own in the next, which
   * would move the cards below it on screen.
   */
  [part~="grid"] > :nth-child(n+49) {
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
   * 4.5:1) and say they are about to change by an accent rule above them. Nothing the cards inherit
   * changes (a progress cursor would): toggling it restyles the list alone, not each of its cards.
   */
  [part~="grid"][aria-busy="true"] {
    box-shadow: 0 -2px 0 var(--_accent);
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
