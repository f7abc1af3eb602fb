import { unsafeCSS } from 'lit';

// A constant string, not the css`` tag: see shared.styles.ts.
export const styles = unsafeCSS(
  `[part~=grid]{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,var(--hub-card-min-width,15em)),1fr));gap:var(--_s)}[aria-busy=true]{opacity:.55}[part~=skeleton]{height:88px;border-radius:var(--_r);background:var(--_surface)}[part~=count],[part~=empty]{color:var(--_muted);margin:var(--_s) 0}`,
);
