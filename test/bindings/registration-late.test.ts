// Registration that cannot silently miss, and does not cry wolf: the bindings check a tag once the page has
// loaded, so a registration that comes after they mount (a chunk loaded late, a client-only plugin, Qwik's
// useVisibleTask$) draws no note, and a tag still undefined by then draws one. The page is held "loading"
// until the test fires its `load` event, as a page does while its scripts come in.
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { flushSync } from 'react-dom';
import { HubTableCard, HubTableGrid } from '../../src/react/index.js';
import { HubTableCard as HubTableCardElement } from '../../src/index.js';

const roots: Root[] = [];
let error: MockInstance<typeof console.error>;

beforeEach(() => {
  vi.spyOn(document, 'readyState', 'get').mockReturnValue('loading');
  error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(() => {
  flushSync(() => roots.splice(0).forEach((root) => root.unmount()));
  document.body.replaceChildren();
  vi.restoreAllMocks();
});

function mountReact(element: ReturnType<typeof createElement>): void {
  const root = createRoot(document.body.appendChild(document.createElement('div')));
  roots.push(root);
  flushSync(() => root.render(element));
}

/** The page finishes loading: its `load` event, then the tasks queued by then. */
async function pageLoads(): Promise<void> {
  vi.spyOn(document, 'readyState', 'get').mockReturnValue('complete');
  dispatchEvent(new Event('load'));
  await new Promise((resolve) => setTimeout(resolve));
}

const said = () => error.mock.calls.map((call) => String(call[0]));

describe('registration that cannot silently miss', () => {
  it('registration that cannot silently miss: a registration that comes after <HubTableCard> mounts, before the page has loaded, draws no note', async () => {
    expect(customElements.get('hub-table-card')).toBeUndefined();
    mountReact(createElement(HubTableCard, {}));
    // The app's registration, from a chunk that arrives after the component mounted.
    customElements.define('hub-table-card', HubTableCardElement);
    await pageLoads();
    expect(said()).toEqual([]);
  });

  it('registration that cannot silently miss: a tag still undefined once the page has loaded says so, once', async () => {
    expect(customElements.get('hub-table-grid')).toBeUndefined();
    mountReact(createElement(HubTableGrid, {}));
    mountReact(createElement(HubTableGrid, {}));
    expect(said()).toEqual([]);
    await pageLoads();
    expect(said()).toEqual([
      expect.stringContaining('hub-embed/react: <HubTableGrid> rendered <hub-table-grid>, which is not registered'),
    ]);
    expect(said()[0]).toContain("import 'hub-embed/define'");
  });
});
