/** `hub-embed-mock certify`: starts the simulator, prints where it is, waits for the backend, grades it. */
import { writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { parseArgs } from 'node:util';
import { startSimulator } from '../node.js';
import { OUTBOUND_IPS } from '../webhooks.js';
import { CertifyUsageError, certify } from './certify.js';
import { json, junit, table } from './report.js';

export const CERTIFY_USAGE = `Usage: hub-embed-mock certify [--receiver URL] [--token-route URL] [options]

Starts the simulator, prints its base URL, form URL and API key (first line, JSON), waits until your
backend answers, then grades every rule of the spec and docs/server.md it can reach. Point your backend
at the printed base URL, form URL and key, and allow-list 127.0.0.1 for webhooks. Exit 0 only when every
required rule passes.

  --receiver URL         your webhook receiver (the billing and notification URL)
  --token-route URL      your token route (the widget's token-endpoint)
  --session 'H: v'       a request header of a signed-in test user; once per user (two for the token route)
  --user ID              the client_user_id of the receiver's test user (only without --token-route)
  --balance URL          test hook: GET with the first session answers JSON with that user's balance in cents
  --balance-field PATH   where the balance is in that JSON (dotted; default balance_cents)
  --links URL            test hook: GET with the first session answers JSON holding the notification links built
  --origin ORIGIN        an origin your token route allows: grades the Origin rules
  --api-port N           simulator API port (default 0: a free one); --form-port N likewise
  --wait S               seconds to wait for the backend to accept connections (default 60)
  --delivery-timeout-ms N  the service's webhook timeout the late-answer rule uses (default 10000)
  --json                 print the report as JSON instead of the table
  --junit FILE           also write JUnit XML to FILE
`;

function port(value: string | undefined, name: string): number {
  if (value === undefined) return 0;
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535)
    throw new CertifyUsageError(`--${name} must be a port from 0 to 65535.`);
  return Number(value);
}

function reachable(url: string): Promise<boolean> {
  const target = new URL(url);
  const portNumber = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
  return new Promise((resolve) => {
    const socket = connect(portNumber, target.hostname.replace(/^\[|\]$/g, ''));
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function waitFor(urls: string[], seconds: number, write: (line: string) => void): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  for (const url of urls) {
    let told = false;
    while (!(await reachable(url))) {
      if (Date.now() > deadline) throw new CertifyUsageError(`${url} did not accept a connection within ${seconds} s.`);
      if (!told) write(`waiting for ${url} …`);
      told = true;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/** Resolves to the exit code: 0 certified, 1 a required rule failed, 2 bad usage. */
export async function certifyCommand(argv: string[], write: (line: string) => void): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        receiver: { type: 'string' },
        'token-route': { type: 'string' },
        session: { type: 'string', multiple: true },
        user: { type: 'string', multiple: true },
        balance: { type: 'string' },
        'balance-field': { type: 'string' },
        links: { type: 'string' },
        origin: { type: 'string' },
        'api-port': { type: 'string' },
        'form-port': { type: 'string' },
        wait: { type: 'string' },
        'delivery-timeout-ms': { type: 'string' },
        json: { type: 'boolean' },
        junit: { type: 'string' },
        help: { type: 'boolean' },
      },
    }));
  } catch (error) {
    throw new CertifyUsageError((error as Error).message);
  }
  if (values.help) {
    write(CERTIFY_USAGE);
    return 0;
  }
  const wait = values.wait === undefined ? 60 : Number(values.wait);
  if (!(wait >= 0 && wait <= 3600)) throw new CertifyUsageError('--wait must be a number of seconds from 0 to 3600.');
  const deliveryTimeoutMs =
    values['delivery-timeout-ms'] === undefined ? 10_000 : Number(values['delivery-timeout-ms']);
  if (!Number.isSafeInteger(deliveryTimeoutMs) || deliveryTimeoutMs < 1 || deliveryTimeoutMs > 60_000)
    throw new CertifyUsageError('--delivery-timeout-ms must be an integer from 1 to 60000.');
  if (values.receiver === undefined && values['token-route'] === undefined)
    throw new CertifyUsageError('Pass --receiver URL, --token-route URL, or both.');

  const simulator = await startSimulator({
    apiPort: port(values['api-port'], 'api-port'),
    formPort: port(values['form-port'], 'form-port'),
    webhookTimeoutMs: deliveryTimeoutMs,
  });
  try {
    write(
      JSON.stringify({
        baseUrl: simulator.baseUrl,
        formUrl: simulator.formUrl,
        apiKey: simulator.apiKey,
        outboundIps: OUTBOUND_IPS,
      }),
    );
    const targets = [values.receiver, values['token-route']].filter((url): url is string => url !== undefined);
    try {
      await waitFor(
        targets.map((url) => new URL(url).href),
        wait,
        write,
      );
    } catch (error) {
      if (error instanceof TypeError)
        throw new CertifyUsageError('--receiver and --token-route must be absolute URLs.');
      throw error;
    }
    const report = await certify({
      simulator,
      receiver: values.receiver,
      tokenRoute: values['token-route'],
      sessions: values.session,
      users: values.user,
      balance: values.balance,
      balanceField: values['balance-field'],
      links: values.links,
      origin: values.origin,
      deliveryTimeoutMs,
    });
    write(values.json ? json(report) : table(report));
    if (values.junit !== undefined) writeFileSync(values.junit, junit(report));
    return report.ok ? 0 : 1;
  } finally {
    await simulator.close();
  }
}
