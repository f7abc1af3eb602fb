import { describe, expect, it, vi } from 'vitest';
import type { BridgeOptions } from '../../src/bridge/index.js';
import { connect as connectInFrame, flush, mockHost, rejectionOf, useBridgeFixtures } from './helpers.js';
// The WeChat transport is an add-on to the WebView bridge (hub-embed/wechat): importing it plugs it in.
import '../../src/webview/enable-wechat.js';

/**
 * A web-view page is a top-level page, where the parent-frame transport never matches; Vitest's browser
 * runner is itself a parent frame, so here no parent origin is allowed, as in a web-view.
 */
const connect = (options: BridgeOptions = {}) => connectInFrame({ allowedParentOrigins: [], ...options });

const FORM_PAGE = '/pages/hub-form/index';

describe('WeChat mini-program web-view (events only)', () => {
  useBridgeFixtures();

  it('is ready at once: the mini-program cannot answer, so the transport answers the hello itself and the mini-program hears nothing', async () => {
    const host = mockHost('wechat');
    const bridge = connect({ wechatFormPage: FORM_PAGE });
    expect(await bridge.ready).toMatchObject({ transport: 'wechat', platform: 'wechat', capabilities: ['form.open'] });
    expect(host.messages).toEqual([]);
    await expect(host.request('widget.refresh')).rejects.toThrow(/cannot message/);
  });

  it('events are batched into one wx.miniProgram.postMessage per tick, as JSON strings', async () => {
    const host = mockHost('wechat');
    const spy = vi.spyOn((window as any).wx.miniProgram, 'postMessage');
    const bridge = connect();
    await bridge.ready;
    bridge.emit('widget.ready', { version: '1' });
    bridge.emit('table.selected', { shortCode: 'ab', name: '表格 😀' });
    bridge.emit('form.closed', { shortCode: 'ab' });
    expect(spy).not.toHaveBeenCalled();
    await flush();
    expect(spy).toHaveBeenCalledTimes(1);
    expect(host.posted.every((p) => typeof p === 'string')).toBe(true);
    expect(host.events.map((e) => e.method)).toEqual(['widget.ready', 'table.selected', 'form.closed']);
    expect(host.events[1]!.params).toEqual({ shortCode: 'ab', name: '表格 😀' });
  });

  it("each tick's events go in a post of their own: a later event starts a new batch, none is posted twice", async () => {
    const host = mockHost('wechat');
    const spy = vi.spyOn((window as any).wx.miniProgram, 'postMessage');
    const bridge = connect();
    await bridge.ready;
    bridge.emit('widget.ready', { version: '1' });
    await flush();
    bridge.emit('form.closed', { shortCode: 'a' });
    bridge.emit('form.closed', { shortCode: 'b' });
    await flush();
    expect(spy).toHaveBeenCalledTimes(2);
    const batches = spy.mock.calls.map(([message]) => (message as { data: { hubEmbed: string[] } }).data.hubEmbed);
    expect(batches.map((batch) => batch.length)).toEqual([1, 2]);
    expect(host.events.map((e) => e.method)).toEqual(['widget.ready', 'form.closed', 'form.closed']);
  });

  it('form.open navigates the mini-program to the allowed form page, with the url encoded', async () => {
    const host = mockHost('wechat');
    const bridge = connect({ wechatFormPage: FORM_PAGE });
    const url = 'https://form.example/a b?token=t&x=<y>';
    await expect(bridge.request('form.open', { shortCode: 'a/b', url })).resolves.toEqual({ handled: true });
    expect(host.navigations).toEqual([`${FORM_PAGE}?shortCode=a%2Fb&url=${encodeURIComponent(url)}`]);
  });

  it('the marker\'s wechatFormPage allows form.open: how a page allows it for <hub-embed bridge="auto">', async () => {
    const host = mockHost('wechat');
    (window as any).__HUB_EMBED_BRIDGE__ = { wechatFormPage: FORM_PAGE };
    try {
      const bridge = connect();
      expect((await bridge.ready)!.capabilities).toEqual(['form.open']);
      await expect(bridge.request('form.open', { shortCode: 'a', url: 'https://f.example/a' })).resolves.toEqual({
        handled: true,
      });
      expect(host.navigations).toEqual([`${FORM_PAGE}?shortCode=a&url=${encodeURIComponent('https://f.example/a')}`]);
      // The page's own option wins over the marker.
      expect((await connect({ wechatFormPage: 'javascript:x' }).ready)!.capabilities).toEqual([]);
    } finally {
      delete (window as any).__HUB_EMBED_BRIDGE__;
    }
  });

  it('requests never reach the mini-program and a cancel is dropped: only events are posted', async () => {
    const host = mockHost('wechat');
    const bridge = connect({ wechatFormPage: FORM_PAGE });
    await bridge.ready;
    const controller = new AbortController();
    const opening = bridge.request(
      'form.open',
      { shortCode: 'a', url: 'https://f.example/a' },
      { signal: controller.signal },
    );
    controller.abort();
    expect((await rejectionOf(opening)).code).toBe('E_CANCELLED');
    bridge.emit('form.closed', { shortCode: 'a' });
    await flush();
    expect(host.messages.map((m) => m.kind)).toEqual(['evt']);
  });

  it('a failed navigateTo rejects with E_DENIED', async () => {
    mockHost('wechat', { wechatNavigate: 'fail' });
    const bridge = connect({ wechatFormPage: FORM_PAGE });
    expect(
      await rejectionOf(bridge.request('form.open', { shortCode: 'a', url: 'https://f.example/a' })),
    ).toMatchObject({
      code: 'E_DENIED',
      message: expect.stringMatching(/navigateTo:fail/),
    });
  });

  it.each([undefined, 'javascript:alert(1)', '/pages/x?evil=1', 'pages/relative'])(
    'without an allowed form page (%s), form.open and auth.getToken are E_UNSUPPORTED and nothing navigates',
    async (wechatFormPage) => {
      const host = mockHost('wechat');
      const bridge = connect({ wechatFormPage });
      expect((await bridge.ready)!.capabilities).toEqual([]);
      expect(
        (await rejectionOf(bridge.request('form.open', { shortCode: 'a', url: 'https://f.example/a' }))).code,
      ).toBe('E_UNSUPPORTED');
      expect((await rejectionOf(bridge.request('auth.getToken', {}))).code).toBe('E_UNSUPPORTED');
      expect(host.navigations).toEqual([]);
    },
  );
});
