import { css } from 'lit';

export const styles = css`
  :host {
    color-scheme: light dark;
  }

  :host([theme="light"]) {
    color-scheme: light;
  }

  :host([theme="dark"]) {
    color-scheme: dark;
  }

  :host,
  [part~="dialog"] {
    background: var(--_bg);
  }

  [part~="body"] {
    display: grid;
    gap: var(--_space);
  }

  [part~="error"] {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: var(--_space);
    margin-bottom: var(--_space);
  }

  [part~="dialog"] {
    width: min(100vw - 2em, 56em);
    height: min(100vh - 2em, 56em);
    padding: 0;
    color: inherit;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
  }

  [part~="dialog"]::backdrop {
    background: rgb(0 0 0/0.5);
  }

  [part~="dialog"] [part~="frame"] {
    height: 100%;
  }
`;
