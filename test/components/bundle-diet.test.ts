/// <reference types="vite/client" />
// Rules that keep the <script> bundle small without changing what the elements do.
import { afterEach, describe, expect, it } from 'vitest';
import { fixture, fixtureCleanup, html } from '@open-wc/testing-helpers';
import '../../src/define.js';
import type { HubFormFrame } from '../../src/components/hub-form-frame/hub-form-frame.js';
import type { HubTableCard } from '../../src/components/hub-table-card/hub-table-card.js';
import type { HubTableGrid } from '../../src/components/hub-table-grid/hub-table-grid.js';
import type { HubTagFilter } from '../../src/components/hub-tag-filter/hub-tag-filter.js';
import type { PublishedTable } from '../../src/core/types.js';
import { templateTexts } from './helpers.js';

afterEach(() => fixtureCleanup());

// Vite inlines the sources as text, so this works in happy-dom and in Chromium alike.
const sources = import.meta.glob(['../../src/components/**/*.ts', '!../../src/components/hub-embed/**'], {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;

const table: PublishedTable = {
  short_code: 'k3',
  name: 'Steel',
  industry: 'Build',
  icon: 'https://example.com/i.png',
  tags: ['a', 'b'],
};

const rendered = (el: { render(): unknown }) => templateTexts(el.render());

describe('bundle diet', () => {
  it('elements other than <hub-embed> declare reactive properties without decorators', () => {
    const files = Object.keys(sources);
    expect(files.some((file) => file.endsWith('hub-form-frame.ts'))).toBe(true);
    for (const file of files) {
      expect(sources[file], file).not.toMatch(/lit\/decorators|@(property|state|query)\(/);
    }
  });

  it('templates carry no indentation: Lit ships template text verbatim', async () => {
    const texts: string[] = [];
    const card = await fixture<HubTableCard>(html`<hub-table-card .table=${table}></hub-table-card>`);
    texts.push(...rendered(card));
    card.table = { ...table, icon: undefined };
    texts.push(...rendered(card));
    const grid = await fixture<HubTableGrid>(html`<hub-table-grid .tables=${[table]}></hub-table-grid>`);
    texts.push(...rendered(grid));
    grid.tables = [];
    grid.loading = true;
    texts.push(...rendered(grid));
    grid.loading = false;
    texts.push(...rendered(grid));
    const filter = await fixture<HubTagFilter>(
      html`<hub-tag-filter .tags=${['a']} .selected=${['a']}></hub-tag-filter>`,
    );
    texts.push(...rendered(filter));
    const frame = await fixture<HubFormFrame>(
      html`<hub-form-frame form-url="http://127.0.0.1:9" short-code="x" .token=${'t'}></hub-form-frame>`,
    );
    texts.push(...rendered(frame));
    frame.formUrl = 'http://forms.example.com';
    await frame.updateComplete;
    texts.push(...rendered(frame));
    // Enough templates were seen for the check to mean something (each branch adds its own).
    expect(texts.length).toBeGreaterThan(30);
    expect(texts.filter((text) => /\n\s/.test(text))).toEqual([]);
  });

  it('internal state is not an observed attribute; documented attributes are', () => {
    const observed = (tag: string) =>
      (customElements.get(tag) as unknown as { observedAttributes: string[] }).observedAttributes;
    expect(observed('hub-form-frame').sort()).toEqual([
      'allow',
      'form-url',
      'locale',
      'referrerpolicy',
      'sandbox',
      'short-code',
      'table-name',
      'timeout',
    ]);
    expect(observed('hub-table-card')).toEqual(['locale']);
    expect(observed('hub-table-grid').sort()).toEqual(['loading', 'locale']);
    expect(observed('hub-tag-filter')).toEqual(['locale']);
  });
});
