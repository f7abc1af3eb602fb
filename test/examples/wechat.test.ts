// The WeChat page pair (examples/wechat), run with stand-ins for the mini-program's globals only (Page
// and console): the page files load as a mini-program loads them, and their logic meets the protocol
// test vectors, batched the way the WeChat transport batches them.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import vectors from '../fixtures/bridge-vectors.json' with { type: 'json' };

const root = new URL('../../examples/wechat/', import.meta.url);
const requireHere = createRequire(root);
const { readHubEvents, formUrlFrom } = requireHere('./hub-embed-events.js') as {
  readHubEvents(data: unknown): Array<{ method: string; params: unknown }>;
  formUrlFrom(encoded: string | undefined, site: string): string | undefined;
};

interface PageInstance {
  data: Record<string, unknown>;
  setData(patch: Record<string, unknown>): void;
  [key: string]: unknown;
}

/** Loads a page file as the mini-program does: `Page(config)`, with `require` relative to it. */
function loadPage(path: string): PageInstance {
  let config: Record<string, unknown> = {};
  const file = new URL(path, root);
  runInNewContext(readFileSync(file, 'utf8'), {
    Page: (definition: Record<string, unknown>) => (config = definition),
    require: createRequire(file),
    console,
  });
  const page = { ...config, data: { ...(config.data as object) } } as PageInstance;
  page.setData = (patch) => Object.assign(page.data, patch);
  return page;
}

/** What bindmessage receives: every postMessage since the last delivery, each a batch of JSON strings. */
const delivery = (...batches: unknown[][]) => ({
  detail: {
    data: batches.map((batch) => ({ hubEmbed: batch.map((m) => (typeof m === 'string' ? m : JSON.stringify(m))) })),
  },
});

describe('examples/wechat: the web-view page pair', () => {
  it('reads every event of every batch, in order, and skips what is not a v1 hub-embed event (the vectors)', () => {
    const event = vectors.cases.find((v) => 'event' in v)!;
    const hostile = vectors.cases.filter((v) => 'drop' in v && v.drop !== 'nonce' && v.drop !== 'sid');
    const events = readHubEvents(
      delivery(
        [event.send, ...hostile.map((v) => v.send)],
        [{ ...(event.send as object), method: 'form.closed', params: { shortCode: 'a' } }],
      ).detail.data,
    );
    expect(events).toEqual([
      event.event && { method: event.event.name, params: event.event.params },
      { method: 'form.closed', params: { shortCode: 'a' } },
    ]);
  });

  it('skips another SDK’s messages and values that are no batch at all', () => {
    expect(
      readHubEvents([
        { other: ['x'] },
        null,
        'text',
        { hubEmbed: [42, '{"ns":"hub-embed","v":1,"kind":"req","method":"auth.getToken"}'] },
      ]),
    ).toEqual([]);
    expect(readHubEvents(undefined)).toEqual([]);
  });

  it('the widget page logs widget.error and keeps the last selected table', () => {
    const page = loadPage('pages/hub/index.js');
    const warned: unknown[][] = [];
    const original = console.warn;
    console.warn = (...args: unknown[]) => void warned.push(args);
    try {
      (page.onHubMessage as (e: unknown) => void).call(
        page,
        delivery([
          {
            ns: 'hub-embed',
            v: 1,
            sid: 's',
            id: '1',
            kind: 'evt',
            method: 'table.selected',
            params: { shortCode: 'k3', name: '钢结构' },
          },
          {
            ns: 'hub-embed',
            v: 1,
            sid: 's',
            id: '2',
            kind: 'evt',
            method: 'widget.error',
            params: { kind: 'network', message: 'offline' },
          },
        ]),
      );
    } finally {
      console.warn = original;
    }
    expect(page.lastTable).toEqual({ shortCode: 'k3', name: '钢结构' });
    expect(warned).toEqual([['hub-embed:', 'network', 'offline']]);
  });

  it('the form page loads a form link on the form site, and refuses any other link', () => {
    const open = (url: string) => {
      const page = loadPage('pages/hub-form/index.js');
      (page.onLoad as (q: unknown) => void).call(page, { url: encodeURIComponent(url), shortCode: 'k3' });
      return page.data.src;
    };
    expect(open('https://forms.example.com/k3?token=at-1')).toBe('https://forms.example.com/k3?token=at-1');
    for (const bad of [
      'https://forms.example.com.evil.com/k3',
      'https://evil.com/?https://forms.example.com/',
      'javascript:alert(1)//https://forms.example.com/',
      'https://forms.example.com\\@evil.com/',
      'https://forms.example.com/k3 onload',
    ]) {
      expect(open(bad), bad).toBe('');
    }
    expect(formUrlFrom('%E0%A4%A', 'https://forms.example.com')).toBeUndefined();
  });
});
