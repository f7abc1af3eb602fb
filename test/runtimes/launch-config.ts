// What every launcher reads from its environment: the simulators' addresses and the key, and on runtimes
// where node-redis runs (Node, Bun, Deno), a Redis token cache when REDIS_URL is set.
import type { ContractConfig } from './contract-app.js';

export async function contractConfig(env: (name: string) => string | undefined): Promise<ContractConfig> {
  const config: ContractConfig = {
    apiKey: env('HUB_API_KEY') ?? '',
    baseUrl: env('HUB_BASE_URL') ?? '',
    slowBaseUrl: env('HUB_SLOW_BASE_URL') ?? '',
  };
  const redisUrl = env('REDIS_URL');
  if (redisUrl) {
    const { createClient } = await import('redis');
    const { createRedisTokenCache } = await import('hub-embed/server/redis');
    const redis = createClient({ url: redisUrl, disableOfflineQueue: true });
    redis.on('error', (error: Error) => console.warn('redis:', error.message));
    await redis.connect();
    config.cache = createRedisTokenCache({ client: redis });
  }
  return config;
}
