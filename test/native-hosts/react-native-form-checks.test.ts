// The native form's checks on their own (src/react-native/form-checks.ts): which URLs may fill the screen in
// the form Modal, and which of the form WebView's messages come from its relay.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isFormUrl, readFormMessage } from '../../src/react-native/form-checks.js';

describe('form-checks: the form Modal', () => {
  const allowed = ['https://forms.example', 'http://127.0.0.1:8080', 'http://intranet.example'];
  const cases: Array<[string, boolean]> = [
    ['https://forms.example/abc?token=t', true],
    ['HTTPS://FORMS.EXAMPLE:443/abc', true],
    ['http://127.0.0.1:8080/abc', true],
    // Allowed, but plain http off loopback: the token would travel in the clear.
    ['http://intranet.example/abc', false],
    ['http://forms.example/abc', false],
    ['https://forms.example.evil.com/abc', false],
    ['https://forms.example@evil.com/abc', false],
    ['https://evil.example/abc', false],
    ['data:text/html,<h1>Sign in</h1>', false],
    ['javascript:alert(1)', false],
    ['about:blank', false],
  ];
  for (const [url, ok] of cases) {
    it(`${JSON.stringify(url)} ${ok ? 'may' : 'may not'} fill the screen`, () => {
      assert.equal(isFormUrl(url, allowed), ok);
    });
  }

  it('a message counts only with the relay’s nonce and the form’s origin', () => {
    const post = (message: unknown) => JSON.stringify(message);
    const origin = 'https://forms.example';
    assert.deepEqual(readFormMessage(post({ hubEmbedForm: 'n1', origin, data: { ok: true } }), 'n1', origin), {
      value: { ok: true },
    });
    assert.equal(readFormMessage(post({ hubEmbedForm: 'n2', origin, data: 1 }), 'n1', origin), undefined);
    assert.equal(
      readFormMessage(post({ hubEmbedForm: 'n1', origin: 'https://evil.example', data: 1 }), 'n1', origin),
      undefined,
    );
    assert.equal(readFormMessage(post({ data: 1 }), 'n1', origin), undefined);
    assert.equal(readFormMessage('not json', 'n1', origin), undefined);
    assert.equal(readFormMessage({ hubEmbedForm: 'n1' }, 'n1', origin), undefined);
  });
});
