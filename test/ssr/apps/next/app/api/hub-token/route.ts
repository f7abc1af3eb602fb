// #region token-route
// app/api/hub-token/route.ts
import { createServerClient, createTokenHandler } from 'hub-embed/server';

const client = createServerClient({ apiKey: process.env.HUB_API_KEY!, baseUrl: process.env.HUB_BASE_URL! });
export const POST = createTokenHandler({
  client,
  // Your session's user id (null when signed out); a fixed user stands in for the app's session here.
  resolveClientUserId: async () => 'user-alice',
});
// #endregion token-route
