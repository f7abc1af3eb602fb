// hub-embed/react rendered by the real React 19 in Chromium: props reach the element as properties,
// events reach the `onHub…` handlers, and React 19's own custom-element support (the JSX types in
// src/react/jsx.ts) sets properties and listens to `onhub-…` props.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createElement, type ComponentProps } from 'react';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server.browser';
import { flushSync } from 'react-dom';
import '../../src/define.js';
import { HubEmbed, HubTagFilter, HubTableCard } from '../../src/react/index.js';
import type { HubEmbed as HubEmbedElement } from '../../src/index.js';
import type { HubEmbedJsxProps } from '../../src/react/jsx.js';
import { setupHub, until } from '../components/helpers.js';

let root: Root | undefined;
let container: HTMLElement | undefined;

afterEach(() => {
  flushSync(() => root?.unmount());
  container?.remove();
  root = container = undefined;
});

function render(element: ReturnType<typeof createElement>): HTMLElement {
  container = document.body.appendChild(document.createElement('div'));
  root = createRoot(container);
  flushSync(() => root!.render(element));
  return container;
}

const TABLE = {
  project_id: 1,
  short_code: 'k3Xp9a',
  name: '钢结构安装',
  industry: '建筑工程',
  icon: '',
  tags: ['建筑'],
  type: 'A' as const,
};

describe('hub-embed/react', () => {
  it('the HubEmbed component passes props as properties and calls onHubReady with the typed detail', async () => {
    const s = setupHub();
    const ready = vi.fn<(event: GlobalEventHandlersEventMap['hub-ready']) => void>();
    const props: ComponentProps<typeof HubEmbed> = {
      tokenEndpoint: s.endpoint,
      baseUrl: s.hub.baseUrl,
      formUrl: s.hub.formUrl,
      tags: ['delivery'],
      limit: 5,
      openMode: 'inline',
      onHubReady: ready,
    };
    const element = render(createElement(HubEmbed, props)).querySelector('hub-embed')!;
    expect(element).toBeInstanceOf(customElements.get('hub-embed')!);
    expect(element.tags).toEqual(['delivery']); // an array: only a property can carry it
    expect(element.limit).toBe(5);
    expect(element.openMode).toBe('inline');
    expect(element.tokenEndpoint).toBe(s.endpoint);
    await until(() => ready.mock.calls.length > 0, 'hub-ready');
    const detail = ready.mock.calls[0]![0].detail;
    expect(detail.offered).toContain('delivery');
    expect(detail.tables.length).toBeGreaterThan(0);
    expect(detail.tables.length).toBeLessThanOrEqual(5);
  });

  it('a changed prop reaches the element, and a new handler replaces the old one', async () => {
    const first = vi.fn();
    const second = vi.fn();
    render(createElement(HubTagFilter, { offered: ['a', 'b'], tags: [], onHubTagsChange: first }));
    const filter = container!.querySelector('hub-tag-filter')!;
    await filter.updateComplete;
    flushSync(() =>
      root!.render(createElement(HubTagFilter, { offered: ['a', 'b', 'c'], tags: ['c'], onHubTagsChange: second })),
    );
    expect(filter.offered).toEqual(['a', 'b', 'c']);
    expect(filter.tags).toEqual(['c']);
    await filter.updateComplete;
    filter.shadowRoot!.querySelector<HTMLButtonElement>('[part~="chip"]:not([part~="chip-all"])')!.click();
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledTimes(1);
    expect(second.mock.calls[0]![0].detail.tags).toEqual(expect.any(Array));
  });

  it('onHubTableSelect gets the cancelable event: preventDefault() reaches the element', async () => {
    const select = vi.fn((event: GlobalEventHandlersEventMap['hub-table-select']) => event.preventDefault());
    render(createElement(HubTableCard, { table: TABLE, onHubTableSelect: select }));
    const card = container!.querySelector('hub-table-card')!;
    await card.updateComplete;
    card.shadowRoot!.querySelector<HTMLElement>('[part="card"]')!.click();
    expect(select).toHaveBeenCalledTimes(1);
    expect(select.mock.calls[0]![0].detail.table.short_code).toBe('k3Xp9a');
    expect(select.mock.calls[0]![0].defaultPrevented).toBe(true);
  });

  it('server-rendered HubEmbed: the server and hydration render no tag (the element would start without its props), the render after hydration renders it with every prop and handler', async () => {
    const s = setupHub();
    const ready = vi.fn<(event: GlobalEventHandlersEventMap['hub-ready']) => void>();
    const app = createElement(
      'main',
      null,
      createElement(HubEmbed, {
        tokenEndpoint: s.endpoint,
        baseUrl: s.hub.baseUrl,
        formUrl: s.hub.formUrl,
        tags: ['delivery'],
        onHubReady: ready,
      }),
    );
    const html = renderToString(app);
    expect(html).toBe('<main></main>');
    container = document.body.appendChild(document.createElement('div'));
    // eslint-disable-next-line no-restricted-properties -- the server's HTML, as a browser receives it
    container.innerHTML = html;
    const errors = vi.spyOn(console, 'error');
    root = hydrateRoot(container, app);
    await until(() => container!.querySelector('hub-embed') !== null, 'the tag after hydration');
    const element = container.querySelector<HubEmbedElement>('hub-embed')!;
    expect(element.tags).toEqual(['delivery']);
    await until(() => ready.mock.calls.length > 0, 'hub-ready');
    expect(element.renderRoot.querySelector('[part="error"]')).toBeNull();
    expect(errors).not.toHaveBeenCalled();
  });

  it('React 19 JSX <hub-embed> sets properties and listens to onhub-ready (the IntrinsicElements types)', async () => {
    const s = setupHub();
    const ready = vi.fn();
    const props: HubEmbedJsxProps = {
      tokenEndpoint: s.endpoint,
      'base-url': s.hub.baseUrl,
      formUrl: s.hub.formUrl,
      tags: ['delivery'],
      'onhub-ready': ready,
    };
    const element = render(createElement('hub-embed', props)).querySelector<HubEmbedElement>('hub-embed')!;
    expect(element.tags).toEqual(['delivery']);
    expect(element.baseUrl).toBe(s.hub.baseUrl); // through the attribute
    await until(() => ready.mock.calls.length > 0, 'hub-ready');
    expect((ready.mock.calls[0]![0] as GlobalEventHandlersEventMap['hub-ready']).detail.offered).toContain('delivery');
  });
});
