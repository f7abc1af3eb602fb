import { runInNewContext } from 'node:vm';
import { describe, expect, it, vi } from 'vitest';
import vectors from '../fixtures/bridge-vectors.json' with { type: 'json' };
import { BridgeError, MAX_MESSAGE_CHARS } from '../../src/bridge/index.js';
import { createHostKernel, receiveScript, type HostKernelOptions } from '../../src/host/index.js';
import { asExpected, type Did } from './host-sequences.js';

const NONCE = vectors.host.nonce;

/** A kernel set up as the vectors say, recording what it sends to the page and what it drops. */
function vectorHost(overrides: Partial<HostKernelOptions> = {}) {
  const sent: Array<{ script: string; json: string }> = [];
  const rejected: string[] = [];
  const events: unknown[] = [];
  const getToken = vi.fn(() => vectors.host.token);
  const openForm = vi.fn(() => vectors.host.openForm.handled);
  const kernel = createHostKernel({
    platform: vectors.host.platform,
    transport: 'webkit',
    nonce: NONCE,
    handlers: { getToken, openForm },
    send: (script, json) => sent.push({ script, json }),
    onRejected: (reason) => rejected.push(reason),
    onEvent: (event) => events.push(event),
    ...overrides,
  });
  const post = async (message: unknown) => {
    await kernel.receive(typeof message === 'string' ? message : JSON.stringify(message));
    await new Promise((resolve) => setTimeout(resolve));
  };
  const lastReply = () => JSON.parse(sent.at(-1)!.json);
  return { kernel, sent, rejected, events, getToken, openForm, post, lastReply };
}

/** A page message of this load: the handshake's session and nonce. */
const page = (message: Record<string, unknown>) => ({ ns: 'hub-embed', v: 1, sid: 's1', nonce: NONCE, ...message });

describe('host kernel: protocol test vectors (test/fixtures/bridge-vectors.json)', () => {
  it('answers the handshake with the capabilities the app really supplies', async () => {
    const host = vectorHost();
    await host.post(vectors.hello.send);
    expect(host.lastReply()).toEqual(vectors.hello.reply);
  });

  for (const vector of vectors.cases) {
    it(vector.name, async () => {
      const host = vectorHost();
      await host.post(vectors.hello.send);
      const before = host.sent.length;
      await host.post(vector.send);
      if ('drop' in vector) {
        expect(host.sent.length).toBe(before);
        expect(host.rejected).toEqual([vector.drop]);
        expect(host.getToken).not.toHaveBeenCalled();
      } else if ('event' in vector) {
        expect(host.sent.length).toBe(before);
        expect(host.events).toEqual([vector.event]);
      } else if ('error' in vector) {
        expect(host.lastReply()).toMatchObject({
          id: (vector.send as { id: string }).id,
          ok: false,
          error: { code: vector.error },
        });
      } else {
        expect(host.lastReply()).toEqual(vector.reply);
        if ('getToken' in vector) expect(host.getToken.mock.calls).toEqual([[vector.getToken]]);
        const { script } = host.sent.at(-1)!;
        for (const text of vector.scriptHas ?? []) expect(script).toContain(text);
        for (const text of vector.scriptLacks ?? []) expect(script).not.toContain(text);
      }
    });
  }
});

// Issue 61 item 1: the same steps the Kotlin host runs on a JVM (test/native-hosts/android/kotlin-vectors.test.ts).
describe('host kernel: queued calls and per-load nonces (the vectors’ sequences)', () => {
  /** The nonce a marker script sets. */
  const markerNonce = (script: string) => {
    const window: { __HUB_EMBED_BRIDGE__?: { nonce: string } } = {};
    runInNewContext(script, { window });
    return window.__HUB_EMBED_BRIDGE__!.nonce;
  };

  for (const sequence of vectors.sequences.cases) {
    it(sequence.name, async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      try {
        const did: Did[] = [];
        const host = vectorHost({
          send: (_, json) => did.push({ out: 'send', json: JSON.parse(json) }),
          onRejected: (reason) => did.push({ out: 'rejected', reason }),
        });
        const settle = (call: Promise<unknown>) =>
          void call.then(
            () => did.push({ out: 'answer', ok: true, code: null, message: null }),
            (error: BridgeError) => did.push({ out: 'answer', ok: false, code: error.code, message: error.message }),
          );
        for (const step of sequence.steps as Array<Record<string, unknown>>) {
          if (step.op === 'post') {
            const data = { ...(step.data as object), ...(step.stamp === true && { nonce: host.kernel.nonce }) };
            await host.kernel.receive(JSON.stringify(data));
          } else if (step.op === 'refresh') settle(host.kernel.refresh());
          else if (step.op === 'setTags') settle(host.kernel.setTags(step.tags as string[]));
          else if (step.op === 'closeForm') settle(host.kernel.closeForm());
          else if (step.op === 'reload') host.kernel.reload(step.nonce ? { nonce: step.nonce as string } : {});
          else if (step.op === 'elapse') vi.advanceTimersByTime(10_000);
          else if (step.op === 'marker') did.push({ out: 'marker', nonce: markerNonce(host.kernel.marker) });
          else throw new Error(`unknown step ${String(step.op)}`);
          // Let answers settle before the next step, as a host's callbacks run before its next call.
          for (let tick = 0; tick < 5; tick++) await Promise.resolve();
        }
        expect(asExpected(did, sequence.expect)).toEqual(sequence.expect);
      } finally {
        vi.useRealTimers();
      }
    });
  }
});

describe('host kernel: the marker and the per-load nonce', () => {
  it('the marker names the transport and the nonce; a reload makes a new nonce and fails what the old page was asked', async () => {
    const host = vectorHost({ nonce: undefined, transport: 'react-native' });
    const first = host.kernel.nonce;
    expect(first).toMatch(/^[0-9a-f]{32}$/);
    const marker = host.kernel.marker;
    const seen: Record<string, unknown> = {};
    runInNewContext(marker, { window: seen });
    expect(seen.__HUB_EMBED_BRIDGE__).toEqual({ transport: 'react-native', v: 1, nonce: first });

    await host.post({ ...vectors.hello.send, nonce: first });
    const pending = host.kernel.refresh();
    host.kernel.reload();
    await expect(pending).rejects.toMatchObject({ code: 'E_CANCELLED' });
    expect(host.kernel.nonce).not.toBe(first);
    // The old page's nonce no longer opens the door.
    await host.post(page({ id: 't1', kind: 'req', method: 'auth.getToken', nonce: first }));
    expect(host.rejected).toEqual(['nonce']);
  });

  it('a kernel without a nonce (nonce: false) sends none: its replies and its requests to the page carry no nonce key', async () => {
    const host = vectorHost({ nonce: false, transport: 'parent' });
    const { nonce, ...hello } = vectors.hello.send;
    await host.post(hello);
    expect(nonce).toBe(NONCE);
    expect(host.lastReply()).toMatchObject({ id: hello.id, ok: true });
    void host.kernel.refresh().catch(() => {});
    expect(host.sent).toHaveLength(2);
    for (const { json } of host.sent) expect(Object.keys(JSON.parse(json))).not.toContain('nonce');
    host.kernel.close();
  });

  it('a marker value cannot end the script it is injected in', () => {
    const kernel = createHostKernel({
      platform: 'x',
      transport: 'wechat',
      nonce: false,
      markerExtras: { wechatFormPage: '</script><script>alert(1)</script>\u2028' },
      send() {},
    });
    expect(kernel.marker).not.toMatch(/<\/script|\u2028/);
    const seen: Record<string, { wechatFormPage?: string }> = {};
    runInNewContext(kernel.marker, { window: seen });
    expect(seen.__HUB_EMBED_BRIDGE__!.wechatFormPage).toBe('</script><script>alert(1)</script>\u2028');
  });

  it('receiveScript escapes U+2028, U+2029 and < and stays a valid script that passes the JSON through', () => {
    const json = JSON.stringify({ text: '\u2028\u2029</script>😀' });
    const script = receiveScript(json);
    expect(script).not.toMatch(/[\u2028\u2029<]/);
    const got: unknown[] = [];
    runInNewContext(script, { window: { __hubEmbedReceive: (value: unknown) => got.push(value) } });
    expect(got).toEqual([json]);
  });
});

describe('host kernel: hostile and failing input', () => {
  it('a message over the size bound is dropped before it is parsed', async () => {
    const host = vectorHost();
    await host.post(vectors.hello.send);
    const parse = vi.spyOn(JSON, 'parse');
    await host.post(
      JSON.stringify(
        page({ id: 'big', kind: 'evt', method: 'widget.ready', params: { pad: 'x'.repeat(MAX_MESSAGE_CHARS) } }),
      ),
    );
    expect(parse).not.toHaveBeenCalled();
    expect(host.rejected).toEqual(['too large']);
  });

  it('a value that is not a string (a native channel would make it "[object Object]") is dropped', async () => {
    const host = vectorHost();
    await host.kernel.receive({ ns: 'hub-embed' });
    expect(host.rejected).toEqual(['not a string']);
  });

  it('a handler that throws answers E_INTERNAL with its message; a BridgeError keeps its code', async () => {
    const host = vectorHost({
      handlers: {
        getToken: () => {
          throw new Error('session store down');
        },
        openForm: () => {
          throw new BridgeError('E_DENIED', 'not in this screen');
        },
      },
    });
    await host.post(vectors.hello.send);
    await host.post(page({ id: 't1', kind: 'req', method: 'auth.getToken' }));
    expect(host.lastReply()).toMatchObject({ ok: false, error: { code: 'E_INTERNAL', message: 'session store down' } });
    await host.post(
      page({ id: 'f1', kind: 'req', method: 'form.open', params: { shortCode: 'a', url: 'https://f.example/a' } }),
    );
    expect(host.lastReply()).toMatchObject({ ok: false, error: { code: 'E_DENIED', message: 'not in this screen' } });
  });

  it.each([
    ['expires_in 0', { access_token: 't', expires_in: 0 }],
    ['a negative expires_in', { access_token: 't', expires_in: -1 }],
    ['an infinite expires_in', { access_token: 't', expires_in: 1e308 * 10 }],
    ['a NaN expires_in', { access_token: 't', expires_in: Number.NaN }],
    ['a string expires_in', { access_token: 't', expires_in: '60' }],
    ['an empty access_token', { access_token: '', expires_in: 60 }],
  ])('getToken giving a token with %s is E_INTERNAL, never passed on', async (_, answer) => {
    const host = vectorHost({ handlers: { getToken: () => answer as never } });
    await host.post(vectors.hello.send);
    await host.post(page({ id: 't1', kind: 'req', method: 'auth.getToken' }));
    expect(host.lastReply()).toMatchObject({ ok: false, error: { code: 'E_INTERNAL' } });
  });

  it('a handler that never answers is answered E_TIMEOUT after timeoutMs', async () => {
    vi.useFakeTimers();
    try {
      const host = vectorHost({ timeoutMs: 5000, handlers: { getToken: () => new Promise(() => {}) } });
      await host.kernel.receive(JSON.stringify(vectors.hello.send));
      const done = host.kernel.receive(JSON.stringify(page({ id: 't1', kind: 'req', method: 'auth.getToken' })));
      await vi.advanceTimersByTimeAsync(5000);
      await done;
      expect(host.lastReply()).toMatchObject({ id: 't1', ok: false, error: { code: 'E_TIMEOUT' } });
    } finally {
      vi.useRealTimers();
    }
  });

  it('a call the page cancelled gets no late answer', async () => {
    let finish!: (token: { access_token: string; expires_in: number }) => void;
    const host = vectorHost({ handlers: { getToken: () => new Promise((resolve) => (finish = resolve)) } });
    await host.post(vectors.hello.send);
    const before = host.sent.length;
    const done = host.kernel.receive(JSON.stringify(page({ id: 't1', kind: 'req', method: 'auth.getToken' })));
    await host.post(page({ id: 't1', kind: 'cancel' }));
    finish({ access_token: 'late', expires_in: 60 });
    await done;
    expect(host.sent.length).toBe(before);
  });

  it('1,000 token requests in flight share one getToken call and each gets its answer', async () => {
    let finish!: (token: { access_token: string; expires_in: number }) => void;
    const getToken = vi.fn(
      () => new Promise<{ access_token: string; expires_in: number }>((resolve) => (finish = resolve)),
    );
    const host = vectorHost({ handlers: { getToken } });
    await host.post(vectors.hello.send);
    const before = host.sent.length;
    const calls = Array.from({ length: 1000 }, (_, i) =>
      host.kernel.receive(JSON.stringify(page({ id: `t${i}`, kind: 'req', method: 'auth.getToken' }))),
    );
    await new Promise((resolve) => setTimeout(resolve));
    finish({ access_token: 'one', expires_in: 60 });
    await Promise.all(calls);
    expect(getToken).toHaveBeenCalledTimes(1);
    const replies = host.sent.slice(before).map((s) => JSON.parse(s.json));
    expect(new Set(replies.map((r) => r.id)).size).toBe(1000);
    expect(replies.every((r) => r.ok && r.result.access_token === 'one')).toBe(true);
  });

  it('more requests in flight than maxInFlight are refused E_UNSUPPORTED, not queued without bound', async () => {
    const host = vectorHost({ maxInFlight: 2, handlers: { openForm: () => new Promise(() => {}) } });
    await host.post(vectors.hello.send);
    const open = (id: string) =>
      void host.kernel.receive(
        JSON.stringify(
          page({ id, kind: 'req', method: 'form.open', params: { shortCode: 'a', url: 'https://f.example/a' } }),
        ),
      );
    open('f1');
    open('f2');
    open('f3');
    await new Promise((resolve) => setTimeout(resolve));
    expect(host.sent.map((s) => JSON.parse(s.json)).filter((r) => r.id === 'f3')).toMatchObject([
      { ok: false, error: { code: 'E_UNSUPPORTED' } },
    ]);
  });

  it('after close() every message is dropped and pending requests fail E_CANCELLED', async () => {
    const host = vectorHost();
    await host.post(vectors.hello.send);
    const pending = host.kernel.setTags(['a']);
    host.kernel.close();
    await expect(pending).rejects.toMatchObject({ code: 'E_CANCELLED' });
    await host.post(page({ id: 't1', kind: 'req', method: 'auth.getToken' }));
    expect(host.rejected).toEqual(['closed']);
  });
});

describe('host kernel: requests to the page', () => {
  it('refresh, setTags and closeForm go to the newest session and settle with its answer', async () => {
    const host = vectorHost();
    await host.post(vectors.hello.send);
    const closing = host.kernel.closeForm();
    const request = JSON.parse(host.sent.at(-1)!.json);
    expect(request).toMatchObject({ sid: 's1', kind: 'req', method: 'form.close', nonce: NONCE });
    await host.post(page({ id: request.id, kind: 'res', ok: true, result: { closed: true } }));
    await expect(closing).resolves.toBe(true);

    const tagging = host.kernel.setTags(['HR', '人事']);
    const setTags = JSON.parse(host.sent.at(-1)!.json);
    expect(setTags).toMatchObject({ method: 'widget.setTags', params: { tags: ['HR', '人事'] } });
    const refused = expect(tagging).rejects.toMatchObject({ code: 'E_DENIED' });
    await host.post(
      page({ id: setTags.id, kind: 'res', ok: false, error: { code: 'E_DENIED', message: 'bad params' } }),
    );
    await refused;
  });

  it('an answer from another session does not settle a request', async () => {
    const host = vectorHost();
    await host.post(vectors.hello.send);
    await host.post({ ...vectors.hello.send, sid: 's2', id: 'h1' });
    const refreshing = host.kernel.refresh();
    const request = JSON.parse(host.sent.at(-1)!.json);
    expect(request.sid).toBe('s2');
    await host.post(page({ sid: 's1', id: request.id, kind: 'res', ok: true, result: null }));
    expect(host.rejected).toEqual(['no such request']);
    await host.post(page({ sid: 's2', id: request.id, kind: 'res', ok: true, result: null }));
    await expect(refreshing).resolves.toBeUndefined();
  });

  it('a request made before any hello waits for the first page that says one, within the same timeout', async () => {
    vi.useFakeTimers();
    try {
      const host = vectorHost({ timeoutMs: 1000 });
      const early = host.kernel.refresh();
      const late = host.kernel.setTags(['HR']);
      await vi.advanceTimersByTimeAsync(400);
      expect(host.sent).toEqual([]);
      // A reload meanwhile fails nothing that was never sent: the new page's hello gets it.
      host.kernel.reload({ keepNonce: true });
      await host.kernel.receive(JSON.stringify(vectors.hello.send));
      await vi.advanceTimersByTimeAsync(0);
      const asked = host.sent.map((sent) => JSON.parse(sent.json) as { id: string; method?: string; sid: string });
      // The hello's answer first, then the waiting requests, in the order they were made.
      expect(asked.map((m) => m.method ?? 'res')).toEqual(['res', 'widget.refresh', 'widget.setTags']);
      for (const request of asked.slice(1))
        await host.kernel.receive(
          JSON.stringify(page({ sid: request.sid, id: request.id, kind: 'res', ok: true, result: null })),
        );
      await expect(early).resolves.toBeUndefined();
      await expect(late).resolves.toBeUndefined();

      // No page at all: E_TIMEOUT after timeoutMs, saying why.
      const alone = vectorHost({ timeoutMs: 1000 });
      const failed = expect(alone.kernel.refresh()).rejects.toMatchObject({
        code: 'E_TIMEOUT',
        message: 'widget.refresh timed out: no widget page said hello',
      });
      await vi.advanceTimersByTimeAsync(1000);
      await failed;
      // close() ends those still waiting, E_CANCELLED.
      const closing = alone.kernel.refresh();
      alone.kernel.close();
      await expect(closing).rejects.toMatchObject({ code: 'E_CANCELLED' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('a handler the app sets later is announced in the next hello, and answered (live handlers)', async () => {
    const handlers: { getToken?: () => typeof vectors.host.token } = {};
    const host = vectorHost({ handlers });
    await host.post(vectors.hello.send);
    expect(host.lastReply().result.capabilities).toEqual([]);
    handlers.getToken = () => vectors.host.token;
    host.kernel.reload({ keepNonce: true });
    await host.post(vectors.hello.send);
    expect(host.lastReply().result.capabilities).toEqual(['auth.getToken']);
    await host.post(page({ id: 't1', kind: 'req', method: 'auth.getToken', params: { reason: 'initial' } }));
    expect(host.lastReply().result).toEqual(vectors.host.token);
  });

  it('setAllowedOrigins changes what loads inside, keeping the session; a bad origin is a TypeError that changes nothing', async () => {
    const host = vectorHost({ allowedOrigins: ['https://widget.example'] });
    await host.post(vectors.hello.send);
    expect(host.kernel.decideNavigation('https://forms.example/a')).toBe('external');
    host.kernel.setAllowedOrigins(['https://widget.example', 'https://forms.example']);
    expect(host.kernel.decideNavigation('https://forms.example/a')).toBe('load');
    expect(() => host.kernel.setAllowedOrigins(['https://*.example'])).toThrow(TypeError);
    expect(host.kernel.decideNavigation('https://forms.example/b')).toBe('load');
    expect(host.kernel.sessions).toEqual(['s1']);
  });

  it('a page that never answers fails the request E_TIMEOUT', async () => {
    vi.useFakeTimers();
    try {
      const host = vectorHost({ timeoutMs: 1000 });
      await host.kernel.receive(JSON.stringify(vectors.hello.send));
      await vi.advanceTimersByTimeAsync(0);
      const refreshing = host.kernel.refresh();
      const failed = expect(refreshing).rejects.toMatchObject({ code: 'E_TIMEOUT' });
      await vi.advanceTimersByTimeAsync(1000);
      await failed;
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('host kernel: replies for WKScriptMessageHandlerWithReply', () => {
  it("with replies: 'return', receive() resolves with the reply and nothing goes through send", async () => {
    const host = vectorHost({ replies: 'return' });
    const hello = await host.kernel.receive(JSON.stringify(vectors.hello.send));
    expect(JSON.parse(hello!)).toEqual(vectors.hello.reply);
    const event = await host.kernel.receive(
      JSON.stringify(page({ id: 'e', kind: 'evt', method: 'form.closed', params: { shortCode: 'a' } })),
    );
    expect(event).toBeUndefined();
    expect(host.sent).toEqual([]);
  });
});

describe('host kernel: what loads inside the WebView', () => {
  const allowed = ['https://widget.example', 'https://forms.example:8443'];
  const cases: Array<[string, 'load' | 'external' | 'blocked']> = [
    ['https://widget.example/embed?x=1', 'load'],
    ['HTTPS://WIDGET.EXAMPLE:443/embed', 'load'],
    ['https://forms.example:8443/abc?token=t', 'load'],
    ['about:blank', 'load'],
    ['https://forms.example/abc', 'external'],
    ['http://widget.example/embed', 'external'],
    ['https://widget.example.evil.com/', 'external'],
    ['https://widget.example@evil.com/', 'external'],
    ['https://evil.com\\@widget.example/', 'external'],
    ['https://widget%2Eexample/', 'external'],
    ['https://help.example/terms', 'external'],
    ['mailto:help@example.com', 'external'],
    ['tel:+8612345', 'external'],
    ['javascript:alert(1)', 'blocked'],
    ['JaVaScRiPt:alert(1)', 'blocked'],
    [' javascript:alert(1)', 'blocked'],
    ['java\tscript:alert(1)', 'blocked'],
    ['https://widget.example/\u2028', 'blocked'],
    ['data:text/html,<script>alert(1)</script>', 'blocked'],
    ['file:///etc/passwd', 'blocked'],
    ['about:srcdoc?x', 'blocked'],
    ['intent://scan/#Intent;scheme=zxing;end', 'blocked'],
    ['not a url', 'blocked'],
  ];
  for (const [url, decision] of cases) {
    it(`${JSON.stringify(url)} -> ${decision}`, () => {
      const openExternal = vi.fn();
      const kernel = createHostKernel({
        platform: 'x',
        transport: 'webkit',
        allowedOrigins: allowed,
        handlers: { openExternal },
        send() {},
      });
      expect(kernel.decideNavigation(url)).toBe(decision);
      expect(openExternal).toHaveBeenCalledTimes(decision === 'external' ? 1 : 0);
      // Whatever this parser lets load, the browser's own URL parser places at the same allowed origin.
      if (decision === 'load' && url.startsWith('http')) expect(allowed).toContain(new URL(url).origin);
    });
  }

  it('allowedOrigins must be exact http(s) origins: a path or a wildcard is a TypeError at start', () => {
    for (const bad of ['https://widget.example/', 'https://*.example', 'widget.example', 'javascript:x']) {
      expect(() => createHostKernel({ platform: 'x', transport: 'webkit', allowedOrigins: [bad], send() {} })).toThrow(
        TypeError,
      );
    }
  });
});

describe('host kernel: what the page may make the host do (issue 35 item 4)', () => {
  it('event params are checked before onEvent: a bad shape or an unknown event goes to onRejected', async () => {
    const host = vectorHost();
    await host.post(vectors.hello.send);
    await host.post(page({ id: 'e1', kind: 'evt', method: 'form.opened', params: null }));
    await host.post(page({ id: 'e2', kind: 'evt', method: 'table.selected', params: 42 }));
    await host.post(page({ id: 'e3', kind: 'evt', method: 'table.selected', params: { shortCode: 7, name: 'x' } }));
    await host.post(
      page({ id: 'e4', kind: 'evt', method: 'form.opened', params: { shortCode: 'a', handledBy: 'me' } }),
    );
    await host.post(page({ id: 'e5', kind: 'evt', method: 'toString', params: {} }));
    await host.post(page({ id: 'e7', kind: 'evt', method: 'tags.changed', params: { tags: 'HR' } }));
    await host.post(page({ id: 'e8', kind: 'evt', method: 'tags.changed', params: { tags: ['x'.repeat(201)] } }));
    await host.post(page({ id: 'e9', kind: 'evt', method: 'widget.ready', params: { version: '1', locale: 42 } }));
    expect(host.events).toEqual([]);
    expect(host.rejected).toEqual([
      'bad params: form.opened',
      'bad params: table.selected',
      'bad params: table.selected',
      'bad params: form.opened',
      'unknown event toString',
      'bad params: tags.changed',
      'bad params: tags.changed',
      'bad params: widget.ready',
    ]);
    await host.post(page({ id: 'e6', kind: 'evt', method: 'table.selected', params: { shortCode: 'a', name: 'b' } }));
    expect(host.events).toEqual([{ name: 'table.selected', params: { shortCode: 'a', name: 'b' } }]);
  });

  it('a replayed request id is dropped: one form.open id sent three times opens one form', async () => {
    const host = vectorHost();
    await host.post(vectors.hello.send);
    const open = page({
      id: 'f1',
      kind: 'req',
      method: 'form.open',
      params: { shortCode: 'a', url: 'https://f.example/a' },
    });
    for (let i = 0; i < 3; i++) await host.post(open);
    expect(host.openForm).toHaveBeenCalledTimes(1);
    expect(host.rejected).toEqual(['duplicate', 'duplicate']);
    // A new page load starts afresh.
    host.kernel.reload({ keepNonce: true });
    await host.post(vectors.hello.send);
    await host.post(open);
    expect(host.openForm).toHaveBeenCalledTimes(2);
  });

  it('the replay window holds the newest 1,000 request ids: a replay after 999 others is dropped, after 1,000 it is forgotten', async () => {
    const host = vectorHost();
    await host.post(vectors.hello.send);
    const open = page({
      id: 'f1',
      kind: 'req',
      method: 'form.open',
      params: { shortCode: 'a', url: 'https://f.example/a' },
    });
    const others = async (from: number, count: number) => {
      for (let i = from; i < from + count; i++)
        await host.kernel.receive(
          JSON.stringify(page({ id: `r${i}`, kind: 'req', method: 'bridge.hello', params: {} })),
        );
    };
    await host.post(open);
    // The handshake's id, f1 and 998 more: 1,000 ids, f1 among them.
    await others(0, 998);
    await host.post(open);
    expect(host.openForm).toHaveBeenCalledTimes(1);
    expect(host.rejected).toEqual(['duplicate']);
    // Bounded: 1,000 newer ids push f1 out, so memory does not grow with a long-lived page.
    await others(998, 1000);
    await host.post(open);
    expect(host.openForm).toHaveBeenCalledTimes(2);
  });

  it(
    'sessions are capped: 20,000 hellos with distinct sids keep the newest 16, and never more on the way',
    { timeout: 60_000 },
    async () => {
      const host = vectorHost();
      let most = 0;
      for (let i = 0; i < 20_000; i++) {
        await host.kernel.receive(
          JSON.stringify(page({ sid: `s${i}`, id: `h${i}`, kind: 'req', method: 'bridge.hello', params: {} })),
        );
        most = Math.max(most, host.kernel.sessions.length);
      }
      // Linear, not quadratic: each hello's work is bounded by the cap, since the list never grows past it
      // (without the cap each hello filtered the whole list: 8.8 s on a laptop).
      expect(most).toBe(16);
      expect(host.kernel.sessions).toHaveLength(16);
      expect(host.kernel.sessions.at(-1)).toBe('s19999');
    },
  );

  it('a sid longer than 64 characters is malformed and never kept', async () => {
    const host = vectorHost();
    await host.post(page({ sid: 's'.repeat(65), id: 'h1', kind: 'req', method: 'bridge.hello', params: {} }));
    await host.post(page({ sid: 's'.repeat(1024 * 1024), id: 'h2', kind: 'req', method: 'bridge.hello', params: {} }));
    expect(host.rejected).toEqual(['malformed', 'malformed']);
    expect(host.kernel.sessions).toEqual([]);
    expect(host.sent).toEqual([]);
  });

  it('a cancel is kept only for a request being answered: cancels of other ids are dropped, not stored', async () => {
    let finish!: (token: { access_token: string; expires_in: number }) => void;
    const host = vectorHost({ handlers: { getToken: () => new Promise((resolve) => (finish = resolve)) } });
    await host.post(vectors.hello.send);
    for (let i = 0; i < 100; i++) await host.post(page({ id: `c${i}`, kind: 'cancel' }));
    expect(host.rejected).toEqual(Array(100).fill('no such request'));
    const before = host.sent.length;
    // Not awaited: the answer waits for getToken, which waits for finish().
    void host.kernel.receive(JSON.stringify(page({ id: 't1', kind: 'req', method: 'auth.getToken', params: {} })));
    await new Promise((resolve) => setTimeout(resolve));
    await host.post(page({ id: 't1', kind: 'cancel' }));
    finish(vectors.host.token);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(host.sent.length).toBe(before);
    expect(host.rejected).toHaveLength(100);
  });

  it('getToken hears core’s reasons and the refused token; an older page’s "expired" reads as expiring', async () => {
    const host = vectorHost();
    await host.post(vectors.hello.send);
    const ask = (id: string, params: unknown) => host.post(page({ id, kind: 'req', method: 'auth.getToken', params }));
    await ask('t1', { reason: 'initial' });
    await ask('t2', { reason: 'unauthorized', previous: 'tok-refused' });
    await ask('t3', { reason: 'expiring', previous: 'tok-old' });
    await ask('t4', { reason: 'expired' });
    await ask('t5', { reason: 'initial', previous: 'ignored' });
    await ask('t6', { reason: 'unauthorized', previous: 42 });
    expect((host.getToken.mock.calls as unknown as Array<[unknown]>).map(([request]) => request)).toEqual([
      { reason: 'initial' },
      { reason: 'unauthorized', previous: 'tok-refused' },
      { reason: 'expiring', previous: 'tok-old' },
      { reason: 'expiring' },
      { reason: 'initial' },
      { reason: 'unauthorized' },
    ]);
  });
});

describe('host kernel: frames and opens that leave the app (issue 35 item 4)', () => {
  const kernelWith = (openExternal = vi.fn(), rejected: string[] = []) =>
    createHostKernel({
      platform: 'x',
      transport: 'webkit',
      allowedOrigins: ['https://widget.example'],
      handlers: { openExternal },
      onRejected: (reason) => rejected.push(reason),
      send() {},
    });

  it('a sub-frame loads a web page of any origin, is blocked otherwise, and never goes to openExternal', () => {
    const openExternal = vi.fn();
    const kernel = kernelWith(openExternal);
    const frame = { isTopFrame: false };
    expect(kernel.decideNavigation('https://maps.example/embed', frame)).toBe('load');
    expect(kernel.decideNavigation('https://widget.example/x', frame)).toBe('load');
    expect(kernel.decideNavigation('about:blank', frame)).toBe('load');
    for (const url of [
      'tel:+861234',
      'intent://x#Intent;end',
      'alipays://platformapi',
      'javascript:alert(1)',
      'data:text/html,x',
      'https://a@b.example/',
    ])
      expect(kernel.decideNavigation(url, frame)).toBe('blocked');
    expect(openExternal).not.toHaveBeenCalled();
  });

  it('external opens are limited to one per externalIntervalMs', () => {
    const openExternal = vi.fn();
    const rejected: string[] = [];
    const kernel = kernelWith(openExternal, rejected);
    vi.useFakeTimers();
    try {
      const decisions = Array.from({ length: 30 }, (_, i) => kernel.decideNavigation(`https://store.example/${i}`));
      expect(decisions.filter((d) => d === 'external')).toHaveLength(1);
      expect(openExternal).toHaveBeenCalledTimes(1);
      expect(rejected).toEqual(Array(29).fill('external open limited'));
      vi.advanceTimersByTime(1000);
      expect(kernel.decideNavigation('https://store.example/later')).toBe('external');
      expect(openExternal).toHaveBeenCalledTimes(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a new window never opens inside: even the widget’s own origin goes out', () => {
    const openExternal = vi.fn();
    const kernel = kernelWith(openExternal);
    expect(kernel.decideNavigation('https://widget.example/help', { newWindow: true })).toBe('external');
    expect(openExternal).toHaveBeenCalledWith('https://widget.example/help');
  });
});
