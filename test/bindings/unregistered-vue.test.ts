// hub-embed/vue's components in a page that never imported `hub-embed/define`: a .vue file's template is
// compiled ahead of time into render functions like these, which render a bare tag, so the component says
// once, in the console, which import is missing. This file registers nothing.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApp, h, type App } from 'vue';
import { HubEmbed, HubTableGrid } from '../../src/vue/index.js';

const apps: App[] = [];

afterEach(() => {
  apps.splice(0).forEach((app) => app.unmount());
  document.body.replaceChildren();
  vi.restoreAllMocks();
});

function mount(render: () => ReturnType<typeof h>): HTMLElement {
  const container = document.body.appendChild(document.createElement('div'));
  const app = createApp({ render });
  apps.push(app);
  app.mount(container);
  return container;
}

/** The bindings check once the page has loaded, in a task of their own: this waits for the checks queued so far. */
const pageLoadedChecks = () => new Promise((resolve) => setTimeout(resolve));

describe('hub-embed/vue components without hub-embed/define', () => {
  it('no binding fails silently: <HubEmbed> from hub-embed/vue says once that the page needs import "hub-embed/define"', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const root = mount(() => h(HubEmbed, { 'token-endpoint': '/api/hub-token' }));
    mount(() => h(HubEmbed));
    expect(root.querySelector('hub-embed')).not.toBeNull();
    await pageLoadedChecks();
    const said = error.mock.calls.map((call) => String(call[0]));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain('hub-embed/vue: <HubEmbed> rendered <hub-embed>, which is not registered');
    expect(said[0]).toContain("import 'hub-embed/define'");
  });

  it('no binding fails silently: each component names its own tag', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    mount(() => h(HubTableGrid));
    await pageLoadedChecks();
    expect(error.mock.calls.map((call) => String(call[0]))).toEqual([
      expect.stringContaining('hub-embed/vue: <HubTableGrid> rendered <hub-table-grid>, which is not registered'),
    ]);
  });
});
