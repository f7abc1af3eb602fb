import { afterEach, describe, expect, it, vi } from 'vitest';
import { fixture, fixtureCleanup, html, oneEvent } from '@open-wc/testing-helpers';
import axe from 'axe-core';
import '../../src/define.js';
import type { HubEmbed } from '../../src/components/hub-embed/hub-embed.js';
import type { HubTableGrid } from '../../src/components/hub-table-grid/hub-table-grid.js';
import type { HubTagFilter } from '../../src/components/hub-tag-filter/hub-tag-filter.js';
import type { HubFormFrame } from '../../src/components/hub-form-frame/hub-form-frame.js';
import type { TokenProvider } from '../../src/core/token-source.js';
import { exchangeToken, inChromium, part, parts, providerFor, setupHub, until, type Setup } from './helpers.js';

afterEach(() => {
  fixtureCleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const HUB_EVENTS = [
  'hub-ready',
  'hub-tags-change',
  'hub-table-select',
  'hub-form-open',
  'hub-form-close',
  'hub-error',
  'hub-form-message',
];

/** Records every hub-* event reaching the document. */
function record(): CustomEvent[] {
  const seen: CustomEvent[] = [];
  const listener = (event: Event) => seen.push(event as CustomEvent);
  for (const type of HUB_EVENTS) document.addEventListener(type, listener);
  afterEach(() => HUB_EVENTS.forEach((type) => document.removeEventListener(type, listener)));
  return seen;
}

interface Options {
  provider?: TokenProvider;
  attrs?: string;
  setup?: Setup;
}

/** A <hub-embed> against the simulator; attributes as a string so that each test shows its markup. */
async function embed(options: Options = {}): Promise<{ el: HubEmbed; s: Setup }> {
  const s = options.setup ?? setupHub();
  const el = document.createElement('hub-embed');
  el.setAttribute('base-url', s.hub.baseUrl);
  el.setAttribute('form-url', s.hub.formUrl);
  el.setAttribute('token-endpoint', s.endpoint);
  for (const [, name, value] of (options.attrs ?? '').matchAll(/([\w-]+)="([^"]*)"/g)) el.setAttribute(name!, value!);
  if (options.provider) el.tokenProvider = options.provider;
  await fixture(html`<div>${el}</div>`);
  return { el, s };
}

const grid = (el: HubEmbed) => el.shadowRoot!.querySelector<HubTableGrid>('hub-table-grid')!;
const filter = (el: HubEmbed) => el.shadowRoot!.querySelector<HubTagFilter>('hub-tag-filter')!;
const frame = (el: HubEmbed) => el.shadowRoot!.querySelector<HubFormFrame>('hub-form-frame');
const cards = (el: HubEmbed) => [...grid(el).shadowRoot!.querySelectorAll('hub-table-card')];
const chips = (el: HubEmbed) => parts<HTMLButtonElement>(filter(el), 'chip');
const ready = (el: HubEmbed) =>
  until(
    () => !!el.shadowRoot!.querySelector('hub-tag-filter') && grid(el).tables.length > 0 && !grid(el).loading,
    'the widget to load',
  );
const listUrls = (s: Setup) => s.urls.filter((url) => url.includes('published-list'));

async function clickCard(el: HubEmbed, index = 0): Promise<void> {
  const card = cards(el)[index]!;
  await card.updateComplete;
  const control = part(card, 'card')!;
  control.focus();
  control.click();
}

describe('<hub-embed>', () => {
  describe('configuration', () => {
    for (const [missing, attribute] of [
      ['base-url', 'base-url'],
      ['form-url', 'form-url'],
      ['token-endpoint', 'token-endpoint'],
    ]) {
      it(`a missing ${missing} shows a clear message naming the attribute, with no retry`, async () => {
        const s = setupHub();
        const el = document.createElement('hub-embed');
        const errors: CustomEvent[] = [];
        el.addEventListener('hub-error', (event) => errors.push(event));
        for (const [name, value] of [
          ['base-url', s.hub.baseUrl],
          ['form-url', s.hub.formUrl],
          ['token-endpoint', s.endpoint],
        ]) {
          if (name !== missing) el.setAttribute(name!, value!);
        }
        await fixture(html`<div>${el}</div>`);
        expect(part(el, 'error')!.textContent).toContain(attribute);
        expect(part(el, 'error')!.getAttribute('role')).toBe('alert');
        expect(part(el, 'retry')).toBeNull();
        expect(errors[0]!.detail.error.kind).toBe('config');
        expect(s.urls).toEqual([]);
      });
    }

    it('a non-https form-url is refused with a message naming form-url, before any request', async () => {
      const { el, s } = await embed({ attrs: 'form-url="http://forms.example.com"' });
      expect(part(el, 'error')!.textContent).toMatch(/form-url.*https/);
      expect(s.urls).toEqual([]);
    });

    it('a bad limit is a configuration error naming limit', async () => {
      const { el } = await embed({ attrs: 'limit="lots"' });
      await until(() => !!part(el, 'error'));
      expect(part(el, 'error')!.textContent).toContain('limit');
    });
  });

  describe('loading', () => {
    it('the token first, then tags and list in parallel; hub-ready {tags, tables}; the count is announced', async () => {
      const seen = record();
      const s = setupHub();
      const held = s.holdList('');
      const { el } = await embed({ setup: s });
      await held.seen;
      await el.updateComplete;
      expect(grid(el).loading).toBe(true);
      expect(parts(grid(el), 'skeleton').length).toBeGreaterThan(0);
      expect(part(grid(el), 'count')!.textContent).toBe('Loading…');
      // No waterfall: the tags request went out while the list request was still unanswered.
      expect(s.urls.filter((url) => url.includes(s.endpoint))).toHaveLength(1);
      expect(s.urls.some((url) => url.includes('published-tags'))).toBe(true);
      held.release();
      await ready(el);
      const apiPaths = s.hub.requestLog
        .filter((entry) => entry.site === 'api')
        .map((entry) => entry.path.split('/').pop());
      expect(apiPaths[0]).toBe('token');
      expect(apiPaths.slice(1).sort()).toEqual(['published-list', 'published-tags']);
      const readyEvent = seen.find((event) => event.type === 'hub-ready')!;
      expect(readyEvent.detail.tags.length).toBeGreaterThan(5);
      expect(readyEvent.detail.tables).toEqual(grid(el).tables);
      expect(part(grid(el), 'count')!.textContent).toBe(`${grid(el).tables.length} results`);
      expect(chips(el).length).toBe(readyEvent.detail.tags.length + 1);
    });

    it('adds <link rel="preconnect"> for the base origin (CORS) and the form origin', async () => {
      const { el, s } = await embed();
      await ready(el);
      const links = [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="preconnect"]')];
      const api = links.find((link) => link.href.startsWith(s.hub.baseUrl));
      const form = links.find((link) => link.href.startsWith(s.hub.formUrl));
      expect(api?.hasAttribute('crossorigin')).toBe(true);
      expect(form?.hasAttribute('crossorigin')).toBe(false);
    });

    it('tags attribute sets the initial selection; limit caps the list', async () => {
      const { el, s } = await embed({ attrs: 'tags="delivery, logistics" limit="3"' });
      await ready(el);
      expect(el.tags).toEqual(['delivery', 'logistics']);
      expect(listUrls(s)[0]).toContain(`tags=${encodeURIComponent('delivery,logistics')}`);
      expect(listUrls(s)[0]).toContain('limit=3');
      expect(grid(el).tables.length).toBeLessThanOrEqual(3);
      expect(filter(el).selected).toEqual(['delivery', 'logistics']);
    });

    it('tokenProvider overrides token-endpoint', async () => {
      const s = setupHub();
      const provider = vi.fn(providerFor(s.hub));
      const { el } = await embed({ setup: s, provider });
      await ready(el);
      expect(provider).toHaveBeenCalledTimes(1);
      expect(s.tokenCalls()).toBe(0);
    });

    it('two <hub-embed> with one token endpoint make exactly one token request', async () => {
      const s = setupHub();
      const wrapper = await fixture(html`<div>
        <hub-embed base-url=${s.hub.baseUrl} form-url=${s.hub.formUrl} token-endpoint=${s.endpoint}></hub-embed>
        <hub-embed base-url=${s.hub.baseUrl} form-url=${s.hub.formUrl} token-endpoint=${s.endpoint}></hub-embed>
      </div>`);
      const [a, b] = [...wrapper.querySelectorAll('hub-embed')];
      await ready(a!);
      await ready(b!);
      expect(s.tokenCalls()).toBe(1);
      expect(s.hub.requestLog.filter((entry) => entry.path.endsWith('/apikeys/token'))).toHaveLength(1);
    });

    it('works inside another shadow root', async () => {
      const s = setupHub();
      const host = await fixture<HTMLDivElement>(html`<div></div>`);
      const root = host.attachShadow({ mode: 'open' });
      const el = document.createElement('hub-embed');
      el.setAttribute('base-url', s.hub.baseUrl);
      el.setAttribute('form-url', s.hub.formUrl);
      el.setAttribute('token-endpoint', s.endpoint);
      root.append(el);
      await ready(el);
      const seen: CustomEvent[] = [];
      host.addEventListener('hub-form-open', (event) => seen.push(event as CustomEvent));
      await clickCard(el);
      await until(() => seen.length > 0);
      expect(frame(el)).not.toBeNull();
    });

    it('removed while loading and added again, it loads; listeners do not double', async () => {
      const s = setupHub();
      const el = document.createElement('hub-embed');
      el.setAttribute('base-url', s.hub.baseUrl);
      el.setAttribute('form-url', s.hub.formUrl);
      el.setAttribute('token-endpoint', s.endpoint);
      const holder = await fixture<HTMLDivElement>(html`<div></div>`);
      holder.append(el);
      el.remove();
      await new Promise((resolve) => setTimeout(resolve, 20));
      holder.append(el);
      await ready(el);
      const seen: CustomEvent[] = [];
      el.addEventListener('hub-form-open', (event) => seen.push(event));
      el.remove();
      holder.append(el);
      await el.updateComplete;
      await clickCard(el);
      await until(() => seen.length > 0);
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(seen).toHaveLength(1);
    });
  });

  describe('disconnect and reconnect', () => {
    it('a load cut off by removing the element runs again when the element is added back', async () => {
      const s = setupHub();
      // The first tags request waits, and fails as a real fetch does when the element aborts it.
      const held = s.holdTags({ honourAbort: true });
      const { el } = await embed({ setup: s });
      await held.seen;
      const parent = el.parentElement!;
      el.remove();
      await new Promise((resolve) => setTimeout(resolve, 10));
      const seen = record();
      parent.append(el);
      await ready(el);
      expect(filter(el).tags.length).toBeGreaterThan(0);
      expect(seen.filter((event) => event.type === 'hub-ready')).toHaveLength(1);
      expect(seen.filter((event) => event.type === 'hub-error')).toEqual([]);
    });
  });

  describe('tags', () => {
    it('a chip click fires hub-tags-change {selected} and fetches the list again; the old grid stays, busy', async () => {
      const seen = record();
      const { el, s } = await embed();
      await ready(el);
      const hold = s.holdList('tags=');
      const before = grid(el).tables;
      chips(el)[1]!.click();
      await hold.seen;
      await el.updateComplete;
      expect(grid(el).tables).toBe(before);
      expect(grid(el).loading).toBe(true);
      expect(part(grid(el), 'grid')!.getAttribute('aria-busy')).toBe('true');
      hold.release();
      await until(() => !grid(el).loading);
      const change = seen.find((event) => event.type === 'hub-tags-change')!;
      expect(change.detail.selected).toEqual([filter(el).tags[0]]);
      expect(el.tags).toEqual(change.detail.selected);
      expect(listUrls(s).at(-1)).toContain(`tags=${encodeURIComponent(filter(el).tags[0]!)}`);
    });

    it('race: a slow older list response arriving after a newer one never overwrites it', async () => {
      const { el, s } = await embed();
      await ready(el);
      const [first, second] = filter(el).tags as [string, string];
      const slow = s.holdList(`tags=${encodeURIComponent(first)}`);
      chips(el)[1]!.click();
      await slow.seen;
      chips(el)[1]!.click();
      chips(el)[2]!.click();
      await until(() => !grid(el).loading && listUrls(s).at(-1)!.includes(encodeURIComponent(second)));
      const newer = grid(el).tables;
      slow.release();
      await new Promise((resolve) => setTimeout(resolve, 30));
      await el.updateComplete;
      expect(grid(el).tables).toBe(newer);
      expect(el.tags).toEqual([second]);
    });

    it('race: a list answered for the old tags while the tag list was slow is never shown as current after a tag change', async () => {
      const seen = record();
      const { el, s } = await embed();
      await ready(el);
      const slowTags = s.holdTags();
      const count = listUrls(s).length;
      void el.refresh();
      await slowTags.seen;
      // The reload's list (old tags, none) is answered while the tag list is still on its way.
      const answeredLists = () => s.hub.requestLog.filter((entry) => entry.path.endsWith('published-list')).length;
      await until(() => listUrls(s).length > count && answeredLists() === count + 1, 'the reload list');
      const newList = s.holdList('tags=logistics');
      el.setTags(['logistics']);
      await newList.seen;
      slowTags.release();
      await until(
        () => s.hub.requestLog.filter((entry) => entry.path.endsWith('published-tags')).length === 2,
        'the tags answer',
      );
      await new Promise((resolve) => setTimeout(resolve, 20));
      await el.updateComplete;
      // The answer for the old tags must not come back as the result for ['logistics'].
      expect(grid(el).loading).toBe(true);
      newList.release();
      await until(() => !grid(el).loading, 'the logistics list');
      expect(listUrls(s).at(-1)).toContain('tags=logistics');
      expect(grid(el).tables[0]!.tags.some((tag) => tag.toLowerCase().includes('logistics'))).toBe(true);
      const readies = seen.filter((event) => event.type === 'hub-ready');
      expect(readies).toHaveLength(2);
      expect(readies[1]!.detail.tables).toBe(grid(el).tables);
    });

    it('hub-ready still fires, with the tables for the new tags, when the tags change during the first load', async () => {
      const seen = record();
      const s = setupHub();
      const slowTags = s.holdTags();
      const firstList = s.holdList('');
      const { el } = await embed({ setup: s });
      await slowTags.seen;
      await firstList.seen;
      el.setTags(['logistics']);
      await until(() => listUrls(s).some((url) => url.includes('tags=logistics')), 'the logistics request');
      firstList.release();
      slowTags.release();
      await ready(el);
      await until(() => seen.some((event) => event.type === 'hub-ready'), 'hub-ready');
      const readyEvent = seen.find((event) => event.type === 'hub-ready')!;
      expect(readyEvent.detail.tables).toBe(grid(el).tables);
      expect(readyEvent.detail.tables[0].tags.some((tag: string) => tag.toLowerCase().includes('logistics'))).toBe(
        true,
      );
      expect(readyEvent.detail.tags).toEqual(filter(el).tags);
      expect(seen.filter((event) => event.type === 'hub-ready')).toHaveLength(1);
    });

    it('a tag change while the token is being renewed for the previous list still loads the new list', async () => {
      const s = setupHub();
      let calls = 0;
      const provider: TokenProvider = async ({ signal }) => {
        calls++;
        // The first token is due for renewal at once; the renewal for the first tag change hangs until cancelled.
        if (calls === 1) return { ...(await exchangeToken(s.hub)), expires_in: 1 };
        if (calls === 2)
          return new Promise((_, reject) => signal!.addEventListener('abort', () => reject(new Error('cancelled'))));
        return exchangeToken(s.hub);
      };
      const { el } = await embed({ setup: s, provider });
      await ready(el);
      await new Promise((resolve) => setTimeout(resolve, 600));
      el.setTags(['retail']);
      await until(() => calls === 2, 'the renewal');
      el.setTags(['logistics']);
      await until(() => !grid(el).loading || !!part(el, 'error'), 'the logistics list');
      expect(part(el, 'error')).toBeNull();
      expect(listUrls(s).at(-1)).toContain('tags=logistics');
      expect(calls).toBe(3);
    });

    it('setTags() selects and refetches without firing an event', async () => {
      const seen = record();
      const { el, s } = await embed();
      await ready(el);
      const count = listUrls(s).length;
      el.setTags(['logistics']);
      await until(() => listUrls(s).length > count && !grid(el).loading);
      expect(listUrls(s).at(-1)).toContain('tags=logistics');
      expect(filter(el).selected).toEqual(['logistics']);
      expect(seen.filter((event) => event.type === 'hub-tags-change')).toEqual([]);
    });
  });

  describe('opening a form', () => {
    it('modal: hub-table-select then hub-form-open {shortCode}; a <dialog> holds the frame; close returns focus to the card', async () => {
      const seen = record();
      const { el, s } = await embed();
      await ready(el);
      const table = grid(el).tables[0]!;
      await clickCard(el);
      await until(() => !!frame(el));
      const dialog = part<HTMLDialogElement>(el, 'dialog')!;
      expect(dialog.tagName).toBe('DIALOG');
      await until(() => dialog.open);
      expect(frame(el)!.shortCode).toBe(table.short_code);
      expect(frame(el)!.formUrl).toBe(s.hub.formUrl);
      expect(seen.map((event) => event.type)).toContain('hub-table-select');
      expect(seen.find((event) => event.type === 'hub-form-open')!.detail).toEqual({ shortCode: table.short_code });
      await frame(el)!.updateComplete;
      part(frame(el)!, 'close')!.click();
      await el.updateComplete;
      expect(dialog.open).toBe(false);
      expect(frame(el)).toBeNull();
      expect(seen.filter((event) => event.type === 'hub-form-close').map((event) => event.detail)).toEqual([
        { shortCode: table.short_code },
      ]);
      await el.updateComplete;
      if (inChromium) expect(cards(el)[0]!.shadowRoot!.activeElement).toBe(part(cards(el)[0]!, 'card'));
    });

    it.skipIf(!inChromium)('modal: Escape closes the dialog and fires hub-form-close', async () => {
      const { userEvent } = await import('vitest/browser');
      const { el } = await embed();
      await ready(el);
      await clickCard(el);
      await until(() => part<HTMLDialogElement>(el, 'dialog')!.open);
      const closed = oneEvent(el, 'hub-form-close');
      await userEvent.keyboard('{Escape}');
      await closed;
      expect(part<HTMLDialogElement>(el, 'dialog')!.open).toBe(false);
    });

    it('hub-table-select is cancelable: preventDefault() keeps the form closed', async () => {
      const seen = record();
      const { el } = await embed();
      await ready(el);
      el.addEventListener('hub-table-select', (event) => event.preventDefault());
      await clickCard(el);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(frame(el)).toBeNull();
      expect(part<HTMLDialogElement>(el, 'dialog')!.open).toBe(false);
      expect(seen.filter((event) => event.type === 'hub-table-select')).toHaveLength(1);
      expect(seen.filter((event) => event.type === 'hub-form-open')).toEqual([]);
    });

    it('inline: the frame replaces the grid, with a back control that restores it', async () => {
      const { el } = await embed({ attrs: 'open-mode="inline"' });
      await ready(el);
      await clickCard(el);
      await until(() => !!frame(el));
      expect(part(el, 'dialog')).toBeNull();
      expect(part(el, 'body')!.hidden).toBe(true);
      const back = part(el, 'back')!;
      expect(back.textContent).toContain('Back');
      const closed = oneEvent(el, 'hub-form-close');
      back.click();
      await closed;
      await el.updateComplete;
      expect(frame(el)).toBeNull();
      expect(part(el, 'body')!.hidden).toBe(false);
    });

    it('navigate: top-level navigation to the form URL', async () => {
      const opened = vi.spyOn(window, 'open').mockImplementation(() => null);
      const { el, s } = await embed({ attrs: 'open-mode="navigate"' });
      await ready(el);
      const table = grid(el).tables[0]!;
      await clickCard(el);
      await until(() => opened.mock.calls.length > 0);
      const [url, target] = opened.mock.calls[0]!;
      expect(target).toBe('_top');
      expect(String(url).startsWith(`${s.hub.formUrl}/${encodeURIComponent(table.short_code)}?token=`)).toBe(true);
      expect(frame(el)).toBeNull();
    });

    it('openFormHook: a host that handles the form gets {shortCode, url} and the element opens nothing', async () => {
      const { el, s } = await embed();
      await ready(el);
      const hook = vi.fn(async () => true);
      el.openFormHook = hook;
      await clickCard(el);
      await until(() => hook.mock.calls.length > 0);
      const [request] = hook.mock.calls[0]! as unknown as [{ shortCode: string; url: string }];
      expect(request.url.startsWith(s.hub.formUrl)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(frame(el)).toBeNull();
      el.openFormHook = async () => false;
      await clickCard(el);
      await until(() => !!frame(el));
    });

    it('before opening a form the token must have 60 s left, else a fresh one is fetched first', async () => {
      const s = setupHub();
      let calls = 0;
      const provider: TokenProvider = async () => {
        calls++;
        const token = await exchangeToken(s.hub);
        return { ...token, expires_in: 59 };
      };
      const { el } = await embed({ setup: s, provider });
      await ready(el);
      expect(calls).toBe(1);
      await clickCard(el);
      await until(() => !!frame(el));
      expect(calls).toBe(2);
    });

    it('closeForm() closes the form and fires hub-form-close; refresh() reloads', async () => {
      const { el, s } = await embed();
      await ready(el);
      await clickCard(el);
      await until(() => !!frame(el));
      const closed = oneEvent(el, 'hub-form-close');
      el.closeForm();
      await closed;
      expect(frame(el)).toBeNull();
      const count = listUrls(s).length;
      await el.refresh();
      expect(listUrls(s).length).toBe(count + 1);
    });

    it('no event payload carries the token', async () => {
      const seen = record();
      const { el, s } = await embed();
      await ready(el);
      await clickCard(el);
      await until(() => !!frame(el));
      el.closeForm();
      const token =
        frame(el)?.token ??
        new URL(s.urls.find((url) => url.includes('token=')) ?? 'http://x/?token=').searchParams.get('token');
      const tokens = s.hub.requestLog.length ? [token] : [];
      expect(seen.length).toBeGreaterThan(3);
      for (const event of seen) {
        const text = JSON.stringify(event.detail);
        expect(text).not.toMatch(/token/i);
        for (const t of tokens) if (t) expect(text).not.toContain(t);
      }
    });
  });

  describe('errors', () => {
    it('token failure: a localized message with a retry control that recovers', async () => {
      let fail = true;
      const s = setupHub();
      const provider: TokenProvider = async () => {
        if (fail) throw new Error('backend down');
        return exchangeToken(s.hub);
      };
      const { el } = await embed({ setup: s, provider, attrs: 'locale="zh-CN"' });
      await until(() => !!part(el, 'error'));
      expect(part(el, 'error')!.textContent).toContain('无法登录');
      fail = false;
      part(el, 'retry')!.click();
      await ready(el);
      expect(part(el, 'error')).toBeNull();
    });

    it('401 after the retry: the unauthorized message', async () => {
      const s = setupHub();
      const provider = vi.fn(async () => ({ access_token: 'not-a-token', expires_in: 3600 }));
      const errors: CustomEvent[] = [];
      const { el } = await embed({ setup: s, provider });
      el.addEventListener('hub-error', (event) => errors.push(event));
      await until(() => !!part(el, 'error'));
      expect(part(el, 'error')!.textContent).toContain('Access was refused');
      expect(s.hub.requestLog.some((entry) => entry.status === 401)).toBe(true);
      expect(provider.mock.calls.length).toBeGreaterThanOrEqual(2);
      expect(part(el, 'retry')).not.toBeNull();
    });

    it('network failure: the network message, and retry loads once the network is back', async () => {
      const s = setupHub();
      s.offline.value = true;
      const { el } = await embed({ setup: s });
      await until(() => !!part(el, 'error'));
      expect(part(el, 'error')!.textContent).toContain('Network error');
      s.offline.value = false;
      part(el, 'retry')!.click();
      await ready(el);
    });

    it('one hub-error per failed load, whether the tags, the list or both fail', async () => {
      const seen = record();
      const s = setupHub();
      s.offline.value = true;
      const { el } = await embed({ setup: s });
      await until(() => !!part(el, 'error'));
      // Both requests have failed by now; wait a little for a late second event.
      await until(() => s.urls.filter((url) => url.includes('/published-')).length === 2, 'both requests');
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(seen.filter((event) => event.type === 'hub-error')).toHaveLength(1);
      el.remove();
      // Every list answer fails with 500; the tags, answered after the list error, still succeed.
      const failing = setupHub({ faultRate: 1 });
      const slowTags = failing.holdTags();
      const other = await embed({ setup: failing });
      await slowTags.seen;
      await until(() => !!part(other.el, 'error'), 'the list error');
      slowTags.release();
      await until(() => !!other.el.shadowRoot!.querySelector('hub-tag-filter'), 'the tags');
      expect(seen.filter((event) => event.type === 'hub-error')).toHaveLength(2);
      expect(part(other.el, 'retry')).toBeTruthy();
    });

    it('a failed list for new tags leaves no cards of the old tags under the error', async () => {
      const s = setupHub();
      const { el } = await embed({ setup: s });
      await ready(el);
      const cards = () =>
        el.shadowRoot!.querySelector('hub-table-grid')?.shadowRoot?.querySelectorAll('hub-table-card').length ?? 0;
      expect(cards()).toBeGreaterThan(0);
      s.offline.value = true;
      el.tags = ['delivery'];
      await until(() => !!part(el, 'error'));
      await el.updateComplete;
      expect(cards()).toBe(0);
    });

    it('a tag change under an error is a retry that shows the list for the new tags', async () => {
      const s = setupHub();
      const { el } = await embed({ setup: s });
      await ready(el);
      s.offline.value = true;
      el.tags = ['delivery'];
      await until(() => !!part(el, 'error'));
      s.offline.value = false;
      el.tags = ['education'];
      await until(
        () =>
          !part(el, 'error') &&
          !!el.shadowRoot!.querySelector('hub-table-grid')?.shadowRoot?.querySelector('hub-table-card'),
      );
      const grid = el.shadowRoot!.querySelector('hub-table-grid') as HTMLElement & { tables: { tags: string[] }[] };
      expect(grid.tables[0]!.tags.some((tag) => tag.toLowerCase().includes('education'))).toBe(true);
    });

    it('API error (HTTP 500 from the simulator): the API message and hub-error {error} with kind api', async () => {
      const s = setupHub({ faultRate: 1 });
      const el = document.createElement('hub-embed');
      const errors: CustomEvent[] = [];
      el.addEventListener('hub-error', (event) => errors.push(event));
      el.setAttribute('base-url', s.hub.baseUrl);
      el.setAttribute('form-url', s.hub.formUrl);
      el.setAttribute('token-endpoint', s.endpoint);
      await fixture(html`<div>${el}</div>`);
      await until(() => !!part(el, 'error'));
      expect(part(el, 'error')!.textContent).toContain('The service had a problem');
      expect(errors[0]!.detail.error.kind).toBe('api');
      expect(errors[0]!.detail.error.status).toBe(500);
    });
  });

  describe('theming and text', () => {
    it('theme reflects (light, dark, auto) and drives the color scheme', async () => {
      const { el } = await embed({ attrs: 'theme="dark"' });
      expect(el.theme).toBe('dark');
      if (inChromium) expect(getComputedStyle(el).colorScheme).toBe('dark');
      el.theme = 'light';
      await el.updateComplete;
      expect(el.getAttribute('theme')).toBe('light');
      if (inChromium) expect(getComputedStyle(el).colorScheme).toBe('light');
    });

    // happy-dom computes no inherited custom properties.
    it.skipIf(!inChromium)('--hub-* properties reach the inner cards', async () => {
      const { el } = await embed();
      await ready(el);
      el.style.setProperty('--hub-color-bg', 'rgb(1, 2, 3)');
      const card = part(cards(el)[0]!, 'card')!;
      expect(getComputedStyle(card).backgroundColor).toBe('rgb(1, 2, 3)');
    });

    it('locale and strings localize every element', async () => {
      const { el } = await embed({ attrs: 'locale="zh-CN"' });
      await ready(el);
      expect(chips(el)[0]!.textContent).toBe('全部');
      el.strings = { all: 'Tout' };
      await el.updateComplete;
      await filter(el).updateComplete;
      expect(chips(el)[0]!.textContent).toBe('Tout');
      expect(part(grid(el), 'count')!.textContent).toContain('共');
    });
  });

  it.skipIf(!inChromium)('passes axe (grid, and with the dialog open)', async () => {
    const { el } = await embed();
    await ready(el);
    await Promise.all(cards(el).map((card) => card.updateComplete));
    expect((await axe.run(el)).violations).toEqual([]);
    await clickCard(el);
    await until(() => !!frame(el));
    await frame(el)!.updateComplete;
    expect((await axe.run(el)).violations).toEqual([]);
  });
});
