import { describe, expect, it, vi } from 'vitest';
import { BRIDGE_NS, BRIDGE_VERSION, MAX_MESSAGE_CHARS } from '../../src/bridge/index.js';
import { connect, flush, mockHost, rejectionOf, settled, useBridgeFixtures } from './helpers.js';

/** What any script in the page can do: push a message through the one global the hosts use. */
const forgeBridgeReady = (extra: Record<string, unknown> = {}) =>
  (window as any).__hubEmbedReceive(
    JSON.stringify({
      ns: BRIDGE_NS,
      v: BRIDGE_VERSION,
      sid: '',
      id: 'forged',
      kind: 'evt',
      method: 'bridge.ready',
      ...extra,
    }),
  );

const HELLO = { v: 1, platform: 'android', appVersion: '1.0.0', capabilities: ['auth.getToken'], config: {} };

describe('bridge hardening', () => {
  useBridgeFixtures();

  it('emit() returns false when it drops an event over the size bound, sent or queued', async () => {
    const host = mockHost('webkit', { answerHello: false });
    const bridge = connect({ readyTimeoutMs: 5000 });
    const huge = { kind: 'network' as const, message: 'x'.repeat(MAX_MESSAGE_CHARS) };
    // Waiting for the handshake: measured when queued.
    expect(bridge.emit('widget.error', huge)).toBe(false);
    expect(bridge.emit('widget.ready', { version: '1' })).toBe(true);
    await flush();
    host.reply(host.messages[0]!.id, { ...HELLO, platform: 'ios' });
    await bridge.ready;
    // Ready: sent at once.
    expect(bridge.emit('widget.error', huge)).toBe(false);
    const circular: any = { version: '1' };
    circular.self = circular;
    expect(bridge.emit('widget.ready', circular)).toBe(false);
    expect(bridge.emit('widget.ready', { version: '2' })).toBe(true);
    expect(host.events.map((e) => e.params)).toEqual([{ version: '1' }, { version: '2' }]);
  });

  it('with timeoutMs: 0 pending calls stay bounded by pendingLimit (default 1,000): more are refused at once', async () => {
    const host = mockHost('android', { manual: true });
    const bridge = connect({ timeoutMs: 0 });
    await bridge.ready;
    const open = Array.from({ length: 1000 }, () => bridge.request('auth.getToken', {}).catch((e: unknown) => e));
    const refused = await rejectionOf(bridge.request('auth.getToken', {}));
    expect(refused).toMatchObject({ code: 'E_UNSUPPORTED', message: 'too many pending calls' });
    expect(bridge.pendingCount).toBe(1000);
    await flush();
    expect(host.held).toHaveLength(1000);
    // An answer frees a place.
    host.reply(host.held[0]!.id, { access_token: 't', expires_in: 1 });
    await flush();
    expect(bridge.pendingCount).toBe(999);
    const next = bridge.request('auth.getToken', {});
    await flush();
    host.reply(host.held.at(-1)!.id, { access_token: 'next', expires_in: 1 });
    expect((await settled(next)).value!.access_token).toBe('next');
    bridge.close();
    expect((await Promise.all(open.slice(1))).every((e: any) => e.code === 'E_CANCELLED')).toBe(true);
  });

  it('pendingLimit can be set per bridge', async () => {
    mockHost('android', { manual: true });
    const bridge = connect({ timeoutMs: 0, pendingLimit: 2 });
    await bridge.ready;
    void rejectionOf(bridge.request('auth.getToken', {}));
    void rejectionOf(bridge.request('auth.getToken', {}));
    expect(await rejectionOf(bridge.request('auth.getToken', {}))).toMatchObject({ message: 'too many pending calls' });
  });

  it('an unsolicited bridge.ready without the host nonce cannot leave the bridge without its host for good', async () => {
    // A host that answers its first hello only, as a busy or backgrounded app would.
    const host = mockHost('android', { answerHello: false });
    const bridge = connect();
    await flush();
    host.reply(host.messages[0]!.id, HELLO);
    expect(await bridge.ready).toMatchObject({ platform: 'android' });
    forgeBridgeReady();
    await flush();
    expect(host.sessions).toHaveLength(2);
    // Calls keep going to the host while it is asked again.
    expect((await settled(bridge.request('auth.getToken', {}))).value).toMatchObject({
      access_token: 'mock-host-token',
    });
    await vi.advanceTimersByTimeAsync(2000);
    expect(bridge.host).toMatchObject({ platform: 'android' });
    expect(await bridge.ready).toMatchObject({ platform: 'android' });
    expect((await settled(bridge.request('auth.getToken', {}))).value).toMatchObject({
      access_token: 'mock-host-token',
    });
    expect(bridge.emit('widget.ready', { version: '1' })).toBe(true);
    // Forged again and again: the unanswered hellos time out and leave nothing behind.
    for (let i = 0; i < 5; i++) forgeBridgeReady();
    await flush();
    await vi.advanceTimersByTimeAsync(2000);
    expect(bridge.pendingCount).toBe(0);
    expect(bridge.host).toMatchObject({ platform: 'android' });
  });

  it('a re-initialised host that answers the new hello replaces the host; a refusal leaves it as it was', async () => {
    const host = mockHost('android', { answerHello: false });
    const bridge = connect();
    await flush();
    host.reply(host.messages[0]!.id, HELLO);
    await bridge.ready;
    host.announce();
    await flush();
    host.reply(host.messages.at(-1)!.id, { ...HELLO, capabilities: [] });
    await flush();
    expect(bridge.host).toMatchObject({ capabilities: [] });
    expect(await bridge.ready).toMatchObject({ capabilities: [] });
    host.announce();
    await flush();
    host.fail(host.messages.at(-1)!.id, 'E_DENIED', 'forged or not, the host stays');
    await flush();
    expect(bridge.host).toMatchObject({ platform: 'android' });
  });

  it('with a host nonce, a bridge.ready without it starts no handshake at all', async () => {
    const host = mockHost('android', { nonce: 'n-1' });
    const debug = vi.fn();
    const bridge = connect({ debug });
    await bridge.ready;
    forgeBridgeReady();
    forgeBridgeReady({ nonce: 'guess' });
    await flush();
    expect(host.sessions).toHaveLength(1);
    expect(debug.mock.calls.filter(([m]) => m === 'ignored: nonce')).toHaveLength(2);
  });
});
