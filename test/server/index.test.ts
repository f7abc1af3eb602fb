import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as server from '../../src/server/index.js';
import type { ServiceClient, ServiceClientOptions } from '../../src/server/index.js';
// The type check (npm test runs tsc over test/) fails once the server exports the browser core's name again.
// @ts-expect-error HubClient is the browser core's class; the server's client type is ServiceClient.
import type { HubClient } from '../../src/server/index.js';

describe('hub-embed/server entry', () => {
  it('exports the three pieces, the adapter, the typed errors and the amount helpers', () => {
    for (const name of [
      'createServiceClient',
      'createTokenHandler',
      'createWebhookHandler',
      'createMemoryTokenCache',
      'toNodeListener',
      'HubApiError',
      'HubAuthError',
      'HubPoolInsufficientError',
      'HubError',
      'isHubError',
      'parseYuanToCents',
      'formatCentsAsYuan',
      'NOTIFICATION_EVENTS',
      'createRejectionLogger',
      'MAX_ANSWER_BYTES',
      'MAX_TOKEN_LIFETIME_SECONDS',
    ]) {
      expect(typeof (server as Record<string, unknown>)[name], name).not.toBe('undefined');
    }
  });

  it("names its client type ServiceClient, not the browser core's HubClient", () => {
    const options: ServiceClientOptions = { apiKey: 'sk-test', baseUrl: 'https://hub.example.com' };
    const client: ServiceClient = server.createServiceClient(options);
    const notExported: HubClient | undefined = undefined;
    expect(String(client)).toBe('ServiceClient(https://hub.example.com)');
    expect(notExported).toBeUndefined();
  });

  it('never imports the elements, the bridge or the simulator', () => {
    const dir = fileURLToPath(new URL('../../src/server/', import.meta.url));
    for (const file of readdirSync(dir)) {
      const source = readFileSync(dir + file, 'utf8');
      expect(source, file).not.toMatch(/from '\.\.\/(components|bridge|mock)\//);
    }
  });
});
