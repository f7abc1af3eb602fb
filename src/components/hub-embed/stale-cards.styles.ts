import { css } from '../form-half-imports.js';

/**
 * Cards that stay up under an error (offline: a list that did not come, until the browser is back online)
 * are stale: shown grey, with the error after them in the flow, where its coming moves none of them, and
 * held at the box's bottom edge over them. Added to <hub-embed>'s shadow root with the later half, which
 * loads after hub-ready: the first file carries none of it, and cards only stay up after a list came.
 */
export const styles = css`
  [part~="body"] > [part~="error"] {
    position: sticky;
    bottom: 0;
    background: var(--_bg);
  }

  [part~="body"]:has(> [part~="error"]) hub-table-grid {
    filter: grayscale(1);
  }
`;
