import { css } from 'lit';

export const styles = css`
  /*
   * A block a screen tall from the first frame, whatever it shows (loading, the tables, an error): the
   * page's content below stays off screen until the user scrolls to it, and never moves while the
   * widget loads, draws, filters or retries. A page sets its own min-height on the element to change it.
   */
  :host {
    display: block;
    min-height: 100vh;
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
