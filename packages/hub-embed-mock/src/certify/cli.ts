/** `hub-embed-mock certify`: starts the simulator, prints where it is, waits for the backend, grades it. */
import { writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { parseArgs } from 'node:util';
import { startSimulator } from '../node.js';
import { OUTBOUND_IPS } from '../webhooks.js';
import { startBackendProcess, signInSession, type BackendProcess } from './backend-process.js';
import { CertifyUsageError, certify } from './certify.js';
import { brief } from './probe.js';
import { json, junit, table } from './report.js';

export const CERTIFY_USAGE = `Usage: hub-embed-mock certify [--receiver URL] [--token-route URL] [options] [-- COMMAND ARGS…]

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
  --sign-in 'URL BODY'   POST BODY (form-encoded) to URL once the backend runs; the cookies it sets are a
                         session, as --session is (repeatable; for a backend certify starts itself)
  -- COMMAND ARGS…       start the backend itself, with HUB_API_KEY, HUB_BASE_URL, HUB_FORM_URL,
                         HUB_WEBHOOK_IPS and HUB_DELIVERY_TIMEOUT_MS in its environment, and fail it when
                         it prints the API key or a token (stdout or stderr)
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

async function waitFor(
  urls: string[],
  seconds: number,
  write: (line: string) => void,
  backend?: BackendProcess,
): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  for (const url of urls) {
    let told = false;
    while (!(await reachable(url))) {
      const ended = backend?.exited();
      // Its own words, cut short: they may hold the key, which certify prints anyway, but not a token yet.
      if (ended !== undefined)
        throw new CertifyUsageError(
          `the backend's command ended (${ended}) before ${url} accepted a connection; it printed: ${brief(backend!.output().stderr.slice(-400) || backend!.output().stdout.slice(-400), 400)}`,
        );
      if (Date.now() > deadline) throw new CertifyUsageError(`${url} did not accept a connection within ${seconds} s.`);
      if (!told) write(`waiting for ${url} …`);
      told = true;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

type Values = Partial<
  Record<'receiver' | 'token-route' | 'balance' | 'balance-field' | 'links' | 'origin' | 'junit', string>
> & {
  session?: string[];
  'sign-in'?: string[];
  user?: string[];
  json?: boolean;
};

/** Resolves to the exit code: 0 certified, 1 a required rule failed, 2 bad usage. */
export async function certifyCommand(argv: string[], write: (line: string) => void): Promise<number> {
  let values;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: {
        receiver: { type: 'string' },
        'token-route': { type: 'string' },
        session: { type: 'string', multiple: true },
        'sign-in': { type: 'string', multiple: true },
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
  // Only what follows `--` is a command: a stray word before it is a mistake, not a backend to start.
  const dashes = argv.indexOf('--');
  const command = dashes < 0 ? [] : argv.slice(dashes + 1);
  if (positionals.length !== command.length)
    throw new CertifyUsageError(`Unexpected ${JSON.stringify(positionals[0])}: put the backend's command after --.`);
  if (values['sign-in'] !== undefined && command.length === 0)
    throw new CertifyUsageError('--sign-in is for a backend certify starts: pass its command after --.');
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
    const backend =
      command.length === 0
        ? undefined
        : startBackendProcess(command, {
            HUB_API_KEY: simulator.apiKey,
            HUB_BASE_URL: simulator.baseUrl,
            HUB_FORM_URL: simulator.formUrl,
            HUB_WEBHOOK_IPS: OUTBOUND_IPS.join(','),
            HUB_DELIVERY_TIMEOUT_MS: String(deliveryTimeoutMs),
          });
    try {
      return await grade(values, simulator, deliveryTimeoutMs, wait, write, backend);
    } finally {
      await backend?.stop();
    }
  } finally {
    await simulator.close();
  }
}

async function grade(
  values: Values,
  simulator: Awaited<ReturnType<typeof startSimulator>>,
  deliveryTimeoutMs: number,
  wait: number,
  write: (line: string) => void,
  backend: BackendProcess | undefined,
): Promise<number> {
  const targets = [values.receiver, values['token-route']].filter((url): url is string => url !== undefined);
  try {
    await waitFor(
      targets.map((url) => new URL(url).href),
      wait,
      write,
      backend,
    );
  } catch (error) {
    if (error instanceof TypeError) throw new CertifyUsageError('--receiver and --token-route must be absolute URLs.');
    throw error;
  }
  const sessions = [...(values.session ?? [])];
  for (const spec of values['sign-in'] ?? []) {
    try {
      sessions.push(await signInSession(spec));
    } catch (error) {
      throw new CertifyUsageError((error as Error).message);
    }
  }
  const report = await certify({
    simulator,
    receiver: values.receiver,
    tokenRoute: values['token-route'],
    sessions,
    users: values.user,
    balance: values.balance,
    balanceField: values['balance-field'],
    links: values.links,
    origin: values.origin,
    deliveryTimeoutMs,
    ...(backend ? { output: () => backend.output() } : {}),
  });
  write(values.json ? json(report) : table(report));
  if (values.junit !== undefined) writeFileSync(values.junit, junit(report));
  return report.ok ? 0 : 1;
}
