import type { WrongBackend } from './harness.js';

/** The body's `event` decides, whatever X-Webhook-Event says. */
export const backend: WrongBackend = {
  mistake: 'the event read from the body, not checked against X-Webhook-Event',
  fails: ['receiver.wrong-event-header-changes-nothing'],
  parts: { eventOf: (_req, event) => (typeof event?.event === 'string' ? event.event : undefined) },
};
