// The WeChat transport ships only to WeChat pages: the WebView entry has none, and importing the add-on
// (hub-embed/wechat) plugs it into that entry's bridge. Its behaviour is in wechat.test.ts.
import { beforeEach, describe, expect, it, vi } from 'vitest';

// Each test starts from modules no other file imported (the unit project shares one module graph between
// its files, and another may have imported the add-on already): the bridge is imported afresh, and every
// entry after it joins that fresh graph.
let detectTransport: typeof import('../../src/bridge/index.js').detectTransport;
beforeEach(async () => {
  vi.resetModules();
  ({ detectTransport } = await import('../../src/bridge/index.js'));
});

const post = () => {};
/** A bare window inside a WeChat mini-program's <web-view>: detection reads only these globals. */
function miniProgramWindow(marker?: object): any {
  const win: any = {
    location: {},
    document: { referrer: '' },
    navigator: { userAgent: 'Mozilla/5.0 MicroMessenger miniProgram' },
    __wxjs_environment: 'miniprogram',
    wx: { miniProgram: { postMessage: post, navigateTo: post } },
    __HUB_EMBED_BRIDGE__: marker,
  };
  // A web-view is a top-level page: the parent transport never matches.
  win.parent = win;
  return win;
}
const detected = (win: any) => detectTransport(win, { allowedParentOrigins: ['https://app.example'] })?.transport.name;

describe('WeChat add-on (hub-embed/wechat)', () => {
  it('the WebView entry alone has no WeChat transport: a mini-program page finds none until the add-on is imported', async () => {
    await import('../../src/webview.js');
    const named = { transport: 'wechat', wechatFormPage: '/pages/hub-form/index' };
    expect(detected(miniProgramWindow())).toBeUndefined();
    // A marker naming the add-on's transport without the add-on names nothing: every transport is tried.
    expect(detected(miniProgramWindow(named))).toBeUndefined();

    await import('../../src/webview/enable-wechat.js');
    expect(detected(miniProgramWindow())).toBe('wechat');
    expect(detected(miniProgramWindow(named))).toBe('wechat');
  });

  it('the add-on comes after the built-in transports: a host object on the page still wins', async () => {
    await import('../../src/webview/enable-wechat.js');
    const win = miniProgramWindow();
    win.hubEmbed = { postMessage: post };
    expect(detected(win)).toBe('android');
    // The marker's named transport first, as the docs say.
    expect(
      detected(Object.assign(miniProgramWindow({ transport: 'wechat' }), { hubEmbed: { postMessage: post } })),
    ).toBe('wechat');
  });
});
