// The widget's languages on a page: which one an element shows (its `locale`, else the `lang` of the
// element or the page), and that a page in another language than English never shows English first. The
// tables of the other locales load with the later half; the first test of this file is the first to ask
// for them in its page (each test file has a page of its own), so it sees that load as a page would.
import { fixture, fixtureCleanup, html } from '@open-wc/testing';
import { afterEach, describe, expect, it } from 'vitest';
import '../../src/define.js';
import type { HubTagFilter } from '../../src/components/hub-tag-filter/hub-tag-filter.js';
import { otherLocales } from '../../src/components/locales/other-locales.js';
import { stringsFor } from '../../src/components/strings.js';
import { chipsOf, clickCard, embed, frameOf, gridOf, part, ready, setupHub, until } from './helpers.js';

afterEach(() => {
  fixtureCleanup();
  document.documentElement.lang = 'en';
});

/** Every text an element shows or names, its shadow roots' included, in document order. */
function shownTexts(node: Node, into: string[] = []): string[] {
  if (node.nodeType === Node.TEXT_NODE && node.textContent?.trim()) into.push(node.textContent.trim());
  if (node instanceof Element) {
    for (const name of ['aria-label', 'title']) if (node.hasAttribute(name)) into.push(node.getAttribute(name)!);
    if (node.shadowRoot) shownTexts(node.shadowRoot, into);
  }
  for (const child of node.childNodes) shownTexts(child, into);
  return into;
}

/** English's texts that a widget's load can show: any of them on a page in another language is a flash. */
const english = stringsFor('en');
const ENGLISH = [english.all, english.filter, english.tables, english.loading, 'results', 'matching', 'more'];

describe('locales', () => {
  it('no English flash: a widget on a page in Japanese shows no English from its first frame to hub-ready, and its cards come in Japanese', async () => {
    document.documentElement.lang = 'ja';
    const s = setupHub();
    const frames: string[][] = [];
    let watching = true;
    const watch = (el: Element) => {
      frames.push(shownTexts(el));
      if (watching) requestAnimationFrame(() => watch(el));
    };
    const el = document.createElement('hub-embed');
    el.setAttribute('base-url', s.hub.baseUrl);
    el.setAttribute('form-url', s.hub.formUrl);
    el.setAttribute('token-endpoint', s.endpoint);
    const readyEvent = new Promise((resolve) => el.addEventListener('hub-ready', resolve, { once: true }));
    document.body.append(el);
    watch(el);
    try {
      await readyEvent;
      frames.push(shownTexts(el));
    } finally {
      watching = false;
      el.remove();
    }
    const english = frames.flat().filter((text) => ENGLISH.some((word) => text.includes(word)));
    expect(english).toEqual([]);
    const last = frames.at(-1)!;
    expect(last).toContain(otherLocales.ja.all);
    expect(last).toContain(otherLocales.ja.filter);
    expect(last.some((text) => /^\d+ 件の結果$/.test(text))).toBe(true);
  });

  it('the locale from lang: the element’s own lang, else its ancestors’, else the page’s', async () => {
    const chips = (filter: HubTagFilter) => part(filter, 'toolbar')!;
    const own = await fixture<HubTagFilter>(html`<hub-tag-filter lang="ko" .offered=${['a']}></hub-tag-filter>`);
    expect(chips(own).getAttribute('aria-label')).toBe(otherLocales.ko.filter);
    const inherited = await fixture<HTMLElement>(
      html`<section lang="zh-Hant-HK"><hub-tag-filter .offered=${['a']}></hub-tag-filter></section>`,
    );
    const filter = inherited.querySelector('hub-tag-filter')!;
    await filter.updateComplete;
    expect(chips(filter).getAttribute('aria-label')).toBe(otherLocales['zh-TW'].filter);
    document.documentElement.lang = 'zh-SG';
    const page = await fixture<HubTagFilter>(html`<hub-tag-filter .offered=${['a']}></hub-tag-filter>`);
    expect(chips(page).getAttribute('aria-label')).toBe(otherLocales['zh-CN'].filter);
  });

  it('the locale from lang: `locale` outranks the lang of the element and the page', async () => {
    document.documentElement.lang = 'ko';
    const filter = await fixture<HubTagFilter>(
      html`<hub-tag-filter lang="ja" locale="en" .offered=${['a']}></hub-tag-filter>`,
    );
    expect(part(filter, 'toolbar')!.getAttribute('aria-label')).toBe(english.filter);
    filter.locale = 'zh-TW';
    await filter.updateComplete;
    expect(part(filter, 'toolbar')!.getAttribute('aria-label')).toBe(otherLocales['zh-TW'].filter);
  });

  it('the locale from lang: the filter, the grid and the open form of <hub-embed lang="ko"> all speak Korean', async () => {
    const el = await embed(setupHub(), { lang: 'ko' });
    await ready(el);
    expect(chipsOf(el)[0]!.textContent).toBe(otherLocales.ko.all);
    expect(part(gridOf(el), 'count')!.textContent).toMatch(/^결과 \d+개$/);
    await clickCard(el);
    await until(() => !!frameOf(el)?.shadowRoot?.querySelector('iframe'), 'the form iframe');
    expect(part(frameOf(el)!, 'close')!.getAttribute('aria-label')).toBe(otherLocales.ko.close);
  });
});
