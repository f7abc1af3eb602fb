// A binding rendered in a page that never imported `hub-embed/define`: the tag would be an empty element,
// so the binding says once, in the console, which import is missing. This file registers nothing.
import { afterEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server.browser';
import { flushSync } from 'react-dom';
import { HubEmbed, HubFormFrame, HubTagFilter } from '../../src/react/index.js';
import { isCustomElement } from '../../src/vue/index.js';

const devBuildNotice = vi.spyOn(console, 'info').mockImplementation(() => undefined);
const { createApp } = await import('vue/dist/vue.esm-browser.js');
devBuildNotice.mockRestore();

const roots: Root[] = [];
let error: MockInstance<typeof console.error>;

afterEach(() => {
  flushSync(() => roots.splice(0).forEach((root) => root.unmount()));
  document.body.replaceChildren();
  error.mockRestore();
});

function mountReact(element: ReturnType<typeof createElement>): void {
  const root = createRoot(document.body.appendChild(document.createElement('div')));
  roots.push(root);
  flushSync(() => root.render(element));
}

/** The console errors logged while `run` runs and by the checks it queued, which run once the page has loaded. */
async function errorsOf(run: () => void): Promise<string[]> {
  error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  run();
  await new Promise((resolve) => setTimeout(resolve));
  return error.mock.calls.map((call) => String(call[0]));
}

describe('a binding without hub-embed/define', () => {
  it('no binding fails silently: <HubEmbed> says once that the page needs import "hub-embed/define"', async () => {
    expect(customElements.get('hub-embed')).toBeUndefined();
    const first = await errorsOf(() => mountReact(createElement(HubEmbed, { tokenEndpoint: '/api/hub-token' })));
    expect(first).toHaveLength(1);
    expect(first[0]).toContain('hub-embed/react: <HubEmbed> rendered <hub-embed>, which is not registered');
    expect(first[0]).toContain("import 'hub-embed/define'");
    error.mockRestore();
    expect(await errorsOf(() => mountReact(createElement(HubEmbed, {})))).toEqual([]);
  });

  it('no binding fails silently: <HubFormFrame> names loadFormOpener, which registers it', async () => {
    const [said] = await errorsOf(() => mountReact(createElement(HubFormFrame, {})));
    expect(said).toContain('<hub-form-frame>, which is not registered');
    expect(said).toContain('loadFormOpener()');
  });

  it('no binding fails silently: nothing is said on the server, and the browser still says it', async () => {
    expect(await errorsOf(() => renderToString(createElement(HubTagFilter, { offered: ['a'] })))).toEqual([]);
    error.mockRestore();
    const [said] = await errorsOf(() => mountReact(createElement(HubTagFilter, { offered: ['a'] })));
    expect(said).toContain('<HubTagFilter> rendered <hub-tag-filter>, which is not registered');
  });

  it('no binding fails silently: a Vue template with a hub tag says once that the page needs import "hub-embed/define"', async () => {
    const said = await errorsOf(() => {
      for (let i = 0; i < 2; i += 1) {
        const app = createApp({ template: '<hub-table-grid></hub-table-grid><hub-table-card></hub-table-card>' });
        app.config.compilerOptions.isCustomElement = isCustomElement;
        app.mount(document.body.appendChild(document.createElement('div')));
        app.unmount();
      }
    });
    expect(said).toHaveLength(2);
    expect(said[0]).toContain('hub-embed/vue: A template rendered <hub-table-grid>, which is not registered');
    expect(said[1]).toContain('<hub-table-card>, which is not registered');
    for (const line of said) expect(line).toContain("import 'hub-embed/define'");
    expect(isCustomElement('router-view')).toBe(false);
  });
});
