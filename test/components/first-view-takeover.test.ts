// The element taking a server's first view over (issue 80, item 2): renderFirstView's markup in the page, the
// element defined, and what a user sees from the first frame on: the server's cards until ours are drawn,
// then ours in their place, in one frame, with the focus and the scroll where the user left them.
import { afterEach, describe, expect, it, vi } from 'vitest';

// The later half hands the view over (first-view-handover.ts). Its loader is the real one unless a test
// makes the next load fail, as a network that drops the chunk would.
const loader = vi.hoisted(() => ({
  calls: 0,
  failNext: false,
  current: undefined as undefined | Promise<unknown>,
}));
vi.mock('../../src/components/hub-embed/form-opener-loader.js', () => ({
  loadFormOpener: () => {
    loader.calls++;
    const fail = loader.failNext;
    loader.failNext = false;
    loader.current ??= (
      fail
        ? Promise.reject(new Error('the chunk did not load'))
        : import('../../src/components/hub-embed/later-half.js')
    ).catch((error: unknown) => {
      loader.current = undefined;
      throw error;
    });
    return loader.current;
  },
  formHalf: () => undefined,
}));

import '../../src/define.js';
import type { HubEmbed } from '../../src/components/hub-embed/hub-embed.js';
import { stringsFor } from '../../src/components/strings.js';
import { firstViewMarkup } from '../../src/first-view/first-view-markup.js';
import { gridOf, inChromium, publishedAnswers, setupHub, until, type Setup } from './helpers.js';

let page: HTMLElement | undefined;
afterEach(() => {
  page?.remove();
  page = undefined;
});

/** A page as a server wrote it: the element with its first view, parsed as HTML (declarative shadow DOM). */
async function serverPage(s: Setup, limit = 30, parse: 'html' | 'without-shadow-dom' = 'html'): Promise<HubEmbed> {
  for (let i = 0; i < limit; i++)
    s.hub.addTable({
      project_id: 9100 + i,
      short_code: `view-${i}`,
      name: `View table ${i}`,
      industry: 'Retail',
      // Stays loading (the test server's /never-answers/): the same icon in both views.
      icon: `${location.origin}/never-answers/view-${i}.png`,
      tags: ['view'],
      type: 'A',
      published: true,
      price_cents: 0,
    });
  const { offered, tables } = await publishedAnswers(s.hub, { tags: [], limit });
  const markup = firstViewMarkup({
    attributes: [
      ['token-endpoint', s.endpoint],
      ['base-url', s.hub.baseUrl],
      ['form-url', s.hub.formUrl],
      ['limit', String(limit)],
      ['locale', 'en'],
    ],
    strings: stringsFor('en'),
    offered,
    tables,
    selected: [],
    matchesOnly: false,
  });
  page = document.createElement('div');
  page.style.cssText = 'width: 640px';
  document.body.append(page);
  if (parse === 'html') page.setHTMLUnsafe(markup);
  // A parser without declarative shadow DOM, as a WebView before it had it (iOS 16.3, Android WebView 110)
  // parses the page: the <template> stays one, a light child of the element.
  else page.append(document.importNode(new DOMParser().parseFromString(markup, 'text/html').body.firstChild!, true));
  return page.querySelector('hub-embed')!;
}

const bodies = (el: HubEmbed) => [...el.shadowRoot!.querySelectorAll<HTMLElement>('[part~="body"]')];
const cardsIn = (host: Element | null | undefined) => [
  ...(host?.shadowRoot?.querySelectorAll<HTMLElement>('[part~="card"]') ?? []),
];
/** The server's view (after the element's own: Lit renders before a root's first child), or undefined. */
const viewOf = (el: HubEmbed) => el.shadowRoot!.querySelector<HTMLElement>('[data-first-view]') ?? undefined;
/** The element's own body. */
const oursOf = (el: HubEmbed) => bodies(el).find((body) => !body.hasAttribute('data-first-view'))!;
/** The server's grid: the view's second child, after its filter. */
const viewGrid = (el: HubEmbed) => viewOf(el)!.children[1]!;

/** The cards a user sees now: the view's while it is there, else ours. */
function shownCards(el: HubEmbed): HTMLElement[] {
  const view = viewOf(el);
  return view ? cardsIn(view.children[1]) : cardsIn(gridOf(el));
}

describe.skipIf(!inChromium)('<hub-embed> takes a server first view over', () => {
  it('shows a card in every frame from the first to after hub-ready, which fires once, and then only its own view', async () => {
    const s = setupHub();
    const held = s.holdList('');
    const el = await serverPage(s);
    const readies: Event[] = [];
    el.addEventListener('hub-ready', (event) => readies.push(event));
    const framesWithout: number[] = [];
    let frames = 0;
    let watching = true;
    const watch = () => {
      frames++;
      if (!shownCards(el).length) framesWithout.push(frames);
      if (watching) requestAnimationFrame(watch);
    };
    requestAnimationFrame(watch);
    // The element's own view is laid out unseen beside the server's until it takes over.
    await until(() => bodies(el).length === 2, 'the element to render beside the view');
    expect(getComputedStyle(oursOf(el)).visibility).toBe('hidden');
    expect(getComputedStyle(viewOf(el)!).visibility).toBe('visible');
    await held.seen;
    held.release();
    await until(() => readies.length === 1, 'hub-ready');
    for (let i = 0; i < 10; i++) await new Promise(requestAnimationFrame);
    watching = false;
    expect(framesWithout).toEqual([]);
    expect(frames).toBeGreaterThan(10);
    expect(readies).toHaveLength(1);
    expect(bodies(el)).toHaveLength(1);
    expect(bodies(el)[0]!.hasAttribute('data-first-view')).toBe(false);
    expect(getComputedStyle(bodies(el)[0]!).visibility).toBe('visible');
    expect(el.shadowRoot!.querySelectorAll('style')).toHaveLength(0);
  });

  it('the card the user focused before the element took over keeps the focus, and the view keeps its scroll and its place', async () => {
    const s = setupHub();
    const held = s.holdList('');
    const el = await serverPage(s);
    await until(() => bodies(el).length === 2, 'the element to render beside the view');
    viewOf(el)!.scrollTop = 60;
    const focused = cardsIn(viewGrid(el))[3]!;
    focused.focus();
    const before = focused.getBoundingClientRect();
    const name = focused.querySelector('[part~="name"]')!.textContent;
    await held.seen;
    held.release();
    await until(() => bodies(el).length === 1, 'the element to take the view over');
    const ours = bodies(el)[0]!;
    expect(ours.scrollTop).toBe(60);
    let active = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    expect(active).toBe(cardsIn(gridOf(el))[3]);
    expect(active!.querySelector('[part~="name"]')!.textContent).toBe(name);
    const after = active!.getBoundingClientRect();
    expect([after.x, after.y, after.width, after.height]).toEqual([before.x, before.y, before.width, before.height]);
  });

  it("a card past the element's first screen, focused on the view, keeps the focus: the view waits until the element has drawn as many cards", async () => {
    // A short window: the element's first screen is a row or two, the server's view 30 cards. And a slow
    // device, on whose clock a card costs 20 ms: the element draws the rest a card a task, after its first.
    const height = Object.getOwnPropertyDescriptor(window, 'innerHeight')!;
    Object.defineProperty(window, 'innerHeight', { ...height, get: () => 120 });
    let made: HubEmbed | undefined;
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => (made ? cardsIn(gridOf(made)).length * 20 : 0));
    try {
      const s = setupHub();
      const held = s.holdList('');
      const el = (made = await serverPage(s));
      await until(() => bodies(el).length === 2, 'the element to render beside the view');
      const focused = cardsIn(viewGrid(el))[25]!;
      focused.focus();
      const name = focused.querySelector('[part~="name"]')!.textContent;
      await held.seen;
      held.release();
      await until(() => bodies(el).length === 1, 'the element to take the view over');
      let active = document.activeElement;
      while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
      expect(active).toBe(cardsIn(gridOf(el))[25]);
      expect(active!.querySelector('[part~="name"]')!.textContent).toBe(name);
    } finally {
      Object.defineProperty(window, 'innerHeight', height);
      clock.mockRestore();
    }
  });

  it('a card clicked on the server view before the element took over opens its form once it has, once', async () => {
    const s = setupHub();
    const held = s.holdList('');
    const el = await serverPage(s);
    const opened: string[] = [];
    const selected: string[] = [];
    el.addEventListener('hub-form-open', (event) => opened.push(event.detail.shortCode));
    el.addEventListener('hub-table-select', (event) => selected.push(event.detail.table.short_code));
    await until(() => bodies(el).length === 2, 'the element to render beside the view');
    const card = cardsIn(viewGrid(el))[2]!;
    const name = card.querySelector('[part~="name"]')!.textContent;
    // What a pointer's press leaves (test/e2e/first-view-takeover.test.ts presses a real one in each engine):
    // the card focused (tabindex) without a focus ring, and its click heard by nothing yet. Not Vitest's
    // pointer, which would stay over the page where other files' widgets draw, and hover them.
    card.focus({ focusVisible: false } as FocusOptions);
    card.click();
    expect(opened).toEqual([]);
    await held.seen;
    held.release();
    await until(() => opened.length === 1, 'the form to open');
    const table = gridOf(el).tables.find((t) => t.short_code === opened[0])!;
    expect(table.name).toBe(name);
    expect(selected).toEqual(opened);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(opened).toHaveLength(1);
    el.closeForm();
  });

  it('Enter on a server card focused by the keyboard opens its form once the element took over; a card only focused opens nothing', async () => {
    const { userEvent } = await import('vitest/browser');
    for (const press of [true, false]) {
      const s = setupHub();
      const held = s.holdList('');
      const el = await serverPage(s, 6);
      const opened: string[] = [];
      el.addEventListener('hub-form-open', (event) => opened.push(event.detail.shortCode));
      await until(() => bodies(el).length === 2, 'the element to render beside the view');
      cardsIn(viewGrid(el))[1]!.focus();
      if (press) await userEvent.keyboard('{Enter}');
      await held.seen;
      held.release();
      await until(() => bodies(el).length === 1, 'the element to take the view over');
      if (press) await until(() => opened.length === 1, 'the form to open');
      else await new Promise((resolve) => setTimeout(resolve, 300));
      expect(opened, press ? 'pressed' : 'only focused').toHaveLength(press ? 1 : 0);
      el.closeForm();
      page?.remove();
    }
  });

  it('a load that fails takes the view over too: the error shows, not the stale server cards under it', async () => {
    const s = setupHub();
    s.offline.value = true;
    const el = await serverPage(s, 4);
    await until(() => !!el.shadowRoot!.querySelector('[part~="error"]'), 'the error');
    expect(bodies(el)).toHaveLength(1);
    expect(bodies(el)[0]!.hasAttribute('data-first-view')).toBe(false);
    expect(getComputedStyle(el.shadowRoot!.querySelector('[part~="error"]')!).visibility).toBe('visible');
  });

  it('a view drawn for other settings is dropped with a console error naming them, and a press on it opens nothing', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const s = setupHub();
      const held = s.holdList('');
      const el = await serverPage(s);
      const opened: string[] = [];
      el.addEventListener('hub-form-open', (event) => opened.push(event.detail.shortCode));
      await until(() => bodies(el).length === 2, 'the element to render beside the view');
      const card = cardsIn(viewGrid(el))[0]!;
      card.focus({ focusVisible: false } as FocusOptions);
      card.click();
      // The page selects other tags before the element took the view over (a framework's props, say): the
      // view's first card is not the element's first card any more.
      el.setAttribute('tags', 'view');
      held.release();
      await until(() => error.mock.calls.length > 0, 'the console error');
      expect(String(error.mock.calls[0]![0])).toContain('tags [] in the view, ["view"] on the element');
      expect(error.mock.calls[0]![0]).not.toContain('base-url');
      expect(viewOf(el)).toBeUndefined();
      expect(cardsIn(gridOf(el)).length).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(opened).toEqual([]);
      expect(error).toHaveBeenCalledTimes(1);
    } finally {
      error.mockRestore();
    }
  });

  it('an element made over a view loads the later half that hands the view over at once, before its lists are in', async () => {
    const s = setupHub();
    const held = s.holdList('');
    const before = loader.calls;
    const el = await serverPage(s);
    expect(loader.calls).toBeGreaterThan(before);
    await held.seen;
    held.release();
    await until(() => !viewOf(el), 'the element to take the view over');
  });

  it('a later half that does not load drops the view plainly: the element’s own cards show, and hub-ready fires once', async () => {
    const s = setupHub();
    const held = s.holdList('');
    loader.current = undefined;
    loader.failNext = true;
    const el = await serverPage(s, 6);
    let readies = 0;
    el.addEventListener('hub-ready', () => readies++);
    await held.seen;
    loader.failNext = true;
    held.release();
    await until(() => readies === 1, 'hub-ready');
    expect(viewOf(el)).toBeUndefined();
    expect(bodies(el)).toHaveLength(1);
    expect(cardsIn(gridOf(el))).toHaveLength(6);
    expect(getComputedStyle(bodies(el)[0]!).visibility).toBe('visible');
  });

  it('a page parsed without declarative shadow DOM gets the client render, with no error', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const s = setupHub();
      const el = await serverPage(s, 6, 'without-shadow-dom');
      let readies = 0;
      el.addEventListener('hub-ready', () => readies++);
      // The view is an inert <template> in the light DOM: the element's own shadow root holds no view.
      expect(el.querySelector('template[shadowrootmode]')).not.toBeNull();
      await until(() => readies === 1, 'hub-ready');
      expect(viewOf(el)).toBeUndefined();
      expect(bodies(el)).toHaveLength(1);
      expect(cardsIn(gridOf(el))).toHaveLength(6);
      expect(error).not.toHaveBeenCalled();
    } finally {
      error.mockRestore();
    }
  });
});
