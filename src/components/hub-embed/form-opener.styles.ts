import { css } from '../form-half-imports.js';

/** The dialog of the modal mode, added to <hub-embed>'s shadow root when the form half arrives. */
export const styles = css`
  [part~="dialog"] {
    width: min(100vw - 2em, 56em);
    height: min(100vh - 2em, 56em);
    padding: 0;
    color: inherit;
    background: var(--_bg);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
  }

  [part~="dialog"]::backdrop {
    background: rgb(0 0 0/0.5);
  }

  [part~="dialog"] [part~="frame"] {
    height: 100%;
  }

  /* The dialog's size is its own: a form page's reported height does not resize it. */
  [part~="dialog"] [part~="frame"]::part(iframe) {
    height: 100%;
  }
`;
