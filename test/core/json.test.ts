import { describe, expect, it } from 'vitest';
import { envelopeOf, isText, readJson } from '../../src/core/json.js';

describe('json helpers (one body-reading path for client and token endpoint)', () => {
  it('readJson gives the parsed body, or undefined for a body that is not JSON', async () => {
    expect(await readJson(Response.json({ a: [1] }))).toEqual({ a: [1] });
    expect(await readJson(new Response('null'))).toBeNull();
    expect(await readJson(new Response('<html>Bad gateway</html>', { status: 502 }))).toBeUndefined();
    expect(await readJson(new Response(''))).toBeUndefined();
  });

  it('envelopeOf recognises a body by its code and keeps code only as a number, message only as text', () => {
    expect(envelopeOf({ code: 200, message: 'success', data: { list: [] } })).toEqual({ code: 200, message: 'success', data: { list: [] } });
    expect(envelopeOf({ code: '500', message: { html: '<b>' } })).toEqual({ code: undefined, message: undefined, data: undefined });
    for (const body of [undefined, null, 'code', 42, ['code'], { list: ['a'] }, { access_token: 't', expires_in: 1 }]) {
      expect(envelopeOf(body)).toBeUndefined();
    }
  });

  it('isText accepts only non-empty strings', () => {
    expect(['a', ' '].every(isText)).toBe(true);
    expect(['', 0, null, undefined, ['a'], { length: 1 }].some(isText)).toBe(false);
  });
});
