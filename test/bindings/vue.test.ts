// hub-embed/vue with the real Vue 3 in Chromium: a template compiled with `isCustomElement` renders the
// real elements, binds props as properties, and delivers `@hub-*` events to the handlers.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { App } from 'vue/dist/vue.esm-browser.js';
import { createApp as createRuntimeApp, h as runtimeH } from 'vue';
import { HUB_TAGS, HubEmbed, isCustomElement } from '../../src/vue/index.js';
import '../../src/define.js';
import { setupHub, until } from '../components/helpers.js';

// Vue's development build (kept for its warnings, which mount() turns into failures) says once on import
// that it is one: expected here, so that line stays out of the test output.
const devBuildNotice = vi.spyOn(console, 'info').mockImplementation(() => undefined);
const { createApp, h, nextTick, ref } = await import('vue/dist/vue.esm-browser.js');
devBuildNotice.mockRestore();

let app: App | undefined;
let container: HTMLElement | undefined;

afterEach(() => {
  app?.unmount();
  container?.remove();
  app = container = undefined;
});

function mount(component: Parameters<typeof createApp>[0]): HTMLElement {
  container = document.body.appendChild(document.createElement('div'));
  app = createApp(component);
  app.config.compilerOptions.isCustomElement = isCustomElement;
  app.config.warnHandler = (message) => {
    throw new Error(`Vue warned: ${message}`);
  };
  app.mount(container);
  return container;
}

describe('hub-embed/vue', () => {
  it('isCustomElement claims exactly the five tags', () => {
    expect([...HUB_TAGS].sort()).toEqual([
      'hub-embed',
      'hub-form-frame',
      'hub-table-card',
      'hub-table-grid',
      'hub-tag-filter',
    ]);
    for (const tag of HUB_TAGS) expect(isCustomElement(tag)).toBe(true);
    expect(isCustomElement('hub-embedded')).toBe(false);
    expect(isCustomElement('router-view')).toBe(false);
  });

  it('a template binds props as properties and @hub-ready reaches the handler', async () => {
    const s = setupHub();
    const ready = vi.fn();
    const root = mount({
      template: `<hub-embed :token-endpoint="endpoint" :base-url="baseUrl" :form-url="formUrl" :tags="tags" :limit="3" @hub-ready="ready"></hub-embed>`,
      setup: () => ({
        endpoint: s.endpoint,
        baseUrl: s.hub.baseUrl,
        formUrl: s.hub.formUrl,
        tags: ['delivery'],
        ready,
      }),
    });
    const element = root.querySelector('hub-embed')!;
    expect(element).toBeInstanceOf(customElements.get('hub-embed')!);
    expect(element.tags).toEqual(['delivery']);
    expect(element.limit).toBe(3);
    await until(() => ready.mock.calls.length > 0, 'hub-ready');
    const event = ready.mock.calls[0]![0] as GlobalEventHandlersEventMap['hub-ready'];
    expect(event.detail.offered).toContain('delivery');
    expect(event.detail.tables.length).toBeLessThanOrEqual(3);
  });

  it('a reactive prop change reaches the element, and @hub-tags-change gets the detail', async () => {
    const tags = ref<string[]>([]);
    const changed = vi.fn();
    const root = mount({
      render: () => h('hub-tag-filter', { offered: ['a', 'b'], tags: tags.value, onHubTagsChange: changed }),
    });
    const filter = root.querySelector('hub-tag-filter')!;
    tags.value = ['b'];
    await nextTick();
    expect(filter.tags).toEqual(['b']);
    await filter.updateComplete;
    filter.shadowRoot!.querySelector<HTMLButtonElement>('[part~="chip-all"]')!.click();
    expect(changed).toHaveBeenCalledTimes(1);
    expect((changed.mock.calls[0]![0] as GlobalEventHandlersEventMap['hub-tags-change']).detail.tags).toEqual([]);
  });

  it('<HubEmbed>, as a .vue file compiles it: props reach the element as properties, @hub-ready the handler, and nothing is said', async () => {
    const s = setupHub();
    const ready = vi.fn();
    const error = vi.spyOn(console, 'error');
    container = document.body.appendChild(document.createElement('div'));
    // A render function, as @vitejs/plugin-vue compiles `<HubEmbed :token-endpoint="…" @hub-ready="…" />`,
    // with the runtime-only Vue a bundled app has.
    const runtimeApp = createRuntimeApp({
      render: () =>
        runtimeH(HubEmbed, {
          'token-endpoint': s.endpoint,
          'base-url': s.hub.baseUrl,
          'form-url': s.hub.formUrl,
          tags: ['delivery'],
          limit: 3,
          onHubReady: ready,
        }),
    });
    runtimeApp.mount(container);
    try {
      const element = container.querySelector('hub-embed')!;
      expect(element).toBeInstanceOf(customElements.get('hub-embed')!);
      expect(element.tokenEndpoint).toBe(s.endpoint);
      expect(element.tags).toEqual(['delivery']);
      expect(element.limit).toBe(3);
      await until(() => ready.mock.calls.length > 0, 'hub-ready');
      expect(
        (ready.mock.calls[0]![0] as GlobalEventHandlersEventMap['hub-ready']).detail.tables.length,
      ).toBeLessThanOrEqual(3);
      expect(error).not.toHaveBeenCalled();
    } finally {
      runtimeApp.unmount();
      error.mockRestore();
    }
  });
});
