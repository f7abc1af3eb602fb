// Your server's token route for the app (docs/react-native.md, "The token route for an app"). The app
// calls it with its own session, a bearer token it got at sign-in; the route never reads a user id from
// the request. Run by test/native-hosts/react-native-day-one.test.ts against the simulator.
// #region token-route
import { createServerClient, createTokenHandler, type TokenHandler } from 'hub-embed/server';

export interface AppTokenRouteOptions {
  apiKey: string;
  baseUrl: string;
  /** Your session store: the user a bearer token of your app belongs to, or null (signed out, revoked). */
  userForSession(sessionToken: string): string | null | Promise<string | null>;
}

/**
 * `POST` with `Authorization: Bearer <the app's session token>` and the body the component passes on
 * (`{reason, previous}`). No `allowedOrigins`: a native fetch sends no Origin, and an Origin check guards
 * a browser's cookies, which this route does not read. Keep the browser's cookie route a separate route.
 */
export function createAppTokenRoute({ apiKey, baseUrl, userForSession }: AppTokenRouteOptions): TokenHandler {
  return createTokenHandler({
    client: createServerClient({ apiKey, baseUrl }),
    resolveClientUserId: async (request) => {
      const bearer = /^Bearer ([\w.~+/-]{16,512}=*)$/.exec(request.headers.get('authorization') ?? '');
      return bearer ? userForSession(bearer[1]!) : null;
    },
  });
}
// #endregion token-route
