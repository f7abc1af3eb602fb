// Loads the form half of <hub-embed> (later-half.ts: form-opener.ts, and what else waits for the first
// screen) once, on the first sign of intent or after hub-ready. In the ES
// builds this is a dynamic import, which a page's bundler turns into a chunk of its own. The <script>
// builds swap this module for form-opener-loader.script.ts (build/script-form-loader.ts), which loads the same
// module as a classic script with its integrity.
import { HubError } from '../../core/errors.js';

export type FormOpenerModule = typeof import('./later-half.js');

let loading: Promise<FormOpenerModule> | undefined;
let loaded: FormOpenerModule | undefined;

/** The form half once it is in, else undefined: for what waits for it in the middle of an event (a key). */
export const formHalf = (): FormOpenerModule | undefined => loaded;

/**
 * The form half; a failed load is forgotten, so that the next intent or a retry tries again. `priority`
 * is for the <script> builds' fetch: a dynamic import takes none.
 */
export function loadFormOpener(_priority?: 'low'): Promise<FormOpenerModule> {
  loading ??= import('./later-half.js').then(
    (half) => (loaded = half),
    (cause: unknown) => {
      loading = undefined;
      throw new HubError('network', 'The form code did not load; check the connection and retry.', { cause });
    },
  );
  return loading;
}
