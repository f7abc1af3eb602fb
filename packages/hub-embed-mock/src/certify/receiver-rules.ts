/**
 * The webhook receiver's rules (the spec's Events section and docs/server.md), each graded by what the
 * receiver answered and by what its ledger shows afterwards through the balance hook: a black box in any
 * language tells the grader nothing else about what it charged.
 */
import { buildNotificationLink } from '../../../../src/core/token-links.js';
import { centsToYuan, isoBeijing } from '../http.js';
import { eventsOfKind } from '../webhooks.js';
import { ADDRESS_RULES } from './address-rules.js';
import { hashTwinsOf, spellingTwins } from './user-classes.js';
import { check, NotConfigured, type Rule } from './grading.js';
import { stringsIn, tokenOwner } from './observe.js';
import { earlierSimulatorToken } from './token-rules.js';
import { brief, okOf, probe, rawProbe, statusOf, type ProbeAnswer } from './probe.js';
import {
  billing,
  body,
  changedBy,
  checkDocumented,
  countFor,
  EXCHANGE_WAIT_MS,
  exchangedFor,
  giveBack,
  resend,
  secondLater,
  send,
  trigger,
  unchanged,
  type ReceiverContext,
} from './receiver-sends.js';

export const CONCURRENT_DEDUCTS = 20;
/** How many times receiver.concurrent-deducts-never-overdraw sends its deducts together. */
const BURSTS = 3;
/** How long the held deducts wait, all held, before their last bytes go. */
const SETTLE_MS = 100;

/** Not "yuan, two decimals, above zero": a sign, a space, an exponent, other digits (fullwidth), a third decimal. */
const BAD_AMOUNTS = ['1.5', '0.00', '1e3', '-5.00', '+0.01', ' 0.01', '0.01 ', '\uff11.00', '0.010', '0x10'];

const notOkTrue = (answer: ProbeAnswer, what: string) =>
  check(okOf(answer) !== true, `${what} was answered ok: true (a charge the service believes was made)`);

/** Amounts whose cents a binary float gets wrong: x * 100 is just below the whole number (0.29 -> 28.999…). */
const FLOAT_TRAPS = ['0.29', '0.57', '1.13', '4.35'];

/**
 * Cents over `balance` for the fractions rule: each fraction class (a cent, just under, at and just over half
 * a yuan, just under a yuan) and each landing of the total on those places of its own yuan. A ledger that
 * compares rounded, floored or ceiled yuan lets some of them through whatever the balance is.
 */
export function overdraws(balance: number): number[] {
  const fractions = [1, 49, 50, 51, 99];
  const landings = fractions.map((cents) => {
    const over = (((cents - balance) % 100) + 100) % 100;
    return over === 0 ? 100 : over;
  });
  return [...new Set([...fractions, ...landings])].sort((one, other) => one - other);
}

/**
 * What a request with no HTTP answer at all did, as seen from outside (the connection waited, or was closed
 * without a status line), and what answers such a request as the rule wants. Not which program did it: the
 * grader sees the socket, not what runs behind it.
 */
function noAnswer(error: string | undefined, ms: number): string {
  const seen =
    error === 'timeout'
      ? `no status line within ${ms} ms: the connection stayed open, as if waiting for a body of another length`
      : `the connection was closed after ${ms} ms without a status line (${error ?? 'closed'})`;
  return `${seen}. Answer 400 to a Content-Length that is not one decimal number: nginx, Caddy and Apache httpd (with php-fpm or mod_php) do so in front of your code; a development server (PHP's built-in php -S) may not`;
}

/** ` (Server: nginx/1.24)` when the raw answer names its server: who answered, when it may not be the code. */
function serverOf(text: string): string {
  const head = text.slice(0, Math.max(0, text.indexOf('\r\n\r\n')));
  const server = /^server:[ \t]*(.*)$/im.exec(head)?.[1]?.trim();
  return server ? ` (by the server that calls itself ${brief(server, 40)})` : '';
}

/** The body timeout a receiver commonly has (the toolkit's bodyTimeoutMs): a slower drip meets it first. */
const BODY_TIMEOUT_SEEN_MS = 5000;

/** How a receiver in any language knows when a request arrived, for the deadline rules' reports. */
const ARRIVAL_ADVICE =
  'Read the clock when the request arrives, before reading its body, and answer {ok: false} without charging once 80% of the service\u2019s 10 s have passed since: ' +
  'Node: Date.now() in the request handler before the body; Python: time.monotonic() at the start of do_POST; Go: time.Now() at the handler\u2019s start, before io.ReadAll; ' +
  "Java: the servlet\u2019s first line, before getInputStream(); PHP under php-fpm or mod_php: the server in front reads the body before PHP runs, so pass its age in (nginx: fastcgi_param REQUEST_AGE $request_time;) and count from microtime(true) - REQUEST_AGE, not from $_SERVER['REQUEST_TIME_FLOAT']";

/** How many other events a replay follows: more than a short "recent events" list holds. */
const REPLAY_AFTER = 200;
const REPLAY_BATCH = 10;

export const LEDGER_RULES: Rule<ReceiverContext>[] = [
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
            `a deduct of ${amount} against a balance of ${centsToYuan(before)} was answered ok: true. Compare cents with cents, as numbers`,
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
      'Two deducts, and two refunds, whose bodies differ only in timestamp (the same action twice, a second apart) are both applied',
    async run(context, note) {
      const now = context.hub.clock.now();
      // The event key must hold the body's timestamp for both kinds: two complaints refunded alike are two refunds.
      for (const [event, sign] of [
        ['billing_deduct', -1],
        ['billing_refund', 1],
      ] as const) {
        const reason = `certify ${context.nonce()}`;
        await changedBy(context, note, sign * 2, async () => {
          for (const at of [now, now + 1000]) {
            const payload = JSON.stringify({
              ...body(context, event, { billing: { amount: '0.01', reason } }),
              timestamp: isoBeijing(at),
            });
            const answer = await send(context, note, payload, {
              eventHeader: event,
              headers: { 'x-webhook-timestamp': String(Math.floor(at / 1000)) },
            });
            const applied =
              event === 'billing_deduct'
                ? okOf(answer) === true
                : answer.status !== undefined && answer.status >= 200 && answer.status < 300;
            check(
              applied,
              `the ${event === 'billing_deduct' ? 'deduct' : 'refund'} of ${isoBeijing(at)} was answered ${statusOf(answer)} ${brief(answer.body, 60)}, not ${event === 'billing_deduct' ? 'ok: true' : '2xx'}: two events taken for one`,
            );
          }
        });
      }
    },
  },
  {
    id: 'receiver.distinct-users-both-charged',
    title:
      'A deduct for another user whose body is otherwise the same is that user\u2019s own: never answered as a duplicate of the first',
    async run(context, note) {
      const other = context.other;
      // token.bound-to-session-user says why when two sessions gave one user.
      if (other === undefined)
        throw new NotConfigured(
          'not graded: it needs two --session headers of two signed-in users (the token route shows who each is), to send the same deduct to both and read both balances',
        );
      const payload = body(context, 'billing_deduct', billing(context, '0.01'));
      const mine = await send(context, note, JSON.stringify(payload), { eventHeader: 'billing_deduct' });
      check(okOf(mine) === true, `the test user's deduct was answered ${statusOf(mine)} ${brief(mine.body, 60)}`);
      const before = await other.balance();
      const theirs = await send(context, note, JSON.stringify({ ...payload, target: { client_user_id: other.user } }), {
        eventHeader: 'billing_deduct',
      });
      const after = await other.balance();
      note(`${other.user}'s balance ${before} -> ${after} cents`);
      // ok: true promises the service a charge: it must be this user's, in their balance.
      if (okOf(theirs) === true)
        check(
          after === before - 1,
          `the same deduct for ${other.user} was answered ok: true and ${other.user}'s balance went from ${before} to ${after} cents, not down by 1: a charge promised and not taken. Key each event by its whole body, the user included`,
        );
      else check(after === before, `${other.user}'s balance changed from ${before} to ${after} cents with ok: false`);
      if (after < before)
        await send(
          context,
          note,
          JSON.stringify({
            ...body(context, 'billing_refund', billing(context, centsToYuan(before - after))),
            target: { client_user_id: other.user },
          }),
          { eventHeader: 'billing_refund' },
        );
    },
  },
  {
    id: 'receiver.deduct-insufficient-by-fractions',
    title:
      'A deduct of the balance plus any fraction of a yuan (0.01 to 0.99, each side of half a yuan) answers {ok: false} and takes nothing',
    async run(context, note) {
      const before = await context.balance();
      const taken: string[] = [];
      try {
        // Each over the balance as it was: one taken leaves the balance lower, so the rest still overdraw.
        for (const over of overdraws(before)) {
          const amount = centsToYuan(before + over);
          const delivery = await trigger(context, note, {
            event: 'billing_deduct',
            amount,
            reason: `certify ${context.nonce()}`,
          });
          if (okOf({ body: delivery.responseBody ?? '' }) === true)
            taken.push(`${amount} against ${centsToYuan(before)} was answered ok: true`);
        }
        const after = await context.balance();
        note(`balance ${before} -> ${after} cents`);
        check(
          taken.length === 0 && after === before,
          `deducts of more than the balance by less than a yuan were charged: ${taken.join('; ') || 'none answered ok: true'}, and the balance went from ${before} to ${after} cents. Compare cents with cents`,
        );
      } finally {
        await giveBack(context, note, before);
      }
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
      'Users whose ids are equal but for case, Unicode normalisation or a 32-bit hash (Java hashCode, djb2, sdbm, FNV) get tokens of their own for their links',
    async run(context, note) {
      const prefix = `certify-${context.nonce()}-`;
      // Each notification a path of its own: a link cached by path is the link rule's, not this one's.
      let paths = 0;
      const linkUrl = () => `/${encodeURIComponent(context.shortCode)}?certify=${prefix}${++paths}`;
      /** A notification for `user`, sent again once if its delivery failed; whether it made an exchange for `user`. */
      const notify = async (user: string, waitMs?: number) => {
        const before = countFor(context, user);
        let delivery = await trigger(context, note, { event: 'order_matched', clientUserId: user, linkUrl: linkUrl() });
        // Sent again, three times at most: a connection lost among the twins sent at once is transport, and
        // this rule grades tokens (receiver.notifications-accepted grades the answers).
        for (let again = 0; again < 3 && delivery.outcome !== 'delivered'; again++)
          delivery = await resend(context, note, delivery);
        check(
          delivery.outcome === 'delivered',
          `the notification for ${user} was answered ${delivery.status ?? delivery.outcome}, not 2xx`,
        );
        return exchangedFor(context, user, before, waitMs);
      };
      // A new user whose id has letters that case-fold and normalise (K, i, s): the base of those twins.
      const control = `${prefix}Kis`;
      // All found before the first is sent: the search takes a moment, and a pause between deliveries could
      // meet a kept-alive connection the backend is closing.
      const twins = [
        ...spellingTwins(control).map((twin) => ({ ...twin, of: control })),
        ...hashTwinsOf(context.user, prefix).map((twin) => ({ ...twin, of: context.user })),
      ];
      // The test user's token first, in whatever cache the backend keeps.
      await notify(context.user, 0);
      const started = performance.now();
      if (!(await notify(control)))
        throw new NotConfigured(
          `not graded: a notification for ${control}, a user your backend never saw, made it exchange no token, so whether two users share one cannot be seen`,
        );
      const exchangeMs = performance.now() - started;
      note(`a notification for ${control}, never seen before, made the backend exchange a token for it`);
      // A backend that exchanged for the control this fast is given five times as long for each twin.
      const waitMs = Math.max(2000, Math.min(EXCHANGE_WAIT_MS, exchangeMs * 5));
      const shared: string[] = [];
      // All at once: each twin collides with a user cached before (the control or the test user), not with
      // another twin's exchange, so the order among them changes nothing a wrong key shows.
      const exchanged = await Promise.all(twins.map((twin) => notify(twin.id, waitMs)));
      for (const [index, twin] of twins.entries()) {
        if (exchanged[index]) note(`${JSON.stringify(twin.id)} (${twin.of} ${twin.why}): a token exchanged for it`);
        else shared.push(`${JSON.stringify(twin.id)} (${twin.of} ${twin.why})`);
      }
      check(
        shared.length === 0,
        `a notification for ${shared.join(', ')} made your backend exchange no token, though one for ${control} did: the link built for it carries a token exchanged for another user. Key token caches by the id exactly as the service sent it`,
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
      // Ten at a time: each is its own event, and a window of keys counts them however they overlap.
      for (let sent = 0; sent < REPLAY_AFTER; sent += REPLAY_BATCH)
        await Promise.all(
          Array.from({ length: REPLAY_BATCH }, () =>
            send(context, quiet, JSON.stringify(body(context, 'billing_deduct', billing(context, '0.01'))), {
              eventHeader: 'billing_deduct',
            }),
          ),
        );
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
  ...ADDRESS_RULES,
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
    title: `${CONCURRENT_DEDUCTS} deducts of the whole balance at once, ${BURSTS} times: each time one is charged, the rest answered {ok: false}`,
    async run(context, note) {
      // Whether deliveries meet in a ledger depends on when each reaches it, which no sender decides: a burst
      // may arrive one after the other. So the burst is sent again, and any one that overdraws fails the rule.
      for (let burst = 1; burst <= BURSTS; burst++) await concurrentDeducts(context, note);
    },
  },
  {
    id: 'receiver.late-answer-not-charged',
    title: 'A deduct whose answer comes after the 10 s timeout counts as not delivered: nothing is charged',
    async run(context, note) {
      const before = await context.balance();
      const payload = JSON.stringify(body(context, 'billing_deduct', billing(context, '0.01')));
      // The body's last byte as the service's time runs out: any answer is too late to count.
      const answer = await send(context, note, payload, {
        eventHeader: 'billing_deduct',
        lastByteAtMs: context.deliveryTimeoutMs,
        timeoutMs: context.deliveryTimeoutMs + 2000,
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      const after = await context.balance();
      note(`balance ${before} -> ${after} cents`);
      check(
        after === before,
        `a deduct whose body's last byte came ${context.deliveryTimeoutMs} ms after its headers, when the service had stopped waiting, was charged: answered ${statusOf(answer)} ${brief(answer.body, 40)}, the balance went from ${before} to ${after} cents. ${ARRIVAL_ADVICE}`,
      );
    },
  },
  {
    id: 'receiver.deadline-counts-from-arrival',
    title:
      'A deduct whose body took 90% of the service\u2019s time to arrive is refused ({ok: false}, nothing taken): the deadline counts from arrival',
    async run(context, note) {
      const dripMs = Math.round(context.deliveryTimeoutMs * 0.9);
      // Under a 5 s body timeout (the toolkit's) only when the service's time is short: with 10 s the slow
      // body is cut off before the deadline matters, and nothing can be seen.
      if (dripMs >= BODY_TIMEOUT_SEEN_MS)
        throw new NotConfigured(
          `not graded at --delivery-timeout-ms ${context.deliveryTimeoutMs}: a body dripped over ${dripMs} ms meets a ${BODY_TIMEOUT_SEEN_MS / 1000} s body timeout first. Run certify with --delivery-timeout-ms 4000 and your deadline at 80% of it to grade this`,
        );
      const before = await context.balance();
      const payload = JSON.stringify(body(context, 'billing_deduct', billing(context, '0.01')));
      const answer = await send(context, note, payload, {
        eventHeader: 'billing_deduct',
        dripOverMs: dripMs,
        timeoutMs: context.deliveryTimeoutMs + 2000,
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      const after = await context.balance();
      note(`body sent in drips over ${dripMs} ms; balance ${before} -> ${after} cents`);
      try {
        check(
          okOf(answer) !== true && after === before,
          `a deduct whose body took ${dripMs} of the service's ${context.deliveryTimeoutMs} ms to arrive was answered ${statusOf(answer)} ${brief(answer.body, 40)} after ${answer.ms} ms and the balance went from ${before} to ${after} cents: charged, though ${dripMs} ms had passed since the request arrived and only ${context.deliveryTimeoutMs - dripMs} ms of the service's time were left. ${ARRIVAL_ADVICE}`,
        );
      } finally {
        await giveBack(context, note, before);
      }
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
            answer.status === undefined
              ? `a deduct with Content-Length ${what} was answered nothing: ${noAnswer(answer.error, answer.ms)}`
              : `a deduct with Content-Length ${what} was answered ${answer.status}${serverOf(answer.text)}, not 4xx`,
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
      // The same link_url for another user first: a link cached by its path would reach the test user with
      // that user's token.
      const first = `certify-${context.nonce()}-first`;
      await trigger(context, note, { event: 'order_matched', clientUserId: first, linkUrl });
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
          owner === first
            ? `its token belongs to ${first}, whose notification with the same link_url came first: ${context.user}'s link holds another user's token. Build each user's link from their own token`
            : `its token belongs to ${owner ?? 'no user the service knows'}, not ${context.user}`,
        );
      }
    },
  },
  ...LEDGER_RULES,
];

/**
 * One burst of receiver.concurrent-deducts-never-overdraw: CONCURRENT_DEDUCTS deducts of the whole balance,
 * every body but its last byte first, then all last bytes together, so that the deducts meet in the ledger;
 * then a refund of what was taken, as the service would give after a complaint, so that the next burst, rule
 * and run have a balance. Fails on more than one charge, or none.
 */
async function concurrentDeducts(context: ReceiverContext, note: (line: string) => void): Promise<void> {
  const before = await context.balance();
  check(before > 0, `the test user's balance is ${before} cents: give them at least a few cents to grade this`);
  const amount = centsToYuan(before);
  let held = 0;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
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
      // Released a moment after the last is held: time for the backend to take every connection and read
      // every head, so that only the last bytes are left to arrive, and they arrive together.
      onHeld: () => ++held === CONCURRENT_DEDUCTS && setTimeout(release, SETTLE_MS),
      timeoutMs: context.deliveryTimeoutMs,
    }),
  );
  const timer = setTimeout(release, 2000);
  const answers = await Promise.all(sends);
  clearTimeout(timer);
  context.answers.push(...answers.map((answer) => ({ ...answer, part: 'receiver' as const, event: 'billing_deduct' })));
  const oks = answers.filter((answer) => okOf(answer) === true).length;
  const after = await context.balance();
  note(
    `sent ${CONCURRENT_DEDUCTS} deducts of ${amount} at once -> ${answers.map((answer) => `${statusOf(answer)} ${String(okOf(answer) ?? '?')}`).join(', ')}`,
  );
  note(`balance ${before} -> ${after} cents`);
  await giveBack(context, note, before);
  check(oks <= 1, `${oks} of them were answered ok: true: the balance paid for ${oks} times what it holds`);
  check(after >= 0, `the balance went down to ${after} cents`);
  check(
    before - after === oks * before,
    `the balance went from ${before} to ${after} cents with ${oks} answered ok: true`,
  );
  check(oks === 1, 'none was charged, though the balance covered one');
}
