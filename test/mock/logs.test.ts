import { describe, expect, it } from 'vitest';
import { DEFAULT_LOG_LIMIT } from '../../packages/hub-embed-mock/src/ring.js';
import { call, newHub } from './helpers.js';

describe('the request log and the delivery log are bounded rings', () => {
  it('past logLimit the oldest requests go; the newest are kept in order', async () => {
    const hub = newHub({ logLimit: 3 });
    for (const path of ['/a', '/b', '/c', '/d', '/e']) await call(hub, 'GET', path);
    expect(hub.requestLog.map((e) => e.path)).toEqual(['/c', '/d', '/e']);
  });

  it(`the default keeps ${DEFAULT_LOG_LIMIT} requests`, async () => {
    const hub = newHub();
    for (let i = 0; i <= DEFAULT_LOG_LIMIT; i++) await call(hub, 'GET', `/n${i}`);
    expect(hub.requestLog).toHaveLength(DEFAULT_LOG_LIMIT);
    expect(hub.requestLog[0]!.path).toBe('/n1');
  });

  it('past logLimit the oldest webhook deliveries go', async () => {
    // Port 1 on loopback refuses connections: each delivery is a real network-error outcome.
    const hub = newHub({ logLimit: 2 });
    hub.setWebhooks([{ notification_url: 'http://127.0.0.1:1/hook' }]);
    for (const title of ['one', 'two', 'three'])
      await hub.triggerNotification({ event: 'enterprise_authorization_pending', title, content: 'x' });
    expect(hub.deliveries.map((d) => d.body.notification?.title)).toEqual(['two', 'three']);
    expect(hub.deliveries.map((d) => d.id)).toEqual([2, 3]);
  });

  it('logLimit must be a positive integer', () => {
    for (const bad of [0, -1, 1.5, Number.NaN, '10'])
      expect(() => newHub({ logLimit: bad as number }), String(bad)).toThrow(/logLimit must be a positive integer/);
  });
});
