import { describe, expect, it } from 'vitest';
import { HubError } from '../../src/core/errors.js';
import { isText, readAnswer, send } from '../../src/core/http.js';

async function failure(promise: Promise<unknown>): Promise<HubError> {
  const error = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(HubError);
  return error as HubError;
}

describe('http helpers (one request and body-reading path for client and token endpoint)', () => {
  it('readAnswer gives the parsed body, or undefined for a body that is not JSON', async () => {
    expect(await readAnswer(Response.json({ a: [1] }), 'api', 'x')).toEqual({ body: { a: [1] }, data: undefined });
    expect((await readAnswer(new Response('null'), 'api', 'x')).body).toBeNull();
    expect((await readAnswer(new Response('<html>Hi</html>'), 'api', 'x')).body).toBeUndefined();
    expect((await readAnswer(new Response(''), 'api', 'x')).body).toBeUndefined();
  });

  it('readAnswer recognises the envelope by its code and gives its data', async () => {
    expect(
      (await readAnswer(Response.json({ code: 200, message: 'success', data: { list: [] } }), 'api', 'x')).data,
    ).toEqual({ list: [] });
    for (const body of [null, 'code', 42, ['code'], { list: ['a'] }, { access_token: 't', expires_in: 1 }]) {
      expect((await readAnswer(Response.json(body), 'api', 'x')).data).toBeUndefined();
    }
  });

  it('readAnswer turns a non-2xx status or an envelope code other than 200 into a `kind` error', async () => {
    expect(
      await failure(readAnswer(new Response('<html>Bad gateway</html>', { status: 502 }), 'token', 'The endpoint')),
    ).toMatchObject({
      kind: 'token',
      status: 502,
      message: 'The endpoint answered 502; check it or retry.',
    });
    const error = await failure(
      readAnswer(Response.json({ code: 40301, message: 'not allowed' }), 'api', 'published-list'),
    );
    expect(error).toMatchObject({
      kind: 'api',
      status: 200,
      code: 40301,
      message: 'published-list answered 40301 (not allowed); check it or retry.',
    });
  });

  it('readAnswer prints only a numeric code and a text message', async () => {
    const error = await failure(readAnswer(Response.json({ code: '500', message: { html: '<b>' } }), 'api', 'x'));
    expect(error.message).toBe('x answered 200; check it or retry.');
    expect('code' in error).toBe(false);
  });

  it('send maps an abort, a timeout and a failed fetch to aborted, timeout and network', async () => {
    const hang = ((_: unknown, init: RequestInit) =>
      new Promise((_, reject) =>
        init.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
      )) as typeof fetch;
    const controller = new AbortController();
    const pending = send('x', 'https://x.example', { signal: controller.signal }, hang);
    controller.abort();
    expect((await failure(pending)).kind).toBe('aborted');
    expect((await failure(send('x', 'https://x.example', { signal: AbortSignal.abort() }, hang))).kind).toBe('aborted');
    expect((await failure(send('x', 'https://x.example', {}, hang, 5))).kind).toBe('timeout');
    const down = (async () => {
      throw new TypeError('Failed to fetch');
    }) as typeof fetch;
    expect(await failure(send('The service', 'https://x.example', {}, down))).toMatchObject({
      kind: 'network',
      message: 'The service unreachable; check it.',
    });
  });

  it('isText accepts only non-empty strings', () => {
    expect(['a', ' '].every(isText)).toBe(true);
    expect(['', 0, null, undefined, ['a'], { length: 1 }].some(isText)).toBe(false);
  });
});
