import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSimulator, type RunningSimulator } from '../../packages/hub-embed-mock/src/node.js';
import { createServerClient } from '../../src/server/server-client.js';
import { toNodeListener } from '../../src/server/node.js';
import { createWebhookHandler, type WebhookHandlerOptions } from '../../src/server/webhook-handler.js';
import type { BillingDeductEvent, BillingRefundEvent, NotificationEvent } from '../../src/server/webhook-events.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((close) => close()));
});

/** A real simulator on loopback ports delivering to a real receiver built from these pieces. */
async function wire(options: Omit<WebhookHandlerOptions, 'allowIps'> & { allowIps?: string[] }) {
  const running: RunningSimulator = await startSimulator();
  cleanups.push(running.close);
  const receiver: Server = createServer(
    toNodeListener(
      createWebhookHandler({
        allowIps: ['127.0.0.1', '::1'],
        onRejected: () => {},
        ...(options.onBillingRefund === undefined && { refunds: 'decline' as const }),
        ...options,
      }),
    ),
  );
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise((resolve) => {
        receiver.close(() => resolve());
        receiver.closeAllConnections();
      }),
  );
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  running.hub.setWebhooks([{ notification_url: url, billing_url: url }]);
  const client = createServerClient({ apiKey: running.apiKey, baseUrl: running.baseUrl });
  return { running, hub: running.hub, client };
}

/** The paid action on the simulator's form page, as its own page script posts it. */
async function payOnForm(running: RunningSimulator, token: string, shortCode: string) {
  const response = await fetch(`${running.formUrl}/${shortCode}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({ token, action: 'charge' }),
  });
  return response;
}

describe('the webhook receiver with the simulator delivering over real sockets', () => {
  it('a paid action on the form page sends billing_deduct; ok:true charges and the points log shows deduct', async () => {
    const seen: BillingDeductEvent[] = [];
    const { running, hub, client } = await wire({ onBillingDeduct: (event) => (seen.push(event), true) });
    const { accessToken } = await client.exchangeToken('user-alice');
    await payOnForm(running, accessToken, 'k3Xp9a');
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      amountCents: 500,
      amount: '5.00',
      clientUserId: 'user-alice',
      shortCode: 'k3Xp9a',
      timestampOffsetMinutes: 480,
    });
    expect(hub.deliveries.at(-1)).toMatchObject({
      event: 'billing_deduct',
      outcome: 'delivered',
      status: 200,
      ok: true,
    });
    expect((await client.logs('user-alice', { pageSize: 1 })).list[0]).toMatchObject({ recordType: 'deduct' });
  });

  it('a declined charge (false) answers ok:false and the points log shows failed', async () => {
    const { running, hub, client } = await wire({ onBillingDeduct: () => false });
    const { accessToken } = await client.exchangeToken('user-bob');
    await payOnForm(running, accessToken, 'Zq7m2L');
    expect(hub.deliveries.at(-1)).toMatchObject({ event: 'billing_deduct', status: 200, ok: false });
    expect((await client.logs('user-bob', { pageSize: 1 })).list[0]).toMatchObject({ recordType: 'failed' });
  });

  it("a notification arrives typed (204) and its link opens the form site with the user's token", async () => {
    const seen: NotificationEvent[] = [];
    const { hub, client } = await wire({
      onBillingDeduct: () => true,
      onNotification: (event) => void seen.push(event),
    });
    await hub.triggerNotification({
      event: 'order_grabbed',
      clientUserId: 'user-alice',
      shortCode: 'k3Xp9a',
      title: '抢单成功 <b>',
      content: 'Line\u2028two 🙂',
      linkUrl: '/k3Xp9a?tab=orders',
    });
    expect(hub.deliveries.at(-1)).toMatchObject({ event: 'order_grabbed', outcome: 'delivered', status: 204 });
    const event = seen[0]!;
    expect(event.notification).toEqual({
      title: '抢单成功 <b>',
      content: 'Line\u2028two 🙂',
      linkUrl: '/k3Xp9a?tab=orders',
    });
    const { accessToken } = await client.exchangeToken(event.clientUserId!);
    const link = event.link(accessToken, hub.formUrl);
    expect(link).toBe(`${hub.formUrl}/k3Xp9a?tab=orders&token=${encodeURIComponent(accessToken)}`);
    expect((await fetch(link)).status).toBe(200);
  });

  it('a refund arrives as billing_refund with integer cents and is answered 200', async () => {
    const refunds: BillingRefundEvent[] = [];
    const { running, hub, client } = await wire({
      onBillingDeduct: () => true,
      onBillingRefund: (event) => void refunds.push(event),
    });
    const { accessToken } = await client.exchangeToken('user-alice');
    await payOnForm(running, accessToken, 'hW4t8s');
    const deduct = (await client.logs('user-alice', { pageSize: 1 })).list[0]!;
    await hub.triggerRefund({ clientUserId: 'user-alice', logId: deduct.id });
    expect(refunds[0]).toMatchObject({ amountCents: 200, clientUserId: 'user-alice' });
    expect(hub.deliveries.at(-1)).toMatchObject({ event: 'billing_refund', status: 200 });
  });

  it('a receiver whose allow-list omits the simulator answers 403 and the charge fails', async () => {
    const { running, hub, client } = await wire({ allowIps: ['203.0.113.7'], onBillingDeduct: () => true });
    const { accessToken } = await client.exchangeToken('user-alice');
    await payOnForm(running, accessToken, 'k3Xp9a');
    expect(hub.deliveries.at(-1)).toMatchObject({ event: 'billing_deduct', status: 403 });
    expect((await client.logs('user-alice', { pageSize: 1 })).list[0]).toMatchObject({ recordType: 'failed' });
  });
});
