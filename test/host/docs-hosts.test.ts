// The Swift and Kotlin hosts of docs/webview.md cannot run here, so they are held to the same wire rules
// as the protocol test vectors by reading them: each checks ns, v, the nonce and the kind before acting,
// answers with the envelope the vectors expect, escapes the three characters that break a script, and
// uses only the protocol's error codes.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import vectors from '../fixtures/bridge-vectors.json' with { type: 'json' };
import { BRIDGE_ERROR_CODES } from '../../src/bridge/index.js';

const doc = readFileSync(new URL('../../docs/webview.md', import.meta.url), 'utf8');

/** All code blocks of one language under a `### heading`, up to the next heading of that level. */
function blocks(heading: string, language: string): string {
  const start = doc.indexOf(`### ${heading}`);
  const end = doc.indexOf('\n### ', start + 4);
  const section = doc.slice(start, end);
  return [...section.matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]).join('\n');
}

const hosts = {
  'iOS (Swift)': {
    code: blocks('iOS (Swift, WKWebView)', 'swift'),
    checks: [
      'm["ns"] as? String == "hub-embed"',
      'm["v"] as? Int == 1',
      'm["nonce"] as? String == nonce',
      'm["kind"] as? String == "req"',
    ],
    escapes: ['"\\u{2028}", with: "\\\\u2028"', '"\\u{2029}", with: "\\\\u2029"', '"<", with: "\\\\u003c"'],
    externalLinks: ['createWebViewWith', 'SFSafariViewController', 'decidePolicyFor'],
  },
  'Android (Kotlin)': {
    code: blocks('Android (Kotlin)', 'kotlin'),
    checks: [
      'optString("ns") != "hub-embed"',
      'optInt("v") != 1',
      'optString("nonce") != nonce',
      'optString("kind") != "req"',
    ],
    escapes: ['replace("\\u2028", "\\\\u2028")', 'replace("\\u2029", "\\\\u2029")', 'replace("<", "\\\\u003c")'],
    externalLinks: ['onCreateWindow', 'shouldOverrideUrlLoading', 'CustomTabsIntent'],
  },
};

describe('docs/webview.md native hosts follow the protocol test vectors', () => {
  for (const [name, host] of Object.entries(hosts)) {
    describe(name, () => {
      it('drops a message unless ns, v, this load’s nonce and kind all match (the vectors’ drop cases)', () => {
        expect(host.code.length).toBeGreaterThan(500);
        for (const check of host.checks) expect(host.code).toContain(check);
      });

      it('makes a random nonce per load and puts it in the marker', () => {
        expect(host.code).toMatch(/UUID\(\)\.uuidString|UUID\.randomUUID\(\)/);
        expect(host.code).toMatch(/__HUB_EMBED_BRIDGE__=\{transport:'(webkit|android)',v:1,nonce:/);
      });

      it('answers with the vectors’ envelope: ns, v, sid, id, kind res, ok, and the nonce', () => {
        for (const key of Object.keys(vectors.hello.reply)) expect(host.code, key).toContain(`"${key}"`);
        expect(host.code).toContain('"res"');
      });

      it('escapes U+2028, U+2029 and < in what it evaluates', () => {
        for (const escape of host.escapes) expect(host.code).toContain(escape);
      });

      it('answers an unknown method E_NO_HANDLER and uses no code outside the protocol', () => {
        expect(host.code).toContain('E_NO_HANDLER');
        const codes = new Set(host.code.match(/\bE_[A-Z_]+\b/g));
        for (const code of codes) expect(BRIDGE_ERROR_CODES as readonly string[]).toContain(code);
      });

      it('sends links that leave the widget out of the WebView', () => {
        for (const api of host.externalLinks) expect(host.code).toContain(api);
      });
    });
  }

  // That the page really waits for the marker is test/hosts/react-native.test.ts's Android case.
  it('says that React Native’s injected object is readable by every frame and carries no nonce', () => {
    expect(doc).toContain('window.ReactNativeWebView.injectedObjectJson()');
    expect(doc).toContain('hubEmbedMarker: true');
    expect(doc).not.toContain('hubEmbedNonce');
  });
});
