/// <reference types="vite/client" />
// Rules that keep <hub-embed> small in the <script> bundle without changing what it does.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fixture, fixtureCleanup, html } from '@open-wc/testing-helpers';
import '../../src/define.js';
import type { HubEmbed } from '../../src/components/hub-embed/hub-embed.js';
import type { HubTableGrid } from '../../src/components/hub-table-grid/hub-table-grid.js';
import source from '../../src/components/hub-embed/hub-embed.ts?raw';
import { part, setupHub, templateTexts, until, type Setup } from './helpers.js';

afterEach(() => {
  fixtureCleanup();
  vi.unstubAllGlobals();
});

const rendered = (el: HubEmbed) => templateTexts((el as unknown as { render(): unknown }).render());

async function embed(s: Setup, attrs: Record<string, string> = {}): Promise<HubEmbed> {
  const el = document.createElement('hub-embed');
  const all = { 'base-url': s.hub.baseUrl, 'form-url': s.hub.formUrl, 'token-endpoint': s.endpoint, ...attrs };
  for (const [name, value] of Object.entries(all)) if (value) el.setAttribute(name, value);
  await fixture(html`<div>${el}</div>`);
  return el;
}

const grid = (el: HubEmbed) => el.shadowRoot!.querySelector<HubTableGrid>('hub-table-grid')!;
const loaded = (el: HubEmbed) => until(() => grid(el)?.tables.length > 0 && !grid(el).loading, 'the widget to load');

async function openFirst(el: HubEmbed): Promise<void> {
  const card = grid(el).shadowRoot!.querySelector('hub-table-card')!;
  await card.updateComplete;
  part<HTMLElement>(card, 'card')!.click();
  await until(() => !!el.shadowRoot!.querySelector('hub-form-frame'), 'the form frame');
}

describe('<hub-embed> bundle diet', () => {
  it('declares reactive properties without decorators', () => {
    expect(source).toContain('static override properties');
    expect(source).not.toMatch(/lit\/decorators|@(property|state|query)\(/);
  });

  it('non-reactive internals are #private (the minifier shortens those names, not `private` ones)', () => {
    // `private declare` is reactive state, which Lit must reach by name; anything else private is #.
    const named = source.match(/^\s+private (?!declare )\w+/gm) ?? [];
    expect(named).toEqual([]);
    expect(source).toMatch(/#tokens\b/);
  });

  it('templates carry no indentation: Lit ships template text verbatim', async () => {
    const texts: string[] = [];
    // Configuration error (no retry), then loading, loaded, modal form, inline form, network error.
    const s = setupHub();
    const broken = await embed(s, { 'base-url': '' });
    await until(() => !!part(broken, 'error'), 'the configuration error');
    texts.push(...rendered(broken));
    const modal = await embed(s);
    texts.push(...rendered(modal));
    await loaded(modal);
    texts.push(...rendered(modal));
    await openFirst(modal);
    texts.push(...rendered(modal));
    const inline = await embed(s, { 'open-mode': 'inline' });
    await loaded(inline);
    await openFirst(inline);
    texts.push(...rendered(inline));
    const down = setupHub();
    down.offline.value = true;
    const offline = await embed(down);
    await until(() => !!part(offline, 'retry'), 'the retry control');
    texts.push(...rendered(offline));
    // Each state adds its own templates; enough were seen for the check to mean something.
    expect(texts.length).toBeGreaterThan(40);
    expect(texts.filter((text) => /\n\s/.test(text))).toEqual([]);
  });

  it('internal state is not an observed attribute; documented attributes are', () => {
    const observed = (customElements.get('hub-embed') as unknown as { observedAttributes: string[] })
      .observedAttributes;
    expect([...observed].sort()).toEqual(
      [
        'base-url',
        'bridge',
        'bridge-origins',
        'form-url',
        'limit',
        'locale',
        'open-mode',
        'tags',
        'theme',
        'token-endpoint',
      ].sort(),
    );
  });
});
