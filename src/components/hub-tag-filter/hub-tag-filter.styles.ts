import { css } from 'lit';

export const styles = css`
  [part~="toolbar"] {
    display: flex;
    flex-wrap: wrap;
    gap: calc(var(--_space) / 2);
    overflow: auto;
    max-height: var(--hub-tags-max-height, 8.5em);
    padding: 2px;
  }

  [part~="chip"] {
    overflow: hidden;
    white-space: nowrap;
    text-overflow: ellipsis;
    border-radius: 99px;
  }

  [part~="chip-pressed"] {
    border-color: var(--_accent);
    background: var(--_accent);
    color: var(--_on-accent);
  }
`;
