import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createSimulator } from '../../packages/hub-embed-mock/src/hub.js';
import { nodeWebhookSender } from '../../packages/hub-embed-mock/src/node-sender.js';
import * as mock from '../../packages/hub-embed-mock/src/index.js';
import { ALL_EVENTS, eventsOfKind, kindOf } from '../../packages/hub-embed-mock/src/webhooks.js';
import * as server from '../../src/server/index.js';
import { NOTIFICATION_EVENTS } from '../../src/server/webhook-events.js';
import type { SimulatorOptions } from '../../packages/hub-embed-mock/src/types.js';
import { DOCUMENTED_WEBHOOK_TIMESTAMP, WEBHOOK_TIMESTAMP_SHAPE } from '../fixtures/service-examples.js';
import { T0 } from './helpers.js';

interface Hit {
  name: string;
  headers: IncomingMessage['headers'];
  body: any;
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (s) =>
        new Promise<void>((r) => {
          s.close(() => r());
          s.closeAllConnections();
        }),
    ),
  );
});

/** A real receiver on loopback that records every hit in arrival order. */
async function receiver(
  name: string,
  hits: Hit[],
  answer: (res: import('node:http').ServerResponse) => void,
): Promise<string> {
  const server = createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      hits.push({ name, headers: req.headers, body: JSON.parse(data) });
      answer(res);
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
}

/** A port that refuses connections: bound once, then closed. */
async function closedPort(): Promise<string> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return `http://127.0.0.1:${port}/hook`;
}

function hubWith(options: SimulatorOptions = {}) {
  const hub = createSimulator({ webhookSender: nodeWebhookSender, ...options });
  hub.clock.set(T0);
  return hub;
}

const ok200 = (res: import('node:http').ServerResponse) => res.writeHead(200).end();

/** A simulator whose one notification URL is a receiver answering 200; `hits` is what it received. */
async function notifiedHub() {
  const hits: Hit[] = [];
  const hub = hubWith();
  hub.setWebhooks([{ notification_url: await receiver('a', hits, ok200) }]);
  return { hub, hits };
}

describe('webhook dispatch (Events)', () => {
  it('POSTs JSON with Content-Type, X-Webhook-Event and X-Webhook-Timestamp (Unix seconds)', async () => {
    const hits: Hit[] = [];
    const url = await receiver('a', hits, ok200);
    const hub = hubWith();
    hub.setWebhooks([{ notification_url: url }]);
    await hub.triggerNotification({
      event: 'order_matched',
      clientUserId: 'user-alice',
      shortCode: 'k3Xp9a',
      title: 'Matched',
      content: 'Your order matched',
    });
    expect(hits).toHaveLength(1);
    expect(hits[0]!.headers['content-type']).toBe('application/json');
    expect(hits[0]!.headers['x-webhook-event']).toBe('order_matched');
    expect(hits[0]!.headers['x-webhook-timestamp']).toBe(String(T0 / 1000));
  });

  it('common body fields: event, timestamp (+08:00), short_code, project_icon_url, target.client_user_id, plus notification', async () => {
    const { hub, hits } = await notifiedHub();
    await hub.triggerNotification({
      event: 'order_grabbed',
      clientUserId: 'user-alice',
      shortCode: 'promo 2026/秋 ✨?#%+',
      title: 'T',
      content: 'C',
    });
    expect(hits[0]!.body).toEqual({
      event: 'order_grabbed',
      timestamp: '2026-11-21T10:00:00+08:00',
      short_code: 'promo 2026/秋 ✨?#%+',
      project_icon_url: `${hub.baseUrl}/static/icons/retail.png`,
      target: { client_user_id: 'user-alice' },
      notification: { title: 'T', content: 'C', link_url: `/${encodeURIComponent('promo 2026/秋 ✨?#%+')}` },
    });
  });

  it('timestamp has the documented shape (2026-04-08T23:30:00+08:00): seconds, +08:00, Beijing wall time', async () => {
    expect(DOCUMENTED_WEBHOOK_TIMESTAMP).toMatch(WEBHOOK_TIMESTAMP_SHAPE);
    const { hub, hits } = await notifiedHub();
    // The documented instant: 15:30 UTC is 23:30 in Beijing.
    hub.clock.set(Date.parse(DOCUMENTED_WEBHOOK_TIMESTAMP) + 456);
    await hub.triggerNotification({
      event: 'order_matched',
      clientUserId: 'user-alice',
      shortCode: 'k3Xp9a',
      title: 'T',
      content: 'C',
    });
    const { timestamp } = hits[0]!.body as { timestamp: string };
    expect(timestamp).toMatch(WEBHOOK_TIMESTAMP_SHAPE);
    expect(timestamp).toBe(DOCUMENTED_WEBHOOK_TIMESTAMP);
  });

  it('enterprise events may have an empty short_code and a null icon and target', async () => {
    const { hub, hits } = await notifiedHub();
    await hub.triggerNotification({
      event: 'enterprise_authorization_pending',
      title: 'T',
      content: 'C',
      linkUrl: '/enterprise/approve?id=1',
    });
    expect(hits[0]!.body).toMatchObject({
      short_code: '',
      project_icon_url: null,
      target: { client_user_id: null },
      notification: { link_url: '/enterprise/approve?id=1' },
    });
  });

  it('every notification event of the spec can be triggered', async () => {
    const { hub, hits } = await notifiedHub();
    for (const event of NOTIFICATION_EVENTS)
      await hub.triggerNotification({ event, clientUserId: 'u', shortCode: 'k3Xp9a', title: 't', content: 'c' });
    expect(hits.map((h) => h.body.event)).toEqual([...NOTIFICATION_EVENTS]);
  });

  it("NOTIFICATION_EVENTS has one definition, the toolkit's: the simulator sends those events and exports no list of its own", async () => {
    expect(eventsOfKind('notification')).toEqual([...NOTIFICATION_EVENTS]);
    expect(ALL_EVENTS).toEqual([...NOTIFICATION_EVENTS, 'billing_deduct', 'billing_refund']);
    expect(ALL_EVENTS.map(kindOf)).toEqual([...NOTIFICATION_EVENTS.map(() => 'notification'), 'billing', 'billing']);
    expect(server.NOTIFICATION_EVENTS).toBe(NOTIFICATION_EVENTS);
    expect(mock).not.toHaveProperty('NOTIFICATION_EVENTS');
    expect(mock).not.toHaveProperty('BILLING_EVENTS');
  });

  it('link_url must be an in-site path without domain or token', async () => {
    const hub = hubWith();
    for (const linkUrl of [
      'https://evil.example/x',
      '//evil.example',
      'javascript:alert(1)',
      '/x?token=abc',
      'relative',
      '/a\nb',
    ]) {
      await expect(
        hub.triggerNotification({ event: 'order_matched', shortCode: 'k3Xp9a', title: 't', content: 'c', linkUrl }),
      ).rejects.toMatchObject({ status: 400 });
    }
    expect(hub.deliveries).toHaveLength(0);
  });

  it('several matching configurations: each is called once, in order', async () => {
    const hits: Hit[] = [];
    const slowFirst = await receiver('first', hits, (res) => setTimeout(() => res.writeHead(200).end(), 30));
    const second = await receiver('second', hits, ok200);
    const billingOnly = await receiver('billing', hits, ok200);
    const hub = hubWith();
    hub.setWebhooks([
      { notification_url: slowFirst },
      { billing_url: billingOnly },
      { notification_url: second, billing_url: billingOnly },
    ]);
    await hub.triggerNotification({
      event: 'order_created',
      clientUserId: 'u',
      shortCode: 'k3Xp9a',
      title: 't',
      content: 'c',
    });
    expect(hits.map((h) => h.name)).toEqual(['first', 'second']);
    expect(hub.deliveries.map((d) => d.outcome)).toEqual(['delivered', 'delivered']);
  });

  it('a configuration with an events list only receives those events', async () => {
    const hits: Hit[] = [];
    const hub = hubWith();
    hub.setWebhooks([{ notification_url: await receiver('a', hits, ok200), events: ['order_grabbed'] }]);
    await hub.triggerNotification({ event: 'order_created', shortCode: 'k3Xp9a', title: 't', content: 'c' });
    await hub.triggerNotification({ event: 'order_grabbed', shortCode: 'k3Xp9a', title: 't', content: 'c' });
    expect(hits.map((h) => h.body.event)).toEqual(['order_grabbed']);
  });

  it('a slow receiver past the (shortened) timeout is tried once, recorded as timeout, never retried', async () => {
    const hits: Hit[] = [];
    const slow = await receiver('slow', hits, (res) => setTimeout(() => res.writeHead(200).end(), 1500));
    const hub = hubWith({ webhookTimeoutMs: 100 });
    hub.setWebhooks([{ notification_url: slow }]);
    const { deliveries } = await hub.triggerNotification({
      event: 'order_created',
      shortCode: 'k3Xp9a',
      title: 't',
      content: 'c',
    });
    expect(deliveries).toEqual([expect.objectContaining({ outcome: 'timeout', url: slow })]);
    await new Promise((r) => setTimeout(r, 200));
    expect(hits).toHaveLength(1);
    expect(hub.deliveries).toHaveLength(1);
  });

  it('a receiver answering 500 is tried once, recorded as rejected with its status, never retried', async () => {
    const hits: Hit[] = [];
    const hub = hubWith();
    hub.setWebhooks([{ notification_url: await receiver('a', hits, (res) => res.writeHead(500).end('boom')) }]);
    const { deliveries } = await hub.triggerNotification({
      event: 'order_created',
      shortCode: 'k3Xp9a',
      title: 't',
      content: 'c',
    });
    expect(deliveries).toEqual([expect.objectContaining({ outcome: 'rejected', status: 500 })]);
    expect(hits).toHaveLength(1);
  });

  it('a receiver refusing connections is recorded as a network error and the next one is still called', async () => {
    const hits: Hit[] = [];
    const refused = await closedPort();
    const hub = hubWith();
    hub.setWebhooks([{ notification_url: refused }, { notification_url: await receiver('after', hits, ok200) }]);
    const { deliveries } = await hub.triggerNotification({
      event: 'order_created',
      shortCode: 'k3Xp9a',
      title: 't',
      content: 'c',
    });
    expect(deliveries.map((d) => d.outcome)).toEqual(['network-error', 'delivered']);
    expect(deliveries[0]!.error).toBeTruthy();
    expect(hits.map((h) => h.name)).toEqual(['after']);
  });

  it('the portable fetch sender records outcomes the same way', async () => {
    const hits: Hit[] = [];
    const url = await receiver('a', hits, (res) => res.writeHead(503).end());
    const hub = createSimulator({ fetch: globalThis.fetch });
    hub.setWebhooks([{ notification_url: url }, { notification_url: await closedPort() }]);
    const { deliveries } = await hub.triggerNotification({
      event: 'order_created',
      shortCode: 'k3Xp9a',
      title: 't',
      content: 'c',
    });
    expect(deliveries.map((d) => [d.outcome, d.status])).toEqual([
      ['rejected', 503],
      ['network-error', undefined],
    ]);
  });

  it('billing_refund: goes to the billing URL with the billing object, and a refund record returns the points', async () => {
    const hits: Hit[] = [];
    const hub = hubWith();
    const token = await (async () => {
      const res = await hub.handleApi(
        new Request(`${hub.baseUrl}/api/v1/hub/apikeys/token`, {
          method: 'POST',
          headers: { 'X-API-Key': hub.apiKey, 'Content-Type': 'application/json' },
          body: '{"client_user_id":"user-alice"}',
        }),
      );
      return (await res.json()).data.access_token as string;
    })();
    const charge = await hub.handleForm(
      new Request(`${hub.formUrl}/k3Xp9a`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
        body: new URLSearchParams({ token, action: 'charge' }).toString(),
      }),
    );
    const { logId } = (await charge.json()).data;
    hub.setWebhooks([{ billing_url: await receiver('b', hits, ok200) }]);
    const { record, deliveries } = await hub.triggerRefund({
      clientUserId: 'user-alice',
      logId,
      reason: 'Complaint upheld',
    });
    expect(record).toMatchObject({
      source: 'billing',
      record_type: 'refund',
      change_cents: 500,
      balance_after: 5000,
      short_code: 'k3Xp9a',
      reason: 'Complaint upheld',
    });
    expect(deliveries).toHaveLength(1);
    expect(hits[0]!.headers['x-webhook-event']).toBe('billing_refund');
    expect(hits[0]!.body).toMatchObject({
      event: 'billing_refund',
      short_code: 'k3Xp9a',
      target: { client_user_id: 'user-alice' },
      billing: { amount: '5.00', reason: 'Complaint upheld' },
    });
    await expect(hub.triggerRefund({ clientUserId: 'user-alice', logId })).rejects.toMatchObject({ status: 409 });
    expect(hub.ledger().balanced).toBe(true);
  });
});
