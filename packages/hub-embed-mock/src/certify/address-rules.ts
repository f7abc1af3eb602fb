/**
 * The allow-list rules (the spec's receiver set-up rules 2 and 3), each sent with every event kind the
 * service sends: a receiver that checks the address only before charging still lets a stranger refund or
 * push a notification whose link carries a user's token.
 */
import { isLoopbackAddress } from '../../../../src/core/loopback.js';
import { ALL_EVENTS, OUTBOUND_IPS } from '../webhooks.js';
import { spoofForms, spoofRounds, SPOOFED_HEADER_COUNT, type SpoofForm } from './address-headers.js';
import { check, type Rule } from './grading.js';
import { statusOf, type ProbeAnswer } from './probe.js';
import { eventBody, send, type Note, type ReceiverContext } from './receiver-sends.js';

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

/** Every event kind the service sends, billing first: the ones that move money. */
const EVENTS = ['billing_deduct', 'billing_refund', ...ALL_EVENTS.filter((event) => !event.startsWith('billing_'))];

/** One delivery of `event` from `address`, with `headers`. */
function fromAddress(
  context: ReceiverContext,
  note: Note,
  event: string,
  address: string,
  headers: Record<string, string> = {},
): Promise<ProbeAnswer> {
  return send(context, note, JSON.stringify(eventBody(context, event)), {
    eventHeader: event,
    localAddress: address,
    headers,
  });
}

/**
 * Sends every event from `address` and collects what was let in; the balance must not move either (a
 * refund let in raises it). One failure message naming each event kind the receiver let through.
 */
async function everyEventRefused(
  context: ReceiverContext,
  note: Note,
  addresses: readonly string[],
  why: string,
): Promise<void> {
  const before = await context.balance();
  const letIn: string[] = [];
  for (const address of addresses)
    for (const event of EVENTS) {
      let answer = await fromAddress(context, note, event, address);
      // No answer at all (a busy moment) is asked once more before it counts as not refused.
      if (answer.status === undefined) answer = await fromAddress(context, note, event, address);
      if (answer.status !== 403) letIn.push(`${event} from ${address} was answered ${statusOf(answer)}`);
    }
  await new Promise((resolve) => setTimeout(resolve, 200));
  const after = await context.balance();
  note(`balance ${before} -> ${after} cents`);
  check(letIn.length === 0, `${letIn.join('; ')}, not 403: ${why}`);
  check(after === before, `the balance changed from ${before} to ${after} cents`);
}

/** A form as a report names it: the header, the shape and the value. */
const named = (form: SpoofForm) => `${form.header}: ${form.value} (${form.shape})`;

export const ADDRESS_RULES: Rule<ReceiverContext>[] = [
  {
    id: 'receiver.address-not-allowed',
    title: `A delivery of any event (deduct, refund, each notification) from an address not on the allow-list gets 403 and changes nothing`,
    async run(context, note) {
      await everyEventRefused(
        context,
        note,
        [context.strangerAddress],
        'the allow-list must hold for every event the service sends, not only the deduct',
      );
    },
  },
  {
    id: 'receiver.forwarded-for-not-believed',
    title: `Client-address headers (${SPOOFED_HEADER_COUNT}: X-Forwarded-For left-most and right-most, Forwarded, X-Real-IP, WL-Proxy-Client-IP, …) from a peer that is not a trusted proxy are not believed, for any event`,
    async run(context, note) {
      const rounds = spoofRounds(spoofForms(OUTBOUND_IPS[0]!, context.strangerAddress));
      const before = await context.balance();
      const believed: string[] = [];
      let plainRefused = true;
      for (const event of EVENTS) {
        // The same stranger without the headers first: whatever it gets, the headers must not change it.
        const plain = await fromAddress(context, note, event, context.strangerAddress);
        plainRefused &&= plain.status === 403;
        for (const round of rounds) {
          const headers = Object.fromEntries(round.map((form) => [form.header, form.value]));
          let spoofed = await fromAddress(context, note, event, context.strangerAddress, headers);
          // No answer at all lets nothing in: asked once more, so a busy moment is not read as belief.
          if (spoofed.status === undefined)
            spoofed = await fromAddress(context, note, event, context.strangerAddress, headers);
          if (spoofed.status === plain.status || spoofed.status === undefined) continue;
          // Which one: each form of the round alone, so the report names what the receiver read.
          const alone: string[] = [];
          for (const form of round) {
            const answer = await fromAddress(context, note, event, context.strangerAddress, {
              [form.header]: form.value,
            });
            if (answer.status !== plain.status) alone.push(named(form));
          }
          believed.push(
            `${event}: answered ${statusOf(spoofed)} with ${alone.length > 0 ? alone.join(', ') : 'the headers together'} and ${statusOf(plain)} without`,
          );
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
      const after = await context.balance();
      note(`balance ${before} -> ${after} cents`);
      check(
        believed.length === 0,
        `from ${context.strangerAddress}, a peer that is no proxy of yours, it believed a client-address header: ${believed.join('; ')}`,
      );
      if (plainRefused) check(after === before, `the balance changed from ${before} to ${after} cents`);
    },
  },
  {
    id: 'receiver.address-prefix-not-allowed',
    title:
      'A delivery of any event from an address that begins with an allowed one (127.0.0.10, 127.0.0.100 for 127.0.0.1) gets 403 and changes nothing',
    async run(context, note) {
      await everyEventRefused(context, note, prefixStrangers(), 'the allow-list matches addresses by their start');
    },
  },
];
