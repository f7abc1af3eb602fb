import { describe, expect, it, vi } from 'vitest';
import { connect, flush, mockHost, rejectionOf, useBridgeFixtures } from './helpers.js';

/** Not every DOM implements PageTransitionEvent's constructor; the bridge reads only `persisted`. */
const pageshow = (persisted: boolean) =>
  Object.defineProperty(new Event('pageshow'), 'persisted', { value: persisted });

describe('bridge lifecycle', () => {
  useBridgeFixtures();

  it('a new handshake on page show from the back/forward cache, not on a normal show', async () => {
    const host = mockHost('webkit');
    const bridge = connect();
    await bridge.ready;
    window.dispatchEvent(pageshow(false));
    await flush();
    expect(host.sessions).toHaveLength(1);
    window.dispatchEvent(pageshow(true));
    expect(await bridge.ready).toMatchObject({ transport: 'webkit' });
    expect(host.sessions).toEqual([bridge.sid, bridge.sid]);
  });

  it('after a host bridge.ready the page says hello again and calls keep going through', async () => {
    const host = mockHost('android');
    const bridge = connect();
    await bridge.ready;
    host.announce(); // the host restarted and says so
    const call = bridge.request('auth.getToken', {});
    await expect(call).resolves.toMatchObject({ access_token: 'mock-host-token' });
    expect(host.messages.filter((m) => m.kind === 'req').map((m) => m.method)).toEqual([
      'bridge.hello',
      'bridge.hello',
      'auth.getToken',
    ]);
  });

  it('a host with another protocol version: E_VERSION for queued calls and a plain web page', async () => {
    mockHost('react-native', { helloVersion: 2 });
    const bridge = connect();
    const call = rejectionOf(bridge.request('auth.getToken', {}));
    expect(await bridge.ready).toBeNull();
    expect(await call).toMatchObject({ code: 'E_VERSION', message: expect.stringMatching(/v2/) });
  });

  it('a host that refuses the hello: its error code goes to queued calls and the page runs standalone', async () => {
    const host = mockHost('android-jsi', { answerHello: false });
    const bridge = connect();
    const call = rejectionOf(bridge.request('form.open', { shortCode: 'a', url: 'https://f.example/a' }));
    await flush();
    host.fail(host.messages[0]!.id, 'E_DENIED', 'this app does not host hub-embed here');
    expect(await bridge.ready).toBeNull();
    expect(await call).toMatchObject({ code: 'E_DENIED', message: 'this app does not host hub-embed here' });
  });

  it('the queue before the handshake is bounded: extra calls are refused at once, extra events dropped', async () => {
    mockHost('webkit', { answerHello: false });
    const bridge = connect({ queueLimit: 2 });
    const queued = [rejectionOf(bridge.request('auth.getToken', {})), rejectionOf(bridge.request('auth.getToken', {}))];
    const refused = await rejectionOf(bridge.request('auth.getToken', {}));
    expect(refused).toMatchObject({ code: 'E_UNSUPPORTED', message: 'queue full' });
    expect(bridge.emit('widget.ready', { version: '1' })).toBe(false);
    await vi.advanceTimersByTimeAsync(2000);
    expect((await Promise.all(queued)).map((e) => e.code)).toEqual(['E_UNSUPPORTED', 'E_UNSUPPORTED']);
  });

  it('a queued call that times out leaves the queue and never reaches the host', async () => {
    const host = mockHost('webkit', { answerHello: false });
    const bridge = connect({ readyTimeoutMs: 5000, queueLimit: 1 });
    const call = rejectionOf(bridge.request('auth.getToken', {}, { timeoutMs: 100 }));
    await vi.advanceTimersByTimeAsync(100);
    expect((await call).code).toBe('E_TIMEOUT');
    // The slot is free again.
    const next = rejectionOf(bridge.request('auth.getToken', {}));
    await vi.advanceTimersByTimeAsync(4900);
    expect((await next).code).toBe('E_UNSUPPORTED');
    expect(host.cancelled).toEqual([]);
    expect(host.messages.map((m) => m.method)).toEqual(['bridge.hello']);
  });

  it('the default per-call timeout is 10 s and can be changed per bridge', async () => {
    const host = mockHost('android', { manual: true });
    const bridge = connect();
    const quick = connect({ timeoutMs: 50 });
    await Promise.all([bridge.ready, quick.ready]);
    const slow = rejectionOf(bridge.request('auth.getToken', {}));
    const fast = rejectionOf(quick.request('auth.getToken', {}));
    await vi.advanceTimersByTimeAsync(50);
    expect((await fast).code).toBe('E_TIMEOUT');
    await vi.advanceTimersByTimeAsync(9_949);
    expect(bridge.pendingCount).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect((await slow).code).toBe('E_TIMEOUT');
    expect(host.cancelled).toHaveLength(2);
  });

  it('an already-aborted signal rejects without sending anything', async () => {
    const host = mockHost('webkit');
    const bridge = connect();
    await bridge.ready;
    const error = await rejectionOf(bridge.request('auth.getToken', {}, { signal: AbortSignal.abort() }));
    expect(error.code).toBe('E_CANCELLED');
    expect(host.messages.map((m) => m.method)).toEqual(['bridge.hello']);
  });

  it('close() cancels open calls and removes every listener and timer', async () => {
    const host = mockHost('react-native', { manual: true, rnTarget: 'window' });
    const bridge = connect();
    const refresh = vi.fn();
    bridge.handle('widget.refresh', refresh);
    await bridge.ready;
    const call = rejectionOf(bridge.request('auth.getToken', {}));
    await flush();
    bridge.close();
    expect((await call).code).toBe('E_CANCELLED');
    expect(vi.getTimerCount()).toBe(0);
    expect(bridge.pendingCount).toBe(0);
    const answered = vi.fn();
    host.request('widget.refresh', {}).then(answered, answered);
    window.dispatchEvent(pageshow(true));
    await flush();
    expect(refresh).not.toHaveBeenCalled();
    expect(answered).not.toHaveBeenCalled();
    expect(host.sessions).toHaveLength(1);
    expect((await rejectionOf(bridge.request('auth.getToken', {}))).code).toBe('E_CANCELLED');
    expect(bridge.emit('widget.ready', { version: '1' })).toBe(false);
  });

  it('closing while the handshake runs resolves ready with null', async () => {
    mockHost('webkit', { answerHello: false });
    const bridge = connect();
    bridge.close();
    expect(await bridge.ready).toBeNull();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('an unregistered handler no longer answers', async () => {
    const host = mockHost('android');
    const bridge = connect();
    const off = bridge.handle('widget.refresh', () => {});
    await bridge.ready;
    off();
    await expect(host.request('widget.refresh', {})).rejects.toMatchObject({ code: 'E_NO_HANDLER' });
  });

  it('a duplicated host request is answered once', async () => {
    const host = mockHost('android');
    const debug = vi.fn();
    const bridge = connect({ debug });
    const refresh = vi.fn();
    bridge.handle('widget.refresh', refresh);
    await bridge.ready;
    const message = { sid: bridge.sid, id: 'dup-1', kind: 'req' as const, method: 'widget.refresh', params: {} };
    host.deliver(message);
    host.deliver(message);
    await flush();
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(debug).toHaveBeenCalledWith('ignored: duplicate');
  });

  it('messages an early host stub buffered in __hubEmbedReceive.q are replayed to the bridge', async () => {
    const stub: any = (m: unknown) => stub.q.push(m);
    stub.q = ['{"ns":"someone-else"}'];
    (window as any).__hubEmbedReceive = stub;
    const debug = vi.fn();
    connect({ debug, allowedParentOrigins: [] });
    await flush();
    expect(debug).toHaveBeenCalledWith('ignored: foreign');
    expect((window as any).__hubEmbedReceive).not.toBe(stub);
  });

  it('inbound non-string values are ignored (no "[object Object]" parsing)', async () => {
    const host = mockHost('webkit', { manual: true });
    const debug = vi.fn();
    const bridge = connect({ debug });
    await bridge.ready;
    host.deliver(42);
    host.deliver(null);
    host.deliver([bridge.sid]);
    await flush();
    expect(debug.mock.calls.filter(([m]) => m === 'ignored: malformed')).toHaveLength(3);
  });

  it('waitForMarker: a native object found without a nonce waits for the late marker and then uses its nonce', async () => {
    const host = mockHost('flutter', { nonce: 'n-1' });
    const win = window as { __HUB_EMBED_BRIDGE__?: unknown };
    const marker = win.__HUB_EMBED_BRIDGE__;
    delete win.__HUB_EMBED_BRIDGE__;
    const bridge = connect({ waitForMarker: true, waitForHostMs: 500 });
    await vi.advanceTimersByTimeAsync(300);
    expect(host.posted).toEqual([]);
    win.__HUB_EMBED_BRIDGE__ = marker;
    await vi.advanceTimersByTimeAsync(100);
    expect(await bridge.ready).toMatchObject({ transport: 'android' });
    expect(host.messages.map((m) => m.nonce)).toEqual(['n-1']);
  });

  it('waitForMarker: with no marker by the end of the wait, the object is used as it is (a host that sets no nonce)', async () => {
    const host = mockHost('android-jsi');
    const bridge = connect({ waitForMarker: true, waitForHostMs: 500 });
    await vi.advanceTimersByTimeAsync(499);
    expect(host.posted).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(await bridge.ready).toMatchObject({ transport: 'android' });
  });

  it('a host that announces itself (bridge.ready) after the page ran without one gets a handshake; onReady is told', async () => {
    const onReady = vi.fn();
    const bridge = connect({ waitForHostMs: 0, onReady, allowedParentOrigins: [] });
    await flush();
    expect(await bridge.ready).toBeNull();
    const host = mockHost('webkit');
    host.announce();
    await flush();
    expect(await bridge.ready).toMatchObject({ transport: 'webkit' });
    expect(onReady).toHaveBeenCalledTimes(1);
    await expect(bridge.request('auth.getToken', {})).resolves.toMatchObject({ access_token: 'mock-host-token' });
  });
});
