// Lit's css tag from its own module, which touches no DOM: the server's first view reads these styles too.
import { css } from '@lit/reactive-element/css-tag.js';

export const styles = css`
  /*
   * The toolbar scrolls, and a scroll container clips what lies beyond its padding: the padding is the
   * focus ring's reach (4 px, shared.styles.ts), and each chip's scroll-margin keeps that room when focus
   * scrolls it into view.
   */
  [part~="toolbar"] {
    display: flex;
    flex-wrap: wrap;
    gap: calc(var(--_space) / 2);
    overflow: auto;
    max-height: var(--hub-tags-max-height, 8.5em);
    padding: 4px;
    /* Firefox draws an element's scrollbar light in a dark shadow tree; named colours follow the theme. */
    scrollbar-color: var(--_border) transparent;
  }

  [part~="chip"] {
    /* The ring's 4 px and 2 to spare: Chromium's scroll on focus stops short of the margin by 1.4 px. */
    scroll-margin: 6px;
    overflow: hidden;
    white-space: nowrap;
    text-overflow: ellipsis;
    border-radius: 99px;
  }

  [part~="chip-pressed"] {
    border-color: var(--_accent);
    background: var(--_accent);
    color: var(--_on-accent);
  }
`;
