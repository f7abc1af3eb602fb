/** Node-only: serve a Simulator on two node:http servers (the API site and the form site). */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DroppedAnswer } from './answer-faults.js';
import { createSimulator } from './hub.js';
import { MAX_REQUEST_BODY_BYTES } from './http.js';
import { nodeWebhookSender } from './node-sender.js';
import { bindWarning, peerRefusal } from './peers.js';
import type { Simulator, SimulatorOptions, WebhookDelivery } from './types.js';

export interface StartSimulatorOptions extends SimulatorOptions {
  /**
   * The address (or name) to bind, as in `server.listen({host})`; default 127.0.0.1. Beyond loopback, a
   * warning goes to `onWarning`.
   */
  // eslint-disable-next-line id-denylist -- the bind address, named as server.listen and --host name it
  host?: string;
  apiPort?: number;
  formPort?: number;
  /**
   * Answer clients on other machines too (default false: peers whose socket address is not loopback
   * get 403, whatever their Host header says). The simulator has no login; see docs/simulator.md.
   */
  allowRemoteClients?: boolean;
  /** Where the start-up warning for a bind beyond loopback goes; default stderr. */
  onWarning?: (message: string) => void;
}

export interface RunningSimulator {
  /** The API site's origin, the service's `{base_url}`. */
  baseUrl: string;
  /** The API root (`baseUrl` + the `apiPrefix`): what `base-url` and `baseUrl` take under any prefix. */
  apiUrl: string;
  formUrl: string;
  apiKey: string;
  hub: Simulator;
  close(): Promise<void>;
}

/** A bind address as a URL's hostname: an IPv6 literal in brackets. */
function urlHostnameOf(bindAddress: string): string {
  return bindAddress.includes(':') && !bindAddress.startsWith('[') ? `[${bindAddress}]` : bindAddress;
}

/**
 * Turns a node request into a Web Request, enforcing the body limit while streaming so an oversized
 * upload is refused without being buffered. Returns null after answering 413 itself.
 */
async function toWebRequest(
  req: IncomingMessage,
  res: ServerResponse,
  origin: string,
  onTooLarge: () => Response,
): Promise<Request | null> {
  const url = new URL(req.url ?? '/', origin);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  let body: Buffer | undefined;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    const chunks: Buffer[] = [];
    let size = 0;
    const tooLarge = await new Promise<boolean>((resolve, reject) => {
      req.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_REQUEST_BODY_BYTES) {
          req.removeAllListeners('data');
          req.pause();
          resolve(true);
          return;
        }
        chunks.push(chunk);
      });
      req.on('end', () => resolve(false));
      req.on('error', reject);
    });
    if (tooLarge) {
      res.setHeader('connection', 'close');
      await sendWebResponse(res, onTooLarge());
      req.socket.destroySoon?.();
      return null;
    }
    body = Buffer.concat(chunks);
  }
  return new Request(url, {
    method: req.method ?? 'GET',
    headers,
    ...(body !== undefined ? { body: new Uint8Array(body) } : {}),
  });
}

/** Methods the server answers; others are refused before any body is read. */
const ALLOWED_METHODS = { api: 'GET, HEAD, POST, PUT, OPTIONS', form: 'GET, HEAD, POST' };

/**
 * Node's parser accepts methods a Web Request refuses (TRACE, CONNECT, TRACK are forbidden there),
 * which the Request constructor would turn into a 500. They get a 405 instead.
 */
function isWebMethod(method: string): boolean {
  try {
    new Request('http://127.0.0.1/', { method });
    return true;
  } catch {
    return false;
  }
}

function refuse(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify({ code: status, message, data: null }));
}

async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  res.writeHead(response.status, headers);
  res.end(response.body ? Buffer.from(await response.arrayBuffer()) : undefined);
}

/**
 * What HUB_MOCK_CONTRACT_CHECK's module sees: every answer of the API site (a clone) with the prefix the
 * open API is served under, and every webhook delivery.
 */
interface ContractCheck {
  answer(request: Request, response: Response, apiPrefix: string): Promise<void>;
  delivery(delivery: WebhookDelivery): void;
}

/**
 * Tests only: the environment variable names a module (test/contract/simulator-hook.mjs) that checks what
 * the simulator says against openapi.json and fails the test run on a mismatch. Unset, nothing is loaded.
 */
async function contractCheckFromEnvironment(): Promise<ContractCheck | undefined> {
  const file = process.env.HUB_MOCK_CONTRACT_CHECK;
  if (!file) return undefined;
  return ((await import(pathToFileURL(resolve(file)).href)) as { default: ContractCheck }).default;
}

function checkedDelivery(check: ContractCheck, onDelivery: SimulatorOptions['onDelivery']) {
  return (delivery: WebhookDelivery) => {
    check.delivery(delivery);
    onDelivery?.(delivery);
  };
}

function listen(server: Server, port: number, bindAddress: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, bindAddress, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Starts the API site and the form site on loopback (unless told otherwise); port 0 picks free ports. */
export async function startSimulator(options: StartSimulatorOptions = {}): Promise<RunningSimulator> {
  const {
    host: bindAddress = '127.0.0.1',
    apiPort = 0,
    formPort = 0,
    allowRemoteClients = false,
    onWarning = (message: string) => process.stderr.write(`${message}\n`),
    ...hubOptions
  } = options;
  let hub: Simulator | undefined;
  const contractCheck = await contractCheckFromEnvironment();
  let apiOrigin = '';
  let formOrigin = '';

  const answer = async (site: 'api' | 'form', req: IncomingMessage, res: ServerResponse) => {
    if (!hub) {
      res.destroy();
      return;
    }
    // First, before Host or anything else the client chooses: the socket's address it cannot choose.
    const peer = peerRefusal(req.socket.remoteAddress, allowRemoteClients);
    if (peer) {
      res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
      res.end(peer);
      return;
    }
    // HTTP/1.1 requires Host (Node answers 400 without it); an HTTP/1.0 request has to send one too,
    // because the Host check is the simulator's DNS-rebinding defence.
    if (req.headers.host === undefined) {
      refuse(res, 400, 'Send a Host header.');
      return;
    }
    const method = req.method ?? 'GET';
    if (!isWebMethod(method)) {
      refuse(res, 405, `Method ${method} is not allowed; use ${ALLOWED_METHODS[site]}.`, {
        allow: ALLOWED_METHODS[site],
      });
      return;
    }
    if (site === 'api' && hub.shouldDropConnection()) {
      req.socket.destroy();
      return;
    }
    const current = hub;
    try {
      const tooLarge = () => {
        const msg = {
          code: 413,
          message: `Request body is larger than ${MAX_REQUEST_BODY_BYTES} bytes; send a smaller body.`,
          data: null,
        };
        return new Response(JSON.stringify(msg), {
          status: 413,
          headers: { 'content-type': 'application/json; charset=utf-8' },
        });
      };
      const webReq = await toWebRequest(req, res, site === 'api' ? apiOrigin : formOrigin, tooLarge);
      if (!webReq) return;
      const response = await (site === 'api' ? current.handleApi(webReq) : current.handleForm(webReq));
      if (site === 'api') void contractCheck?.answer(webReq, response.clone(), current.apiPrefix);
      await sendWebResponse(res, response);
    } catch (error) {
      // The work is done and the caller never hears: the connection closes without a byte of answer.
      if (error instanceof DroppedAnswer) {
        req.socket.destroy();
        return;
      }
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify({ code: 500, message: 'Internal simulator error.', data: null }));
      } else res.destroy();
    }
  };

  // answer() turns its own failures into a 500 or a destroyed socket: nothing waits on its promise.
  const serve = (site: 'api' | 'form') => (req: IncomingMessage, res: ServerResponse) => void answer(site, req, res);
  const apiServer = createServer(serve('api'));
  const formServer = createServer(serve('form'));
  try {
    const boundApi = await listen(apiServer, apiPort, bindAddress);
    const boundForm = await listen(formServer, formPort, bindAddress);
    apiOrigin = `http://${urlHostnameOf(bindAddress)}:${boundApi}`;
    formOrigin = `http://${urlHostnameOf(bindAddress)}:${boundForm}`;
    // A caller's own fetch (or sender) wins; otherwise node:http gives a real connect timeout.
    const sender = hubOptions.webhookSender ?? (hubOptions.fetch ? undefined : nodeWebhookSender);
    const { onDelivery } = hubOptions;
    hub = createSimulator({
      ...hubOptions,
      ...(sender ? { webhookSender: sender } : {}),
      ...(contractCheck ? { onDelivery: checkedDelivery(contractCheck, onDelivery) } : {}),
      baseUrl: apiOrigin,
      formUrl: formOrigin,
    });
  } catch (error) {
    apiServer.close();
    formServer.close();
    throw error;
  }

  const warning = bindWarning(bindAddress, allowRemoteClients);
  if (warning) onWarning(warning);

  const close = async () => {
    const stop = (server: Server) =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    await Promise.all([stop(apiServer), stop(formServer)]);
  };
  return { baseUrl: hub.baseUrl, apiUrl: hub.apiUrl, formUrl: hub.formUrl, apiKey: hub.apiKey, hub, close };
}
