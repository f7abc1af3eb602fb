// #region token-route
// server/api/hub-token.post.ts
import { createServerClient, createTokenHandler } from 'hub-embed/server';

export default defineEventHandler((event) => {
  const config = useRuntimeConfig(event);
  const client = createServerClient({ apiKey: config.hubApiKey, baseUrl: config.public.hubBaseUrl });
  return createTokenHandler({
    client,
    // Your session's user id (null when signed out); a fixed user stands in for the app's session here.
    resolveClientUserId: async () => 'user-alice',
  })(toWebRequest(event));
});
// #endregion token-route
