// #region tokens
// lib/hub-tokens.ts, in src: the token route's handler, which the pages with a first view share
import { createServerClient, createTokenHandler } from 'hub-embed/server';

const client = createServerClient({ apiKey: process.env.HUB_API_KEY!, baseUrl: process.env.HUB_BASE_URL! });
export const hubTokens = createTokenHandler({
  client,
  // Your session's user id (null when signed out); a fixed user stands in for the app's session here.
  resolveClientUserId: async () => 'user-alice',
  // The first lists come with the token, and renderFirstView draws a page's first view from the same fetch.
  prefetch: { cacheMs: 60_000 },
});
// #endregion tokens
