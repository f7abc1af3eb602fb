import { describe, expect, expectTypeOf, it } from 'vitest';
import { BRIDGE_ERROR_CODES, MAX_MESSAGE_CHARS, parseMessage, toScriptLiteral } from '../../src/bridge/index.js';
import { BridgeError, envelope, failure, toBridgeError } from '../../src/bridge/protocol.js';
import { HOST_REQUESTS, RESULTS } from '../../src/bridge/methods.js';
import type {
  Complete,
  EveryMethod,
  HostToPageRequests,
  PageToHostRequests,
  Shape,
  Shapes,
} from '../../src/bridge/methods.js';

const ok = { ns: 'hub-embed', v: 1, sid: 's1', id: '1', kind: 'res', ok: true, result: {} };
const json = (value: unknown) => JSON.stringify(value);

describe('protocol v1 envelope', () => {
  it('parses a well-formed message', () => {
    expect(parseMessage(json(ok))).toEqual(ok);
  });

  it('parses a cancel and an event (a cancel needs no method)', () => {
    const cancel = { ...ok, kind: 'cancel', ok: undefined, result: undefined };
    expect(parseMessage(json(cancel))).toMatchObject({ kind: 'cancel', id: '1' });
    expect(parseMessage(json({ ...ok, kind: 'evt', method: 'bridge.ready' }))).toMatchObject({
      kind: 'evt',
      method: 'bridge.ready',
    });
  });

  // Two reasons only: another namespace or version ('foreign', expected on shared channels) and
  // everything else that is not a valid v1 envelope ('malformed').
  it.each([
    ['a non-string', { ...ok }, 'malformed'],
    ['null', null, 'malformed'],
    ['an array holding the JSON string', [json(ok)], 'malformed'],
    ['malformed JSON', '{"ns":', 'malformed'],
    ['a JSON array', '[1,2]', 'foreign'],
    ['JSON null', 'null', 'foreign'],
    ['a foreign ns', json({ ...ok, ns: 'other' }), 'foreign'],
    ['v 2', json({ ...ok, v: 2 }), 'foreign'],
    ['v "1" as a string', json({ ...ok, v: '1' }), 'foreign'],
    ['a numeric sid', json({ ...ok, sid: 1 }), 'malformed'],
    ['a numeric id', json({ ...ok, id: 1 }), 'malformed'],
    ['a huge id', json({ ...ok, id: 'i'.repeat(65) }), 'malformed'],
    ['an unknown kind', json({ ...ok, kind: 'push' }), 'malformed'],
    ['a prototype-named kind', json({ ...ok, kind: 'toString' }), 'malformed'],
    ['a request without method', json({ ...ok, kind: 'req' }), 'malformed'],
    ['an event with a numeric method', json({ ...ok, kind: 'evt', method: 7 }), 'malformed'],
    ['a message over the size limit', json({ ...ok, result: 'x'.repeat(MAX_MESSAGE_CHARS) }), 'malformed'],
  ])('ignores %s', (_, raw, reason) => {
    expect(parseMessage(raw)).toBe(reason);
  });

  it('prototype-pollution keys are dropped and pollute nothing', () => {
    const raw =
      '{"ns":"hub-embed","v":1,"sid":"s","id":"1","kind":"req","method":"widget.setTags","params":{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"tags":["a"]}}';
    const m = parseMessage(raw) as any;
    expect(m.params).toEqual({ tags: ['a'] });
    expect(Object.keys(m.params)).toEqual(['tags']);
    expect(({} as any).polluted).toBeUndefined();
    expect(Object.assign({}, m.params).polluted).toBeUndefined();
  });

  it('error codes come from a closed set; anything else becomes E_INTERNAL with a bounded message', () => {
    // The set docs/webview.md publishes to native hosts, pinned here so a change to it is deliberate.
    const published = 'E_NO_HANDLER E_TIMEOUT E_CANCELLED E_DENIED E_UNSUPPORTED E_VERSION E_INTERNAL';
    expect(BRIDGE_ERROR_CODES).toEqual(published.split(' '));
    const denied = parseMessage(json({ ...ok, ok: false, error: { code: 'E_DENIED', message: 'no' } })) as any;
    expect(denied.error).toEqual({ code: 'E_DENIED', message: 'no' });
    const odd = parseMessage(json({ ...ok, ok: false, error: { code: 'EVIL', message: 'm'.repeat(10_000) } })) as any;
    expect(odd.error.code).toBe('E_INTERNAL');
    expect(odd.error.message).toHaveLength(500);
    const missing = parseMessage(json({ ...ok, ok: 'yes' })) as any;
    expect(missing.error).toEqual({ code: 'E_INTERNAL', message: 'host error' });
  });

  it('a host error that is not an object (null, text, a list) becomes E_INTERNAL "host error", never a throw', () => {
    for (const error of [null, 'E_DENIED', ['E_DENIED', 'no'], 7]) {
      const failed = parseMessage(json({ ...ok, ok: false, error })) as any;
      expect(failed.error, JSON.stringify(error)).toEqual({ code: 'E_INTERNAL', message: 'host error' });
    }
  });

  it('envelope(): namespace and version first, then the message, then the nonce, left out when there is none', () => {
    const message = { sid: 's1', id: '1', kind: 'evt', method: 'widget.ready', params: { version: '1' } } as const;
    expect(envelope(message, 'n0')).toBe(
      '{"ns":"hub-embed","v":1,"sid":"s1","id":"1","kind":"evt","method":"widget.ready","params":{"version":"1"},"nonce":"n0"}',
    );
    expect(envelope(message)).toBe(
      '{"ns":"hub-embed","v":1,"sid":"s1","id":"1","kind":"evt","method":"widget.ready","params":{"version":"1"}}',
    );
    expect(parseMessage(envelope(message, 'n0'))).toEqual({ ns: 'hub-embed', v: 1, ...message, nonce: 'n0' });
  });

  it('failure(): the ok:false part of a reply carries the code and the text, as JSON sends them', () => {
    const sent = (reason: unknown) => JSON.parse(JSON.stringify(failure(reason)));
    expect(sent(new BridgeError('E_DENIED', 'signed out'))).toEqual({
      ok: false,
      error: { code: 'E_DENIED', message: 'signed out' },
    });
    expect(sent(new TypeError('x is not a function'))).toEqual({
      ok: false,
      error: { code: 'E_INTERNAL', message: 'x is not a function' },
    });
  });

  it('WithReply errorMessage maps "E_CODE: text" to that code and free text to E_INTERNAL', () => {
    expect(toBridgeError(new Error('E_DENIED: user refused'))).toMatchObject({
      code: 'E_DENIED',
      message: 'user refused',
    });
    expect(toBridgeError(new Error('E_TIMEOUT'))).toMatchObject({ code: 'E_TIMEOUT', message: 'E_TIMEOUT' });
    expect(toBridgeError(new Error('handler deallocated'))).toMatchObject({
      code: 'E_INTERNAL',
      message: 'handler deallocated',
    });
    expect(toBridgeError('plain string')).toMatchObject({ code: 'E_INTERNAL', message: 'plain string' });
  });
});

describe('toScriptLiteral (the U+2028/U+2029 escaping rule)', () => {
  const hostile = `' " \\ \n\r\t \u2028 \u2029 😀 汉字 </script><!-- \u0000`;

  it('escapes U+2028, U+2029 and < so the literal is safe in evaluateJavaScript and inside <script>', () => {
    const literal = toScriptLiteral(json({ text: hostile }));
    expect(literal).not.toMatch(/[\u2028\u2029<]/);
    expect(literal).toContain('\\u2028');
    expect(literal).toContain('\\u2029');
    expect(literal).toContain('\\u003c/script>');
    expect(literal.startsWith('"') && literal.endsWith('"')).toBe(true);
  });

  it('round-trips every character exactly', () => {
    const original = json({ text: hostile });
    expect(JSON.parse(toScriptLiteral(original))).toBe(original);
    expect(JSON.parse(JSON.parse(toScriptLiteral(original))).text).toBe(hostile);
  });
});

describe('run-time shapes of what arrives (methods.ts)', () => {
  it('a result or params that is not an object never passes, whatever it is', () => {
    const notObjects = [undefined, null, 0, 7, true, 'text', [], ['a'], [{ platform: 'x' }]];
    for (const [method, shape] of [...RESULTS, ...HOST_REQUESTS]) {
      for (const value of notObjects) {
        // widget.refresh and form.close take no params: undefined is their "{}".
        const takesNoParams = method === 'widget.refresh' || method === 'form.close';
        if (value === undefined && takesNoParams) continue;
        expect(shape(value), `${method} ${JSON.stringify(value)}`).toBeFalsy();
      }
    }
    expect(RESULTS.get('bridge.hello')!({ platform: 'ios', capabilities: [] })).toBeTruthy();
    expect(RESULTS.get('auth.getToken')!({ access_token: 't', expires_in: 60 })).toBeTruthy();
    expect(RESULTS.get('auth.getToken')!({ access_token: 't', expires_in: '60' })).toBeFalsy();
    expect(RESULTS.get('form.open')!({ handled: false })).toBeTruthy();
    expect(HOST_REQUESTS.get('widget.setTags')!({ tags: ['a'] })).toBeTruthy();
  });

  it('auth.getToken: a token that is a non-empty string, living a finite number of seconds above 0', () => {
    const token = RESULTS.get('auth.getToken')!;
    expect(token({ access_token: 't', expires_in: 0.5 })).toBeTruthy();
    // JSON.parse reads 1e999 as Infinity: a number, but no lifetime.
    for (const expires of [0, -5, '60', null, JSON.parse('1e999'), JSON.parse('-1e999')])
      expect(token({ access_token: 't', expires_in: expires }), String(expires)).toBeFalsy();
    for (const accessToken of ['', 7, null, ['t']])
      expect(token({ access_token: accessToken, expires_in: 60 }), JSON.stringify(accessToken)).toBeFalsy();
  });

  it('the method maps are key-checked: a shape for a method the interface does not have fails the type check', () => {
    // Both maps are built from `satisfies Shapes<…>` lists; a misspelt method is a type error there, as here.
    // @ts-expect-error 'widget.refesh' is not a method of HostToPageRequests
    const misspelt: Shapes<HostToPageRequests> = [['widget.refesh', () => true]];
    const known: Shapes<PageToHostRequests> = [['form.open', () => true]];
    expect([...misspelt, ...known]).toHaveLength(2);
  });

  it('the method maps are complete: a method of the interface without its shape fails the type check', () => {
    type Pair<Method> = readonly [Method, Shape];
    // form.close has no shape: the check is false, and Complete<…> refuses it (as it would in methods.ts).
    type WithoutClose = readonly [Pair<'widget.refresh'>, Pair<'widget.setTags'>];
    expectTypeOf<EveryMethod<HostToPageRequests, WithoutClose>>().toEqualTypeOf<false>();
    type All = readonly [Pair<'widget.refresh'>, Pair<'widget.setTags'>, Pair<'form.close'>];
    expectTypeOf<EveryMethod<HostToPageRequests, All>>().toEqualTypeOf<true>();
    // @ts-expect-error false is not true
    expectTypeOf<Complete<EveryMethod<HostToPageRequests, WithoutClose>>>().toEqualTypeOf<false>();
    // The maps in methods.ts hold a shape for every method of both interfaces.
    expect([...HOST_REQUESTS.keys()].sort()).toEqual(['form.close', 'widget.refresh', 'widget.setTags']);
    expect([...RESULTS.keys()].sort()).toEqual(['auth.getToken', 'bridge.hello', 'form.open']);
  });
});
