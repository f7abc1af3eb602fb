import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as server from '../../src/server/index.js';

describe('hub-embed/server entry', () => {
  it('exports the three pieces, the adapter, the typed errors and the amount helpers', () => {
    for (const name of [
      'createHubClient',
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
    ]) {
      expect(typeof (server as Record<string, unknown>)[name], name).not.toBe('undefined');
    }
  });

  it('never imports the elements, the bridge or the simulator', () => {
    const dir = fileURLToPath(new URL('../../src/server/', import.meta.url));
    for (const file of readdirSync(dir)) {
      const source = readFileSync(dir + file, 'utf8');
      expect(source, file).not.toMatch(/from '\.\.\/(components|bridge|mock)\//);
    }
  });
});
