#!/usr/bin/env node
/**
 * hub-embed-mock: runs the simulator. First stdout line is one JSON object {baseUrl, apiUrl, formUrl,
 * apiKey, consoleUrl, outboundIps} (scripts read it to find the ports); then a short banner and one readable
 * line per request and per webhook delivery. `hub-embed-mock <command>` talks to a running one.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { COMMANDS, COMMANDS_USAGE, CommandError, deliveryLine, oneLine, runCommand } from './cli-commands.js';
import { CERTIFY_USAGE, certifyCommand } from './certify/cli.js';
import { CertifyUsageError } from './certify/certify.js';
import { checkAllowedHosts } from './hosts.js';
import { PROFILES, profileOfNames } from './profiles.js';
import { checkApiPrefix } from './settings.js';
import { SeedError, checkHttpUrl, defaultSeed, parseSeed } from './seed.js';
import { startSimulator, type StartSimulatorOptions } from './node.js';
import type { MockSeed, RequestLogEntry, WebhookDelivery } from './types.js';
import { OUTBOUND_IPS } from './webhooks.js';

const USAGE = `Usage: hub-embed-mock [options]
       hub-embed-mock <command> [arguments] [--url http://127.0.0.1:4010]

  --api-port N            API site port (default 4010; 0 picks a free port)
  --form-port N           form site port (default 4011; 0 picks a free port)
  --host H                address to bind (default 127.0.0.1, loopback only)
  --api-prefix P          serve the open API under P, /api/v<n>/<segment> (default /api/v1/hub;
                          the real deployment's is /api/v1/apihub)
  --allow-remote-clients  answer clients on other machines too (default: loopback peers only; no login!)
  --seed FILE             seed JSON file (default: the built-in seed)
  --print-seed            print the seed (built-in, or --seed and --webhook-url applied) and exit
  --webhook-url URL       set the first developer's notification and billing URLs to URL
  --token-ttl S           access token lifetime in seconds (default 7200)
  --latency-ms N          delay every API response by N ms (default 0)
  --latency-jitter-ms N   add a random 0..N ms to that delay (default 0)
  --fault-rate R          answer HTTP 500 to this fraction (0..1) of requests to the fault paths
  --fault-path P          a path that --fault-rate applies to (repeatable; default published-list)
  --drop-rate R           destroy this fraction (0..1) of API connections without an answer
  --recharge-drop-rate R  apply this fraction (0..1) of recharges, then close the connection unanswered
  --recharge-delay-rate R apply this fraction (0..1) of recharges, then answer --recharge-delay-ms late
  --recharge-delay-ms N   how late a delayed recharge answers (default 15000)
  --profile NAME          play a service that chooses where the spec is silent (repeatable; later
                          ones win): ${Object.keys(PROFILES).join(', ')}
                          (docs/simulator.md, "Service profiles")
  --webhook-timeout-ms N  overall webhook timeout (default 10000)
  --webhook-connect-timeout-ms N  webhook TCP connect timeout (default 5000)
  --cors-origin O         allow this browser origin (repeatable; "*" for any; default any loopback origin)
  --allowed-host H        also answer requests whose Host is H (repeatable; default loopback hosts only)
  --log-limit N           entries kept in the request and delivery logs (default 1000)
  --no-console            turn off the /console endpoints
  --quiet                 print only the JSON line, no request log
  --help                  show this help

${COMMANDS_USAGE}
  certify [--receiver URL] [--token-route URL] [--session 'Header: value']...
                          grade your backend (any language) against the spec's rules: see
                          hub-embed-mock certify --help and docs/certify.md
`;

class UsageError extends Error {}

function int(value: string | undefined, name: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max)
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}.`);
  return Number(value);
}

function rate(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (value.trim() === '' || !(number >= 0 && number <= 1))
    throw new UsageError(`--${name} must be a number from 0 to 1.`);
  return number;
}

function loadSeed(file: string): MockSeed {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`Cannot read seed file ${file}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new UsageError(`Seed file ${file} is not valid JSON.`);
  }
  return parseSeed(json);
}

/** --webhook-url goes into the seed, so that the console's Reset keeps it. */
function withWebhookUrl(seed: MockSeed, url: string): MockSeed {
  try {
    checkHttpUrl(url, '--webhook-url');
  } catch (error) {
    throw new UsageError(error instanceof SeedError ? '--webhook-url must be an absolute http(s) URL.' : String(error));
  }
  const copy = structuredClone(seed);
  const developer = copy.accounts.find((account) => account.role === 'developer');
  if (!developer) throw new UsageError('--webhook-url: the seed has no developer account.');
  developer.webhooks = [{ notification_url: url, billing_url: url }];
  return copy;
}

type CliOptions = StartSimulatorOptions & { quiet: boolean; help: boolean; printSeed: boolean };

export function parseCli(argv: string[]): CliOptions {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      'api-port': { type: 'string' },
      'form-port': { type: 'string' },
      host: { type: 'string' },
      'api-prefix': { type: 'string' },
      'allow-remote-clients': { type: 'boolean' },
      seed: { type: 'string' },
      'print-seed': { type: 'boolean' },
      'webhook-url': { type: 'string' },
      'token-ttl': { type: 'string' },
      'latency-ms': { type: 'string' },
      'latency-jitter-ms': { type: 'string' },
      'fault-rate': { type: 'string' },
      'fault-path': { type: 'string', multiple: true },
      'drop-rate': { type: 'string' },
      'recharge-drop-rate': { type: 'string' },
      'recharge-delay-rate': { type: 'string' },
      'recharge-delay-ms': { type: 'string' },
      profile: { type: 'string', multiple: true },
      'webhook-timeout-ms': { type: 'string' },
      'webhook-connect-timeout-ms': { type: 'string' },
      'cors-origin': { type: 'string', multiple: true },
      'allowed-host': { type: 'string', multiple: true },
      'log-limit': { type: 'string' },
      'no-console': { type: 'boolean' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  const options: CliOptions = {
    apiPort: int(values['api-port'], 'api-port', 0, 65535) ?? 4010,
    formPort: int(values['form-port'], 'form-port', 0, 65535) ?? 4011,
    host: values.host ?? '127.0.0.1',
    allowRemoteClients: values['allow-remote-clients'] ?? false,
    console: !values['no-console'],
    quiet: values.quiet ?? false,
    help: values.help ?? false,
    printSeed: values['print-seed'] ?? false,
  };
  const set = <K extends keyof StartSimulatorOptions>(key: K, value: StartSimulatorOptions[K] | undefined) => {
    if (value !== undefined) (options as StartSimulatorOptions)[key] = value;
  };
  try {
    set(
      'apiPrefix',
      values['api-prefix'] === undefined ? undefined : checkApiPrefix(values['api-prefix'], '--api-prefix'),
    );
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  set('tokenTtlSeconds', int(values['token-ttl'], 'token-ttl', 1, 31_536_000));
  set('latencyMs', int(values['latency-ms'], 'latency-ms', 0, 600_000));
  set('latencyJitterMs', int(values['latency-jitter-ms'], 'latency-jitter-ms', 0, 600_000));
  set('faultRate', rate(values['fault-rate'], 'fault-rate'));
  set('faultPaths', values['fault-path']);
  set('dropRate', rate(values['drop-rate'], 'drop-rate'));
  const rechargeFaults = {
    dropRate: rate(values['recharge-drop-rate'], 'recharge-drop-rate'),
    delayRate: rate(values['recharge-delay-rate'], 'recharge-delay-rate'),
    delayMs: int(values['recharge-delay-ms'], 'recharge-delay-ms', 0, 600_000),
  };
  if (Object.values(rechargeFaults).some((value) => value !== undefined))
    set('rechargeFaults', JSON.parse(JSON.stringify(rechargeFaults)) as typeof rechargeFaults);
  try {
    set('profile', values.profile && profileOfNames(values.profile));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  set('webhookTimeoutMs', int(values['webhook-timeout-ms'], 'webhook-timeout-ms', 1, 600_000));
  set('webhookConnectTimeoutMs', int(values['webhook-connect-timeout-ms'], 'webhook-connect-timeout-ms', 1, 600_000));
  set('corsOrigins', values['cors-origin']);
  try {
    set('allowedHosts', values['allowed-host'] && checkAllowedHosts(values['allowed-host']));
  } catch (error) {
    throw new UsageError(`--allowed-host: ${(error as Error).message.replace(/^allowedHosts: /, '')}`);
  }
  set('logLimit', int(values['log-limit'], 'log-limit', 1, 1_000_000));
  if (values.seed !== undefined) options.seed = loadSeed(values.seed);
  if (values['webhook-url'] !== undefined)
    options.seed = withWebhookUrl(options.seed ?? defaultSeed, values['webhook-url']);
  return options;
}

function requestLine(entry: RequestLogEntry): string {
  const who = entry.clientUserId === undefined ? '' : ` user=${oneLine(entry.clientUserId)}`;
  return `${new Date(entry.time).toISOString()} ${entry.site} ${entry.method} ${oneLine(entry.path)} ${entry.status} auth=${entry.auth}${who}`;
}

function deliveryLogLine(delivery: WebhookDelivery): string {
  return `${new Date(delivery.time).toISOString()} webhook ${deliveryLine(delivery)}`;
}

function write(line: string): void {
  try {
    process.stdout.write(`${line}\n`);
  } catch {
    // A closed stdout must not take the simulator down.
  }
}

async function command(argv: string[]): Promise<void> {
  try {
    process.exitCode = await runCommand(argv, write);
  } catch (error) {
    const code = error instanceof CommandError ? error.exitCode : 1;
    process.stderr.write(`hub-embed-mock: ${(error as Error).message}\n${code === 2 ? `\n${COMMANDS_USAGE}` : ''}`);
    process.exitCode = code;
  }
}

async function certifyMain(argv: string[]): Promise<void> {
  try {
    process.exitCode = await certifyCommand(argv, write);
  } catch (error) {
    const usage = error instanceof CertifyUsageError;
    process.stderr.write(`hub-embed-mock certify: ${(error as Error).message}\n${usage ? `\n${CERTIFY_USAGE}` : ''}`);
    process.exitCode = usage ? 2 : 1;
  }
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv[0] === 'certify') return certifyMain(argv.slice(1));
  if ((COMMANDS as readonly string[]).includes(argv[0] ?? '')) return command(argv);
  let options;
  try {
    options = parseCli(argv);
  } catch (error) {
    process.stderr.write(`hub-embed-mock: ${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (options.help) {
    process.stdout.write(USAGE);
    return;
  }
  if (options.printSeed) {
    process.stdout.write(`${JSON.stringify(options.seed ?? defaultSeed, null, 2)}\n`);
    return;
  }
  const { quiet, help: _help, printSeed: _printSeed, ...startOptions } = options;
  // Handlers go in before anything is printed: a supervisor may signal as soon as it sees the JSON line.
  let running: Awaited<ReturnType<typeof startSimulator>> | undefined;
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    if (!running) process.exit(0);
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  running = await startSimulator({
    ...startOptions,
    ...(quiet
      ? {}
      : {
          onRequest: (entry: RequestLogEntry) => write(requestLine(entry)),
          onDelivery: (delivery: WebhookDelivery) => write(deliveryLogLine(delivery)),
        }),
  });
  if (stopping) {
    await running.close();
    process.exit(0);
  }
  const consoleUrl = startOptions.console === false ? null : `${running.baseUrl}/console/`;
  write(
    JSON.stringify({
      baseUrl: running.baseUrl,
      apiUrl: running.apiUrl,
      formUrl: running.formUrl,
      apiKey: running.apiKey,
      consoleUrl,
      outboundIps: OUTBOUND_IPS,
    }),
  );
  if (!quiet) {
    write(`API root: ${running.apiUrl}   (base-url / baseUrl / HUB_BASE_URL)`);
    if (consoleUrl) write(`Console:  ${consoleUrl}`);
    write(`Webhooks are sent from ${OUTBOUND_IPS.join(', ')}: put it on your receiver's allow-list.`);
    const hooks = running.hub.webhooks().configs;
    if (hooks.length > 0)
      write(
        `Webhooks go to: ${[...new Set(hooks.flatMap((hook) => [hook.notification_url, hook.billing_url]).filter(Boolean))].join(', ')}`,
      );
  }
}

process.stdout.on('error', () => {});
main().catch((error: unknown) => {
  process.stderr.write(`hub-embed-mock: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
