// @ts-check
// Serves the Hono app on the runtime this module runs on: Node (@hono/node-server), Bun (Bun.serve) or
// Deno (Deno.serve). The app and everything it does are the same on each; only how to listen and where
// the peer address comes from (Hono's getConnInfo of that runtime's adapter) differ.
// main.js runs it from environment variables on any of the three; start.js on Node with the simulator.
import { createSessions } from '../express/sessions.js';
import { createHonoApp } from './app.js';
import { readExampleFiles } from './files.js';
import { createMemoryInbox, createMemoryLedger } from './stores.js';

/**
 * The little of Bun's and Deno's globals used here (the repository type-checks with Node's types).
 * @typedef {{ serve(options: { port: number, hostname: string, fetch: (request: Request, server: unknown) => Response | Promise<Response> }): { port: number } }} BunGlobal
 * @typedef {{ serve(options: { port: number, hostname: string, onListen(address: { port: number }): void }, handler: (request: Request, info: unknown) => Response | Promise<Response>): { shutdown(): Promise<void> } }} DenoGlobal
 */
const g = /** @type {{ Bun?: BunGlobal, Deno?: DenoGlobal }} */ (globalThis);

/** @returns {'bun' | 'deno' | 'node'} */
export const runtimeName = () => (g.Bun ? 'bun' : g.Deno ? 'deno' : 'node');

/**
 * @typedef {object} ServeOptions
 * @property {string} apiKey
 * @property {string} hubBaseUrl
 * @property {string} hubFormUrl
 * @property {number} port 0 for a free one
 * @property {readonly string[]} allowIps
 * @property {readonly string[]} [allowedHosts]
 */

/**
 * Listens on 127.0.0.1 and serves the app; the app's own origin (for allowedOrigins) is known once the
 * port is, so the app is made then.
 * @param {ServeOptions} options
 * @returns {Promise<{ origin: string, close(): Promise<void> }>}
 */
export async function serveHonoExample(options) {
  const files = readExampleFiles();
  /** @param {number} port @param {(c: import('hono').Context) => string | undefined} peerAddress */
  const appFor = (port, peerAddress) =>
    createHonoApp({
      apiKey: options.apiKey,
      hubBaseUrl: options.hubBaseUrl,
      hubFormUrl: options.hubFormUrl,
      allowedOrigins: [`http://127.0.0.1:${port}`],
      allowedHosts: options.allowedHosts,
      allowIps: options.allowIps,
      peerAddress,
      ledger: createMemoryLedger(),
      inbox: createMemoryInbox(),
      sessions: createSessions(),
      files,
    });
  /** @type {ReturnType<typeof appFor> | undefined} */
  let app;
  const fetch = (/** @type {Request} */ request, /** @type {unknown} */ env) =>
    app ? app.fetch(request, env) : new Response('Starting', { status: 503 });

  if (g.Bun) {
    const { getConnInfo } = await import('hono/bun');
    const server = g.Bun.serve({ port: options.port, hostname: '127.0.0.1', fetch });
    app = appFor(server.port, (c) => getConnInfo(c).remote.address);
    return { origin: `http://127.0.0.1:${server.port}`, close: async () => /** @type {any} */ (server).stop(true) };
  }
  if (g.Deno) {
    const { getConnInfo } = await import('hono/deno');
    /** @type {(port: number) => void} */
    let listening = () => {};
    const ready = new Promise((resolve) => (listening = resolve));
    const server = g.Deno.serve(
      { port: options.port, hostname: '127.0.0.1', onListen: ({ port }) => listening(port) },
      fetch,
    );
    const port = /** @type {number} */ (await ready);
    app = appFor(port, (c) => getConnInfo(c).remote.address);
    return { origin: `http://127.0.0.1:${port}`, close: () => server.shutdown() };
  }
  const { serve } = await import('@hono/node-server');
  const { getConnInfo } = await import('@hono/node-server/conninfo');
  /** @type {import('node:http').Server} */
  let nodeServer;
  /** @type {number} */
  const port = await new Promise((resolve, reject) => {
    nodeServer = /** @type {import('node:http').Server} */ (
      serve({ fetch, port: options.port, hostname: '127.0.0.1' }, (info) => resolve(info.port))
    );
    nodeServer.once('error', reject);
  });
  app = appFor(port, (c) => getConnInfo(c).remote.address);
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        nodeServer.closeAllConnections();
        nodeServer.close(() => resolve());
      }),
  };
}
