// #region token-route
// pages/api/hub-token.ts, in src
import type { APIRoute } from 'astro';
import { createServerClient, createTokenHandler } from 'hub-embed/server';

const client = createServerClient({ apiKey: process.env.HUB_API_KEY!, baseUrl: process.env.HUB_BASE_URL! });
const handler = createTokenHandler({
  client,
  // Your session's user id (null when signed out); a fixed user stands in for the app's session here.
  resolveClientUserId: async () => 'user-alice',
});

export const POST: APIRoute = ({ request }) => handler(request);
// #endregion token-route
