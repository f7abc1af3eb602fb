// The bridge's sections, each driven alone: the rules src/bridge/bridge.ts ties to its state machine.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCalls } from '../../src/bridge/calls.js';
import { findHost } from '../../src/bridge/find-host.js';
import { announces, dropReason, onceById } from '../../src/bridge/inbound.js';
import { BridgeError, MAX_MESSAGE_CHARS, type BridgeMessage } from '../../src/bridge/protocol.js';
import { NO_HOST, refusal, tooManyCalls } from '../../src/bridge/refusals.js';
import { randomId, succeeds, wire } from '../../src/bridge/sending.js';
import type { HostWindow, Transport } from '../../src/bridge/transports.js';

describe('sending.ts', () => {
  it('wire puts the session id, namespace, version and nonce on every message', () => {
    expect(JSON.parse(wire('s1', 'n1', { id: '1', kind: 'evt', method: 'x' }))).toEqual({
      ns: 'hub-embed',
      v: 1,
      sid: 's1',
      id: '1',
      kind: 'evt',
      method: 'x',
      nonce: 'n1',
    });
  });

  it('wire refuses a message over MAX_MESSAGE_CHARS with E_UNSUPPORTED, and takes one just under', () => {
    const sized = (chars: number) => ({ kind: 'evt' as const, params: 'x'.repeat(chars) });
    const overhead = wire('s', undefined, sized(0)).length;
    expect(wire('s', undefined, sized(MAX_MESSAGE_CHARS - overhead)).length).toBe(MAX_MESSAGE_CHARS);
    expect(() => wire('s', undefined, sized(MAX_MESSAGE_CHARS - overhead + 1))).toThrow(
      expect.objectContaining({ code: 'E_UNSUPPORTED', message: 'message too large' }),
    );
  });

  it('succeeds says whether the work threw (a circular message cannot be sent)', () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(succeeds(() => wire('s', undefined, { params: circular }))).toBe(false);
    expect(succeeds(() => wire('s', undefined, { params: {} }))).toBe(true);
  });

  it('randomId gives a different id each time', () => {
    expect(new Set(Array.from({ length: 1000 }, randomId)).size).toBe(1000);
  });
});

describe('refusals.ts', () => {
  it('a closed bridge refuses with E_CANCELLED, one without a host with E_UNSUPPORTED, whatever the queue', () => {
    expect(refusal('closed', false, 0, 50)).toMatchObject({ code: 'E_CANCELLED', message: 'bridge closed' });
    expect(refusal('none', false, 0, 50)).toMatchObject({ code: 'E_UNSUPPORTED', message: NO_HOST });
  });

  it('only what must wait is refused for a full queue, and only once the queue holds queueLimit', () => {
    expect(refusal('waiting', true, 49, 50)).toBeUndefined();
    expect(refusal('waiting', true, 50, 50)).toMatchObject({ code: 'E_UNSUPPORTED', message: 'queue full' });
    expect(refusal('waiting', false, 50, 50)).toBeUndefined();
    expect(refusal('ready', false, 50, 50)).toBeUndefined();
  });

  it('a call past pendingLimit open calls is refused, the hello never', () => {
    expect(tooManyCalls('auth.getToken', 9, 10)).toBeUndefined();
    expect(tooManyCalls('auth.getToken', 10, 10)).toMatchObject({
      code: 'E_UNSUPPORTED',
      message: 'too many pending calls',
    });
    expect(tooManyCalls('bridge.hello', 10, 10)).toBeUndefined();
  });
});

describe('calls.ts', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  /** The calls of a bridge whose transport records what it posts and returns what `reply` gives. */
  function setup(reply: (message: Partial<BridgeMessage>) => unknown = () => undefined) {
    const posted: Array<Partial<BridgeMessage>> = [];
    const received: unknown[] = [];
    const ignored: string[] = [];
    const calls = createCalls(
      (message) => {
        posted.push(message);
        return reply(message);
      },
      (data) => received.push(data),
      (reason) => ignored.push(reason),
    );
    return { calls, posted, received, ignored };
  }
  const outcome = (promise: Promise<unknown>) =>
    promise.then(
      (value) => ({ value }),
      (error: BridgeError) => ({ error }),
    );

  it('a call posts one request and ends with the reply settled for its id', async () => {
    const { calls, posted } = setup();
    const result = outcome(calls.call('form.open', { shortCode: 'a', url: 'u' }, false, 0));
    expect(posted).toEqual([
      { id: expect.any(String), kind: 'req', method: 'form.open', params: { shortCode: 'a', url: 'u' } },
    ]);
    expect(calls.pending.size).toBe(1);
    calls.settle(posted[0]!.id!, undefined, { handled: true });
    expect(await result).toEqual({ value: { handled: true } });
    expect(calls.pending.size).toBe(0);
  });

  it('a result not of its method’s shape fails the call with E_INTERNAL', async () => {
    const { calls, posted } = setup();
    const result = outcome(calls.call('form.open', {}, false, 0));
    calls.settle(posted[0]!.id!, undefined, { handled: 'yes' });
    expect(await result).toMatchObject({ error: { code: 'E_INTERNAL', message: 'form.open: bad result' } });
  });

  it('a reply for no open call is reported as late and ends nothing', () => {
    const { calls, ignored } = setup();
    calls.settle('nobody');
    expect(ignored).toEqual(['late reply']);
  });

  it('a waiting call is queued and posts nothing until the queue runs; ending it early frees its place', async () => {
    const { calls, posted } = setup();
    const controller = new AbortController();
    const result = outcome(calls.call('form.open', {}, true, 0, controller.signal));
    expect(posted).toEqual([]);
    expect(calls.queue.size).toBe(1);
    controller.abort();
    expect(await result).toMatchObject({ error: { code: 'E_CANCELLED', message: 'form.open cancelled' } });
    expect(calls.queue.size).toBe(0);
    // A call aborted while queued was never sent: the host is not told to cancel it.
    expect(posted).toEqual([]);
  });

  it('a sent call that times out fails with E_TIMEOUT and tells the host to cancel it', async () => {
    const { calls, posted } = setup();
    const result = outcome(calls.call('form.open', {}, false, 1000));
    await vi.advanceTimersByTimeAsync(999);
    expect(calls.pending.size).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await result).toMatchObject({ error: { code: 'E_TIMEOUT', message: 'form.open timed out' } });
    expect(posted.map((message) => message.kind)).toEqual(['req', 'cancel']);
    expect(posted[1]!.id).toBe(posted[0]!.id);
  });

  it('the hello never counts as sent: its end tells the host nothing', async () => {
    const { calls, posted } = setup();
    const result = outcome(calls.call('bridge.hello', {}, false, 10));
    await vi.advanceTimersByTimeAsync(10);
    expect(await result).toMatchObject({ error: { code: 'E_TIMEOUT' } });
    expect(posted.map((message) => message.kind)).toEqual(['req']);
  });

  it('a signal aborted before the call posts nothing and rejects with E_CANCELLED', async () => {
    const { calls, posted } = setup();
    expect(await outcome(calls.call('form.open', {}, false, 0, AbortSignal.abort()))).toMatchObject({
      error: { code: 'E_CANCELLED' },
    });
    expect(posted).toEqual([]);
    expect(calls.pending.size).toBe(0);
  });

  it('a post that throws fails the call with its error; a reply a post returns is received', async () => {
    const failing = setup(() => {
      throw new BridgeError('E_UNSUPPORTED', 'message too large');
    });
    expect(await outcome(failing.calls.call('form.open', {}, false, 0))).toMatchObject({
      error: { code: 'E_UNSUPPORTED', message: 'message too large' },
    });
    const replying = setup(() => Promise.resolve('{"the":"reply"}'));
    void replying.calls.call('form.open', {}, false, 0);
    await vi.advanceTimersByTimeAsync(0);
    expect(replying.received).toEqual(['{"the":"reply"}']);
  });
});

describe('find-host.ts', () => {
  const transport = (name: Transport['name']): Transport => ({ name, post: () => undefined });
  const androidPage = (marker?: HostWindow['__HUB_EMBED_BRIDGE__']) =>
    ({
      hubEmbed: { postMessage: () => undefined },
      __HUB_EMBED_BRIDGE__: marker,
      parent: null,
    }) as unknown as HostWindow;

  it('a forced transport object is taken as it is, without a nonce', () => {
    const forced = transport('webkit');
    expect(findHost({} as HostWindow, { transport: forced }, false)).toEqual({ transport: forced });
  });

  it('a native host object without a nonce waits for the marker while waitForMarker holds, then is taken', () => {
    expect(findHost(androidPage(), {}, true)).toBeUndefined();
    expect(findHost(androidPage(), {}, false)?.transport.name).toBe('android');
  });

  it('a marker (with or without its nonce) ends the wait, and its nonce comes with the transport', () => {
    expect(findHost(androidPage({ nonce: 'n' }), {}, true)).toMatchObject({
      transport: { name: 'android' },
      nonce: 'n',
    });
    expect(findHost(androidPage({}), {}, true)?.transport.name).toBe('android');
  });

  it('a parent frame or a WeChat page has no marker to wait for', () => {
    expect(findHost({} as HostWindow, { transport: transport('parent') }, true)?.transport.name).toBe('parent');
    expect(findHost({} as HostWindow, { transport: transport('wechat') }, true)?.transport.name).toBe('wechat');
    expect(findHost({} as HostWindow, { transport: transport('android') }, true)).toBeUndefined();
  });

  it('no host object: nothing found', () => {
    const top: Record<string, unknown> = {};
    // A top-level page: its window is its own parent.
    top.parent = top;
    expect(findHost(top as unknown as HostWindow, {}, false)).toBeUndefined();
  });
});

describe('inbound.ts', () => {
  const message = (fields: Partial<BridgeMessage>) =>
    ({ ns: 'hub-embed', v: 1, sid: 'mine', id: '1', kind: 'res', ok: true, ...fields }) as BridgeMessage;
  const ready = (fields: Partial<BridgeMessage> = {}) =>
    message({ kind: 'evt', method: 'bridge.ready', sid: 'host', ...fields });

  it('only the bridge.ready event is the host’s announcement', () => {
    expect(announces(ready())).toBe(true);
    expect(announces(message({ kind: 'req', method: 'bridge.ready' }))).toBe(false);
    expect(announces(message({ kind: 'evt', method: 'widget.ready' }))).toBe(false);
  });

  it('with a nonce, any message without it is dropped, the announcement included', () => {
    expect(dropReason(message({ nonce: 'other' }), 'mine', 'n')).toBe('nonce');
    expect(dropReason(message({}), 'mine', 'n')).toBe('nonce');
    expect(dropReason(ready({ nonce: 'other' }), 'mine', 'n')).toBe('nonce');
    expect(dropReason(message({ nonce: 'n' }), 'mine', 'n')).toBeUndefined();
  });

  it('another session’s message is dropped, but the announcement concerns every session', () => {
    expect(dropReason(message({ sid: 'theirs' }), 'mine', undefined)).toBe('sid');
    expect(dropReason(ready(), 'mine', undefined)).toBeUndefined();
    expect(dropReason(message({}), 'mine', undefined)).toBeUndefined();
  });

  it('each request id passes once; the filter forgets all past 200 ids, so it never grows beyond', () => {
    const firstTime = onceById();
    expect(firstTime('a')).toBe(true);
    expect(firstTime('a')).toBe(false);
    for (let i = 0; i < 200; i++) firstTime(`id${i}`);
    // 201 ids held: the next new one clears them, so 'a' is new again.
    expect(firstTime('b')).toBe(true);
    expect(firstTime('a')).toBe(true);
  });
});
