/**
 * The CLI's commands against a running simulator (`hub-embed-mock trigger|resend|reset|clock`): each
 * is one call to a console endpoint (so the console's checks apply) and prints what came of it. Like
 * stripe-cli's trigger and resend, for a developer who wants an event in their app now.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_BASE_URL } from './settings.js';
import type { LedgerRecord, TriggerResult, WebhookDelivery } from './types.js';

export const COMMANDS = ['trigger', 'resend', 'reset', 'clock'] as const;

export const COMMANDS_USAGE = `Commands (against a running simulator, --url http://127.0.0.1:4010 by default):

  trigger <event> [--user ID] [--short-code CODE] [--amount 1.50] [--reason TEXT]
                  [--title TEXT] [--content TEXT] [--link /path] [--set path=value]...
                          send an event (order_matched ... billing_deduct, billing_refund) to the
                          configured URLs and print each delivery; a billing_deduct prints whether
                          it was charged and the points log record. --set value is JSON or a string
  resend <delivery-id>    send a delivery's body again to its URL
  reset                   back to the seed the simulator started with
  clock <+duration>       advance the simulator clock, e.g. +10m, +2h, +30s, +1d, +500ms; "clock resume"
                          goes back to real time
  --json                  print the console's JSON answer instead of lines
`;

export class CommandError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export function parseDuration(text: string): number {
  const match = /^\+?(\d{1,12})(ms|s|m|h|d)$/.exec(text);
  if (!match) throw new CommandError(`clock: "${text}" is not a duration such as +10m, +2h, +30s, +1d or +500ms.`, 2);
  return Number(match[1]) * UNITS[match[2]!]!;
}

/** `path=value`: the value is JSON when it parses (numbers, true, null, objects), else the string. */
export function parseSet(items: string[]): Record<string, unknown> {
  const set: Record<string, unknown> = {};
  for (const item of items) {
    const at = item.indexOf('=');
    if (at <= 0) throw new CommandError(`--set "${item}" must be path=value, e.g. notification.title=Hello.`, 2);
    const raw = item.slice(at + 1);
    let value: unknown = raw;
    try {
      value = JSON.parse(raw);
    } catch {
      // not JSON: the string itself
    }
    set[item.slice(0, at)] = value;
  }
  return set;
}

/** Keeps every line on one line whatever a client put in a path or an id (newlines, U+2028, ...). */
export function oneLine(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

export function deliveryLine(delivery: WebhookDelivery): string {
  const parts = [`delivery ${delivery.id}`, delivery.event, '->', oneLine(delivery.url), delivery.outcome];
  if (delivery.status !== undefined) parts.push(String(delivery.status));
  if (delivery.ok !== undefined) parts.push(`ok=${String(delivery.ok)}`);
  if (delivery.durationMs !== undefined) parts.push(`${delivery.durationMs} ms`);
  if (delivery.resendOf !== undefined) parts.push(`(resend of ${delivery.resendOf})`);
  if (delivery.error !== undefined) parts.push(`: ${oneLine(delivery.error)}`);
  return parts.join(' ');
}

function decisionLine(decision: { charged: boolean; record: LedgerRecord }): string {
  const record = decision.record;
  return `${decision.charged ? 'charged' : 'failed'}: points log record ${record.id} (${record.record_type}, change ${record.change_cents}, balance ${record.balance_after}): ${oneLine(record.reason)}`;
}

async function callConsole<T>(base: string, path: string, body: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch (error) {
    throw new CommandError(
      `Cannot reach the simulator at ${base} (${(error as Error).message}); start it or pass --url.`,
      1,
    );
  }
  const text = await res.text();
  let envelope: { message?: string; data?: unknown } | null;
  try {
    envelope = JSON.parse(text) as typeof envelope; // the simulator's own envelope
  } catch {
    throw new CommandError(`The simulator answered HTTP ${res.status} without JSON: ${text.slice(0, 200)}`, 1);
  }
  if (res.status !== 200) throw new CommandError(`HTTP ${res.status}: ${envelope?.message ?? text}`, 1);
  return envelope?.data as T;
}

/** Runs one command; resolves to the exit code (0 all delivered, 1 otherwise), throws CommandError. */
export async function runCommand(argv: string[], write: (line: string) => void): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: {
        url: { type: 'string' },
        user: { type: 'string' },
        'short-code': { type: 'string' },
        amount: { type: 'string' },
        reason: { type: 'string' },
        title: { type: 'string' },
        content: { type: 'string' },
        link: { type: 'string' },
        set: { type: 'string', multiple: true },
        json: { type: 'boolean' },
      },
    });
  } catch (error) {
    throw new CommandError((error as Error).message, 2);
  }
  const { values, positionals } = parsed;
  const [command, ...args] = positionals;
  // The simulator's baseUrl, or its apiUrl (the API root the JSON line also prints): the console is beside the API.
  const base = (values.url ?? DEFAULT_BASE_URL).replace(/\/+$/, '').replace(/\/api\/v\d+\/[^/]+$/i, '');
  const expectArgs = (count: number, shape: string) => {
    if (args.length !== count) throw new CommandError(`usage: hub-embed-mock ${command ?? ''} ${shape}`.trim(), 2);
  };
  const print = (data: unknown, lines: () => string[]) => {
    if (values.json) write(JSON.stringify(data));
    else for (const line of lines()) write(line);
  };
  switch (command) {
    case 'trigger': {
      expectArgs(1, '<event> [options]');
      const body: Record<string, unknown> = { event: args[0] };
      // Each flag's value, under the field of the trigger body it fills.
      const fields = {
        client_user_id: values.user,
        short_code: values['short-code'],
        amount: values.amount,
        reason: values.reason,
        title: values.title,
        content: values.content,
        link_url: values.link,
      };
      for (const [field, value] of Object.entries(fields)) {
        if (value !== undefined) body[field] = value;
      }
      if (values.set) body.set = parseSet(values.set);
      const data = await callConsole<TriggerResult>(base, '/console/trigger', body);
      const deliveries = data.deliveries;
      print(data, () => [...deliveries.map(deliveryLine), ...(data.decision ? [decisionLine(data.decision)] : [])]);
      return deliveries.every((delivery) => delivery.outcome === 'delivered') ? 0 : 1;
    }
    case 'resend': {
      expectArgs(1, '<delivery-id>');
      if (!/^\d{1,15}$/.test(args[0]!)) throw new CommandError('resend: the delivery id is a positive integer.', 2);
      const data = await callConsole<WebhookDelivery>(base, '/console/deliveries/resend', { id: Number(args[0]) });
      print(data, () => [deliveryLine(data)]);
      return data.outcome === 'delivered' ? 0 : 1;
    }
    case 'reset': {
      expectArgs(0, '');
      const data = await callConsole<unknown>(base, '/console/reset', {});
      print(data, () => ['reset to the seed']);
      return 0;
    }
    case 'clock': {
      expectArgs(1, '<+duration>|resume');
      const body = args[0] === 'resume' ? { resume: true } : { advance_ms: parseDuration(args[0]!) };
      const data = await callConsole<{ now: string }>(base, '/console/clock', body);
      print(data, () => [`simulator time ${data.now}`]);
      return 0;
    }
    default:
      throw new CommandError(
        `${command === undefined ? 'no command' : `unknown command "${command}"`}; commands: ${COMMANDS.join(', ')}.`,
        2,
      );
  }
}
