// Lit's css tag from its own module, which touches no DOM: the server's first view reads these styles too.
import { css } from '@lit/reactive-element/css-tag.js';

/**
 * Public `--hub-*` tokens read into private `--_*` ones. Colors use light-dark(), so the host's
 * color-scheme (set by <hub-embed theme>) picks the palette and inner elements follow it.
 */
export const shared = css`
  :host {
    --_fg: var(--hub-color-text, light-dark(#1f2328, #e6edf3));
    --_muted: var(--hub-color-muted, light-dark(#59636e, #9198a1));
    --_bg: var(--hub-color-bg, light-dark(#fff, #0d1117));
    --_surface: var(--hub-color-surface, light-dark(#f6f8fa, #161b22));
    --_border: var(--hub-color-border, light-dark(#d1d9e0, #3d444d));
    --_accent: var(--hub-color-accent, light-dark(#0969da, #4493f8));
    --_on-accent: var(--hub-color-on-accent, light-dark(#fff, #0d1117));
    --_danger: var(--hub-color-danger, light-dark(#cf222e, #f85149));
    --_radius: var(--hub-radius, 8px);
    --_space: var(--hub-space, 8px);
    display: block;
    color: var(--_fg);
    font: var(--hub-font, 14px/1.4 system-ui, sans-serif);
  }

  [hidden] {
    display: none !important;
  }

  button {
    font: inherit;
    color: inherit;
    cursor: pointer;
    max-width: 100%;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_surface);
    padding: calc(var(--_space) / 2) var(--_space);
  }

  /* It reaches 4 px beyond the control: a scroll container around controls leaves that much room. */
  :focus-visible {
    outline: 2px solid var(--_accent);
    outline-offset: 2px;
  }

  /*
   * Forced colours (Windows' contrast themes) paint every chip alike and every border and ring in the
   * text's colour: a pressed chip takes the system's colours of a selection, and the focus ring and an
   * opening card's border the system's accent. One block for every element, as the palette is.
   */
  @media (forced-colors: active) {
    [part~="chip-pressed"] {
      forced-color-adjust: none;
      border-color: Highlight;
      background: Highlight;
      color: HighlightText;
    }

    :focus-visible {
      outline-color: Highlight;
    }

    [part~="card"][aria-busy="true"] {
      border-color: Highlight;
    }
  }

  [role="alert"] {
    color: var(--_danger);
  }
`;
