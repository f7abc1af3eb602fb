import { css } from 'lit';

export const styles = css`
  [part~="grid"] {
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(min(100%, var(--hub-card-min-width, 15em)), 1fr));
    gap: var(--_space);
  }

  [aria-busy="true"] {
    opacity: 0.55;
  }

  [part~="skeleton"] {
    height: 88px;
    border-radius: var(--_radius);
    background: var(--_surface);
  }

  [part~="count"],
  [part~="empty"] {
    color: var(--_muted);
    margin: var(--_space) 0;
  }
`;
