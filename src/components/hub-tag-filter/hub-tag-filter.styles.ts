import { unsafeCSS } from 'lit';

// A constant string, not the css`` tag: see shared.styles.ts.
export const styles = unsafeCSS(
  `[part~=toolbar]{display:flex;flex-wrap:wrap;gap:calc(var(--_s)/2);overflow:auto;max-height:var(--hub-tags-max-height,8.5em);padding:2px}[part~=chip]{overflow:hidden;white-space:nowrap;text-overflow:ellipsis;border-radius:99px}[part~=chip-pressed]{border-color:var(--_accent);background:var(--_accent);color:var(--_on-accent)}`,
);
