import { describe, expect, it } from 'vitest';
import { FORM_SITE_ROOT, NOTIFICATION_LINK_VECTORS } from '../fixtures/notification-links.js';
import { call, newHub } from './helpers.js';

/** Port 1 on loopback refuses connections: each delivery is recorded with the body it carried. */
function hubWithReceiver() {
  const hub = newHub({ formUrl: FORM_SITE_ROOT });
  hub.setWebhooks([{ notification_url: 'http://127.0.0.1:1/hook' }]);
  return hub;
}

const notification = (linkUrl: string) => ({
  event: 'order_matched',
  shortCode: 'k3Xp9a',
  clientUserId: 'u',
  title: 't',
  content: 'c',
  linkUrl,
});

describe('the simulator sends link_url by the toolkit rules (shared vectors)', () => {
  const sent = NOTIFICATION_LINK_VECTORS.filter((v) => v.simulator === 'sent');
  const refused = NOTIFICATION_LINK_VECTORS.filter((v) => v.simulator === 'refused');

  it.each(sent.map((v) => [v.name, v]))('sends %s as it was given', async (_, v) => {
    const hub = hubWithReceiver();
    await hub.triggerNotification(notification(v.linkUrl));
    expect(hub.deliveries.map((d) => d.body.notification?.link_url)).toEqual([v.linkUrl]);
  });

  it.each(refused.map((v) => [v.name, v]))(
    'refuses %s with 400 (dot segments in any spelling, a token in any spelling, foreign links) and sends nothing',
    async (_, v) => {
      const hub = hubWithReceiver();
      await expect(hub.triggerNotification(notification(v.linkUrl))).rejects.toMatchObject({ status: 400 });
      const viaConsole = await call(hub, 'POST', '/console/notifications', {
        json: { event: 'order_matched', short_code: 'k3Xp9a', title: 't', content: 'c', link_url: v.linkUrl },
      });
      expect(viaConsole.status).toBe(400);
      expect(hub.deliveries).toHaveLength(0);
    },
  );
});
