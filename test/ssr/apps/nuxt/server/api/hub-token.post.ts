// The README's token route on Nuxt's server (h3), with a fixed user in place of the app's session.
import { createServerClient, createTokenHandler } from 'hub-embed/server';

export default defineEventHandler((event) => {
  const config = useRuntimeConfig(event);
  const client = createServerClient({ apiKey: config.hubApiKey, baseUrl: config.public.hubBaseUrl });
  return createTokenHandler({ client, resolveClientUserId: async () => 'user-alice' })(toWebRequest(event));
});
