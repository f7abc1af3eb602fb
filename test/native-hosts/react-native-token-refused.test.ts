// A token the service refuses before its end (a key revoked, a service restart) while <HubEmbedView>'s
// grid is shown: the next card still opens a working form, in the native Modal and in the page's own
// dialog, whose widget asks the app through the bridge. The simulator's reset is the restart: every token
// it issued is refused from then on.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, serverToken, simulatorAccepts, startHarness, waitFor, type Harness } from '../e2e/harness.js';
import { addWidgetPage, webViews, withView, type MountedView, type ViewProps } from './react-native/rn-harness.js';

let h: Harness;
let browser: Browser;
let uri: string;
let formOrigin: string;

before(async () => {
  h = await startHarness();
  browser = await launchBrowser();
  uri = addWidgetPage(h);
  formOrigin = new URL(h.formUrl).origin;
});

after(async () => {
  await browser?.close();
  await h?.close();
});

/** The app's getToken, recording what it was asked and what it gave. */
function recordingGetToken() {
  const asked: unknown[] = [];
  const given: string[] = [];
  const getToken: ViewProps['getToken'] = async (request) => {
    asked.push(request);
    const access_token = await serverToken(h);
    given.push(access_token);
    return { access_token, expires_in: 600 };
  };
  return { asked, given, getToken };
}

const tokenOf = (url: string) => new URL(url).searchParams.get('token');
const cards = (rn: MountedView) => rn.page.locator('hub-embed [part~="card"]');

/** The form WebView of the Modal the view shows now (the newest WebView), once its page has a user. */
async function modalForm(rn: MountedView, token: string): Promise<Page> {
  const page = await waitFor(
    () => webViews.at(-1)!.page,
    (shown): shown is Page => shown !== undefined && shown !== rn.page && tokenOf(shown.url()) === token,
    'the Modal’s form with the new token',
  );
  await page.locator('#user').waitFor();
  return page;
}

describe('a token refused under the grid of <HubEmbedView>', () => {
  it('the native Modal: the form’s 401 asks getToken as unauthorized, and the form and the next open load', async () => {
    const app = recordingGetToken();
    const props = { allowedOrigins: [formOrigin], getToken: app.getToken };
    await withView(h, browser, { uri, props }, async (rn) => {
      await rn.ready();
      const first = app.given[0]!;
      h.mock.hub.reset();
      assert.equal(await simulatorAccepts(h, first), false, 'the service refuses the first token');

      await cards(rn).first().click();
      await waitFor(
        () => app.given.length,
        (n) => n === 2,
        'getToken asked again',
      );
      assert.deepEqual(app.asked[1], { reason: 'unauthorized', previous: first });
      const renewed = app.given[1]!;
      const form = await modalForm(rn, renewed);
      assert.equal(await form.locator('#user').textContent(), 'user-alice');

      // The page still holds the refused token; the next open loads with the new one, and asks nothing more.
      rn.renderer.root.findByProps({ accessibilityRole: 'button' }).props.onPress();
      await waitFor(
        () => rn.seen.closed.length,
        (n) => n === 1,
        'onFormClosed',
      );
      await cards(rn).nth(1).click();
      const next = await modalForm(rn, renewed);
      assert.equal(await next.locator('#user').textContent(), 'user-alice');
      assert.equal(app.asked.length, 2);
      assert.deepEqual(rn.seen.errors, []);
    });
  });

  it('the page’s own dialog: its widget asks the app through the bridge as unauthorized, with previous', async () => {
    const app = recordingGetToken();
    await withView(h, browser, { uri, props: { getToken: app.getToken } }, async (rn) => {
      await rn.ready();
      const first = app.given[0]!;
      h.mock.hub.reset();

      await cards(rn).first().click();
      const iframe = rn.page.locator('hub-embed hub-form-frame iframe');
      const src = () => iframe.getAttribute('src').then((url) => url && tokenOf(url));
      await waitFor(
        () => app.given.length,
        (n) => n === 2,
        'auth.getToken asked again',
      );
      assert.deepEqual(app.asked[1], { reason: 'unauthorized', previous: first });
      const renewed = app.given[1]!;
      await waitFor(src, (token) => token === renewed, 'the dialog’s form with the new token');
      const frame = rn.page.frameLocator('hub-embed hub-form-frame iframe');
      assert.equal(await frame.locator('#user').textContent(), 'user-alice');

      // The next open uses the token the page now holds.
      await rn.page.locator('hub-embed hub-form-frame [part="close"]').first().click();
      await waitFor(
        () => iframe.count(),
        (n) => n === 0,
        'the dialog closed',
      );
      await cards(rn).nth(1).click();
      await waitFor(src, (token) => token === renewed, 'the next form with the new token');
      assert.equal(await frame.locator('#user').textContent(), 'user-alice');
      assert.equal(app.asked.length, 2);
      assert.deepEqual(rn.seen.errors, []);
    });
  });
});
