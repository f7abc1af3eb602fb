// The setup error of a tag whose camel-cased properties reached it as lowercased attributes, as React 19
// writes `<hub-embed formUrl=…>` on the server (test/e2e/react-server-tag.test.ts renders one with
// react-dom/server and loads it with the built npm path). The form half explains a refused setting so; a
// refused form-url comes from that half too, once it is in after hub-ready.
import { describe, expect, it, vi } from 'vitest';
import { fixture, html } from '@open-wc/testing';
import '../../src/define.js';
import type { HubError } from '../../src/core/errors.js';
import type { HubEmbed } from '../../src/components/hub-embed/hub-embed.js';
import { loadFormOpener } from '../../src/components/hub-embed/form-opener-loader.js';
import { part, setupHub, until } from './helpers.js';

/**
 * A <hub-embed> with these attributes, and the hub-error it fires: waited for when `refused`; else undefined
 * when none came by hub-ready and a while after the form half, which checks form-url then, was in.
 */
async function tagWith(attributes: Record<string, string>, refused = true) {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  const el = document.createElement('hub-embed') as HubEmbed;
  let error: HubError | undefined;
  let ready = false;
  el.addEventListener('hub-error', (event) => (error = (event as CustomEvent<{ error: HubError }>).detail.error));
  el.addEventListener('hub-ready', () => (ready = true));
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value);
  await fixture(html`<div>${el}</div>`);
  if (refused) await until(() => !!error, 'hub-error');
  else {
    await until(() => ready || !!error, 'hub-ready');
    await loadFormOpener();
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { el, error, shown: () => part(el, 'error')?.textContent?.trim().replace(/\s+/g, ' ') };
}

describe('a server-rendered React tag', () => {
  it('a server-rendered React tag whose properties arrived as lowercased attributes says so and names <HubEmbed>', async () => {
    const s = setupHub();
    const { error, shown } = await tagWith({
      tokenendpoint: s.endpoint,
      baseurl: s.hub.baseUrl,
      formurl: s.hub.formUrl,
      locale: 'en',
    });
    expect(error?.kind).toBe('config');
    expect(error?.message).toBe(
      'tokenendpoint, baseurl, formurl arrived as lowercased attributes, as React writes <hub-embed> on the ' +
        "server. Render <HubEmbed> from 'hub-embed/react', or write token-endpoint, base-url, form-url.",
    );
    expect(shown()).toBe(`Setup error: ${error!.message}`);
    expect(s.tokenCalls()).toBe(0);
  });

  it('names only the lowercased attributes the tag holds, any camel-cased property among them', async () => {
    const s = setupHub();
    const { error } = await tagWith({
      'token-endpoint': s.endpoint,
      'base-url': s.hub.baseUrl,
      formurl: s.hub.formUrl,
      matchesonly: '',
      locale: 'en',
    });
    expect(error?.message).toMatch(/^formurl, matchesonly arrived as lowercased attributes/);
    expect(error?.message).toMatch(/or write form-url, matches-only\.$/);
  });

  it('says nothing when the properties were set too: the widget loads', async () => {
    const s = setupHub();
    const el = document.createElement('hub-embed') as HubEmbed;
    el.setAttribute('formurl', s.hub.formUrl);
    el.formUrl = s.hub.formUrl;
    el.tokenEndpoint = s.endpoint;
    el.baseUrl = s.hub.baseUrl;
    const ready = new Promise((resolve) => el.addEventListener('hub-ready', resolve, { once: true }));
    await fixture(html`<div>${el}</div>`);
    await ready;
    await loadFormOpener();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(part(el, 'error')).toBeNull();
  });

  it('says nothing of a lowercased attribute beside settings that work: the widget loads', async () => {
    const s = setupHub();
    const { error } = await tagWith(
      {
        'token-endpoint': s.endpoint,
        'base-url': s.hub.baseUrl,
        'form-url': s.hub.formUrl,
        matchesonly: '',
        bridgeorigins: 'https://app.example',
      },
      false,
    );
    expect(error).toBeUndefined();
  });

  it('a missing setting without lowercased attributes keeps its own words', async () => {
    const s = setupHub();
    const { error } = await tagWith({ 'token-endpoint': s.endpoint, 'base-url': s.hub.baseUrl, locale: 'en' });
    expect(error?.message).toBe('Set form-url to an https URL.');
  });
});
