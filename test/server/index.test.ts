import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as server from '../../src/server/index.js';
import type { ServerClient, ServerClientOptions } from '../../src/server/index.js';
// The type check (npm test runs tsc over test/) fails once the server exports the browser core's name again.
// @ts-expect-error WebClient is the browser core's class; the server's client type is ServerClient.
import type { WebClient } from '../../src/server/index.js';

describe('hub-embed/server entry', () => {
  it('exports the three pieces, the adapter, the typed errors and the amount helpers', () => {
    for (const name of [
      'createServerClient',
      'createTokenHandler',
      'createWebhookHandler',
      'createMemoryTokenCache',
      'toNodeListener',
      'HubApiError',
      'HubAuthError',
      'HubPoolInsufficientError',
      'parseYuanToCents',
      'formatCentsAsYuan',
      'NOTIFICATION_EVENTS',
      'createRejectionLogger',
    ]) {
      expect(typeof (server as Record<string, unknown>)[name], name).not.toBe('undefined');
    }
    // Each name has one home: the core's errors are hub-embed/core's, and the limits are the modules' own.
    for (const name of ['HubError', 'isHubError', 'MAX_ANSWER_BYTES', 'MAX_TOKEN_LIFETIME_SECONDS'])
      expect(name in server, name).toBe(false);
  });

  it("names its client type ServerClient, not the browser core's WebClient", () => {
    const options: ServerClientOptions = { apiKey: 'sk-test', baseUrl: 'https://hub.example.com' };
    const client: ServerClient = server.createServerClient(options);
    const notExported: WebClient | undefined = undefined;
    expect(String(client)).toBe('ServerClient(https://hub.example.com/api/v1/hub)');
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
