// The README's token route, with a fixed user in place of the app's session.
import { createServerClient, createTokenHandler } from 'hub-embed/server';

const client = createServerClient({ apiKey: process.env.HUB_API_KEY!, baseUrl: process.env.HUB_BASE_URL! });
export const POST = createTokenHandler({ client, resolveClientUserId: async () => 'user-alice' });
