import { unsafeCSS } from 'lit';

// A constant string, not the css`` tag: see shared.styles.ts.
export const styles = unsafeCSS(`[part~=toolbar]{display:flex;flex-wrap:wrap;gap:calc(var(--_s)/2);max-height:var(--hub-tags-max-height,8.5em);overflow:auto;padding:2px}[part~=chip]{overflow:hidden;white-space:nowrap;text-overflow:ellipsis;border-radius:99px}[part~=chip-pressed]{background:var(--_accent);border-color:var(--_accent);color:var(--_on-accent)}`);
