// Test-only helpers. The "developer backend" below holds the simulator's API key, which is why it
// lives here and never in src/.
import { fixture, html } from '@open-wc/testing';
import { vi } from 'vitest';
import type { HubEmbed } from '../../src/components/hub-embed/hub-embed.js';
import type { HubFormFrame } from '../../src/components/hub-form-frame/hub-form-frame.js';
import type { CardNode } from '../../src/components/hub-table-card/card-template.js';
import type { HubTableGrid } from '../../src/components/hub-table-grid/hub-table-grid.js';
import type { HubTagFilter } from '../../src/components/hub-tag-filter/hub-tag-filter.js';
import { publishedListPath } from '../../src/core/paths.js';
import type { AccessToken, PublishedTable } from '../../src/core/types.js';
import { toTable } from '../../src/core/web-client.js';
import type { TokenProvider } from '../../src/core/token-source.js';
import { createSimulator, type Simulator } from '../../packages/hub-embed-mock/src/hub.js';

export const inChromium =
  typeof navigator !== 'undefined' && /Chrome\//.test(navigator.userAgent) && !/HappyDOM/.test(navigator.userAgent);

/** A real token for `user` from the simulator's token route, as a developer's backend would get it. */
export async function exchangeToken(hub: Simulator, user = 'user-alice'): Promise<AccessToken> {
  const response = await hub.fetch(`${hub.apiUrl}/apikeys/token`, {
    method: 'POST',
    headers: { 'X-API-Key': hub.apiKey, 'Content-Type': 'application/json' },
    body: JSON.stringify({ client_user_id: user }),
  });
  const body = (await response.json()) as { data: AccessToken };
  return body.data;
}

/**
 * What a server's prefetch would hold for renderFirstView, from the same simulator: the offered tags, and
 * the list for `tags` (at most `limit`) as the client reads it.
 */
export async function publishedAnswers(
  hub: Simulator,
  load: { tags: string[]; limit: number },
): Promise<{ offered: string[]; tables: PublishedTable[] }> {
  const token = (await exchangeToken(hub)).access_token;
  const get = async (path: string) => {
    const response = await hub.fetch(`${hub.apiUrl}/projects/${path}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    return ((await response.json()) as { data: { list: unknown[] } }).data.list;
  };
  const offered = (await get('published-tags')).filter((tag): tag is string => typeof tag === 'string' && !!tag);
  const tables = (await get(publishedListPath(load))).map(toTable).filter((table): table is PublishedTable => !!table);
  return { offered, tables };
}

export function providerFor(hub: Simulator): TokenProvider {
  return () => exchangeToken(hub);
}

let endpoints = 0;

export interface Hold {
  release: () => void;
  /** Settles when the held request has been sent. */
  seen: Promise<void>;
}

export interface HoldOptions {
  /**
   * The held request fails with an AbortError when the widget aborts it, as a real fetch does. Without
   * it the answer still arrives, like a response already on the wire.
   */
  honourAbort?: boolean;
}

export interface Setup {
  hub: Simulator;
  /** A token endpoint path unique to this test (the page-wide token cache is keyed by it). */
  endpoint: string;
  /** Calls the token endpoint received. */
  tokenCalls: () => number;
  /** Holds back the next list request whose URL contains `match` until `release()`. */
  holdList: (match: string, options?: HoldOptions) => Hold;
  /** Holds back the next published-tags request until `release()`. */
  holdTags: (options?: HoldOptions) => Hold;
  /** While true, requests to the API site fail like a dropped connection, and navigator.onLine is false. */
  offline: { value: boolean };
  /** The next `value` requests to the API site fail like a dropped connection, while the browser stays online. */
  drops: { value: number };
  /** Every URL fetched, in order. */
  urls: string[];
}

/**
 * A simulator behind the global fetch, plus a token endpoint served like a developer's backend would
 * (it forwards to the simulator's real token route with the API key).
 */
export function setupHub(options: Parameters<typeof createSimulator>[0] = {}): Setup {
  const hub = createSimulator(options);
  const endpoint = `/test-token-${++endpoints}`;
  let calls = 0;
  const holds: { path: string; match: string; gate: Promise<void>; seen: () => void; honourAbort: boolean }[] = [];
  const offline = { value: false };
  const drops = { value: 0 };
  // Offline is the browser's own state too, as a real one is: navigator.onLine says so while requests fail.
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => !offline.value });
  const urls: string[] = [];
  const fetchImpl = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    urls.push(url);
    if (url.endsWith(endpoint)) {
      calls++;
      return Response.json(await exchangeToken(hub));
    }
    if (offline.value && url.startsWith(hub.baseUrl)) throw new TypeError('Failed to fetch');
    if (drops.value > 0 && url.startsWith(hub.baseUrl)) {
      drops.value--;
      throw new TypeError('Failed to fetch');
    }
    const hold = holds.find((h) => url.includes(h.path) && url.includes(h.match));
    if (hold) {
      holds.splice(holds.indexOf(hold), 1);
      hold.seen();
      if (hold.honourAbort) {
        const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
        const aborted = new Promise<never>((_, reject) =>
          signal?.addEventListener('abort', () => reject(new DOMException('The request was aborted.', 'AbortError')), {
            once: true,
          }),
        );
        await Promise.race([hold.gate, aborted]);
        return hub.fetch(input, init);
      }
      // The simulator still answers; only the delivery is late (and ignores the abort signal, like a
      // response already on the wire).
      const answer = hub.fetch(input, { ...init, signal: null });
      await hold.gate;
      return answer;
    }
    return hub.fetch(input, init);
  };
  function hold(path: string, match: string, options: HoldOptions = {}): Hold {
    let release!: () => void;
    let seen!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const seenPromise = new Promise<void>((resolve) => (seen = resolve));
    holds.push({ path, match, gate, seen, honourAbort: options.honourAbort ?? false });
    return { release, seen: seenPromise };
  }
  vi.stubGlobal('fetch', fetchImpl);
  return {
    hub,
    endpoint,
    tokenCalls: () => calls,
    offline,
    drops,
    urls,
    holdList: (match, options) => hold('published-list', match, options),
    holdTags: (options) => hold('published-tags', '', options),
  };
}

/**
 * Waits until `check` passes, on the real event loop (no timing assertions). The bound is 10 s of wall
 * time, not a count of polls: a check that passes returns at once, and a busy CI machine (lanes side by
 * side, other jobs) can take seconds to run what a quiet one runs in milliseconds.
 */
export async function until(check: () => boolean | undefined, what = 'condition'): Promise<void> {
  const deadline = performance.now() + 10_000;
  while (!check()) {
    if (performance.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The element's shadow-root parts, as a test may see them. */
/** The first element of part `name` in `host`'s shadow root, or inside `host` itself when it has none (a grid's card). */
export function part<T extends Element = HTMLElement>(host: Element, name: string): T | null {
  return (host.shadowRoot ?? host).querySelector<T>(`[part~="${name}"]`);
}

export function parts<T extends Element = HTMLElement>(host: Element, name: string): T[] {
  return [...(host.shadowRoot ?? host).querySelectorAll<T>(`[part~="${name}"]`)];
}

export function key(target: Element, keyName: string): KeyboardEvent {
  const event = new KeyboardEvent('keydown', { key: keyName, bubbles: true, composed: true, cancelable: true });
  target.dispatchEvent(event);
  return event;
}

export interface EmbedOptions {
  provider?: TokenProvider;
  /** Whether token-endpoint is set to the setup's endpoint (default true; a host may supply tokens instead). */
  tokenEndpoint?: boolean;
}

/**
 * A connected <hub-embed> against the simulator of `s`. Attributes as markup (`'open-mode="inline"'`),
 * so that each test shows what a page would write, or as a record.
 */
export async function embed(
  s: Setup,
  attrs: string | Record<string, string> = {},
  options: EmbedOptions = {},
): Promise<HubEmbed> {
  const el = document.createElement('hub-embed');
  el.setAttribute('base-url', s.hub.baseUrl);
  el.setAttribute('form-url', s.hub.formUrl);
  if (options.tokenEndpoint !== false) el.setAttribute('token-endpoint', s.endpoint);
  const pairs = typeof attrs === 'string' ? [...attrs.matchAll(/([\w-]+)="([^"]*)"/g)].map(([, n, v]) => [n!, v!]) : [];
  for (const [name, value] of typeof attrs === 'string' ? pairs : Object.entries(attrs)) el.setAttribute(name!, value!);
  if (options.provider) el.tokenProvider = options.provider;
  await fixture(html`<div>${el}</div>`);
  return el;
}

/** `embed()`, once the widget shows its tags and a list that is not loading. */
export async function loadedEmbed(
  s: Setup,
  attrs: string | Record<string, string> = {},
  options: EmbedOptions = {},
): Promise<HubEmbed> {
  const el = await embed(s, attrs, options);
  await ready(el);
  return el;
}

/** The inner elements of a <hub-embed>, as a test reaches them. */
export const gridOf = (el: HubEmbed) => el.shadowRoot!.querySelector<HubTableGrid>('hub-table-grid')!;
export const filterOf = (el: HubEmbed) => el.shadowRoot!.querySelector<HubTagFilter>('hub-tag-filter')!;
export const frameOf = (el: HubEmbed) => el.shadowRoot!.querySelector<HubFormFrame>('hub-form-frame');
/** The grid's cards: each a list item in its shadow root, carrying its table. */
export const cardsOf = (el: HubEmbed) => [...gridOf(el).shadowRoot!.querySelectorAll<CardNode>('[role="listitem"]')];
export const chipsOf = (el: HubEmbed) => parts<HTMLButtonElement>(filterOf(el), 'chip');

/** Waits until the widget shows its tags and a list that is not loading. */
export async function ready(el: HubEmbed): Promise<void> {
  await until(
    () => !!filterOf(el) && (gridOf(el)?.tables.length ?? 0) > 0 && !gridOf(el).loading,
    'the widget to load',
  );
  // The cards after the first few come a few a task (hub-table-grid), and hub-ready after the last: a
  // task after the widget's update has completed, hub-ready has been sent.
  await el.updateComplete;
  await new Promise((resolve) => setTimeout(resolve));
}

/** Focuses and clicks the card at `index`, as a user would. */
export async function clickCard(el: HubEmbed, index = 0): Promise<void> {
  const control = part(cardsOf(el)[index]!, 'card')!;
  control.focus();
  control.click();
}
