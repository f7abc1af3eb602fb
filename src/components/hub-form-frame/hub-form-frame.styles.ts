import { css } from '../hub-embed/form-half-imports.js';

export const styles = css`
  :host {
    display: flex;
    flex-flow: column;
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
  [part~="error"] {
    padding: var(--_space);
  }

  [part~="iframe"] {
    flex: 1;
    width: 100%;
    border: 0;
  }
`;
