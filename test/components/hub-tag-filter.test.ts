import { describe, expect, it } from 'vitest';
import { fixture, html } from '@open-wc/testing';
import '../../src/define.js';
import type { HubTagFilter } from '../../src/components/hub-tag-filter/hub-tag-filter.js';
import { formHalf, loadFormOpener } from '../../src/components/hub-embed/form-opener-loader.js';
import { describeAccessible, onPage } from './accessible.js';
import { inChromium, key, part, parts, until } from './helpers.js';

async function filter(offered: string[], tags: string[] = []): Promise<HubTagFilter> {
  return fixture<HubTagFilter>(html`<hub-tag-filter .offered=${offered} .tags=${tags}></hub-tag-filter>`);
}

function chips(el: HubTagFilter): HTMLButtonElement[] {
  return parts<HTMLButtonElement>(el, 'chip');
}

function changes(el: HubTagFilter): string[][] {
  const seen: string[][] = [];
  el.addEventListener('hub-tags-change', (event) => seen.push(event.detail.tags));
  return seen;
}

describe('<hub-tag-filter>', () => {
  it('renders an "All" chip and one aria-pressed button per tag inside a labelled toolbar', async () => {
    const el = await filter(['a', 'b']);
    const toolbar = part(el, 'toolbar')!;
    expect(toolbar.getAttribute('role')).toBe('toolbar');
    expect(toolbar.getAttribute('aria-label')).toBeTruthy();
    expect(chips(el).map((chip) => chip.textContent)).toEqual(['All', 'a', 'b']);
    expect(chips(el).every((chip) => chip.tagName === 'BUTTON')).toBe(true);
    expect(chips(el).map((chip) => chip.getAttribute('aria-pressed'))).toEqual(['true', 'false', 'false']);
    expect(part(el, 'chip-all')).toBe(chips(el)[0]);
  });

  it('property tags (the selection) presses its chips and the "All" chip is released, without an event', async () => {
    const el = await filter(['a', 'b', 'c']);
    const seen = changes(el);
    el.tags = ['b', 'c'];
    await el.updateComplete;
    expect(chips(el).map((chip) => chip.getAttribute('aria-pressed'))).toEqual(['false', 'false', 'true', 'true']);
    expect(parts(el, 'chip-pressed')).toHaveLength(2);
    expect(seen).toEqual([]);
  });

  it('multi-select: clicks toggle tags and fire hub-tags-change {tags} (bubbles, composed)', async () => {
    const el = await filter(['a', 'b', 'c']);
    const seen: CustomEvent[] = [];
    document.addEventListener('hub-tags-change', (event) => seen.push(event), { once: false });
    chips(el)[1]!.click();
    chips(el)[3]!.click();
    await el.updateComplete;
    expect(el.tags).toEqual(['a', 'c']);
    chips(el)[1]!.click();
    await el.updateComplete;
    expect(el.tags).toEqual(['c']);
    expect(seen.map((event) => event.detail.tags)).toEqual([['a'], ['a', 'c'], ['c']]);
    expect(seen[0]!.bubbles && seen[0]!.composed).toBe(true);
  });

  it('the "All" chip clears the selection; pressing it when already clear fires nothing', async () => {
    const el = await filter(['a', 'b'], ['a', 'b']);
    const seen = changes(el);
    chips(el)[0]!.click();
    await el.updateComplete;
    expect(el.tags).toEqual([]);
    chips(el)[0]!.click();
    expect(seen).toEqual([[]]);
  });

  it('a key pressed before the form half (which carries the keys) is in moves the focus once it is', async () => {
    // The first test of the file to press a key: the half is not loaded yet on this page.
    expect(formHalf()).toBeUndefined();
    const el = await filter(['a', 'b', 'c']);
    chips(el)[0]!.focus();
    key(chips(el)[0]!, 'ArrowRight');
    await until(() => el.shadowRoot!.activeElement === chips(el)[1], 'the next chip focused');
    expect(chips(el)[1]!.tabIndex).toBe(0);
  });

  it('roving tabindex: exactly one chip is tabbable; arrows, Home and End move it and wrap', async () => {
    await loadFormOpener();
    const el = await filter(['a', 'b', 'c']);
    const tabbable = () => chips(el).findIndex((chip) => chip.tabIndex === 0);
    expect(tabbable()).toBe(0);
    expect(chips(el).filter((chip) => chip.tabIndex === 0)).toHaveLength(1);
    chips(el)[0]!.focus();
    expect(key(chips(el)[0]!, 'ArrowRight').defaultPrevented).toBe(true);
    await el.updateComplete;
    expect(tabbable()).toBe(1);
    expect(el.shadowRoot!.activeElement).toBe(chips(el)[1]);
    // [key pressed on the tabbable chip, the chip tabbable after it]: the ends wrap around.
    const moves: [string, number][] = [
      ['End', 3],
      ['ArrowRight', 0],
      ['ArrowLeft', 3],
      ['Home', 0],
      ['ArrowDown', 1],
      ['ArrowUp', 0],
    ];
    for (const [keyName, expected] of moves) {
      key(chips(el)[tabbable()]!, keyName);
      await el.updateComplete;
      expect(tabbable(), keyName).toBe(expected);
    }
    expect(key(chips(el)[0]!, 'x').defaultPrevented).toBe(false);
    // Home on the first chip moves nothing, but still keeps the page from scrolling.
    expect(key(chips(el)[0]!, 'Home').defaultPrevented).toBe(true);
    // Key names that are Object.prototype members are just unknown keys.
    for (const name of ['toString', 'constructor', '__proto__'])
      expect(key(chips(el)[0]!, name).defaultPrevented).toBe(false);
    await el.updateComplete;
    expect(tabbable()).toBe(0);
  });

  it('right-to-left: ArrowLeft moves forward and ArrowRight backward', async () => {
    await loadFormOpener();
    const wrapper = await fixture<HTMLDivElement>(
      html`<div dir="rtl" style="direction: rtl"><hub-tag-filter .offered=${['a', 'b']}></hub-tag-filter></div>`,
    );
    const el = wrapper.querySelector('hub-tag-filter')!;
    await el.updateComplete;
    key(chips(el)[0]!, 'ArrowLeft');
    await el.updateComplete;
    expect(chips(el)[1]!.tabIndex).toBe(0);
    key(chips(el)[1]!, 'ArrowRight');
    await el.updateComplete;
    expect(chips(el)[0]!.tabIndex).toBe(0);
  });

  it('hostile tags (HTML, javascript:, U+2028, emoji, very long) render as text, and hundreds fit', async () => {
    const hostile = [
      '<img src=x onerror=alert(1)>',
      'javascript:alert(1)',
      'line\u2028break',
      '🏳️‍🌈 emoji',
      'x'.repeat(5000),
    ];
    const many = Array.from({ length: 400 }, (_, i) => `tag-${i}`);
    const el = await filter([...hostile, ...many]);
    expect(chips(el)).toHaveLength(1 + hostile.length + many.length);
    expect(el.shadowRoot!.querySelector('img')).toBeNull();
    expect(chips(el)[1]!.textContent).toBe(hostile[0]);
    expect(chips(el)[3]!.textContent).toBe('line\u2028break');
    if (inChromium) {
      el.style.width = '300px';
      const toolbar = part(el, 'toolbar')!;
      // Long text is cut with an ellipsis and the chip row scrolls instead of growing without bound.
      expect(chips(el)[5]!.getBoundingClientRect().width).toBeLessThanOrEqual(300);
      expect(toolbar.getBoundingClientRect().height).toBeLessThan(400);
    }
  });

  it('duplicate tags show once; strings and locale localize the text', async () => {
    const el = await fixture<HubTagFilter>(
      html`<hub-tag-filter locale="zh-CN" .offered=${['a', 'a']}></hub-tag-filter>`,
    );
    expect(chips(el).map((chip) => chip.textContent)).toEqual(['全部', 'a']);
    el.strings = { all: 'Everything', filter: 'Tags' };
    await el.updateComplete;
    expect(chips(el)[0]!.textContent).toBe('Everything');
    expect(part(el, 'toolbar')!.getAttribute('aria-label')).toBe('Tags');
  });

  const tags = ['物流', 'delivery', 'freight', '健康', 'a tag with a rather long name that gets cut off'];
  const manyTags = Array.from({ length: 60 }, (_, i) => `tag ${i + 1}`);
  describeAccessible({
    'none selected': (look) =>
      onPage(look, html`<hub-tag-filter locale=${look.locale} .offered=${tags}></hub-tag-filter>`),
    'some selected': (look) =>
      onPage(
        look,
        html`<hub-tag-filter locale=${look.locale} .offered=${tags} .tags=${['delivery', '健康']}></hub-tag-filter>`,
      ),
    'scrolled to the end of many tags': async (look) => {
      const el = await onPage<HubTagFilter>(
        look,
        html`<hub-tag-filter locale=${look.locale} .offered=${manyTags} .tags=${['tag 60']}></hub-tag-filter>`,
      );
      const toolbar = part(el, 'toolbar')!;
      toolbar.scrollTop = toolbar.scrollHeight;
      return el;
    },
  });
});
