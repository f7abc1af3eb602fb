// Loads the form half of <hub-embed> (form-opener.ts) once, on the first sign of intent. In the ES
// builds this is a dynamic import, which a page's bundler turns into a chunk of its own. The <script>
// builds swap this module for form-opener-loader.script.ts (build/script-form-loader.ts), which loads the same
// module as a classic script with its integrity.
import { HubError } from '../../core/errors.js';

export type FormOpenerModule = typeof import('./form-opener.js');

let loading: Promise<FormOpenerModule> | undefined;

/**
 * The form half; a failed load is forgotten, so that the next intent or a retry tries again. `priority`
 * is for the <script> builds' fetch: a dynamic import takes none.
 */
export function loadFormOpener(_priority?: 'low'): Promise<FormOpenerModule> {
  loading ??= import('./form-opener.js').catch((cause: unknown) => {
    loading = undefined;
    throw new HubError('network', 'The form code did not load; check the connection and retry.', { cause });
  });
  return loading;
}
