// The page's answers to the host's requests (src/bridge/answers.ts), driven without a transport.
import { describe, expect, it, vi } from 'vitest';
import { createPageAnswers } from '../../src/bridge/answers.js';
import { BridgeError, type BridgeMessage } from '../../src/bridge/protocol.js';

const request = (method: string | undefined, params?: unknown): BridgeMessage => ({
  ns: 'hub-embed',
  v: 1,
  sid: 's',
  id: 'h1',
  kind: 'req',
  method,
  params,
});

describe('answers to host requests (answers.ts)', () => {
  it('params are checked before the handler runs: bad params are E_DENIED and the handler never runs', async () => {
    const answers = createPageAnswers();
    const setTags = vi.fn();
    answers.handle('widget.setTags', setTags);
    for (const params of [undefined, null, {}, { tags: 'a' }, { tags: [1] }, { tags: ['x'.repeat(201)] }]) {
      expect(await answers.answer(request('widget.setTags', params))).toEqual({
        ok: false,
        error: { code: 'E_DENIED', message: 'widget.setTags: bad params' },
      });
    }
    expect(setTags).not.toHaveBeenCalled();
    expect(await answers.answer(request('widget.setTags', { tags: ['a'] }))).toEqual({ ok: true, result: null });
    expect(setTags).toHaveBeenCalledWith({ tags: ['a'] });
  });

  it('a request that reads no params may come without them: the handler gets {}', async () => {
    const answers = createPageAnswers();
    const refresh = vi.fn();
    answers.handle('widget.refresh', refresh);
    expect(await answers.answer(request('widget.refresh'))).toEqual({ ok: true, result: null });
    expect(refresh).toHaveBeenCalledWith({});
  });

  it('no handler, an unknown method or an Object.prototype name: E_NO_HANDLER', async () => {
    const answers = createPageAnswers();
    for (const method of ['widget.refresh', 'nope', 'toString', '__proto__', undefined]) {
      const answer = await answers.answer(request(method));
      expect(answer, String(method)).toMatchObject({ ok: false, error: { code: 'E_NO_HANDLER' } });
    }
  });

  it('a handler that throws answers with its BridgeError code, anything else E_INTERNAL', async () => {
    const answers = createPageAnswers();
    answers.handle('form.close', () => {
      throw new BridgeError('E_DENIED', 'the form is busy');
    });
    answers.handle('widget.refresh', () => Promise.reject(new Error('boom')));
    expect(await answers.answer(request('form.close', {}))).toEqual({
      ok: false,
      error: { code: 'E_DENIED', message: 'the form is busy' },
    });
    expect(await answers.answer(request('widget.refresh', {}))).toEqual({
      ok: false,
      error: { code: 'E_INTERNAL', message: 'boom' },
    });
  });

  it('the hello announces the methods with a handler; unregistering removes only its own handler', async () => {
    const answers = createPageAnswers();
    const first = answers.handle('form.close', () => ({ closed: false }));
    answers.handle('widget.refresh', () => undefined);
    expect(answers.methods().sort()).toEqual(['form.close', 'widget.refresh']);
    answers.handle('form.close', () => ({ closed: true }));
    first(); // replaced meanwhile: removes nothing
    expect(await answers.answer(request('form.close', {}))).toEqual({ ok: true, result: { closed: true } });
    expect(answers.methods().sort()).toEqual(['form.close', 'widget.refresh']);
  });
});
