import { PUBLISHED_TAGS } from '../../core/paths.js';
import { apiBaseUrl } from '../../core/urls.js';
import { HubError } from '../form-half-imports.js';
import { lowercasedAttributesError } from './lowercased-attributes.js';

/** What the explanation reads of <hub-embed>: the address the failed load asked. */
interface FailedElement extends HTMLElement {
  readonly baseUrl: string;
}

/** How long the check of the address may take: a service that answers at all answers this unauthorised GET fast. */
const CHECK_MS = 5000;
/**
 * The check's tries, a second apart: a connection that a bad network dropped once is not a wrong address,
 * which refuses every try. A setup error offers no Retry, so one dropped check must not make one.
 */
const TRIES = 2;
const PAUSE_MS = 1000;

/**
 * The error to show for a failed load, as the later half tells it (explainError loads it, once a load
 * failed). A refused setting: as lowercasedAttributesError explains it, where it can. A request to the
 * service that got no answer, or an answer that was not what the service sends, while the browser says it
 * is online: base-url is asked once more (twice, a second apart, while nothing answers), without a token
 * (a GET the service answers with its JSON envelope, a 401 included). The service's envelope there means the address is right and the failure was
 * the network's or the service's: the error stands, with its Retry. Anything else is the page's setup,
 * not the user's network, and a Retry cannot mend it: a 'config' error naming the URL and the fix, which
 * the console shows and the user sees as a setup error. docs/elements.md ("What it says, and why") states
 * the rule. Offline, or any other error, stands as it is.
 */
export async function explainFailure(error: HubError, element: FailedElement): Promise<HubError> {
  if (error.kind === 'config') return lowercasedAttributesError(element) ?? error;
  const fromService = error.kind === 'network' || error.kind === 'api' || error.kind === 'invalid-response';
  if (!fromService || !navigator.onLine) return error;
  // The address the load used; a base-url refused outright was a 'config' error above.
  const url = `${apiBaseUrl(element.baseUrl, 'base-url')}/projects/${PUBLISHED_TAGS}`;
  let answer: Response | undefined;
  let cause: unknown;
  for (let tried = 0; tried < TRIES && !answer; tried++) {
    if (tried) await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    answer = await fetch(url, { credentials: 'omit', signal: AbortSignal.timeout(CHECK_MS) }).catch(
      (failure: unknown) => {
        cause = failure;
        return undefined;
      },
    );
  }
  if (!answer)
    return new HubError(
      'config',
      `base-url gets no answer this page can read at ${url}: check its host, port and scheme, and that the ` +
        "service allows this page's origin (CORS).",
      { cause },
    );
  const type = answer.headers.get('content-type') ?? 'no content type';
  if (isEnvelope(await answer.text().catch(() => ''))) return error;
  return new HubError(
    'config',
    `base-url is not the service's address: ${url} answered ${answer.status} (${type}), not the service's JSON. ` +
      "Set base-url to the service's address, like https://hub.example.com/api/v1/apihub.",
    { status: answer.status, cause: error },
  );
}

/** The service's `{code, message, data}`, recognised by a numeric `code`, as core/http.ts's readAnswer does. */
function isEnvelope(text: string): boolean {
  try {
    const body = JSON.parse(text) as unknown;
    return typeof body === 'object' && body !== null && typeof (body as { code?: unknown }).code === 'number';
  } catch {
    return false;
  }
}
