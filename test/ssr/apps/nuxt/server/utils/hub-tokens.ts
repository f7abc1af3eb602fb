// #region tokens
// server/utils/hub-tokens.ts: the token route's handler, made once from the runtime config, which the pages
// with a first view share
import { createServerClient, createTokenHandler, type TokenHandler } from 'hub-embed/server';

let handler: TokenHandler | undefined;

export function hubTokens(): TokenHandler {
  const config = useRuntimeConfig();
  handler ??= createTokenHandler({
    client: createServerClient({ apiKey: config.hubApiKey, baseUrl: config.public.hubBaseUrl }),
    // Your session's user id (null when signed out); a fixed user stands in for the app's session here.
    resolveClientUserId: async () => 'user-alice',
    // The first lists come with the token, and renderFirstView draws a page's first view from the same fetch.
    prefetch: { cacheMs: 60_000 },
  });
  return handler;
}
// #endregion tokens
