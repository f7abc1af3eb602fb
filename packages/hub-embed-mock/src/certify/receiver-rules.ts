/**
 * The webhook receiver's rules (the spec's Events section and docs/server.md), each graded by what the
 * receiver answered and by what its ledger shows afterwards through the balance hook: a black box in any
 * language tells the grader nothing else about what it charged.
 */
import { isLoopbackAddress } from '../../../../src/core/loopback.js';
import { buildNotificationLink } from '../../../../src/core/token-links.js';
// The headers the toolkit's receiver cross-checks, each sent here naming the service's address.
import { CLIENT_ADDRESS_HEADERS } from '../../../../src/server/client-address-headers.js';
import { undocumentedAnswer } from '../documented-answers.js';
import { centsToYuan, isoBeijing } from '../http.js';
import type { Simulator, WebhookDelivery } from '../types.js';
import { eventsOfKind, OUTBOUND_IPS } from '../webhooks.js';
import { collidingId, STRING_HASHES } from './collisions.js';
import { check, NotConfigured, type Answer, type Rule } from './grading.js';
import { exchangesSeen, stringsIn, tokenOwner } from './observe.js';
import { earlierSimulatorToken } from './token-rules.js';
import { brief, describeAnswer, okOf, probe, rawProbe, statusOf, type ProbeAnswer } from './probe.js';

export interface ReceiverContext {
  hub: Simulator;
  receiverUrl: string;
  /** The end user the deliveries target (the first session's user). */
  user: string;
  /** The user's balance in the receiver's own ledger, in cents (the balance hook). */
  balance(): Promise<number>;
  /** The JSON of the links hook, where the receiver shows the links it built; undefined when not given. */
  links: (() => Promise<unknown>) | undefined;
  shortCode: string;
  /** The service's overall webhook timeout (10 s by the spec). */
  deliveryTimeoutMs: number;
  /** An address on no allow-list, on this machine (127.0.0.2). */
  strangerAddress: string;
  /** Every answer the receiver gave, for the rules graded over all answers. */
  answers: Answer[];
  /** A fresh marker, so no two bodies the grader sends are equal. */
  nonce(): string;
  /** Makes an end user known to the service (one exchange with the key), as any user of the service is. */
  makeKnown(user: string): Promise<void>;
}

type Note = (line: string) => void;

/** The receiver's answer to a delivery of the simulator is one openapi.json documents for the event. */
function checkDocumented(delivery: WebhookDelivery): void {
  const undocumented = undocumentedAnswer(delivery.event, delivery.status, delivery.responseBody ?? '');
  check(undocumented === undefined, undocumented ?? '');
}

function deliveryLine(delivery: WebhookDelivery | undefined): string {
  if (!delivery) return 'no delivery was made (is the receiver URL configured?)';
  const answered =
    delivery.status === undefined
      ? `${delivery.outcome}: ${delivery.error ?? ''}`
      : `${delivery.status} ${delivery.responseBody ?? ''}`;
  return `${delivery.event} ${JSON.stringify(delivery.body.billing ?? delivery.body.notification ?? {})} -> ${answered.slice(0, 160)} (${delivery.durationMs} ms)`;
}

async function trigger(
  context: ReceiverContext,
  note: Note,
  input: { event: string } & Record<string, unknown>,
): Promise<WebhookDelivery> {
  const result = await context.hub.trigger({ clientUserId: context.user, shortCode: context.shortCode, ...input });
  const [delivery] = result.deliveries;
  note(`simulator sent ${deliveryLine(delivery)}`);
  check(delivery, 'the simulator made no delivery');
  context.answers.push(answerOf(delivery));
  return delivery;
}

function answerOf(delivery: WebhookDelivery): Answer {
  return {
    part: 'receiver',
    event: delivery.event,
    status: delivery.status,
    headers: {},
    body: delivery.responseBody ?? '',
    ms: delivery.durationMs,
  };
}

async function resend(context: ReceiverContext, note: Note, original: WebhookDelivery): Promise<WebhookDelivery> {
  const delivery = await context.hub.resend(original.id);
  note(`simulator sent the same body again: ${deliveryLine(delivery)}`);
  context.answers.push(answerOf(delivery));
  return delivery;
}

/** A delivery body as the service writes it, for the grader's own sends. */
function body(context: ReceiverContext, event: string, extra: Record<string, unknown>): Record<string, unknown> {
  return {
    event,
    timestamp: isoBeijing(context.hub.clock.now()),
    short_code: context.shortCode,
    project_icon_url: null,
    target: { client_user_id: context.user },
    ...extra,
  };
}

function billing(context: ReceiverContext, amount: string): { billing: { amount: string; reason: string } } {
  return { billing: { amount, reason: `certify ${context.nonce()}` } };
}

interface SendOptions {
  eventHeader: string;
  localAddress?: string;
  headers?: Record<string, string>;
  lastByteAtMs?: number;
  timeoutMs?: number;
}

/** The grader's own delivery, from an address and with headers of its choosing. */
async function send(context: ReceiverContext, note: Note, payload: string, options: SendOptions): Promise<ProbeAnswer> {
  const answer = await probe(context.receiverUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-webhook-event': options.eventHeader,
      'x-webhook-timestamp': String(Math.floor(context.hub.clock.now() / 1000)),
      ...options.headers,
    },
    body: payload,
    ...(options.localAddress ? { localAddress: options.localAddress } : {}),
    ...(options.lastByteAtMs === undefined ? {} : { lastByteAtMs: options.lastByteAtMs }),
    timeoutMs: options.timeoutMs ?? context.deliveryTimeoutMs,
  });
  context.answers.push({ ...answer, part: 'receiver', event: options.eventHeader });
  const shown = payload.length > 200 ? `${payload.slice(0, 120)}… (${payload.length} bytes)` : payload;
  const headers = Object.entries(options.headers ?? {});
  // Many headers of one value (the client-address ones) are listed once, with the value once.
  const extra =
    headers.length > 3
      ? ` ${headers.map(([name]) => name).join(', ')} (each naming ${headers[0]![1]})`
      : headers.map(([name, value]) => ` ${name}: ${value}`).join('');
  note(
    `sent${options.localAddress ? ` from ${options.localAddress}` : ''} X-Webhook-Event: ${options.eventHeader}${extra} ${shown} -> ${describeAnswer(answer)}`,
  );
  return answer;
}

/** Runs `act` and checks the receiver's balance did not move (after a moment for work still running). */
async function unchanged(context: ReceiverContext, note: Note, act: () => Promise<void>): Promise<void> {
  const before = await context.balance();
  await act();
  await new Promise((resolve) => setTimeout(resolve, 200));
  const after = await context.balance();
  note(`balance ${before} -> ${after} cents`);
  check(after === before, `the balance changed from ${before} to ${after} cents`);
}

async function changedBy(context: ReceiverContext, note: Note, cents: number, act: () => Promise<void>): Promise<void> {
  const before = await context.balance();
  await act();
  const after = await context.balance();
  note(`balance ${before} -> ${after} cents`);
  check(after - before === cents, `the balance changed by ${after - before} cents, not ${cents}`);
}

const spoofOf = (name: string) => (name === 'forwarded' ? 'for=127.0.0.1' : '127.0.0.1');

const CONCURRENT_DEDUCTS = 20;

/** The `X-Webhook-Timestamp` the service sends, one second on: a later delivery of the same body. */
const secondLater = (context: ReceiverContext) => String(Math.floor(context.hub.clock.now() / 1000) + 1);

/** Not "yuan, two decimals, above zero": a sign, a space, an exponent, other digits (fullwidth), a third decimal. */
const BAD_AMOUNTS = ['1.5', '0.00', '1e3', '-5.00', '+0.01', ' 0.01', '0.01 ', '\uff11.00', '0.010', '0x10'];

const notOkTrue = (answer: ProbeAnswer, what: string) =>
  check(okOf(answer) !== true, `${what} was answered ok: true (a charge the service believes was made)`);

/**
 * Addresses whose text begins with an allowed one's (127.0.0.10 and 127.0.0.100 for 127.0.0.1): an
 * allow-list matched by prefix lets them in. Loopback only, so the grader can send from each.
 */
export function prefixStrangers(allowed: readonly string[] = OUTBOUND_IPS): string[] {
  const out: string[] = [];
  for (const ip of allowed) {
    if (ip.includes(':') || !isLoopbackAddress(ip)) continue;
    for (const more of ['0', '9', '00', '99']) {
      const candidate = `${ip}${more}`;
      if (Number(candidate.split('.')[3]) <= 255 && !allowed.includes(candidate)) out.push(candidate);
    }
  }
  return out;
}

/** Amounts whose cents a binary float gets wrong: x * 100 is just below the whole number (0.29 -> 28.999…). */
const FLOAT_TRAPS = ['0.29', '0.57', '1.13', '4.35'];

/** How many other events a replay follows: more than a short "recent events" list holds. */
const REPLAY_AFTER = 200;

/** How long a backend may take to exchange a token for a notification's link after answering it. */
const EXCHANGE_WAIT_MS = 10_000;

async function exchangedFor(context: ReceiverContext, user: string, before: number): Promise<boolean> {
  const deadline = performance.now() + EXCHANGE_WAIT_MS;
  for (;;) {
    if (exchangesSeen(context.hub).filter((seen) => seen === user).length > before) return true;
    if (performance.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const countFor = (context: ReceiverContext, user: string) =>
  exchangesSeen(context.hub).filter((seen) => seen === user).length;

/** Gives back what a rule's wrong charges took, so the rules after it have the balance they need. */
async function giveBack(context: ReceiverContext, note: Note, before: number): Promise<void> {
  const after = await context.balance();
  if (after >= before) return;
  const refund = await send(
    context,
    note,
    JSON.stringify(body(context, 'billing_refund', billing(context, centsToYuan(before - after)))),
    { eventHeader: 'billing_refund' },
  );
  note(`refunded ${before - after} cents -> ${statusOf(refund)}`);
}

export const LEDGER_RULES: Rule<ReceiverContext>[] = [
  {
    id: 'receiver.address-prefix-not-allowed',
    title:
      'A delivery from an address that begins with an allowed one (127.0.0.10, 127.0.0.100 for 127.0.0.1) gets 403 and changes nothing',
    async run(context, note) {
      await unchanged(context, note, async () => {
        for (const address of prefixStrangers()) {
          const payload = JSON.stringify(body(context, 'billing_deduct', billing(context, '0.01')));
          const answer = await send(context, note, payload, { eventHeader: 'billing_deduct', localAddress: address });
          check(
            answer.status === 403,
            `a delivery from ${address} was answered ${statusOf(answer)}, not 403: the allow-list matches addresses by their start`,
          );
        }
      });
    },
  },
  {
    id: 'receiver.deduct-insufficient-longer-amount',
    title:
      'A deduct of more than the balance, written with more digits ("100.00" against 19.97), answers {ok: false} and takes nothing',
    async run(context, note) {
      const before = await context.balance();
      // The smallest amount with one more digit of yuan: more than the balance, and before it as text.
      const amount = `1${'0'.repeat(String(Math.floor(Math.max(before, 0) / 100)).length)}.00`;
      try {
        await unchanged(context, note, async () => {
          const delivery = await trigger(context, note, {
            event: 'billing_deduct',
            amount,
            reason: `certify ${context.nonce()}`,
          });
          check(
            okOf({ body: delivery.responseBody ?? '' }) !== true,
            `a deduct of ${amount} against a balance of ${centsToYuan(before)} was answered ok: true (are they compared as text?)`,
          );
        });
      } finally {
        await giveBack(context, note, before);
      }
    },
  },
  {
    id: 'receiver.deduct-unknown-user-refused',
    title: 'A deduct for a user who never paid (no account in the ledger) is refused: {ok: false}',
    async run(context, note) {
      const stranger = `certify-never-paid-${context.nonce()}`;
      await context.makeKnown(stranger);
      await unchanged(context, note, async () => {
        const delivery = await trigger(context, note, {
          event: 'billing_deduct',
          clientUserId: stranger,
          amount: '0.01',
          reason: `certify ${context.nonce()}`,
        });
        check(
          okOf({ body: delivery.responseBody ?? '' }) !== true,
          `a deduct for ${stranger}, who never paid, was answered ok: true`,
        );
      });
    },
  },
  {
    id: 'receiver.distinct-timestamps-both-charged',
    title:
      'Two deducts whose bodies differ only in timestamp (the same paid action twice, a second apart) are both charged',
    async run(context, note) {
      const reason = `certify ${context.nonce()}`;
      const now = context.hub.clock.now();
      await changedBy(context, note, -2, async () => {
        for (const at of [now, now + 1000]) {
          const payload = JSON.stringify({
            ...body(context, 'billing_deduct', { billing: { amount: '0.01', reason } }),
            timestamp: isoBeijing(at),
          });
          const answer = await send(context, note, payload, {
            eventHeader: 'billing_deduct',
            headers: { 'x-webhook-timestamp': String(Math.floor(at / 1000)) },
          });
          check(
            okOf(answer) === true,
            `the deduct of ${isoBeijing(at)} was answered ${statusOf(answer)} ${brief(answer.body, 60)}, not ok: true: two events taken for one`,
          );
        }
      });
    },
  },
  {
    id: 'receiver.amounts-exact-cents',
    title: `Deducts and refunds of ${FLOAT_TRAPS.join(', ')} take and give back exactly that many cents`,
    async run(context, note) {
      const cents = FLOAT_TRAPS.map((amount) => Number(amount.replace('.', '')));
      const start = await context.balance();
      const total = cents.reduce((sum, value) => sum + value, 0);
      check(start >= total, `the test user's balance is ${start} cents: give them at least ${total} to grade this`);
      const wrong: string[] = [];
      for (const [kind, sign] of [
        ['billing_deduct', -1],
        ['billing_refund', 1],
      ] as const)
        for (const [index, amount] of FLOAT_TRAPS.entries()) {
          const before = await context.balance();
          await trigger(context, note, { event: kind, amount, reason: `certify ${context.nonce()}` });
          const after = await context.balance();
          note(`balance ${before} -> ${after} cents`);
          if (after - before !== sign * cents[index]!)
            wrong.push(
              `${kind === 'billing_deduct' ? 'a deduct' : 'a refund'} of ${amount} moved the balance by ${after - before} cents, not ${sign * cents[index]!}`,
            );
        }
      check(wrong.length === 0, wrong.join('; '));
    },
  },
  {
    id: 'receiver.colliding-users-own-tokens',
    title:
      'Users whose ids collide under common 32-bit hashes (Java hashCode, djb2, sdbm, FNV-1, FNV-1a) get tokens of their own for their links',
    async run(context, note) {
      const prefix = `certify-${context.nonce()}-`;
      const linkUrl = `/${encodeURIComponent(context.shortCode)}`;
      /** A notification for `user`, sent again once if its delivery failed; whether it made an exchange for `user`. */
      const notify = async (user: string, exchange = true) => {
        const before = countFor(context, user);
        let delivery = await trigger(context, note, { event: 'order_matched', clientUserId: user, linkUrl });
        if (delivery.outcome !== 'delivered') delivery = await resend(context, note, delivery);
        check(
          delivery.outcome === 'delivered',
          `the notification for ${user} was answered ${delivery.status ?? delivery.outcome}, not 2xx`,
        );
        return exchange && exchangedFor(context, user, before);
      };
      // The test user's token first, in whatever cache the backend keeps.
      await notify(context.user, false);
      const control = `${prefix}control`;
      if (!(await notify(control)))
        throw new NotConfigured(
          `not graded: a notification for ${control}, a user your backend never saw, made it exchange no token, so whether two users share one cannot be seen`,
        );
      note(`a notification for ${control}, never seen before, made the backend exchange a token for it`);
      // All found before the next is sent: the search takes a moment, and a pause between deliveries could
      // meet a kept-alive connection the backend is closing.
      const twins = STRING_HASHES.flatMap((hash) => {
        const twin = collidingId(hash, context.user, prefix);
        return twin === undefined ? [] : [{ twin, hash: hash.name }];
      });
      const shared: string[] = [];
      for (const { twin, hash } of twins) {
        if (await notify(twin)) note(`${twin} (the ${hash} of ${context.user}): a token exchanged for it`);
        else shared.push(`${twin} (the same ${hash} as ${context.user})`);
      }
      check(
        shared.length === 0,
        `a notification for ${shared.join(', ')} made your backend exchange no token, though one for ${control} did: its link carries a token cached for another user, filed under a 32-bit hash of the id`,
      );
    },
  },
  {
    id: 'receiver.replay-after-window-not-applied',
    title: `A deduct and a refund delivered again after ${REPLAY_AFTER} other events are not applied again`,
    async run(context, note) {
      const start = await context.balance();
      check(
        start >= REPLAY_AFTER + 1,
        `the test user's balance is ${start} cents: give them at least ${REPLAY_AFTER + 1} to grade this`,
      );
      const deduct = JSON.stringify(body(context, 'billing_deduct', billing(context, '0.01')));
      const refund = JSON.stringify(body(context, 'billing_refund', billing(context, '0.01')));
      await send(context, note, deduct, { eventHeader: 'billing_deduct' });
      await send(context, note, refund, { eventHeader: 'billing_refund' });
      const quiet = () => undefined;
      for (let sent = 0; sent < REPLAY_AFTER; sent++)
        await send(context, quiet, JSON.stringify(body(context, 'billing_deduct', billing(context, '0.01'))), {
          eventHeader: 'billing_deduct',
        });
      note(`sent ${REPLAY_AFTER} other deducts of 0.01, each its own event`);
      const later = { 'x-webhook-timestamp': secondLater(context) };
      try {
        for (const [what, payload, eventHeader] of [
          ['refund', refund, 'billing_refund'],
          ['deduct', deduct, 'billing_deduct'],
        ] as const) {
          const before = await context.balance();
          await send(context, note, payload, { eventHeader, headers: later });
          const after = await context.balance();
          note(`balance ${before} -> ${after} cents`);
          check(
            after === before,
            `the ${what} delivered again after ${REPLAY_AFTER} other events moved the balance by ${after - before} cents: it was applied twice`,
          );
        }
      } finally {
        await giveBack(context, note, start);
      }
    },
  },
];

export const RECEIVER_RULES: Rule<ReceiverContext>[] = [
  {
    id: 'receiver.address-not-allowed',
    title: 'A delivery from an address not on the allow-list gets 403 and changes nothing',
    async run(context, note) {
      await unchanged(context, note, async () => {
        const payload = JSON.stringify(body(context, 'billing_deduct', billing(context, '0.01')));
        const answer = await send(context, note, payload, {
          eventHeader: 'billing_deduct',
          localAddress: context.strangerAddress,
        });
        check(answer.status === 403, `answered ${statusOf(answer)}, not 403`);
      });
    },
  },
  {
    id: 'receiver.forwarded-for-not-believed',
    title:
      'Client-address headers (X-Forwarded-For, X-Real-IP, Forwarded, True-Client-IP, CF-Connecting-IP, …) from a peer that is not a trusted proxy are not believed',
    async run(context, note) {
      const deduct = () => JSON.stringify(body(context, 'billing_deduct', billing(context, '0.01')));
      const fromStranger = (headers: Record<string, string> = {}) =>
        send(context, note, deduct(), {
          eventHeader: 'billing_deduct',
          localAddress: context.strangerAddress,
          headers,
        });
      // The same stranger without the headers first: whatever it gets, the headers must not change it.
      const plain = await fromStranger();
      const before = await context.balance();
      const spoofed = await fromStranger(
        Object.fromEntries(CLIENT_ADDRESS_HEADERS.map((name) => [name, spoofOf(name)])),
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      const after = await context.balance();
      note(`balance ${before} -> ${after} cents`);
      if (spoofed.status !== plain.status || after !== before) {
        // Which one: each header alone, so the report names what the receiver reads.
        const believed: string[] = [];
        for (const name of CLIENT_ADDRESS_HEADERS) {
          const alone = await fromStranger({ [name]: spoofOf(name) });
          if (alone.status !== plain.status) believed.push(name);
        }
        const which = believed.length > 0 ? believed.join(', ') : 'the headers together';
        check(
          spoofed.status === plain.status,
          `answered ${statusOf(spoofed)} with the headers and ${statusOf(plain)} without: it believed ${which}`,
        );
      }
      if (plain.status === 403) check(after === before, `the balance changed from ${before} to ${after} cents`);
    },
  },
  {
    id: 'receiver.deduct-ok-true',
    title: 'A deduct the balance covers answers HTTP 200 {ok: true} and takes the amount',
    async run(context, note) {
      await changedBy(context, note, -1, async () => {
        const delivery = await trigger(context, note, {
          event: 'billing_deduct',
          amount: '0.01',
          reason: `certify ${context.nonce()}`,
        });
        check(delivery.status === 200, `answered ${delivery.status ?? delivery.outcome}, not 200`);
        check(delivery.ok === true, 'the answer is not {ok: true}');
        checkDocumented(delivery);
      });
    },
  },
  {
    id: 'receiver.deduct-insufficient-ok-false',
    title: 'A deduct the balance cannot cover answers HTTP 200 {ok: false}, never a non-2xx, and takes nothing',
    async run(context, note) {
      const balance = await context.balance();
      await unchanged(context, note, async () => {
        const amount = centsToYuan(balance + 100);
        const delivery = await trigger(context, note, {
          event: 'billing_deduct',
          amount,
          reason: `certify ${context.nonce()}`,
        });
        check(
          delivery.status === 200,
          `answered ${delivery.status ?? delivery.outcome}, not 200 (the spec: 200 with ok: false)`,
        );
        check(okOf({ body: delivery.responseBody ?? '' }) === false, 'the answer is not {ok: false}');
        checkDocumented(delivery);
      });
    },
  },
  {
    id: 'receiver.deduct-charged-once',
    title: 'The same deduct delivered twice (two configurations, one URL) charges once',
    async run(context, note) {
      await changedBy(context, note, -2, async () => {
        const first = await trigger(context, note, {
          event: 'billing_deduct',
          amount: '0.02',
          reason: `certify ${context.nonce()}`,
        });
        check(
          first.outcome === 'delivered',
          `the first delivery was answered ${first.status ?? first.outcome}, not 2xx`,
        );
        const second = await resend(context, note, first);
        check(
          second.outcome === 'delivered',
          `the second delivery was answered ${second.status ?? second.outcome}, not 2xx`,
        );
        // The next configuration's call may come in the next second: the same body, another timestamp.
        await send(context, note, JSON.stringify(first.body), {
          eventHeader: 'billing_deduct',
          headers: { 'x-webhook-timestamp': secondLater(context) },
        });
      });
    },
  },
  {
    id: 'receiver.refund-given-back-once',
    title: 'A refund is answered 2xx and gives the amount back once, however often it is delivered',
    async run(context, note) {
      await trigger(context, note, { event: 'billing_deduct', amount: '0.03', reason: `certify ${context.nonce()}` });
      await changedBy(context, note, 3, async () => {
        const refund = await trigger(context, note, {
          event: 'billing_refund',
          amount: '0.03',
          reason: `certify ${context.nonce()}`,
        });
        check(refund.outcome === 'delivered', `the refund was answered ${refund.status ?? refund.outcome}, not 2xx`);
        await resend(context, note, refund);
        await send(context, note, JSON.stringify(refund.body), {
          eventHeader: 'billing_refund',
          headers: { 'x-webhook-timestamp': secondLater(context) },
        });
      });
    },
  },
  {
    id: 'receiver.concurrent-deducts-never-overdraw',
    title: `${CONCURRENT_DEDUCTS} deducts of the whole balance at once: one is charged, the rest answered {ok: false}`,
    async run(context, note) {
      const before = await context.balance();
      check(before > 0, `the test user's balance is ${before} cents: give them at least a few cents to grade this`);
      const amount = centsToYuan(before);
      let held = 0;
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      // Every body but its last byte first, then all last bytes together: the deducts meet in the ledger.
      const sends = Array.from({ length: CONCURRENT_DEDUCTS }, () =>
        probe(context.receiverUrl, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-webhook-event': 'billing_deduct',
            'x-webhook-timestamp': String(Math.floor(context.hub.clock.now() / 1000)),
          },
          body: JSON.stringify(body(context, 'billing_deduct', billing(context, amount))),
          release: released,
          onHeld: () => ++held === CONCURRENT_DEDUCTS && release(),
          timeoutMs: context.deliveryTimeoutMs,
        }),
      );
      const timer = setTimeout(release, 2000);
      const answers = await Promise.all(sends);
      clearTimeout(timer);
      context.answers.push(
        ...answers.map((answer) => ({ ...answer, part: 'receiver' as const, event: 'billing_deduct' })),
      );
      const oks = answers.filter((answer) => okOf(answer) === true).length;
      const after = await context.balance();
      note(
        `sent ${CONCURRENT_DEDUCTS} deducts of ${amount} at once -> ${answers.map((answer) => `${statusOf(answer)} ${String(okOf(answer) ?? '?')}`).join(', ')}`,
      );
      note(`balance ${before} -> ${after} cents`);
      // Give it back, as the service would after a complaint, so the next rules (and runs) have a balance.
      if (after < before) {
        const refund = await send(
          context,
          note,
          JSON.stringify(body(context, 'billing_refund', billing(context, centsToYuan(before - after)))),
          { eventHeader: 'billing_refund' },
        );
        note(`refunded ${before - after} cents -> ${statusOf(refund)}`);
      }
      check(oks <= 1, `${oks} of them were answered ok: true: the balance paid for ${oks} times what it holds`);
      check(after >= 0, `the balance went down to ${after} cents`);
      check(
        before - after === oks * before,
        `the balance went from ${before} to ${after} cents with ${oks} answered ok: true`,
      );
      check(oks === 1, 'none was charged, though the balance covered one');
    },
  },
  {
    id: 'receiver.late-answer-not-charged',
    title: 'A deduct whose answer comes after the 10 s timeout counts as not delivered: nothing is charged',
    async run(context, note) {
      await unchanged(context, note, async () => {
        const payload = JSON.stringify(body(context, 'billing_deduct', billing(context, '0.01')));
        // The body's last byte as the service's time runs out: any answer is too late to count.
        await send(context, note, payload, {
          eventHeader: 'billing_deduct',
          lastByteAtMs: context.deliveryTimeoutMs,
          timeoutMs: context.deliveryTimeoutMs + 2000,
        });
      });
    },
  },
  {
    id: 'receiver.malformed-json-changes-nothing',
    title: 'A delivery that is not JSON changes nothing (a deduct is not answered {ok: true})',
    async run(context, note) {
      await unchanged(context, note, async () => {
        const deduct = JSON.stringify(body(context, 'billing_deduct', billing(context, '0.01')));
        notOkTrue(
          await send(context, note, deduct.slice(0, -9), { eventHeader: 'billing_deduct' }),
          'a truncated deduct',
        );
        const refund = JSON.stringify(body(context, 'billing_refund', billing(context, '1.00')));
        await send(context, note, `${refund.slice(0, -1)},}`, { eventHeader: 'billing_refund' });
      });
    },
  },
  {
    id: 'receiver.wrong-event-header-changes-nothing',
    title: 'A delivery whose X-Webhook-Event is not its body\u2019s event changes nothing',
    async run(context, note) {
      await unchanged(context, note, async () => {
        const refund = JSON.stringify(body(context, 'billing_refund', billing(context, '1.00')));
        await send(context, note, refund, { eventHeader: 'order_matched' });
        notOkTrue(
          await send(context, note, refund, { eventHeader: 'billing_deduct' }),
          'a refund body sent as billing_deduct',
        );
        const deduct = JSON.stringify(body(context, 'billing_deduct', billing(context, '0.01')));
        notOkTrue(
          await send(context, note, deduct, { eventHeader: 'billing_refund' }),
          'a deduct body sent as billing_refund',
        );
      });
    },
  },
  {
    id: 'receiver.bad-amounts-change-nothing',
    title:
      'Amounts that are not yuan with two decimals above zero ("1.5", "0.00", "1e3", "-5.00", "+0.01", …) change nothing',
    async run(context, note) {
      await unchanged(context, note, async () => {
        for (const amount of BAD_AMOUNTS) {
          const deduct = JSON.stringify(body(context, 'billing_deduct', billing(context, amount)));
          notOkTrue(await send(context, note, deduct, { eventHeader: 'billing_deduct' }), `a deduct of "${amount}"`);
          const refund = JSON.stringify(body(context, 'billing_refund', billing(context, amount)));
          await send(context, note, refund, { eventHeader: 'billing_refund' });
        }
      });
    },
  },
  {
    id: 'receiver.huge-body-changes-nothing',
    title: 'A huge delivery (2 MB) changes nothing',
    async run(context, note) {
      await unchanged(context, note, async () => {
        const padding = 'x'.repeat(2 * 1024 * 1024);
        const deduct = JSON.stringify({ ...body(context, 'billing_deduct', billing(context, '0.01')), padding });
        notOkTrue(await send(context, note, deduct, { eventHeader: 'billing_deduct' }), 'a 2 MB deduct');
        const refund = JSON.stringify({ ...body(context, 'billing_refund', billing(context, '1.00')), padding });
        await send(context, note, refund, { eventHeader: 'billing_refund' });
      });
    },
  },
  {
    id: 'receiver.bad-content-length-refused',
    title:
      'A delivery whose Content-Length is not one decimal number (-1, 1e3, two values) is answered 4xx and changes nothing',
    async run(context, note) {
      await unchanged(context, note, async () => {
        const payload = JSON.stringify(body(context, 'billing_deduct', billing(context, '0.01')));
        const length = Buffer.byteLength(payload);
        const framings: [string, string[]][] = [
          ['-1', ['Content-Length: -1']],
          ['1e3', ['Content-Length: 1e3']],
          ['+length', [`Content-Length: +${length}`]],
          ['two values', ['Content-Length: 2', `Content-Length: ${length}`]],
        ];
        for (const [what, lines] of framings) {
          const answer = await rawProbe(
            context.receiverUrl,
            [
              'Content-Type: application/json',
              'X-Webhook-Event: billing_deduct',
              `X-Webhook-Timestamp: ${Math.floor(context.hub.clock.now() / 1000)}`,
              'Connection: close',
              ...lines,
            ],
            payload,
            // Half-closed after the body: a receiver that reads "until the end" gets all of it.
            { timeoutMs: Math.min(context.deliveryTimeoutMs, 5000), endAfter: true },
          );
          context.answers.push({
            part: 'receiver',
            event: 'billing_deduct',
            status: answer.status,
            headers: {},
            body: answer.text,
            ms: answer.ms,
          });
          const shown =
            answer.status === undefined
              ? `no answer (${answer.error ?? 'closed'})`
              : `${answer.status} ${brief(answer.body, 80)}`;
          note(`sent a deduct with ${lines.join(', ')} -> ${shown} (${answer.ms} ms)`);
          // The raw body may be chunked: look for the field itself.
          check(!/"ok"\s*:\s*true/.test(answer.body), `a deduct with Content-Length ${what} was answered ok: true`);
          check(
            answer.status !== undefined && answer.status >= 400 && answer.status < 500,
            `a deduct with Content-Length ${what} was answered ${answer.status ?? `nothing (${answer.error ?? 'the connection closed'})`}, not 4xx`,
          );
        }
      });
    },
  },
  {
    id: 'receiver.notifications-accepted',
    title: 'Every notification event is answered 2xx',
    async run(context, note) {
      for (const event of eventsOfKind('notification')) {
        const delivery = await trigger(context, note, { event });
        check(
          delivery.outcome === 'delivered',
          `${event} was answered ${delivery.status ?? delivery.outcome}, not 2xx`,
        );
        checkDocumented(delivery);
      }
    },
  },
  {
    id: 'receiver.notification-link-by-rule',
    title: 'A notification\u2019s link is the form site root + link_url + a token of the target user (& or ?)',
    async run(context, note) {
      check(
        context.links,
        'not graded: pass --links URL, a test hook that shows the links your receiver built (docs/certify.md)',
      );
      const marker = `certify-${context.nonce()}`;
      const linkUrl = `/${encodeURIComponent(context.shortCode)}?from=${marker}#/done`;
      await trigger(context, note, { event: 'order_matched', linkUrl });
      // Built links are absolute; the in-site link_url the hook may show beside them is not one.
      const shown = stringsIn(await context.links()).filter(
        (text) => text.includes(marker) && /^https?:\/\//i.test(text),
      );
      note(`links hook showed: ${shown.join(' ') || 'no link with the marker'}`);
      check(shown.length > 0, `the links hook shows no absolute link built from link_url ${linkUrl}`);
      for (const link of shown) {
        let token: string | null = null;
        try {
          token = new URL(link).searchParams.get('token');
        } catch {
          // not an absolute URL: the check below fails it
        }
        check(token, `${link} is not an absolute URL with a token query parameter`);
        const expected = buildNotificationLink(context.hub.formUrl, linkUrl, token);
        check(link === expected, `${link} is not ${expected}, the link the rule builds`);
        const owner = await tokenOwner(context.hub, token);
        const stale = owner === undefined ? earlierSimulatorToken(token) : undefined;
        check(
          stale === undefined,
          `its token is one of an earlier simulator (${stale ?? ''}), cached by your backend: restart your backend (or empty its token cache), then run certify again`,
        );
        check(
          owner === context.user,
          `its token belongs to ${owner ?? 'no user the service knows'}, not ${context.user}`,
        );
      }
    },
  },
  ...LEDGER_RULES,
];
