// The Android host's protocol logic (examples/android/HubEmbedProtocol.kt, quoted by docs/webview-android.md), compiled
// with Debian's kotlinc and run on a JVM with Debian's org.json (libandroid-json-java, Android's own
// implementation). test/native-hosts/android/Harness.kt only moves strings between this test and the host; every
// protocol test vector, the host's requests to the page, the events and hostile input are judged here.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runInNewContext } from 'node:vm';
import { fileURLToPath } from 'node:url';
import vectors from '../../fixtures/bridge-vectors.json' with { type: 'json' };
import { decideNavigation } from '../../../src/host/navigation.js';
import { eventRefusal } from '../../../src/host/event-shapes.js';
import { asExpected, type Did } from '../../host/host-sequences.js';

const ORG_JSON = '/usr/share/java/com.android.json.jar';
const KOTLIN_STDLIB = '/usr/share/java/kotlin-stdlib.jar';
const sources = ['../../../examples/android/HubEmbedProtocol.kt', './Harness.kt'].map((path) =>
  fileURLToPath(new URL(path, import.meta.url)),
);
const kotlinc = spawnSync('kotlinc', ['-version'], { encoding: 'utf8' }).status === 0;
const missing = [...(kotlinc ? [] : ['kotlinc']), ...[ORG_JSON, KOTLIN_STDLIB].filter((path) => !existsSync(path))];
// CI installs them (.ci/run); elsewhere the suite says what it lacks instead of failing.
const skip =
  missing.length && !process.env.CI
    ? `needs ${missing.join(', ')} (apt-get install kotlin default-jdk-headless libandroid-json-java)`
    : false;

const NONCE = vectors.host.nonce;
type Out = Record<string, unknown> & { out: string };
let classpath = '';
let workDir = '';

/** Starts a host set up as the vectors say (options override), runs `commands`, returns what it did. */
function run(commands: Array<Record<string, unknown>>, options: Record<string, unknown> = {}): Out[] {
  const host = {
    op: 'host',
    platform: vectors.host.platform,
    nonce: NONCE,
    token: vectors.host.token,
    openForm: vectors.host.openForm.handled,
    ...options,
  };
  const input = [host, ...commands].map((command) => JSON.stringify(command)).join('\n');
  const java = spawnSync('java', ['-cp', classpath, 'HarnessKt'], { input, encoding: 'utf8' });
  // A Kotlin exception (the host throwing on what the page sent) fails the test here.
  assert.equal(java.status, 0, java.stderr);
  return java.stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Out);
}

const post = (message: unknown) => ({
  op: 'post',
  data: typeof message === 'string' ? message : JSON.stringify(message),
});
const hello = post(vectors.hello.send);
const page = (message: Record<string, unknown>) => post({ ns: 'hub-embed', v: 1, sid: 's1', nonce: NONCE, ...message });
const sent = (outs: Out[]) => outs.filter((o) => o.out === 'send').map((o) => JSON.parse(o.json as string));
const rejected = (outs: Out[]) => outs.filter((o) => o.out === 'rejected').map((o) => o.reason);
/** What runs in the page: the script delivers exactly the JSON to __hubEmbedReceive. */
function delivered(script: string): unknown {
  const got: string[] = [];
  runInNewContext(script, { window: { __hubEmbedReceive: (value: string) => got.push(value) } });
  assert.equal(got.length, 1);
  return JSON.parse(got[0]!);
}

/** The Kotlin event class for each event of the one event map (src/bridge/methods.ts). */
const EVENT_TYPES: Record<string, string> = {
  'widget.ready': 'Ready',
  'table.selected': 'TableSelected',
  'tags.changed': 'TagsChanged',
  'form.opened': 'FormOpened',
  'form.closed': 'FormClosed',
  'widget.error': 'WidgetError',
  'form.message': 'FormMessage',
};

// kotlinc takes 20 to 60 s on a shared machine: once for the whole file.
before(() => {
  if (skip) return;
  workDir = mkdtempSync(join(tmpdir(), 'hub-kotlin-'));
  const jar = join(workDir, 'host.jar');
  execFileSync('kotlinc', [...sources, '-cp', ORG_JSON, '-d', jar], { stdio: ['ignore', 'ignore', 'pipe'] });
  classpath = [jar, ORG_JSON, KOTLIN_STDLIB].join(':');
});
after(() => workDir && rmSync(workDir, { recursive: true, force: true }));

describe('Android host (Kotlin on a JVM): protocol test vectors', { skip }, () => {
  it('answers the handshake with the capabilities the app really supplies', () => {
    const outs = run([hello]);
    assert.deepEqual(sent(outs), [vectors.hello.reply]);
    assert.deepEqual(delivered(outs[0]!.script as string), vectors.hello.reply);
    const bare = run([hello], { token: null, openForm: null });
    assert.deepEqual((sent(bare)[0].result as { capabilities: string[] }).capabilities, []);
  });

  for (const vector of vectors.cases) {
    it(vector.name, () => {
      const outs = run([hello, post(vector.send)]);
      const after = outs.slice(1);
      if ('drop' in vector) {
        assert.deepEqual(sent(after), []);
        assert.deepEqual(rejected(after), [vector.drop]);
        assert.ok(!after.some((o) => o.out === 'getToken' || o.out === 'openForm'));
      } else if ('event' in vector) {
        assert.deepEqual(sent(after), []);
        assert.deepEqual(after, [
          { out: 'event', type: EVENT_TYPES[vector.event!.name], params: vector.event!.params },
        ]);
      } else if ('error' in vector) {
        const [reply] = sent(after);
        assert.equal(reply.id, (vector.send as { id: string }).id);
        assert.equal(reply.ok, false);
        assert.equal(reply.error.code, vector.error);
        assert.equal(reply.nonce, NONCE);
      } else {
        assert.deepEqual(sent(after), [vector.reply]);
        // What the app's getToken is handed: the reason, and the token being replaced.
        if ('getToken' in vector)
          assert.deepEqual(
            after.filter((o) => o.out === 'getToken'),
            [{ out: 'getToken', ...vector.getToken }],
          );
        const script = after.find((o) => o.out === 'send')!.script as string;
        for (const text of vector.scriptHas ?? []) assert.ok(script.includes(text), `script has ${text}`);
        for (const text of vector.scriptLacks ?? [])
          assert.ok(!script.includes(text), `script lacks ${JSON.stringify(text)}`);
        assert.deepEqual(delivered(script), vector.reply);
      }
    });
  }
});

/** The nonce a marker script sets in a document of the widget origin. */
function markerNonce(script: string): string {
  const seen: Record<string, unknown> = { location: { origin: WIDGET_ORIGIN } };
  runInNewContext(script, { window: seen, location: seen.location });
  return (seen.__HUB_EMBED_BRIDGE__ as { nonce: string }).nonce;
}
const WIDGET_ORIGIN = 'https://widget.example.com';

// Issue 61 item 1: every native host queues the app's calls until the page's hello, and draws a fresh
// nonce on every load, as the kernel and <HubEmbedView> do (test/host/kernel.test.ts runs the same steps).
describe('Android host (Kotlin on a JVM): queued calls and per-load nonces (the vectors’ sequences)', { skip }, () => {
  for (const sequence of vectors.sequences.cases) {
    it(sequence.name, () => {
      const steps = sequence.steps.map((step) =>
        step.op === 'post'
          ? { op: 'post', data: JSON.stringify(step.data), stamp: (step as { stamp?: boolean }).stamp === true }
          : step.op === 'marker'
            ? { op: 'marker', origin: WIDGET_ORIGIN }
            : step,
      );
      const did = run(steps).map((o): Did => {
        if (o.out === 'marker') return { out: 'marker', nonce: markerNonce(o.script as string) };
        if (o.out === 'send') {
          // What runs in the page delivers exactly the message.
          assert.deepEqual(delivered(o.script as string), JSON.parse(o.json as string));
          return { out: 'send', json: JSON.parse(o.json as string) };
        }
        if (o.out === 'answer')
          return { out: 'answer', ok: o.ok as boolean, code: o.code as string, message: o.message as string };
        return o as Did;
      });
      assert.deepEqual(asExpected(did, sequence.expect), sequence.expect);
    });
  }
});

describe('Android host (Kotlin on a JVM): events, host requests, hostile input', { skip }, () => {
  it('hands every event of the event map to the app, typed; an event of another shape goes to onRejected', () => {
    const events: Array<[string, Record<string, unknown>]> = [
      ['widget.ready', { version: '0.1.0' }],
      ['widget.ready', { version: '0.1.0', locale: 'zh-CN' }],
      ['table.selected', { shortCode: 'ab12', name: '钢结构安装' }],
      ['tags.changed', { tags: ['HR', '装修'] }],
      ['tags.changed', { tags: [] }],
      ['form.opened', { shortCode: 'ab12', handledBy: 'page' }],
      ['form.closed', { shortCode: 'ab12' }],
      ['widget.error', { kind: 'token', message: 'Access was refused.' }],
      ['form.message', { shortCode: 'ab12', data: { paid: true } }],
    ];
    const outs = run([
      hello,
      ...events.map(([method, params], i) => page({ id: `e${i}`, kind: 'evt', method, params })),
      page({ id: 'bad1', kind: 'evt', method: 'table.selected', params: { shortCode: 42 } }),
      page({ id: 'bad2', kind: 'evt', method: 'form.opened', params: null }),
      page({ id: 'bad3', kind: 'evt', method: 'form.opened', params: { shortCode: 'a', handledBy: 'mars' } }),
      page({ id: 'bad4', kind: 'evt', method: 'files.changed', params: {} }),
    ]).slice(1);
    assert.deepEqual(
      outs.filter((o) => o.out === 'event'),
      events.map(([method, params]) => ({ out: 'event', type: EVENT_TYPES[method], params })),
    );
    assert.deepEqual(rejected(outs), [
      'bad params: table.selected',
      'bad params: form.opened',
      'bad params: form.opened',
      'unknown event files.changed',
    ]);
  });

  it('checks each event’s shape exactly as hub-embed/host does (src/host/event-shapes.ts), at every limit', () => {
    const text = (n: number) => 'x'.repeat(n);
    const shapes: Array<[string, unknown]> = [
      ['widget.ready', { version: text(100) }],
      ['widget.ready', { version: text(101) }],
      ['widget.ready', { version: '1', locale: text(35) }],
      ['widget.ready', { version: '1', locale: text(36) }],
      ['widget.ready', { version: '1', locale: null }],
      ['widget.ready', { version: '1', locale: ['en'] }],
      ['widget.ready', { version: 1 }],
      ['widget.ready', ['1']],
      ['tags.changed', { tags: Array.from({ length: 100 }, () => text(200)) }],
      ['tags.changed', { tags: Array.from({ length: 101 }, () => 'a') }],
      ['tags.changed', { tags: ['a', text(201)] }],
      ['tags.changed', { tags: [null] }],
      ['tags.changed', { tags: [['a']] }],
      ['tags.changed', { tags: { 0: 'a' } }],
      ['tags.changed', { tags: null }],
      ['tags.changed', {}],
      ['tags.changed', 'HR'],
      ['table.selected', { shortCode: text(100), name: text(500) }],
      ['table.selected', { shortCode: text(101), name: 'n' }],
      ['table.selected', { shortCode: 'a', name: text(501) }],
      ['form.opened', { shortCode: 'a', handledBy: 'host' }],
      ['form.closed', { shortCode: text(101) }],
      ['widget.error', { kind: text(100), message: text(2000) }],
      ['widget.error', { kind: 'k', message: text(2001) }],
      ['widget.error', { kind: text(101), message: 'm' }],
      ['form.message', { shortCode: 'a', data: null }],
      ['form.message', { shortCode: 'a' }],
      ['toString', {}],
      [text(150), {}],
    ];
    const outs = run([
      hello,
      ...shapes.map(([method, params], i) => page({ id: `s${i}`, kind: 'evt', method, params })),
    ]);
    // One line per event, in order: what the Kotlin host did with it, beside what the kernel says.
    const verdicts = outs.slice(1).map((o) => (o.out === 'rejected' ? o.reason : 'accepted'));
    assert.deepEqual(
      verdicts,
      shapes.map(([method, params]) => eventRefusal(method, params) ?? 'accepted'),
    );
    assert.ok(verdicts.filter((v) => v === 'accepted').length >= 7);
  });

  it('keeps the selection (the user’s tags.changed, the app’s setTags) and sends it to each new page session', () => {
    // After a reload the page stamps the new load's nonce (stamp), as it reads it from the new marker.
    const again = { ...post({ ...vectors.hello.send, sid: 's2', id: 'h0b' }), stamp: true };
    const outs = run([
      hello,
      { op: 'selection' },
      page({ id: 'e1', kind: 'evt', method: 'tags.changed', params: { tags: ['HR', '装修'] } }),
      // A bad tags.changed keeps the last good selection.
      page({ id: 'e2', kind: 'evt', method: 'tags.changed', params: { tags: [42] } }),
      { op: 'selection' },
      // The page loads again (a reload, a renderer that died): its new session gets the user's selection.
      { op: 'reload' },
      again,
      { op: 'setTags', tags: ['IT'] },
      { op: 'reload' },
      { ...post({ ...vectors.hello.send, sid: 's3', id: 'h0c' }), stamp: true },
    ]);
    const selections = outs.filter((o) => o.out === 'selection').map((o) => o.tags);
    assert.deepEqual(selections, [null, ['HR', '装修']]);
    const messages = sent(outs);
    assert.deepEqual(
      messages.map((m) => [m.sid, m.kind, m.method ?? m.id, m.params?.tags]),
      [
        ['s1', 'res', 'h0', undefined],
        // After the hello's answer, before the page asks for anything.
        ['s2', 'res', 'h0b', undefined],
        ['s2', 'req', 'widget.setTags', ['HR', '装修']],
        ['s2', 'req', 'widget.setTags', ['IT']],
        ['s3', 'res', 'h0c', undefined],
        ['s3', 'req', 'widget.setTags', ['IT']],
      ],
    );
    // The first page, with nothing selected yet, was asked nothing (the vectors' hello gets only its answer).
    assert.equal(messages.filter((m) => m.sid === 's1').length, 1);
  });

  it('asks the page (widget.setTags) in the newest session and hands the page’s answer to the app', () => {
    const outs = run([
      hello,
      { op: 'setTags', tags: ['HR', '装修'] },
      page({ id: 'h1', kind: 'res', ok: true, result: null }),
      { op: 'refresh' },
      page({ id: 'h2', kind: 'res', ok: false, error: { code: 'E_NOT_A_CODE', message: 'x' } }),
    ]).slice(1);
    const [request, refresh] = sent(outs);
    assert.deepEqual(request, {
      ns: 'hub-embed',
      v: 1,
      sid: 's1',
      id: 'h1',
      kind: 'req',
      method: 'widget.setTags',
      params: { tags: ['HR', '装修'] },
      nonce: NONCE,
    });
    assert.equal(refresh.method, 'widget.refresh');
    const answers = outs.filter((o) => o.out === 'answer');
    assert.deepEqual(answers, [
      { out: 'answer', ok: true, result: null, code: null, message: null },
      // A code outside the protocol's closed set is E_INTERNAL.
      { out: 'answer', ok: false, result: null, code: 'E_INTERNAL', message: 'x' },
    ]);
  });

  it('a host request fails E_TIMEOUT when the page never answers, E_CANCELLED on reload', () => {
    const outs = run([
      hello,
      { op: 'setTags', tags: [] },
      { op: 'elapse' },
      { op: 'closeForm' },
      { op: 'reload' },
      // The reloaded page answers too late, with this load's nonce, and its old session is gone.
      { ...page({ id: 'h2', kind: 'res', ok: true, result: { closed: true } }), stamp: true },
    ]);
    const codes = outs.filter((o) => o.out === 'answer').map((o) => o.code);
    assert.deepEqual(codes, ['E_TIMEOUT', 'E_CANCELLED']);
    assert.deepEqual(rejected(outs), ['sid']);
  });

  it('an answer from another session, or to an id never asked, is dropped as no such request', () => {
    const outs = run([
      hello,
      post({ ...vectors.hello.send, sid: 's2', id: 'h0b' }),
      { op: 'setTags', tags: ['a'] },
      page({ id: 'h1', kind: 'res', ok: true, result: null }),
      page({ sid: 's2', id: 'h1', kind: 'res', ok: true, result: null }),
    ]).slice(1);
    assert.equal(sent(outs)[1].sid, 's2');
    assert.deepEqual(rejected(outs), ['no such request']);
    assert.equal(outs.filter((o) => o.out === 'answer').length, 1);
  });

  it('answers nothing the page cancelled, nor to a page that loaded again meanwhile', () => {
    const token = { hold: true };
    const cancelled = run(
      [
        hello,
        page({ id: 't1', kind: 'req', method: 'auth.getToken' }),
        page({ id: 't1', kind: 'cancel' }),
        { op: 'release' },
      ],
      { token },
    );
    assert.equal(sent(cancelled).length, 1);
    const reloaded = run(
      [hello, page({ id: 't1', kind: 'req', method: 'auth.getToken' }), { op: 'reload' }, { op: 'release' }],
      { token },
    );
    assert.equal(sent(reloaded).length, 1);
    const answered = run([hello, page({ id: 't1', kind: 'req', method: 'auth.getToken' }), { op: 'release' }], {
      token,
    });
    assert.equal(sent(answered)[1].result.access_token, 'late-token');
  });

  it('survives malformed JSON and odd values without throwing, and still answers afterwards', () => {
    // Not JSON, or a number no JSON value holds: Android's org.json reads some of it leniently (an unquoted
    // word is a string) and refuses 1e999, so these are dropped as malformed or foreign; never a crash.
    const notJson = [
      '',
      '{',
      'nul',
      '{} trailing',
      '\u0000',
      '['.repeat(1_000_000),
      "{'ns':'hub-embed'}",
      '{"ns":"hub-embed","v":1e999,"sid":"s1","id":"x","kind":"req","method":"auth.getToken"}',
    ];
    const message = { ns: 'hub-embed', v: 1, sid: 's1', id: 'x', kind: 'req', method: 'auth.getToken', nonce: NONCE };
    const odd = [
      JSON.stringify({ ...message, v: '1' }),
      JSON.stringify({ ...message, v: true }),
      JSON.stringify({ ...message, sid: 7 }),
      JSON.stringify({ ...message, method: 42 }),
      JSON.stringify({ ...message, nonce: 7 }),
      JSON.stringify({ ...message, method: 'form.open', params: 'x' }),
    ];
    const outs = run([
      hello,
      ...[...notJson, ...odd].map(post),
      page({ id: 'ok', kind: 'req', method: 'auth.getToken' }),
    ]).slice(1);
    const replies = sent(outs);
    // Only form.open with params that are no object gets an answer (E_DENIED); the rest are dropped.
    assert.deepEqual(
      replies.map((r) => [r.id, r.ok, r.error?.code]),
      [
        ['x', false, 'E_DENIED'],
        ['ok', true, undefined],
      ],
    );
    const reasons = rejected(outs);
    assert.equal(reasons.length, notJson.length + odd.length - 1);
    for (const reason of reasons.slice(0, notJson.length)) assert.match(reason as string, /^(malformed|foreign)$/);
    // Valid JSON is judged as the kernel judges it.
    assert.deepEqual(reasons.slice(notJson.length), ['foreign', 'foreign', 'malformed', 'malformed', 'nonce']);
  });

  it('writes backslashes and slashes of a value as the page reads them', () => {
    const token = { access_token: 'a/b\\/c\\\\/d\\', expires_in: 60 };
    const outs = run([hello, page({ id: 't1', kind: 'req', method: 'auth.getToken' })], { token });
    assert.deepEqual(sent(outs)[1].result, token);
    assert.deepEqual(delivered(outs.at(-1)!.script as string), sent(outs)[1]);
  });

  it('a token the app cannot give is E_DENIED', () => {
    const outs = run([hello, page({ id: 't1', kind: 'req', method: 'auth.getToken' })], { token: {} });
    assert.equal(sent(outs)[1].error.code, 'E_DENIED');
  });

  it('the marker sets the transport, v and the nonce only in a document of the widget origin', () => {
    const origin = 'https://widget.example.com';
    const [marker] = run([{ op: 'marker', origin }]);
    const markerIn = (pageOrigin: string) => {
      const seen: Record<string, unknown> = { location: { origin: pageOrigin } };
      runInNewContext(marker!.script as string, { window: seen, location: seen.location });
      return seen.__HUB_EMBED_BRIDGE__ && JSON.parse(JSON.stringify(seen.__HUB_EMBED_BRIDGE__));
    };
    assert.deepEqual(markerIn(origin), { transport: 'android', v: 1, nonce: NONCE });
    // The previous page, a form page, another site: no nonce for them.
    for (const other of ['https://forms.example.com', 'https://widget.example.com.evil.test', 'null'])
      assert.equal(markerIn(other), undefined, other);
  });

  it('decides navigation exactly as hub-embed/host does: only allowed origins load inside', () => {
    const allowed = ['https://widget.example.com', 'https://forms.example.com'];
    const urls = [
      'https://widget.example.com/embed',
      'https://WIDGET.example.com:443/x',
      'https://forms.example.com/abc?token=1',
      'https://widget.example.com.evil.test/',
      'https://widget.example.com@evil.test/',
      'https://evil.test\\@widget.example.com/',
      'http://widget.example.com/',
      'https://widget.example.com:8443/',
      'https://%77idget.example.com/',
      'https://other.example/',
      'mailto:a@b.c',
      'tel:123',
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      'data:text/html,x',
      'file:///etc/passwd',
      'intent://x#Intent;end',
      'about:blank',
      'about:config',
      ' https://widget.example.com/',
      'https://widget.example.com/\u2028',
      'weixin://pay',
      '//widget.example.com/',
      '',
    ];
    const [outs] = run([{ op: 'navigate', allowed, urls }]).slice(0);
    assert.deepEqual(
      outs!.decisions,
      urls.map((url) => decideNavigation(url, allowed)),
    );
  });
});

// Every Android host alike: back closes the page's form first, as <HubEmbedView> does
// (src/react-native/hub-embed-view.ts, test/native-hosts/react-native.test.ts), then goes to the app.
describe('Android host (Kotlin on a JVM): back closes the page’s form first', { skip }, () => {
  const opened = (id: string, handledBy = 'page') =>
    page({ id, kind: 'evt', method: 'form.opened', params: { shortCode: 'ab12', handledBy } });
  const closed = (id: string) => page({ id, kind: 'evt', method: 'form.closed', params: { shortCode: 'ab12' } });
  const backs = (outs: Out[]) => outs.filter((o) => o.out === 'back').map((o) => o.handled);
  const closeRequests = (outs: Out[]) => sent(outs).filter((m) => m.method === 'form.close');

  it('back with the page’s form open asks form.close and is consumed; with none it goes to the app', () => {
    const outs = run([
      hello,
      { op: 'back' },
      opened('e1'),
      { op: 'back' },
      page({ id: 'h1', kind: 'res', ok: true, result: { closed: true } }),
      closed('e2'),
      { op: 'back' },
    ]);
    assert.deepEqual(backs(outs), [false, true, false]);
    assert.deepEqual(
      closeRequests(outs).map((m) => [m.id, m.sid, m.nonce]),
      [['h1', 's1', NONCE]],
    );
  });

  it('a form the host opened (handledBy host) is the app’s to close: back goes to the app', () => {
    assert.deepEqual(backs(run([hello, opened('e1', 'host'), { op: 'back' }])), [false]);
  });

  it('a form.opened with no dialog behind it costs one press: {closed: false}, then back goes to the app', () => {
    const outs = run([
      hello,
      opened('e1'),
      { op: 'back' },
      page({ id: 'h1', kind: 'res', ok: true, result: { closed: false } }),
      { op: 'back' },
    ]);
    assert.deepEqual(backs(outs), [true, false]);
  });

  it('a page cannot hold back: its second form.opened without a touch is not believed', () => {
    const outs = run([
      hello,
      opened('e1'),
      { op: 'back' },
      page({ id: 'h1', kind: 'res', ok: true, result: { closed: false } }),
      opened('e2'),
      { op: 'back' },
      { op: 'touch' },
      opened('e3'),
      { op: 'back' },
    ]);
    assert.deepEqual(backs(outs), [true, false, true]);
  });

  it('a page that loads again has no form open: back goes to the app; a failed form.close too', () => {
    assert.deepEqual(backs(run([hello, opened('e1'), { op: 'reload' }, { op: 'back' }])), [false]);
    const failed = run([
      hello,
      opened('e1'),
      { op: 'back' },
      page({ id: 'h1', kind: 'res', ok: false, error: { code: 'E_INTERNAL', message: 'x' } }),
      { op: 'back' },
    ]);
    assert.deepEqual(backs(failed), [true, false]);
  });
});
