import { describe, expect, it, vi } from 'vitest';
import { detectTransport } from '../../src/bridge/index.js';
import { connect, flush, mockHost, PARENT_ORIGIN, rejectionOf, useBridgeFixtures } from './helpers.js';
// WeChat's transport is an add-on (hub-embed/wechat); these tests check its place in the order, so it is in.
import '../../src/webview/enable-wechat.js';

const post = () => {};
/** A bare window-shaped object: detection reads only these globals. */
function fakeWindow(globals: Record<string, unknown> = {}): any {
  const win: any = { location: {}, document: { referrer: '' }, navigator: { userAgent: 'Mozilla/5.0' }, ...globals };
  win.parent ??= win;
  return win;
}
const detected = (win: any, options = {}) => detectTransport(win, options)?.transport.name;

/**
 * A bridge with an auth.getToken call its host holds, the JSON of a forged reply to that call, and the check
 * that the forgery changed nothing: the call still waits, and the host's real reply settles it.
 */
async function forgeryOfAHeldReply(transport: 'parent' | 'react-native') {
  const host = mockHost(transport, { manual: true });
  const bridge = connect();
  await bridge.ready;
  const call = bridge.request('auth.getToken', {});
  await flush();
  const id = host.held[0]!.id;
  const data = JSON.stringify({
    ns: 'hub-embed',
    v: 1,
    sid: bridge.sid,
    id,
    kind: 'res',
    ok: true,
    result: { access_token: 'forged', expires_in: 1 },
  });
  const stillWaitsForTheHost = async () => {
    await flush();
    expect(bridge.pendingCount).toBe(1);
    host.reply(id, { access_token: 'real', expires_in: 1 });
    await expect(call).resolves.toMatchObject({ access_token: 'real' });
  };
  return { data, stillWaitsForTheHost };
}

describe('detection precedence (first match wins)', () => {
  it('React Native wins over webkit, because RN-iOS also registers webkit.messageHandlers.ReactNativeWebView', () => {
    const win = fakeWindow({
      ReactNativeWebView: { postMessage: post },
      webkit: { messageHandlers: { ReactNativeWebView: { postMessage: post }, hubEmbed: { postMessage: post } } },
      hubEmbed: { postMessage: post },
    });
    expect(detected(win)).toBe('react-native');
  });

  it('iOS webkit.messageHandlers.hubEmbed comes before an Android/Flutter object of the same name', () => {
    expect(
      detected(
        fakeWindow({
          webkit: { messageHandlers: { hubEmbed: { postMessage: post } } },
          hubEmbed: { postMessage: post },
        }),
      ),
    ).toBe('webkit');
    expect(
      detected(fakeWindow({ webkit: { messageHandlers: { ReactNativeWebView: { postMessage: post } } } })),
    ).toBeUndefined();
  });

  it('Android (WebMessageListener or JavascriptInterface) and Flutter share window.hubEmbed.postMessage', () => {
    expect(detected(fakeWindow({ hubEmbed: { postMessage: post } }))).toBe('android');
    expect(detected(fakeWindow({ hubEmbed: { postMessage: 'not a function' } }))).toBeUndefined();
  });

  it('WeChat needs the mini-program environment, not just a wx object', () => {
    const wx = { miniProgram: { postMessage: post, navigateTo: post } };
    expect(detected(fakeWindow({ wx }))).toBeUndefined();
    expect(detected(fakeWindow({ wx, __wxjs_environment: 'miniprogram' }))).toBe('wechat');
    expect(detected(fakeWindow({ wx, navigator: { userAgent: 'Mozilla/5.0 MicroMessenger miniProgram' } }))).toBe(
      'wechat',
    );
    expect(detected(fakeWindow({ wx, __wxjs_environment: 'miniprogram', hubEmbed: { postMessage: post } }))).toBe(
      'android',
    );
  });

  it('a parent frame needs an explicit origin allow-list; "*" and non-origins are not accepted', () => {
    const inFrame = () => fakeWindow({ parent: { postMessage: post } });
    expect(detected(inFrame())).toBeUndefined();
    expect(detected(inFrame(), { allowedParentOrigins: ['*'] })).toBeUndefined();
    expect(detected(inFrame(), { allowedParentOrigins: ['https://app.example/path'] })).toBeUndefined();
    expect(detected(inFrame(), { allowedParentOrigins: ['javascript:alert(1)'] })).toBeUndefined();
    expect(detected(inFrame(), { allowedParentOrigins: ['https://app.example'] })).toBe('parent');
    expect(detected(fakeWindow(), { allowedParentOrigins: ['https://app.example'] })).toBeUndefined();
  });

  it('with several allowed parent origins, the browser-reported ancestor origin picks the target; no match means no transport', () => {
    const sent: string[] = [];
    const parent = { postMessage: (_: string, origin: string) => sent.push(origin) };
    const allowed = ['https://a.example', 'https://b.example'];
    const win = fakeWindow({ parent, location: { ancestorOrigins: ['https://b.example'] } });
    detectTransport(win, { allowedParentOrigins: allowed })!.transport.post('{}');
    expect(sent).toEqual(['https://b.example']);
    const viaReferrer = fakeWindow({ parent, document: { referrer: 'https://a.example/page?x=1' } });
    detectTransport(viaReferrer, { allowedParentOrigins: allowed })!.transport.post('{}');
    expect(sent).toEqual(['https://b.example', 'https://a.example']);
    expect(
      detected(fakeWindow({ parent, location: { ancestorOrigins: ['https://evil.example'] } }), {
        allowedParentOrigins: allowed,
      }),
    ).toBeUndefined();
    // The browser says the parent is another origin: even a single allowed origin is not tried.
    const elsewhere = fakeWindow({ parent, location: { ancestorOrigins: ['https://evil.example'] } });
    expect(detected(elsewhere, { allowedParentOrigins: ['https://a.example'] })).toBeUndefined();
  });

  it('standalone: nothing detected', () => {
    expect(detected(fakeWindow())).toBeUndefined();
  });

  it('the explicit marker __HUB_EMBED_BRIDGE__ overrides the order and carries the nonce', () => {
    const win = fakeWindow({
      __HUB_EMBED_BRIDGE__: { transport: 'android', v: 1, nonce: 'n1' },
      ReactNativeWebView: { postMessage: post },
      hubEmbed: { postMessage: post },
    });
    expect(detectTransport(win, {})).toMatchObject({ transport: { name: 'android' }, nonce: 'n1' });
    // The marker names a host whose object is not injected yet: wait for it, never fall through.
    expect(
      detected(fakeWindow({ __HUB_EMBED_BRIDGE__: { transport: 'webkit' }, hubEmbed: { postMessage: post } })),
    ).toBeUndefined();
    expect(
      detected(fakeWindow({ __HUB_EMBED_BRIDGE__: { transport: 'bogus' }, hubEmbed: { postMessage: post } })),
    ).toBe('android');
  });

  it('a test can force one transport', () => {
    const win = fakeWindow({ ReactNativeWebView: { postMessage: post }, hubEmbed: { postMessage: post } });
    expect(detectTransport(win, { only: 'android' })?.transport.name).toBe('android');
  });

  it('an addWebMessageListener object is listened to with addEventListener, and released', () => {
    const channel: any = Object.assign(new EventTarget(), { postMessage: post });
    const deliver = vi.fn();
    const off = detectTransport(fakeWindow({ hubEmbed: channel }), {})!.transport.listen!(deliver);
    channel.dispatchEvent(new MessageEvent('message', { data: 'hello' }));
    expect(deliver).toHaveBeenCalledWith('hello');
    off();
    channel.dispatchEvent(new MessageEvent('message', { data: 'again' }));
    expect(deliver).toHaveBeenCalledTimes(1);
  });

  it('an Android channel without addEventListener (JavascriptInterface, Flutter JavaScriptChannel) gets no listener: its host answers through __hubEmbedReceive', () => {
    const channel: any = { postMessage: post, onmessage: null };
    const found = detectTransport(fakeWindow({ hubEmbed: channel }), {})!;
    expect(found.transport.name).toBe('android');
    expect(found.transport.listen).toBeUndefined();
    expect(channel.onmessage).toBeNull();
  });
});

describe('detection in a live page', () => {
  useBridgeFixtures();
  // Vitest's browser runner is itself a parent frame; these tests are about having no host.
  const alone = { allowedParentOrigins: [] };

  it('a host object that appears late (after DOMContentLoaded) is still found', async () => {
    const bridge = connect(alone);
    await vi.advanceTimersByTimeAsync(700);
    expect(bridge.host).toBeNull();
    const host = mockHost('android');
    await vi.advanceTimersByTimeAsync(100);
    await flush();
    expect(await bridge.ready).toMatchObject({ transport: 'android' });
    expect(host.sessions).toEqual([bridge.sid]);
  });

  it('a late host that announces bridge.ready is found at once', async () => {
    const bridge = connect(alone);
    await flush();
    const host = mockHost('android-jsi');
    host.announce();
    await flush();
    expect(bridge.host).toMatchObject({ transport: 'android' });
  });

  it('a host that never answers: queued calls reject with E_UNSUPPORTED after 2 s and the page runs as a plain web page', async () => {
    const host = mockHost('webkit', { answerHello: false });
    const bridge = connect();
    const call = rejectionOf(bridge.request('auth.getToken', {}));
    bridge.emit('widget.ready', { version: '1' });
    await vi.advanceTimersByTimeAsync(1999);
    expect(bridge.pendingCount).toBe(2); // the hello and the queued call
    await vi.advanceTimersByTimeAsync(1);
    expect(await bridge.ready).toBeNull();
    expect((await call).code).toBe('E_UNSUPPORTED');
    expect(bridge.pendingCount).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
    expect(bridge.emit('widget.ready', { version: '1' })).toBe(false);
    expect((await rejectionOf(bridge.request('auth.getToken', {}))).code).toBe('E_UNSUPPORTED');
    expect(host.messages.map((m) => m.method)).toEqual(['bridge.hello']);
  });

  it('no host at all: ready is null after the ready timeout, or at once with waitForHostMs: 0', async () => {
    const slow = connect(alone);
    const fast = connect({ ...alone, waitForHostMs: 0 });
    await flush();
    expect(await fast.ready).toBeNull();
    expect(slow.host).toBeNull();
    let slowResult: unknown = 'pending';
    slow.ready.then((r) => (slowResult = r));
    await flush();
    expect(slowResult).toBe('pending');
    await vi.advanceTimersByTimeAsync(2000);
    expect(slowResult).toBeNull();
  });

  it('parent frame: messages from a foreign origin or another window are ignored', async () => {
    const { data, stillWaitsForTheHost } = await forgeryOfAHeldReply('parent');
    window.dispatchEvent(new MessageEvent('message', { data, origin: 'https://evil.example', source: window.parent }));
    window.dispatchEvent(new MessageEvent('message', { data, origin: PARENT_ORIGIN, source: window }));
    window.dispatchEvent(new MessageEvent('message', { data, origin: PARENT_ORIGIN }));
    await stillWaitsForTheHost();
  });

  it('parent frame: the page posts only to the allowed origin, never "*"', async () => {
    const targets: string[] = [];
    const host = mockHost('parent');
    const original = (window.parent as any).postMessage;
    (window.parent as any).postMessage = (data: unknown, origin: string) => {
      targets.push(origin);
      original(data, origin);
    };
    await connect().ready;
    expect(targets).toEqual([PARENT_ORIGIN]);
    expect(host.sessions).toHaveLength(1);
  });

  it('React Native: a message on both window and document is processed once', async () => {
    const host = mockHost('react-native', { rnTarget: 'both' });
    const bridge = connect();
    const refresh = vi.fn();
    bridge.handle('widget.refresh', refresh);
    await bridge.ready;
    await host.request('widget.refresh', {});
    await flush();
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(host.messages.filter((m) => m.kind === 'res')).toHaveLength(1);
  });

  it.each(['window', 'document'] as const)('React Native: replies dispatched on %s are received', async (rnTarget) => {
    mockHost('react-native', { rnTarget });
    await expect(connect().request('auth.getToken', {})).resolves.toMatchObject({ access_token: 'mock-host-token' });
  });

  it('React Native: a message event from another frame (it has a source) is ignored', async () => {
    const { data, stillWaitsForTheHost } = await forgeryOfAHeldReply('react-native');
    window.dispatchEvent(new MessageEvent('message', { data, source: window }));
    await stillWaitsForTheHost();
  });
});
