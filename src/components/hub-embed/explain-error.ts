// How a failed load is shown: explained by the later half where it can be. A module of its own, so that
// the connection (which the form half uses) does not import the form half's loader.
import { HubError } from '../../core/errors.js';
import { loadFormOpener } from './form-opener-loader.js';

/**
 * The error to show for `error`: as the later half explains it (explain-failure.ts), where it can. A
 * refused setting ('config') always goes there (a server-rendered React tag's lowercased attributes); any
 * other error only while the service has not yet `answered` these settings, when a wrong base-url is told
 * apart from a network that failed. An error after the service answered is the network's or the service's,
 * and shows as it is, at once. The explanation loads with the later half, only once an error needs it, in
 * every build; a half that cannot load (offline) lets the error stand.
 */
export function explainError(error: unknown, element: HTMLElement & { baseUrl: string }, answered?: boolean): unknown {
  return error instanceof HubError && (error.kind === 'config' || !answered)
    ? loadFormOpener().then(
        (half) => half.explainFailure(error, element),
        () => error,
      )
    : error;
}
