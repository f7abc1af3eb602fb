import { css } from 'lit';

export const styles = css`
  [part~='card'] {
    display: grid;
    grid-template: auto auto 1fr / 40px minmax(0, 1fr);
    gap: 2px var(--_s);
    height: 100%;
    box-sizing: border-box;
    padding: var(--_s);
    cursor: pointer;
    overflow-wrap: anywhere;
    background: var(--_bg);
    border: 1px solid var(--_border);
    border-radius: var(--_r);
  }
  [part~='card']:hover {
    border-color: var(--_accent);
  }
  [part~='icon'] {
    grid-row: span 3;
    width: 40px;
    height: 40px;
    border-radius: calc(var(--_r) / 2);
    object-fit: cover;
  }
  [part~='icon-placeholder'] {
    display: grid;
    place-items: center;
    background: var(--_surface);
    color: var(--_muted);
    font-weight: 600;
  }
  [part~='name'] {
    font-weight: 600;
    display: -webkit-box;
    -webkit-line-clamp: 2;
    -webkit-box-orient: vertical;
    overflow: hidden;
  }
  [part~='industry'] {
    color: var(--_muted);
  }
  [part~='tags'] {
    display: flex;
    flex-wrap: wrap;
    gap: 4px;
    min-width: 0;
  }
  [part~='tag'] {
    max-width: 100%;
    overflow: hidden;
    white-space: nowrap;
    text-overflow: ellipsis;
    padding: 0 6px;
    font-size: 0.85em;
    border-radius: 99px;
    background: var(--_surface);
  }
`;
