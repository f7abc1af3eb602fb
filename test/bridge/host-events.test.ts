// One table says what a host hears of each <hub-embed> event (src/components/hub-embed/host-events.ts): the WebView
// bridge's page side sends it, and <HubEmbedView> on the web tells the app the same, with no bridge between.
import { describe, expect, it } from 'vitest';
import { HubError } from '../../src/core/errors.js';
import type { PublishedTable } from '../../src/core/types.js';
import { HOST_EVENTS } from '../../src/components/hub-embed/host-events.js';
import { ELEMENT_EVENTS, viewEventOf } from '../../src/react-native/web-events.js';

const table = { short_code: 'Zq7m2L', name: '<b>装修</b> \u2028 🛠' } as PublishedTable;
const error = new HubError('network', 'Network error.');
const tags = ['保洁'];

describe('what a host hears of each element event', () => {
  it('the web view tells the app each element event as the page side tells a native host, form.closed by the page', () => {
    const element = document.createElement('div');
    element.lang = 'zh-CN';
    const seen = ELEMENT_EVENTS.map((name) => {
      const detail = {
        'hub-ready': { offered: [], tables: [table], matching: 1 },
        'hub-table-select': { table },
        'hub-tags-change': { tags },
        'hub-form-open': { shortCode: 'Zq7m2L' },
        'hub-form-close': { shortCode: 'Zq7m2L' },
        'hub-error': { error },
        'hub-form-message': { data: { step: 2 } },
      }[name];
      return viewEventOf(name, detail as never, element, 'Zq7m2L');
    });
    expect(seen).toEqual([
      { name: 'widget.ready', params: { version: __HUB_EMBED_VERSION__, locale: 'zh-CN' } },
      { name: 'table.selected', params: { shortCode: 'Zq7m2L', name: table.name } },
      { name: 'tags.changed', params: { tags: ['保洁'] } },
      { name: 'form.opened', params: { shortCode: 'Zq7m2L', handledBy: 'page' } },
      { name: 'form.closed', params: { shortCode: 'Zq7m2L', reason: 'page' } },
      { name: 'widget.error', params: { kind: 'network', message: 'Network error.' } },
      { name: 'form.message', params: { shortCode: 'Zq7m2L', data: { step: 2 } } },
    ]);
    // The app gets a copy of the selection, never the element's own array.
    expect((seen[2]!.params as { tags: string[] }).tags).not.toBe(tags);
    // The page side sends the same names and params (a native view adds reason to form.closed itself).
    expect(HOST_EVENTS['hub-form-close']!({ shortCode: 'Zq7m2L' }, element)).toEqual([
      'form.closed',
      { shortCode: 'Zq7m2L' },
    ]);
  });

  it('a form page message with no form open reaches no app, as the page side sends none then', () => {
    expect(viewEventOf('hub-form-message', { data: 1 }, document.body, undefined)).toBeUndefined();
  });
});
