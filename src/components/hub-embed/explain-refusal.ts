// How a refused setting is shown: explained by the form half where it can be. A module of its own, so that
// the connection (which the form half uses) does not import the form half's loader.
import { HubError } from '../../core/errors.js';
import { loadFormOpener } from './form-opener-loader.js';

/**
 * The error to show for `error`, a refused setting or another: a refused setting ('config') as the form
 * half explains it where it can (a server-rendered React tag whose properties arrived as lowercased
 * attributes, lowercased-attributes.ts), any other error as it is. Only a refusal is checked: settings that
 * work are never refused for what else the tag holds. The explanation loads with the form half, only once a
 * setting is refused, in every build; a half that cannot load lets the refusal's own error stand.
 */
export function explainRefusal(error: unknown, element: HTMLElement): unknown {
  return error instanceof HubError && error.kind === 'config'
    ? loadFormOpener().then(
        (half) => half.lowercasedAttributesError(element) ?? error,
        () => error,
      )
    : error;
}
