import { css } from '../hub-embed/form-half-imports.js';

export const styles = css`
  /*
   * The loading and error states lie over the page's place, not above it: when the page loads, nothing
   * moves (no layout shift).
   */
  :host {
    display: grid;
    grid-template: auto 1fr/100%;
    min-height: var(--hub-frame-min-height, 480px);
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
    height: 100%;
    border: 0;
  }
`;
