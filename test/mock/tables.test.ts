import { describe, expect, it } from 'vitest';
import { defaultSeed } from '../../packages/hub-embed-mock/src/seed.js';
import type { MockSeed } from '../../packages/hub-embed-mock/src/types.js';
import { P, call, expectErrorEnvelope, newHub, tokenFor } from './helpers.js';

const TAGS = `${P}/projects/published-tags`;
const LIST = `${P}/projects/published-list`;

function seedWith(tables: Partial<MockSeed['tables'][number]>[]): MockSeed {
  return {
    accounts: defaultSeed.accounts,
    tables: tables.map((t, i) => ({
      project_id: i + 1,
      short_code: `c${i}`,
      name: `T${i}`,
      industry: 'X',
      icon: 'x',
      tags: [],
      type: 'A',
      published: true,
      price_cents: 100,
      ...t,
    })),
  };
}

async function list(hub: ReturnType<typeof newHub>, query: Record<string, string> = {}) {
  const token = await tokenFor(hub, 'u');
  return call(hub, 'GET', LIST, { bearer: token, query });
}

describe('GET /projects/published-tags', () => {
  it('returns the tags of published tables, de-duplicated and sorted', async () => {
    const hub = newHub({
      seed: seedWith([{ tags: ['b', 'a'] }, { tags: ['a', 'c'] }, { tags: ['zzz-hidden'], published: false }]),
    });
    const res = await call(hub, 'GET', TAGS, { bearer: await tokenFor(hub, 'u') });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ code: 200, message: 'success', data: { list: ['a', 'b', 'c'] } });
  });

  it('on the default seed the list is sorted and has no repeats', async () => {
    const hub = newHub();
    const tags: string[] = (await call(hub, 'GET', TAGS, { bearer: await tokenFor(hub, 'u') })).body.data.list;
    expect(tags.length).toBeGreaterThan(20);
    expect(new Set(tags).size).toBe(tags.length);
    expect([...tags].sort()).toEqual(tags);
  });

  it('needs a Bearer token (401 without)', async () => {
    expectErrorEnvelope(await call(newHub(), 'GET', TAGS), 401);
  });

  it('follows publish/unpublish from the console', async () => {
    const hub = newHub({
      seed: seedWith([
        { short_code: 'a', tags: ['one'] },
        { short_code: 'b', tags: ['two'], published: false },
      ]),
    });
    const token = await tokenFor(hub, 'u');
    hub.publish('b');
    hub.unpublish('a');
    expect((await call(hub, 'GET', TAGS, { bearer: token })).body.data.list).toEqual(['two']);
  });
});

describe('GET /projects/published-list', () => {
  it('items carry the spec fields: short_code, name, industry, icon, tags, total', async () => {
    const hub = newHub();
    const res = await list(hub);
    expect(res.status).toBe(200);
    const item = res.body.data.list[0];
    expect(Object.keys(item).sort()).toEqual(['icon', 'industry', 'name', 'short_code', 'tags', 'total']);
    expect(item.icon).toBe(`${hub.baseUrl}/static/icons/construction.png`);
    expect(item.total).toBe(res.body.data.list.length);
    expect(res.body.data.total).toBe(res.body.data.list.length);
  });

  it('without tags returns all published tables and only published ones', async () => {
    const hub = newHub();
    const res = await list(hub);
    const published = defaultSeed.tables.filter((t) => t.published).map((t) => t.short_code);
    expect(res.body.data.list.map((i: { short_code: string }) => i.short_code)).toEqual(published);
    expect(published.length).toBeGreaterThanOrEqual(24);
  });

  it('tags: a table matching any tag is returned, matching tables first', async () => {
    const hub = newHub({ seed: seedWith([{ tags: ['x'] }, { tags: ['red'] }, { tags: ['y'] }, { tags: ['blue'] }]) });
    const res = await list(hub, { tags: 'blue,red' });
    expect(res.body.data.list.map((i: { short_code: string }) => i.short_code)).toEqual(['c1', 'c3', 'c0', 'c2']);
  });

  it('tags: fuzzy matching is a case-insensitive substring match', async () => {
    const hub = newHub({ seed: seedWith([{ tags: ['Delivery'] }, { tags: ['other'] }, { tags: ['同城配送'] }]) });
    const res = await list(hub, { tags: 'DELIV, 配送', limit: '2' });
    expect(res.body.data.list.map((i: { short_code: string }) => i.short_code)).toEqual(['c0', 'c2']);
  });

  it('limit: the shortfall is filled from other published tables up to limit', async () => {
    const hub = newHub({
      seed: seedWith([{ tags: ['a'] }, { tags: ['b'] }, { tags: ['c'], published: false }, { tags: ['d'] }]),
    });
    const res = await list(hub, { tags: 'b', limit: '3' });
    expect(res.body.data.list.map((i: { short_code: string }) => i.short_code)).toEqual(['c1', 'c0', 'c3']);
    expect(res.body.data.list.every((i: { total: number }) => i.total === 3)).toBe(true);
  });

  it('limit: caps the number of records', async () => {
    const res = await list(newHub(), { limit: '5' });
    expect(res.body.data.list).toHaveLength(5);
  });

  it('limit: must be an integer from 1 to 100 (400 otherwise)', async () => {
    const hub = newHub();
    const token = await tokenFor(hub, 'u');
    for (const limit of ['0', '101', '1000', '-1', '1.5', 'abc', '', '1e2']) {
      expectErrorEnvelope(await call(hub, 'GET', LIST, { bearer: token, query: { limit } }), 400);
    }
  });

  it('unpublished tables never appear, even when their tags match', async () => {
    const hub = newHub({ seed: seedWith([{ tags: ['secret'], published: false }, { tags: ['open'] }]) });
    const res = await list(hub, { tags: 'secret' });
    expect(res.body.data.list.map((i: { short_code: string }) => i.short_code)).toEqual(['c1']);
  });

  it('a seed short code with characters that need URL-encoding is listed verbatim', async () => {
    const res = await list(newHub(), { tags: 'promo' });
    expect(res.body.data.list[0].short_code).toBe('promo 2026/秋 ✨?#%+');
  });

  it('blank and repeated tags are ignored', async () => {
    const hub = newHub({ seed: seedWith([{ tags: ['x'] }, { tags: ['y'] }]) });
    const res = await list(hub, { tags: ' , y,,y ' });
    expect(res.body.data.list.map((i: { short_code: string }) => i.short_code)).toEqual(['c1', 'c0']);
  });
});
