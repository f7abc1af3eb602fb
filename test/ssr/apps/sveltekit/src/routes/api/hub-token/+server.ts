// #region token-route
// src/routes/api/hub-token/+server.ts
import { HUB_API_KEY, HUB_BASE_URL } from '$app/env/private';
import { createServerClient, createTokenHandler } from 'hub-embed/server';
import type { RequestHandler } from './$types';

const client = createServerClient({ apiKey: HUB_API_KEY, baseUrl: HUB_BASE_URL });
const handler = createTokenHandler({
  client,
  // Your session's user id (null when signed out); a fixed user stands in for the app's session here.
  resolveClientUserId: async () => 'user-alice',
});

export const POST: RequestHandler = ({ request }) => handler(request);
// #endregion token-route
