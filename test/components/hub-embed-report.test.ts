// Issue 29 item 3: the widget's errors reach the browser console, once each, unless the page handles them.
import { describe, expect, it, vi } from 'vitest';
import '../../src/define.js';
import type { HubEventMap } from '../../src/components/events.js';
import type { HubError } from '../../src/core/errors.js';
import { embed, setupHub } from './helpers.js';

/** Turns off test/setup-fixtures.ts's page-level handler of hub-error for this test. */
const letErrorsThrough = () => ((globalThis as { hubLetErrorsThrough?: boolean }).hubLetErrorsThrough = true);

describe('<hub-embed> errors on the console', () => {
  it('each distinct error is written once to the console with its message, which says what to fix', async () => {
    letErrorsThrough();
    const written = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const s = setupHub();
    await embed(s, { 'base-url': 'ftp://console-once.example' });
    await vi.waitFor(() => expect(written).toHaveBeenCalledTimes(1));
    expect(String(written.mock.calls[0]![0])).toMatch(/^hub-embed: .*base-url/);
    expect(written.mock.calls[0]![1]).toMatchObject({ kind: 'config' });
    // The same error again, from a second widget: not written twice.
    await embed(s, { 'base-url': 'ftp://console-once.example' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(written).toHaveBeenCalledTimes(1);
  });

  it('a hub-error listener that calls preventDefault() keeps the error off the console; the widget still shows it', async () => {
    letErrorsThrough();
    const written = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const s = setupHub();
    const handled = (event: Event) => event.preventDefault();
    document.addEventListener('hub-error', handled);
    try {
      const el = await embed(s, { 'base-url': 'ftp://console-handled.example' });
      await vi.waitFor(() => expect(el.shadowRoot!.querySelector('[part="error"]')).not.toBeNull());
      expect(written).not.toHaveBeenCalled();
    } finally {
      document.removeEventListener('hub-error', handled);
    }
  });

  it('a 401 from the token endpoint is an unauthorized hub-error: the user is signed out, and no Retry is offered', async () => {
    letErrorsThrough();
    const written = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const s = setupHub();
    const realFetch = globalThis.fetch;
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) =>
      String(input).endsWith(s.endpoint)
        ? Promise.resolve(Response.json({ error: 'Sign in first.' }, { status: 401 }))
        : realFetch(input, init),
    );
    const seen: HubError[] = [];
    const record = (event: HubEventMap['hub-error']) => seen.push(event.detail.error);
    document.addEventListener('hub-error', record);
    try {
      await embed(s);
      await vi.waitFor(() => expect(seen.length).toBe(1));
    } finally {
      document.removeEventListener('hub-error', record);
    }
    expect(seen[0]!.kind).toBe('unauthorized');
    expect(seen[0]!.message).toMatch(/401: no signed-in user/);
    await vi.waitFor(() => expect(String(written.mock.calls.at(-1)?.[0])).toMatch(/no signed-in user/));
    const el = document.querySelector('hub-embed')!;
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[part="error"]')!.textContent).toContain('You are signed out');
    // Asking the endpoint again cannot sign anyone in: the page acts on the event (a sign-in link), not a Retry.
    expect(el.shadowRoot!.querySelector('[part="retry"]')).toBeNull();
  });
});
