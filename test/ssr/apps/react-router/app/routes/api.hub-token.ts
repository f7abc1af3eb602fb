// #region token-route
// app/routes/api.hub-token.ts, with route('api/hub-token', 'routes/api.hub-token.ts') in app/routes.ts
import { createServerClient, createTokenHandler } from 'hub-embed/server';
import type { Route } from './+types/api.hub-token';

const client = createServerClient({ apiKey: process.env.HUB_API_KEY!, baseUrl: process.env.HUB_BASE_URL! });
const handler = createTokenHandler({
  client,
  // Your session's user id (null when signed out); a fixed user stands in for the app's session here.
  resolveClientUserId: async () => 'user-alice',
});

export const action = ({ request }: Route.ActionArgs) => handler(request);
// #endregion token-route
