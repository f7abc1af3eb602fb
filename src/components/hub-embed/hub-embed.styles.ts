import { unsafeCSS } from 'lit';

// A constant string, not the css`` tag: see shared.styles.ts.
export const styles = unsafeCSS(
  `:host{color-scheme:light dark}:host([theme=light]){color-scheme:light}:host([theme=dark]){color-scheme:dark}:host,[part~=dialog]{background:var(--_bg)}[part~=body]{display:grid;gap:var(--_s)}[part~=error]{display:flex;flex-wrap:wrap;align-items:center;gap:var(--_s);margin-bottom:var(--_s)}[part~=dialog]{width:min(100vw - 2em,56em);height:min(100vh - 2em,56em);padding:0;color:inherit;border:1px solid var(--_border);border-radius:var(--_r)}[part~=dialog]::backdrop{background:rgb(0 0 0/.5)}[part~=dialog] [part~=frame]{height:100%}`,
);
