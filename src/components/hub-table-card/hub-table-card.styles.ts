// Lit's css tag from its own module, which touches no DOM: the server's first view reads these styles too.
import { css } from '@lit/reactive-element/css-tag.js';

export const styles = css`
  [part~="card"] {
    display: grid;
    grid-template: auto auto 1fr/40px minmax(0, 1fr);
    gap: 2px var(--_space);
    height: 100%;
    box-sizing: border-box;
    padding: var(--_space);
    cursor: pointer;
    overflow-wrap: anywhere;
    background: var(--_bg);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
  }

  [part~="card"]:hover {
    border-color: var(--_accent);
  }

  [part~="card"][aria-busy="true"] {
    cursor: progress;
    border-color: var(--_accent);
  }

  /*
   * The ring is drawn over the card's own edge, not outside it: in the grid each card has
   * content-visibility: auto, whose paint containment clips anything drawn beyond the card.
   */
  [part~="card"]:focus-visible {
    outline-offset: -2px;
  }

  [part~="icon"] {
    height: 40px;
    border-radius: calc(var(--_radius) / 2);
    grid-row: span 3;
    width: 40px;
    object-fit: cover;
  }

  [part~="icon-placeholder"] {
    display: grid;
    place-items: center;
    color: var(--_muted);
    font-weight: 600;
    background: var(--_surface);
  }

  [part~="name"] {
    display: -webkit-box;
    font-weight: 600;
    overflow: hidden;
    -webkit-box-orient: vertical;
    -webkit-line-clamp: 2;
  }

  [part~="industry"] {
    color: var(--_muted);
  }

  [part~="tags"] {
    display: flex;
    flex-wrap: wrap;
    align-content: start;
    gap: 4px;
  }

  [part~="tag"] {
    overflow: hidden;
    white-space: nowrap;
    text-overflow: ellipsis;
    border-radius: 99px;
    padding: 0 6px;
    font-size: 0.85em;
    background: var(--_surface);
  }
`;
