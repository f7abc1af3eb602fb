/**
 * The host kernel of bridge protocol v1: one page load's state (nonce, sessions), and where each message goes.
 *
 * The kernel is what a native app (iOS, Android, React Native, a test double) runs around the widget page.
 * Every native host in this repository is a thin shell around this one implementation: the shell moves
 * strings between the WebView and `receive()` / `send`, and the kernel decides everything else, with its
 * parts beside this file: the marker and nonce (page-scripts.ts), the checks on every message (checks.ts),
 * hello, handlers and replies (answers.ts, app-handlers.ts), requests to the page with timeouts
 * (requests-to-page.ts).
 */
import { isRecord } from '../core/http.js';
import { BRIDGE_VERSION, BridgeError, envelope } from '../bridge/protocol.js';
import type { BridgeMessage } from '../bridge/protocol.js';
import { createAnswerer } from './answers.js';
import { admit } from './checks.js';
import { eventRefusal } from './event-shapes.js';
import { decideNavigation, exactOrigins, originOf } from './navigation.js';
import { markerScript, randomNonce, receiveScript } from './page-scripts.js';
import { createRequestsToPage } from './requests-to-page.js';
import type { HostEvent, HostKernel, HostKernelOptions, PageRequestOptions } from './types.js';

/** Page sessions kept per load: a page has one per widget; more is a page saying hello in a loop. */
const MAX_SESSIONS = 16;
/** Request ids remembered per load to drop replays. */
const MAX_SEEN = 1000;

export function createHostKernel(options: HostKernelOptions): HostKernel {
  const { handlers = {}, transport } = options;
  const timeoutMs = options.timeoutMs ?? 10_000;
  let allowedOrigins = exactOrigins(options.allowedOrigins ?? []);
  const withNonce = options.nonce !== false;
  let nonce = withNonce ? (options.nonce as string | undefined) || randomNonce() : '';
  let sessions: string[] = [];
  let closed = false;
  /** Page requests being answered now (`sid id`): only these can be cancelled. */
  const answering = new Set<string>();
  /** Of those, the ones the page cancelled: their late answers are not sent. */
  const cancelled = new Set<string>();
  /** Request ids this load already saw (`sid id`), the newest MAX_SEEN: a replayed request is dropped. */
  const seen = new Set<string>();
  /** When the kernel last handed a URL to openExternal, for the rate limit. */
  let lastExternal = -Infinity;
  const externalIntervalMs = options.externalIntervalMs ?? 1000;

  const reject = (reason: string, raw: unknown) => options.onRejected?.(reason, raw);
  const answer = createAnswerer(options, timeoutMs);

  /** The message as sent: this load's nonce unless the host sends none. */
  const wire = (message: Partial<BridgeMessage>) => envelope(message, withNonce ? nonce : undefined);
  const deliver = (json: string) => options.send(receiveScript(json), json);
  const toPage = createRequestsToPage((message) => deliver(wire(message)));

  async function receive(raw: unknown): Promise<string | undefined> {
    if (closed) {
      reject('closed', raw);
      return undefined;
    }
    const message = admit(raw, { nonce: withNonce && nonce, sessions, transport });
    if (typeof message === 'string') {
      reject(message, raw);
      return undefined;
    }
    if (transport === 'wechat' && !sessions.includes(message.sid)) sessions = [...sessions, message.sid];
    options.onAccepted?.(message);

    const key = `${message.sid} ${message.id}`;
    switch (message.kind) {
      case 'evt': {
        const refusal = eventRefusal(message.method!, message.params);
        if (refusal) reject(refusal, raw);
        else options.onEvent?.({ name: message.method, params: message.params } as HostEvent);
        return undefined;
      }
      case 'cancel':
        if (answering.has(key)) cancelled.add(key);
        else reject('no such request', raw);
        return undefined;
      case 'res':
        if (!toPage.settle(message)) reject('no such request', raw);
        return undefined;
      case 'req': {
        // The page's ids are random: the same one again is a replay (one form.open id sent three times
        // would open three forms).
        if (seen.has(key)) {
          reject('duplicate', raw);
          return undefined;
        }
        seen.add(key);
        if (seen.size > MAX_SEEN) seen.delete(seen.values().next().value!);
        // A hello makes its session the newest, the one requests to the page go to by default; the
        // oldest beyond MAX_SESSIONS are forgotten, so hellos cannot grow the list without bound.
        if (message.method === 'bridge.hello')
          sessions = [...sessions.filter((sid) => sid !== message.sid), message.sid].slice(-MAX_SESSIONS);
        const load = nonce;
        answering.add(key);
        const body = await answer(message).finally(() => answering.delete(key));
        // Not for a page that cancelled the call, went away (a reload) or was closed meanwhile.
        if (closed || cancelled.delete(key) || load !== nonce) return undefined;
        const reply = wire({ sid: message.sid, id: message.id, kind: 'res', ...body });
        // What the app asked before any page said hello goes to this one, after the hello's answer.
        const flush = () => message.method === 'bridge.hello' && toPage.helloFrom(message.sid);
        if (options.replies === 'return') {
          queueMicrotask(flush);
          return reply;
        }
        deliver(reply);
        flush();
        return undefined;
      }
    }
  }

  function request(method: string, params: unknown = {}, { sid, timeoutMs: ms = timeoutMs }: PageRequestOptions = {}) {
    const target = sid ?? sessions.at(-1);
    if (closed) return Promise.reject(new BridgeError('E_CANCELLED', 'the host is closed'));
    if (transport === 'wechat') {
      return Promise.reject(new BridgeError('E_UNSUPPORTED', 'a WeChat mini-program cannot message the web-view page'));
    }
    return toPage.ask(target, method, params, ms);
  }

  return {
    get nonce() {
      return nonce;
    },
    get marker() {
      return markerScript({ ...options.markerExtras, transport, v: BRIDGE_VERSION, ...(withNonce && { nonce }) });
    },
    get sessions() {
      return sessions;
    },
    reload({ keepNonce = false, nonce: loaded } = {}) {
      if (withNonce && !keepNonce) nonce = loaded || randomNonce();
      sessions = [];
      cancelled.clear();
      seen.clear();
      toPage.failAll('E_CANCELLED', 'the page loaded again');
    },
    setAllowedOrigins(origins) {
      allowedOrigins = exactOrigins(origins);
    },
    receive,
    request,
    refresh: async () => {
      await request('widget.refresh');
    },
    setTags: async (tags) => {
      await request('widget.setTags', { tags: [...tags] });
    },
    closeForm: async () => {
      const result = await request('form.close');
      return isRecord(result) && result.closed === true;
    },
    decideNavigation(url, { isTopFrame = true, newWindow = false } = {}) {
      let decision = decideNavigation(url, allowedOrigins);
      // A frame inside the page is the page's business: a web page loads there, nothing leaves from it.
      if (!isTopFrame)
        return decision === 'blocked' || (decision === 'external' && !originOf(url)) ? 'blocked' : 'load';
      // A new window is never a second WebView inside the app: even the page's own origins go out.
      if (newWindow && decision === 'load') decision = url.startsWith('about:') ? 'blocked' : 'external';
      if (decision !== 'external') return decision;
      // The WebView does not say whether a user tapped: a page that sends the user out again and again
      // (to the store, a dialer, another app) is held to one open per externalIntervalMs.
      const now = Date.now();
      if (now - lastExternal < externalIntervalMs) {
        reject('external open limited', url);
        return 'blocked';
      }
      lastExternal = now;
      void Promise.resolve(handlers.openExternal?.(url)).catch(() => {});
      return decision;
    },
    close() {
      closed = true;
      toPage.failAll('E_CANCELLED', 'the host is closed', { all: true });
    },
  };
}
