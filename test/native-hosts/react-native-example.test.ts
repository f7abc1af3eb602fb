// examples/react-native as an app runs it: App.tsx's screen, its getToken (hub-token.ts) calling the token
// route of token-route.ts with the app's bearer session, on the harness (real Chromium, the real WebView
// bundle, the simulator). docs/react-native.md quotes these files (test/native-hosts/react-native-docs.test.ts).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createElement, type ReactElement } from 'react';
import type { Browser } from 'playwright-core';
import { launchBrowser, startHarness, waitFor, type Harness } from '../e2e/harness.js';
import { toNodeListener } from '../../src/server/index.js';
import { createAppTokenRoute } from '../../examples/react-native/token-route.js';
import { BackHandler, settle, useBrowser, viewsSettled, webViews } from './react-native/rn-harness.js';

const { create } = await import('react-test-renderer');
// A specifier the type checker does not follow: the .tsx screen is compiled by the harness's module hooks.
const APP = '../../examples/react-native/App.tsx';
const { default: TablesScreen } = (await import(/* @vite-ignore */ APP)) as {
  default: (props: {
    widgetPage: string;
    formOrigin: string;
    tokenRoute: string;
    sessionToken: () => string;
  }) => ReactElement;
};

let h: Harness;
let browser: Browser;
let route: Server;

before(async () => {
  h = await startHarness();
  browser = await launchBrowser();
  route = createServer(
    toNodeListener(
      createAppTokenRoute({
        apiKey: h.mock.apiKey,
        baseUrl: h.mock.baseUrl,
        userForSession: (token) => (token === 'session-of-alice-0123456789' ? 'user-alice' : null),
      }),
    ),
  );
  await new Promise<void>((resolve) => route.listen(0, '127.0.0.1', resolve));
});

after(async () => {
  await new Promise((resolve) => route?.close(resolve));
  await browser?.close();
  await h?.close();
});

describe('examples/react-native', () => {
  it('runs the built entry, dist/react-native.js, as an app gets it: not src/', () => {
    const entry = import.meta.resolve('hub-embed/react-native');
    assert.ok(entry.endsWith('/dist/react-native.js'), entry);
    assert.ok(existsSync(new URL(entry)), 'dist/ is built (npm run ci -- hosts builds it)');
  });

  it('the screen shows the cards with the token from the app’s route, selects HR, opens and closes a form natively', async () => {
    useBrowser(browser);
    // The example's widget page as written, with the harness's addresses for the placeholders.
    const html = readFileSync(new URL('../../examples/react-native/hub-embed.html', import.meta.url), 'utf8')
      .replace('https://your-app.example/hub-embed-webview.iife.js', '/dist/hub-embed-webview.iife.js')
      .replace('https://hub.example', h.baseUrl)
      .replace('https://forms.example', h.formUrl);
    assert.match(
      html,
      /<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover, interactive-widget=resizes-content" \/>/,
    );
    const pageUrl = h.addPage('/example-rn.html', html);
    const logs: unknown[][] = [];
    const warnings: unknown[][] = [];
    const unhandled: unknown[] = [];
    const log = console.log;
    const warn = console.warn;
    console.log = (...args: unknown[]) => void logs.push(args);
    console.warn = (...args: unknown[]) => void warnings.push(args);
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    let unmounted = false;
    process.on('unhandledRejection', onUnhandled);
    const renderer = create(
      createElement(TablesScreen, {
        widgetPage: pageUrl,
        formOrigin: new URL(h.formUrl).origin,
        tokenRoute: `http://127.0.0.1:${(route.address() as AddressInfo).port}/hub-token`,
        sessionToken: () => 'session-of-alice-0123456789',
      }),
    );
    try {
      await waitFor(
        () => webViews.length,
        (n) => n === 1,
        'the WebView',
      );
      await webViews[0]!.loaded;
      const page = webViews[0]!.page!;
      const button = (title: string) => renderer.root.findAll((node) => node.props.title === title)[0]!;
      // Edge to edge, keyboard included: the screen keeps clear of the bars and the keyboard by their insets.
      const safeArea = renderer.root.findByType('SafeAreaView' as never);
      assert.deepEqual(safeArea.props.edges, ['top', 'right', 'bottom', 'left']);
      assert.equal(safeArea.findByType('KeyboardAvoidingView' as never).props.behavior, 'padding');
      assert.ok(safeArea.findAll((node) => node.props.source?.uri === pageUrl).length > 0, 'the widget inside');
      // Refresh before the page said hello: the call waits for the hello and resolves.
      const earlyRefresh = button('Refresh').props.onPress() as Promise<void>;
      await waitFor(
        () => page.locator('hub-embed [part~="card"]').count(),
        (n) => n > 0,
        'cards',
      );
      await earlyRefresh;
      const refreshFailed = () => warnings.filter(([first]) => String(first).startsWith('refresh failed'));
      assert.deepEqual(refreshFailed(), [], 'the early refresh resolved');
      button('Only HR').props.onPress();
      await waitFor(
        () => page.evaluate(() => (document.querySelector('hub-embed') as unknown as { tags: string[] }).tags.join()),
        (tags) => tags === 'HR',
        'HR selected',
      );
      await page.locator('hub-embed [part~="card"]').first().click();
      const modal = () => renderer.root.findByType('Modal' as never);
      await waitFor(
        () => modal().props.visible,
        (visible) => visible === true,
        'the native form',
      );
      BackHandler.press(modal().props);
      await waitFor(
        () => logs.some(([first, , reason]) => first === 'form closed' && reason === 'back'),
        (closed) => closed,
        'the app to log the form closed by back',
      );
      // A refresh the view can no longer answer (the screen goes away meanwhile) is handled by the screen.
      const lateRefresh = button('Refresh').props.onPress() as Promise<void>;
      renderer.unmount();
      unmounted = true;
      await lateRefresh;
      await settle(50);
      assert.equal(refreshFailed().length, 1, JSON.stringify(warnings));
      assert.deepEqual(unhandled, [], 'no unhandled rejection');
    } finally {
      console.log = log;
      console.warn = warn;
      process.off('unhandledRejection', onUnhandled);
      if (!unmounted) renderer.unmount();
      await settle();
      await viewsSettled();
    }
  });
});
