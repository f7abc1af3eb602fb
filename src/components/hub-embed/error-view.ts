import { html, nothing } from 'lit';
import type { HubError, HubErrorKind } from '../../core/errors.js';
import { fill, type WidgetStrings } from '../strings.js';

/**
 * The error in the grid's place. A config error names what to fix, and a signed-out user (`unauthorized`)
 * is told so: neither offers a retry, which cannot help until the page changes or the user signs in. The
 * texts are read as what they are, a table that lacks some kinds (`invalid-response` and `aborted` show
 * `api`'s), so the type says which kinds have words of their own.
 */
export function renderError({ kind, message }: HubError, t: WidgetStrings, retry: () => void) {
  return html`
    <div part="error" role="alert">
      ${kind === 'config' ? fill(t.config, message) : ((t as Partial<Record<HubErrorKind, string>>)[kind] ?? t.api)}
      ${kind === 'config' || kind === 'unauthorized' ? nothing : html`<button part="retry" @click=${retry}>${t.retry}</button>`}
    </div>
  `;
}
