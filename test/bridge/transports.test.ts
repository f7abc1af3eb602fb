import { describe, expect, it, vi } from 'vitest';
import { BridgeError } from '../../src/bridge/index.js';
import type { MockTransport } from '../../src/host/index.js';
import { connect, flush, mockHost, rejectionOf, settled, useBridgeFixtures } from './helpers.js';

const TRANSPORTS: MockTransport[] = [
  'react-native',
  'webkit',
  'webkit-reply',
  'android',
  'android-jsi',
  'flutter',
  'parent',
];
const HOSTILE = `' " \\ \n \u2028 \u2029 😀 汉字 </script><script>alert(1)</script> javascript:alert(1) <b>x</b>`;

describe.each(TRANSPORTS)('bridge over %s', (transport) => {
  /** A connected bridge with a `debug` spy, and one auth.getToken call the host holds without answering. */
  async function heldTokenCall(timeoutMs?: number) {
    const host = mockHost(transport, { manual: true });
    const debug = vi.fn();
    const bridge = connect({ debug });
    await bridge.ready;
    const call = bridge.request('auth.getToken', {}, timeoutMs === undefined ? {} : { timeoutMs });
    await flush();
    return { host, debug, bridge, call, id: host.held[0]!.id };
  }

  useBridgeFixtures();

  it('handshake: ready resolves with the host, its capabilities and a per-load sid', async () => {
    const host = mockHost(transport, { platform: 'test-os' });
    const bridge = connect();
    const info = await bridge.ready;
    expect(info).toMatchObject({ platform: 'test-os', capabilities: ['auth.getToken', 'form.open'] });
    expect(bridge.hasCapability('auth.getToken')).toBe(true);
    expect(bridge.hasCapability('payment.request')).toBe(false);
    const hello = host.messages.find((m) => m.method === 'bridge.hello')!;
    expect(hello).toMatchObject({ ns: 'hub-embed', v: 1, kind: 'req', sid: bridge.sid });
    expect(hello.params).toMatchObject({ v: [1] });
  });

  it('hello announces the host-to-page methods the page handles', async () => {
    const host = mockHost(transport);
    const bridge = connect();
    bridge.handle('widget.refresh', () => undefined);
    await bridge.ready;
    expect(host.messages[0]!.params).toMatchObject({ capabilities: ['widget.refresh'] });
  });

  it('auth.getToken: the host supplies {access_token, expires_in}', async () => {
    mockHost(transport);
    const bridge = connect();
    await expect(bridge.request('auth.getToken', {})).resolves.toEqual({
      access_token: 'mock-host-token',
      expires_in: 3600,
    });
  });

  it('form.open: the host answers {handled: true} when it opens the form natively', async () => {
    const host = mockHost(transport);
    const bridge = connect();
    await expect(
      bridge.request('form.open', { shortCode: 'ab12', url: 'https://form.example/ab12?token=t' }),
    ).resolves.toEqual({
      handled: true,
    });
    expect(host.messages.at(-1)).toMatchObject({ method: 'form.open', params: { shortCode: 'ab12' } });
  });

  it('page-to-host events arrive in order, and only strings ever reach the native postMessage', async () => {
    const host = mockHost(transport);
    const bridge = connect();
    await bridge.ready;
    expect(bridge.emit('widget.ready', { version: '0.1.0' })).toBe(true);
    bridge.emit('table.selected', { shortCode: 'ab12', name: 'Survey' });
    bridge.emit('form.opened', { shortCode: 'ab12', handledBy: 'page' });
    bridge.emit('form.closed', { shortCode: 'ab12' });
    bridge.emit('widget.error', { kind: 'network', message: 'offline' });
    await flush();
    expect(host.events.map((e) => e.method)).toEqual([
      'widget.ready',
      'table.selected',
      'form.opened',
      'form.closed',
      'widget.error',
    ]);
    expect(host.posted.length).toBeGreaterThan(5);
    expect(host.posted.every((p) => typeof p === 'string')).toBe(true);
  });

  it('calls before the host is ready are queued, then flushed after the handshake', async () => {
    const host = mockHost(transport);
    const bridge = connect();
    const token = bridge.request('auth.getToken', {});
    bridge.emit('widget.ready', { version: '1' });
    expect(host.messages).toHaveLength(0);
    await expect(token).resolves.toMatchObject({ access_token: 'mock-host-token' });
    expect(host.messages.map((m) => m.method)).toEqual(['bridge.hello', 'auth.getToken', 'widget.ready']);
  });

  it('unknown method: the host answers E_NO_HANDLER and the call rejects, never resolving undefined', async () => {
    mockHost(transport, { handlers: {}, capabilities: [] });
    const bridge = connect();
    const error = await rejectionOf(bridge.request('form.open', { shortCode: 'x', url: 'https://f.example/x' }));
    expect(error).toBeInstanceOf(BridgeError);
    expect(error.code).toBe('E_NO_HANDLER');
  });

  it('native errors map to BridgeError.code (the WithReply errorMessage path on webkit-reply)', async () => {
    mockHost(transport, {
      handlers: {
        'auth.getToken': () => {
          throw new BridgeError('E_DENIED', 'the user is signed out');
        },
      },
    });
    const bridge = connect();
    const error = await rejectionOf(bridge.request('auth.getToken', {}));
    expect(error).toMatchObject({ name: 'BridgeError', code: 'E_DENIED', message: 'the user is signed out' });
  });

  it('an invalid host result is rejected with E_INTERNAL, not passed on', async () => {
    mockHost(transport, { handlers: { 'auth.getToken': () => ({ access_token: '', expires_in: -1 }) as any } });
    const bridge = connect();
    expect((await rejectionOf(bridge.request('auth.getToken', {}))).code).toBe('E_INTERNAL');
  });

  it('interleaved replies out of order resolve the right promises', async () => {
    const host = mockHost(transport, { manual: true });
    const bridge = connect();
    const calls = [0, 1, 2].map((i) =>
      bridge.request('form.open', { shortCode: `c${i}`, url: `https://f.example/c${i}` }),
    );
    await flush();
    const [a, b, c] = host.held.slice();
    host.reply(c!.id, { handled: true });
    host.fail(a!.id, 'E_DENIED', 'no');
    host.reply(b!.id, { handled: false });
    expect(await settled(calls[0]!)).toMatchObject({ error: { code: 'E_DENIED' } });
    expect(await settled(calls[1]!)).toEqual({ value: { handled: false } });
    expect(await settled(calls[2]!)).toEqual({ value: { handled: true } });
  });

  it('a per-call timeout rejects with E_TIMEOUT, tells the host, cleans up, and ignores the late reply', async () => {
    const { host, bridge, call, id } = await heldTokenCall(500);
    const timersWhilePending = vi.getTimerCount();
    const rejected = rejectionOf(call);
    await vi.advanceTimersByTimeAsync(500);
    expect((await rejected).code).toBe('E_TIMEOUT');
    expect(bridge.pendingCount).toBe(0);
    expect(vi.getTimerCount()).toBe(timersWhilePending - 1);
    expect(host.cancelled).toEqual([id]);
    expect(host.held).toHaveLength(0);
  });

  it('a late reply after a timeout is ignored without error', async () => {
    const { host, debug, bridge, call, id } = await heldTokenCall(100);
    const rejected = rejectionOf(call);
    await vi.advanceTimersByTimeAsync(100);
    await rejected;
    host.deliver({ sid: bridge.sid, id, kind: 'res', ok: true, result: { access_token: 'late', expires_in: 1 } });
    await flush();
    expect(debug).toHaveBeenCalledWith('ignored: late reply');
  });

  it('cancel through an AbortSignal rejects with E_CANCELLED and tells the host', async () => {
    const host = mockHost(transport, { manual: true });
    const bridge = connect();
    await bridge.ready;
    const controller = new AbortController();
    const call = bridge.request(
      'form.open',
      { shortCode: 'a', url: 'https://f.example/a' },
      { signal: controller.signal, timeoutMs: 0 },
    );
    await flush();
    controller.abort();
    expect((await rejectionOf(call)).code).toBe('E_CANCELLED');
    expect(host.cancelled).toHaveLength(1);
    expect(host.held).toHaveLength(0);
    expect(bridge.pendingCount).toBe(0);
  });

  it('no leak after 1,000 calls: every timer and pending entry is gone', async () => {
    mockHost(transport);
    const bridge = connect();
    await bridge.ready;
    await flush();
    const baseline = vi.getTimerCount();
    const calls = Array.from({ length: 1000 }, (_, i) =>
      i % 2
        ? bridge.request('auth.getToken', {})
        : bridge.request('form.open', { shortCode: `s${i}`, url: 'https://f.example/' }),
    );
    expect(bridge.pendingCount).toBe(1000);
    const results = await settled(Promise.all(calls));
    expect(results.value).toHaveLength(1000);
    expect(bridge.pendingCount).toBe(0);
    expect(vi.getTimerCount()).toBe(baseline);
  });

  it('Unicode survives both directions: quotes, backslash, newline, U+2028/U+2029, emoji, CJK, </script>', async () => {
    mockHost(transport, { handlers: { 'auth.getToken': () => ({ access_token: HOSTILE, expires_in: 60 }) } });
    const bridge = connect();
    expect((await bridge.request('auth.getToken', {})).access_token).toBe(HOSTILE);
  });

  it('host-to-page widget.setTags carries hostile strings intact into the handler', async () => {
    const host = mockHost(transport);
    const bridge = connect();
    const seen: string[][] = [];
    bridge.handle('widget.setTags', ({ tags }) => void seen.push(tags));
    await bridge.ready;
    await expect(host.request('widget.setTags', { tags: [HOSTILE, '{"__proto__":1}'] })).resolves.toBeNull();
    expect(seen).toEqual([[HOSTILE, '{"__proto__":1}']]);
  });

  it('host-to-page requests: handler results return, bad params are E_DENIED, unknown ones E_NO_HANDLER', async () => {
    const host = mockHost(transport);
    const bridge = connect();
    bridge.handle('form.close', () => ({ closed: true }));
    const refresh = vi.fn();
    bridge.handle('widget.refresh', refresh);
    await bridge.ready;
    await expect(host.request('form.close', {})).resolves.toEqual({ closed: true });
    await expect(host.request('widget.setTags', { tags: ['a'] })).rejects.toMatchObject({ code: 'E_NO_HANDLER' });
    bridge.handle('widget.setTags', () => {});
    await expect(host.request('widget.setTags', { tags: 'a' })).rejects.toMatchObject({ code: 'E_DENIED' });
    await expect(host.request('widget.setTags', { tags: [1] })).rejects.toMatchObject({ code: 'E_DENIED' });
    await expect(host.request('widget.refresh', [])).rejects.toMatchObject({ code: 'E_DENIED' });
    expect(refresh).not.toHaveBeenCalled();
    await expect(host.request('page.deleteEverything', {})).rejects.toMatchObject({ code: 'E_NO_HANDLER' });
    await expect(host.request('toString', {})).rejects.toMatchObject({ code: 'E_NO_HANDLER' });
  });

  it('a throwing page handler answers E_INTERNAL', async () => {
    const host = mockHost(transport);
    const bridge = connect();
    bridge.handle('widget.refresh', () => {
      throw new Error('boom');
    });
    await bridge.ready;
    await expect(host.request('widget.refresh', {})).rejects.toMatchObject({ code: 'E_INTERNAL', message: 'boom' });
  });

  it('a 1 MB payload round-trips intact; one over the limit is refused with a clear error and nothing is sent', async () => {
    const big = 'x😀'.repeat(350_000); // > 1 MB of UTF-16 and > 1 MB of UTF-8
    const host = mockHost(transport, { handlers: { 'auth.getToken': () => ({ access_token: big, expires_in: 60 }) } });
    const bridge = connect();
    const token = await settled(bridge.request('auth.getToken', {}));
    expect(token.value!.access_token).toBe(big);
    const before = host.posted.length;
    const tooBig = await rejectionOf(bridge.request('form.open', { shortCode: 'a', url: 'u'.repeat(5 * 1024 * 1024) }));
    expect(tooBig).toMatchObject({ code: 'E_UNSUPPORTED', message: 'message too large' });
    expect(host.posted.length).toBe(before);
    expect(bridge.pendingCount).toBe(0);
  });

  it('messages with a foreign ns, wrong v or another sid are ignored', async () => {
    const { host, debug, bridge, call, id } = await heldTokenCall();
    const result = { access_token: 'forged', expires_in: 60 };
    host.deliver({ ns: 'other-sdk', sid: bridge.sid, id, kind: 'res', ok: true, result });
    host.deliver({ v: 2, sid: bridge.sid, id, kind: 'res', ok: true, result });
    host.deliver({ sid: 'someone-else', id, kind: 'res', ok: true, result });
    host.deliver({ sid: bridge.sid, id, kind: 'weird', ok: true, result });
    host.deliver(`{"ns":"hub-embed","v":1,"sid":"${bridge.sid}","id":"${id}","kind":"res","ok":true,`);
    host.deliver({ not: 'a message' });
    await flush();
    expect(bridge.pendingCount).toBe(1);
    expect(new Set(debug.mock.calls.map(([m]) => m))).toEqual(
      new Set(['ignored: foreign', 'ignored: sid', 'ignored: malformed']),
    );
    host.reply(id, { access_token: 'real', expires_in: 60 });
    expect((await settled(call)).value).toEqual({ access_token: 'real', expires_in: 60 });
  });

  it('reload mid-call: replies for the old sid are dropped, the new page handshakes again without error', async () => {
    const host = mockHost(transport, { manual: true });
    const before = connect();
    const oldCall = before.request('auth.getToken', {});
    await flush();
    const oldId = host.held[0]!.id;
    before.close(); // the old document goes away
    expect((await rejectionOf(oldCall)).code).toBe('E_CANCELLED');
    const after = connect();
    await after.ready;
    expect(host.sessions).toEqual([before.sid, after.sid]);
    expect(after.sid).not.toBe(before.sid);
    const newCall = after.request('auth.getToken', {});
    await flush();
    host.reply(oldId, { access_token: 'for-the-old-page', expires_in: 60 });
    await flush();
    expect(after.pendingCount).toBe(1);
    host.reply(host.held.at(-1)!.id, { access_token: 'new', expires_in: 60 });
    expect((await settled(newCall)).value!.access_token).toBe('new');
  });

  it('several widgets on one page: separate handshakes and sessions, no crossed replies or requests', async () => {
    const host = mockHost(transport, { manual: true });
    const one = connect();
    const two = connect();
    await Promise.all([one.ready, two.ready]);
    expect(new Set(host.sessions)).toEqual(new Set([one.sid, two.sid]));
    const a = one.request('form.open', { shortCode: 'one', url: 'https://f.example/1' });
    const b = two.request('form.open', { shortCode: 'two', url: 'https://f.example/2' });
    await flush();
    const [ra, rb] = host.held.slice();
    host.reply(rb!.id, { handled: false });
    host.reply(ra!.id, { handled: true });
    expect((await settled(a)).value).toEqual({ handled: true });
    expect((await settled(b)).value).toEqual({ handled: false });
    const hits: string[] = [];
    one.handle('widget.refresh', () => void hits.push('one'));
    two.handle('widget.refresh', () => void hits.push('two'));
    await host.request('widget.refresh', {}, two.sid);
    expect(hits).toEqual(['two']);
  });

  it('with a nonce, host messages without it are ignored and page messages carry it', async () => {
    const host = mockHost(transport, { nonce: 'n-123', manual: true });
    const bridge = connect();
    await bridge.ready;
    expect(host.messages.every((m) => m.nonce === 'n-123')).toBe(true);
    const call = bridge.request('auth.getToken', {});
    await flush();
    const id = host.held[0]!.id;
    host.deliver({
      sid: bridge.sid,
      id,
      kind: 'res',
      ok: true,
      result: { access_token: 'x', expires_in: 1 },
      nonce: 'wrong',
    });
    await flush();
    expect(bridge.pendingCount).toBe(1);
    host.reply(id, { access_token: 'ok', expires_in: 1 });
    expect((await settled(call)).value!.access_token).toBe('ok');
  });
});
