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

  :host {
    background: var(--_bg);
  }

  [part~="body"] {
    display: grid;
    gap: var(--_space);
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
