/** The app's typed handlers as bridge methods: their arguments and results checked, one getToken call at a time. */
import type { AccessToken } from '../core/types.js';
import { isAccessToken, isRecord } from '../core/http.js';
import { BridgeError } from '../bridge/protocol.js';
import type { TokenReason } from '../core/token-source.js';
import type { HostHandlers, MethodHandler, TokenRequest } from './types.js';

/**
 * The page's `auth.getToken` params as the app's handler gets them: core's TokenSource reasons, and the
 * token being replaced. Pages before 0.2 said `expired` for both later reasons; it reads as `expiring`.
 */
function tokenRequest(params: unknown): TokenRequest {
  const given = isRecord(params) ? params : {};
  const reason: TokenReason =
    given.reason === 'unauthorized'
      ? 'unauthorized'
      : given.reason === 'expiring' || given.reason === 'expired'
        ? 'expiring'
        : 'initial';
  // A token is a short opaque string; anything else is not passed on to the app's server.
  const previous =
    reason !== 'initial' && typeof given.previous === 'string' && given.previous.length <= 4096
      ? given.previous
      : undefined;
  return { reason, ...(previous && { previous }) };
}

/**
 * `auth.getToken` and `form.open`, each present only while the app supplies its handler: read at each
 * look-up, so a handler the app adds later (a getToken once a session is restored) is there for the next hello.
 */
export function typedMethods(handlers: HostHandlers): Record<string, MethodHandler | undefined> {
  let tokenCall: Promise<AccessToken> | undefined;

  /** Single flight: the page may ask from several widgets or retries at once; the app's server is asked once. */
  function token(params: unknown): Promise<AccessToken> {
    tokenCall ??= Promise.resolve()
      .then(() => handlers.getToken!(tokenRequest(params)))
      .then((result) => {
        if (!isAccessToken(result))
          throw new BridgeError('E_INTERNAL', 'getToken must give {access_token, expires_in}');
        return { access_token: result.access_token, expires_in: result.expires_in };
      })
      .finally(() => (tokenCall = undefined));
    return tokenCall;
  }

  async function openForm(params: unknown): Promise<{ handled: boolean }> {
    if (!isRecord(params) || typeof params.url !== 'string' || typeof params.shortCode !== 'string') {
      throw new BridgeError('E_DENIED', 'form.open needs {url, shortCode}');
    }
    const handled = await handlers.openForm!({ url: params.url, shortCode: params.shortCode });
    return { handled: handled === true };
  }

  const getToken: MethodHandler = (params) => token(params);
  const formOpen: MethodHandler = (params) => openForm(params);
  return {
    get 'auth.getToken'() {
      return handlers.getToken && getToken;
    },
    get 'form.open'() {
      return handlers.openForm && formOpen;
    },
  };
}
