// The page's answers to host requests (src/bridge/answers.ts), driven without a transport or a bridge.
import { describe, expect, it } from 'vitest';
import { answerHost, type PageHandler } from '../../src/bridge/answers.js';
import { BridgeError, type BridgeMessage } from '../../src/bridge/protocol.js';

const request = (method: string, params?: unknown) =>
  ({ ns: 'hub-embed', v: 1, sid: 's', id: '1', kind: 'req', method, params }) as BridgeMessage;
const handlers = (entries: Record<string, PageHandler>) => new Map(Object.entries(entries));

describe('answerHost: a host request to its answer', () => {
  it('a method without a handler, or one the page does not answer (no shape), is E_NO_HANDLER', async () => {
    expect(await answerHost(handlers({}), request('widget.refresh'))).toMatchObject({
      ok: false,
      error: { code: 'E_NO_HANDLER' },
    });
    const any = handlers({ 'app.secret': () => 'x' });
    expect(await answerHost(any, request('app.secret'))).toMatchObject({ ok: false, error: { code: 'E_NO_HANDLER' } });
  });

  it('params of another shape are E_DENIED, and the handler is never called', async () => {
    let called = 0;
    const setTags = handlers({ 'widget.setTags': () => void called++ });
    for (const params of [{ tags: 'HR' }, { tags: [1] }, null, 42, { tags: Array(101).fill('x') }])
      expect(await answerHost(setTags, request('widget.setTags', params))).toMatchObject({
        ok: false,
        error: { code: 'E_DENIED', message: 'widget.setTags: bad params' },
      });
    expect(called).toBe(0);
  });

  it('a handler’s result is the answer (undefined as null); a handler with no params gets {}', async () => {
    const seen: unknown[] = [];
    const answers = handlers({
      'widget.refresh': (params: never) => void seen.push(params),
      'form.close': () => Promise.resolve({ closed: true }),
    });
    expect(await answerHost(answers, request('widget.refresh'))).toEqual({ ok: true, result: null });
    expect(seen).toEqual([{}]);
    expect(await answerHost(answers, request('form.close', {}))).toEqual({ ok: true, result: { closed: true } });
  });

  it('a handler that throws or rejects is a failure with its code (a BridgeError’s) or E_INTERNAL, never a rejection', async () => {
    const failing = handlers({
      'widget.refresh': () => {
        throw new BridgeError('E_DENIED', 'not now');
      },
      'form.close': () => Promise.reject(new Error('boom')),
    });
    expect(await answerHost(failing, request('widget.refresh'))).toEqual({
      ok: false,
      error: { code: 'E_DENIED', message: 'not now' },
    });
    expect(await answerHost(failing, request('form.close'))).toEqual({
      ok: false,
      error: { code: 'E_INTERNAL', message: 'boom' },
    });
  });
});
