// The native hosts of docs/webview.md are files (examples/ios, examples/android, examples/flutter), and the
// docs quote them exactly. The Kotlin protocol runs on a JVM against every vector
// (test/native-hosts/android/kotlin-vectors.test.ts). No Swift or Dart toolchain installs from Debian or npm, so the
// Swift and Dart files, and every platform glue file, are held to the same rules here by reading them:
// each rule below is one the vectors or the hardening issues name, checked in the real file.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import vectors from '../fixtures/bridge-vectors.json' with { type: 'json' };
import { BRIDGE_ERROR_CODES } from '../../src/bridge/index.js';
import { withRegions } from '../../scripts/doc-regions.mjs';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const doc = read('docs/webview.md');

/** Names of the page-to-host events, from the one event map. */
const EVENTS = [...read('src/bridge/methods.ts').matchAll(/^ {2}'([a-z]+\.[a-zA-Z]+)': /gm)]
  .map((m) => m[1]!)
  .filter((name) =>
    ['widget.', 'table.', 'tags.', 'form.opened', 'form.closed', 'form.message'].some((p) => name.startsWith(p)),
  )
  .filter((name) => !['widget.refresh', 'widget.setTags'].includes(name));
/** The navigation rules of hub-embed/host, as the regular expressions and schemes navigation.ts uses. */
const navigation = read('src/host/navigation.ts');
const NAV_PATTERNS = [
  /const match = \/(.+?)\/i\.exec/.exec(navigation)![1]!.replaceAll('\\/', '/'),
  /if \(!\/(.+?)\/\.test\(authority\)/.exec(navigation)![1]!,
];
const BLOCKED = JSON.parse(
  /BLOCKED_SCHEMES = new Set\((\[.+?\])\)/.exec(navigation)![1]!.replaceAll("'", '"'),
) as string[];

/** The reasons a host reports for each drop case of the vectors. */
const DROP_REASONS = [...new Set(vectors.cases.flatMap((v) => ('drop' in v && v.drop ? [v.drop] : [])))];
/** Reasons that name the event: the host writes them with the name filled in. */
const EVENT_REASONS = ['bad params: ', 'unknown event '];

/** What src/host/event-shapes.ts checks of each event's params: each text and its longest length. */
const shapes = read('src/host/event-shapes.ts');
const TEXTS = [...shapes.matchAll(/\btext\(params\.(\w+)(?:, (\d+))?\)/g)].map(
  (m) => [m[1]!, Number(m[2] ?? 500)] as const,
);
const TAGS =
  /Array\.isArray\(params\.tags\) && params\.tags\.length <= (\d+) && params\.tags\.every\(\(tag\) => text\(tag, (\d+)\)\)/
    .exec(shapes)!
    .slice(1)
    .map(Number) as [number, number];

const protocols = {
  'Kotlin (examples/android/HubEmbedProtocol.kt)': {
    code: read('examples/android/HubEmbedProtocol.kt'),
    checks: [
      'm.opt("ns") != "hub-embed"',
      '!isOne(m.opt("v"))',
      'if (m.opt("nonce") != nonce) return onRejected("nonce")',
      'kind == "req" || kind == "evt"',
      'id.length > 64',
      'sid !in sessions',
    ],
    rejects: (reason: string) => `onRejected("${reason}")`,
    name: '$name',
    text: (key: string, max: number) => (max === 500 ? `text(p, "${key}")` : `text(p, "${key}", ${max})`),
    tags: ([count, max]: [number, number]) => `strings(p.opt("tags"), ${count}, ${max})`,
    optional: ['if (!p.has("locale")) HubEvent.Ready(version)', 'takeIf { p.has("data") }'],
    selection: [
      'selection = tags.toList()',
      'if (event is HubEvent.TagsChanged) selection = event.tags',
      'selection?.let { setTags(it) }',
    ],
    parseNeverThrows: ['catch (error: JSONException)', 'catch (error: StackOverflowError)'],
    tokenRequest: [
      'data class HubTokenRequest(val reason: String, val previous: String? = null)',
      '"unauthorized" -> "unauthorized"',
      '"expiring", "expired" -> "expiring"',
      'else -> "initial"',
      'takeIf { reason != "initial" && it.length <= 4096 }',
      'tokens(tokenRequest(p))',
    ],
    escapes: ['replace("\\u2028", "\\\\u2028")', 'replace("\\u2029", "\\\\u2029")', 'replace("<", "\\\\u003c")'],
  },
  'Swift (examples/ios/HubEmbedProtocol.swift)': {
    code: read('examples/ios/HubEmbedProtocol.swift'),
    checks: [
      'm["ns"] as? String == "hub-embed"',
      'CFGetTypeID(v) != CFBooleanGetTypeID(), v.doubleValue == 1',
      'guard m["nonce"] as? String == nonce else { return onRejected("nonce") }',
      'kind == "req" || kind == "evt"',
      'id.utf16.count <= 64',
      'guard hello || sessions.contains(sid)',
    ],
    rejects: (reason: string) => `onRejected("${reason}")`,
    name: '\\(name)',
    text: (key: string, max: number) => (max === 500 ? `text(p["${key}"])` : `text(p["${key}"], ${max})`),
    tags: ([count, max]: [number, number]) => `strings(p["tags"], count: ${count}, max: ${max})`,
    optional: ['if p["locale"] == nil { return .ready(version: version, locale: nil) }', 'let data = p["data"]'],
    selection: [
      'selection = tags\n',
      'if case .tagsChanged(let tags) = event { selection = tags }',
      'if let selection { setTags(selection) }',
    ],
    parseNeverThrows: ['let value = try? JSONSerialization.jsonObject'],
    tokenRequest: [
      'struct HubTokenRequest: Equatable { let reason: String; let previous: String? }',
      'case "unauthorized": reason = "unauthorized"',
      'case "expiring", "expired": reason = "expiring"',
      'default: reason = "initial"',
      'reason != "initial" && $0.utf16.count <= 4096 ? $0 : nil',
      'try await getToken(Self.tokenRequest(p))',
    ],
    escapes: ['"\\u{2028}", with: "\\\\u2028"', '"\\u{2029}", with: "\\\\u2029"', '"<", with: "\\\\u003c"'],
  },
  'Dart (examples/flutter/lib/hub_embed_protocol.dart)': {
    code: read('examples/flutter/lib/hub_embed_protocol.dart'),
    checks: [
      "m['ns'] != 'hub-embed'",
      "m['v'] != 1",
      "if (m['nonce'] != nonce) return onRejected?.call('nonce')",
      "kind == 'req' || kind == 'evt'",
      'id.length > 64',
      '!_sessions.contains(sid)',
    ],
    rejects: (reason: string) => `onRejected?.call('${reason}')`,
    name: '$name',
    text: (key: string, max: number) => (max === 500 ? `_text(p['${key}'])` : `_text(p['${key}'], ${max})`),
    tags: ([count, max]: [number, number]) => `_strings(p['tags'], ${count}, ${max})`,
    optional: [
      "p.containsKey('locale')",
      '(final String version, false, _) => WidgetReady(version)',
      "p.containsKey('data')",
    ],
    selection: [
      '_selection = List.unmodifiable(tags);',
      'if (event is TagsChanged) _selection = event.tags;',
      'if (selection != null) unawaited(setTags(selection));',
    ],
    parseNeverThrows: ['m = jsonDecode(raw);\n    } catch (_) {'],
    tokenRequest: [
      'const HubTokenRequest(this.reason, [this.previous]);',
      "'unauthorized' => 'unauthorized',",
      "'expiring' || 'expired' => 'expiring',",
      "_ => 'initial',",
      "reason != 'initial' && previous is String && previous.length <= 4096 ? previous : null",
      'await getToken!(HubTokenRequest.fromParams(p))',
    ],
    escapes: [`replaceAll('\\u2028', r'\\u2028')`, `replaceAll('\\u2029', r'\\u2029')`, `replaceAll('<', r'\\u003c')`],
  },
};

describe('docs/webview.md quotes the native host files exactly', () => {
  it('every `<!-- from: file#region -->` block equals its region of the file', () => {
    expect(doc.match(/<!-- from: examples\/(ios|android|flutter)\//g)?.length).toBeGreaterThanOrEqual(8);
    expect(withRegions(doc)).toBe(doc);
  });

  it('the native hosts section has no code block that is not from a file', () => {
    const start = doc.indexOf('## Native hosts');
    const section = doc.slice(start, doc.indexOf('### React Native', start));
    const blocks = section.match(/^```\w+$/gm) ?? [];
    const quoted = section.match(/^<!-- from: .+ -->\n```\w+$/gm) ?? [];
    expect(blocks.length).toBe(quoted.length);
    const flutter = doc.slice(doc.indexOf('### Flutter'), doc.indexOf('### WeChat'));
    expect((flutter.match(/^```dart$/gm) ?? []).length).toBe(
      (flutter.match(/^<!-- from: .+ -->\n```dart$/gm) ?? []).length,
    );
  });

  it('says which hosts run against the vectors and which are only read', () => {
    expect(doc).toMatch(/Android \(Kotlin\).+\*\*Run\.\*\*/);
    expect(doc).toMatch(/iOS \(Swift\).+\*\*Read\.\*\* No Swift toolchain installs from Debian or npm/);
    expect(doc).toMatch(/Flutter \(Dart\).+\*\*Read\*\*.+no Dart SDK from Debian or npm/);
  });
});

describe('native host protocol files follow the protocol test vectors', () => {
  for (const [name, host] of Object.entries(protocols)) {
    describe(name, () => {
      it('drops a message unless ns, v, this load’s nonce, kind, id and session all match (the vectors’ drop cases)', () => {
        for (const check of host.checks) expect(host.code).toContain(check);
        for (const reason of DROP_REASONS) {
          const named = EVENT_REASONS.find((start) => reason.startsWith(start));
          // `onRejected("bad params: ` and the host's own way of adding the name.
          expect(host.code, reason).toContain(named ? host.rejects(named).slice(0, -2) : host.rejects(reason));
        }
        // The order of the kernel: parse (foreign, malformed), then the nonce, then the session.
        const at = (reason: string) => host.code.indexOf(host.rejects(reason));
        expect(at('foreign')).toBeLessThan(at('nonce'));
        expect(at('nonce')).toBeLessThan(at('sid'));
      });

      it('the marker sets itself only in a document of the widget origin: no other page learns the nonce', () => {
        expect(host.code).toMatch(/["']if\(location\.origin===(\$\{|\\\()(Self\.)?scriptLiteral\(widgetOrigin\)/);
        expect(host.code).toContain('window.__HUB_EMBED_BRIDGE__=JSON.parse(');
      });

      it('hands the app’s getToken the reason (initial, expiring, unauthorized) and previous, as the vectors’ getToken cases say', () => {
        const reasons = new Set(
          vectors.cases.flatMap((v) => ('getToken' in v && v.getToken ? [v.getToken.reason] : [])),
        );
        expect([...reasons].sort()).toEqual(['expiring', 'initial', 'unauthorized']);
        expect(vectors.cases.some((v) => 'getToken' in v && v.getToken && 'previous' in v.getToken)).toBe(true);
        for (const line of host.tokenRequest) expect(host.code).toContain(line);
        // The page never sends `expired` now: a host that hands the app only initial/expired loses `unauthorized`.
        expect(host.code).not.toMatch(/["']expired["'] \? ["']expired["']/);
      });

      it('survives malformed JSON: parsing never throws, it drops the text as malformed', () => {
        for (const line of host.parseNeverThrows) expect(host.code).toContain(line);
      });

      it('answers with the vectors’ envelope: ns, v, sid, id, kind res, ok, result or error, and the nonce', () => {
        for (const key of Object.keys(vectors.hello.reply))
          expect(host.code, key).toMatch(new RegExp(`["']${key}["']`));
        for (const key of Object.keys(vectors.hello.reply.result))
          expect(host.code, key).toMatch(new RegExp(`["']${key}["']`));
        for (const key of Object.keys(vectors.host.token)) expect(host.code, key).toMatch(new RegExp(`["']${key}["']`));
        expect(host.code).toMatch(/["']res["']/);
        expect(host.code).toMatch(/["']error["']/);
      });

      it('escapes U+2028, U+2029 and < in what it evaluates', () => {
        for (const escape of host.escapes) expect(host.code).toContain(escape);
        expect(host.code).toContain('window.__hubEmbedReceive&&window.__hubEmbedReceive(');
      });

      it('answers the vectors’ errors and uses no code outside the protocol', () => {
        for (const vector of vectors.cases) if ('error' in vector) expect(host.code).toContain(vector.error);
        for (const code of new Set(host.code.match(/\bE_[A-Z_]+\b/g)))
          expect(BRIDGE_ERROR_CODES as readonly string[]).toContain(code);
      });

      it('hands every event of the event map to the app, typed, and refuses other shapes', () => {
        expect(EVENTS).toHaveLength(7);
        for (const event of EVENTS)
          expect(host.code, event).toMatch(new RegExp(`["']${event.replace('.', '\\.')}["']`));
        expect(host.code).toContain(host.rejects(`bad params: ${host.name}`));
        expect(host.code).toContain(host.rejects('unknown event ').slice(0, -2));
      });

      it('checks each event’s params as hub-embed/host does (src/host/event-shapes.ts): every text’s length, the tags, what may be absent', () => {
        expect(TEXTS.length).toBeGreaterThanOrEqual(9);
        for (const [key, max] of TEXTS) expect(host.code, `${key} ≤ ${max}`).toContain(host.text(key, max));
        expect(TAGS).toEqual([100, 200]);
        expect(host.code).toContain(host.tags(TAGS));
        for (const line of host.optional) expect(host.code).toContain(line);
      });

      it('keeps the selection (the user’s tags.changed, the app’s setTags) and sends it to each new session after the hello’s answer', () => {
        for (const line of host.selection) expect(host.code).toContain(line);
        const restore = host.selection.at(-1)!;
        expect(host.code.indexOf(restore)).toBeGreaterThan(host.code.search(/["']config["']/));
      });

      it('asks the page (widget.setTags, widget.refresh, form.close) and settles each with the page’s answer', () => {
        for (const method of ['widget.setTags', 'widget.refresh', 'form.close']) expect(host.code).toContain(method);
        expect(host.code).toContain('E_TIMEOUT');
        expect(host.code).toContain('the page loaded again');
        expect(host.code).toContain(host.rejects('no such request'));
      });

      it('keeps navigation to allowed origins with the rules of hub-embed/host', () => {
        for (const pattern of NAV_PATTERNS) expect(host.code).toContain(pattern);
        for (const scheme of BLOCKED) expect(host.code).toMatch(new RegExp(`["']${scheme}["']`));
        expect(host.code).toMatch(/about:blank/);
      });
    });
  }
});

describe('the Swift and Dart protocol files are twins of the Kotlin one, which runs every vector', () => {
  /** Each error a file answers ("E_DENIED: no signed-in user"), interpolations written {}. */
  const answers = (code: string) =>
    new Set(
      [...code.matchAll(/["'](E_[A-Z_]+)["'],\s*(?:message:\s*)?["']([^"']+)["']/g)]
        .filter((m) => !m[2]!.startsWith('E_'))
        .map((m) => `${m[1]}: ${m[2]!.replace(/\\\(\w+\)|\$\{\w+\}|\$\w+/g, '{}')}`),
    );
  /** Each reason a file drops with, the event's name it fills in written {}. */
  const reasons = (code: string) =>
    new Set(
      [...code.matchAll(/onRejected(?:\?\.call)?\(["']([^"']+)["']\)/g)].map((m) =>
        m[1]!.replace(/\\\(.*\)$|\$\{.*\}$|\$\w+$/, '{}'),
      ),
    );
  const [kotlin, ...others] = Object.values(protocols).map((host) => host.code);

  it('answers the same errors with the same messages, and drops with the same reasons', () => {
    expect(answers(kotlin!).size).toBeGreaterThanOrEqual(7);
    expect(reasons(kotlin!)).toContain('bad params: {}');
    expect(reasons(kotlin!)).toContain('unknown event {}');
    for (const code of others) {
      expect(answers(code)).toEqual(answers(kotlin!));
      expect(reasons(code)).toEqual(reasons(kotlin!));
    }
  });
});

describe('native host glue files', () => {
  it('Android: marker and listener for the widget origin only; the JavascriptInterface fallback gets the nonce too', () => {
    const code = read('examples/android/HubEmbedWebView.kt');
    expect(code).toContain(
      'WebViewCompat.addDocumentStartJavaScript(view, protocol.marker(widgetOrigin), setOf(widgetOrigin))',
    );
    expect(code).toContain('addWebMessageListener(view, "hubEmbed", setOf(widgetOrigin))');
    expect(code).toContain('isMainFrame && sourceOrigin.toString() == widgetOrigin');
    // Without document-start scripts, the marker (with the nonce) still reaches the widget page.
    expect(code).toContain(
      'if (!atDocumentStart && onWidget) view.evaluateJavascript(protocol.marker(widgetOrigin), null)',
    );
    expect(code).toContain('protocol.announce()');
    expect(code).toMatch(
      /main\.post \{ if \(onWidget && view == webView && HubEmbedNavigation\.originOf\(view\.url \?: ""\) == widgetOrigin\) protocol\.receive\(json\) \}/,
    );
    expect(code).toContain('protocol.reload()');
    expect(code).toContain('HubEmbedNavigation.decide(request.url.toString(), allowedOrigins)');
    expect(code).toContain('onCreateWindow');
    expect(code).toContain('CustomTabsIntent');
    expect(code).toMatch(/host\.setTags\(listOf\("HR"\)\) \{ answer ->/);
    expect(code).toContain('is HubEvent.TagsChanged -> api.saveFilter(event.tags)');
    expect(code).toContain('getToken: (request: HubTokenRequest, done: (HubToken?) -> Unit) -> Unit,');
    expect(code).toContain('api.hubToken(request.reason, request.previous)');
  });

  it('Android: a renderer that dies is handled (true), and a new WebView in its place loads the page again', () => {
    const code = read('examples/android/HubEmbedWebView.kt');
    // Every WebViewClient of the app, the probe's too: one that is not would take the app down.
    const handlers = [
      ...code.matchAll(
        /override fun onRenderProcessGone\((\w+): WebView, detail: RenderProcessGoneDetail\): Boolean \{([\s\S]*?)\n\s*\}/g,
      ),
    ];
    expect(handlers).toHaveLength(2);
    for (const [, , body] of handlers) {
      expect(body).toContain('return true');
      expect(body).not.toContain('return false');
    }
    expect(code).toContain('if (view == webView) replaceDeadWebView(view) else view.destroy()');
    const replace = code.slice(code.indexOf('private fun replaceDeadWebView'));
    for (const step of [
      'protocol.reload()',
      'parent?.removeView(dead)',
      'dead.destroy()',
      'webView = fresh',
      'parent.addView(fresh, index, layout)',
      'url?.let { load(it) }',
    ])
      expect(replace, step).toContain(step);
    // Set up once per WebView: the new one gets the marker, the listener and the clients too.
    expect(code).toContain('if (setUpFor != webView) setUp(webView)');
  });

  it('iOS: marker at document start in the main frame; messages from the widget origin’s main frame only', () => {
    const code = read('examples/ios/HubEmbedWebView.swift');
    expect(code).toContain(
      'WKUserScript(source: protocolHost.marker(widgetOrigin: widgetOrigin), injectionTime: .atDocumentStart, forMainFrameOnly: true)',
    );
    expect(code).toContain('frame.isMainFrame, HubEmbedNavigation.originOf(from) == widgetOrigin');
    expect(code).toContain('didStartProvisionalNavigation navigation: WKNavigation!) { protocolHost.reload() }');
    expect(code).toContain('HubEmbedNavigation.decide(url.absoluteString, allowedOrigins: allowedOrigins)');
    expect(code).toContain('createWebViewWith');
    expect(code).toContain('return nil');
    expect(code).toContain('SFSafariViewController');
    expect(code).toContain('removeScriptMessageHandler(forName: "hubEmbed")');
    expect(code).toContain('host.setTags(["HR"])');
    expect(code).toContain('case .tagsChanged(let tags): api.saveFilter(tags)');
    expect(code).toContain('api.hubToken(reason: request.reason, previous: request.previous)');
  });

  it('iOS: a web content process that ends loads the page again', () => {
    const code = read('examples/ios/HubEmbedWebView.swift');
    expect(code).toMatch(
      /func webViewWebContentProcessDidTerminate\(_ webView: WKWebView\) \{\n\s+protocolHost\.reload\(\)\n\s+if webView\.url != nil \{ webView\.reload\(\) \} else if let lastURL \{ load\(lastURL\) \}/,
    );
    expect(code).toContain('WKNavigationDelegate');
    expect(code).toContain('webView.navigationDelegate = self');
  });

  // Issue 35 item 3: the Flutter host gave the user's token to any page the WebView went to.
  describe('Flutter: marker and answers only on the widget’s origin, navigation kept to allowed origins', () => {
    const view = read('examples/flutter/lib/hub_embed_view.dart');
    const protocol = read('examples/flutter/lib/hub_embed_protocol.dart');

    it('the marker sets itself only in a document of the widget origin, injected at onPageStarted and again at onPageFinished', () => {
      expect(protocol).toContain("return 'if(location.origin===${scriptLiteral(widgetOrigin)})'");
      expect(view).toMatch(
        /onPageStarted: \(url\) \{\n\s+protocol\.reload\(\);\n\s+if \(HubEmbedNavigation\.originOf\(url\) == widgetOrigin\) _run\(protocol\.marker\(widgetOrigin\)\);/,
      );
      expect(view).toMatch(
        /onPageFinished: \(url\) async \{\n\s+if \(!await _onWidget\(\)\) return;\n\s+_run\(protocol\.marker\(widgetOrigin\)\);/,
      );
      expect(view).toContain('protocol.announce();');
    });

    it('receives only while the current page is on the widget origin, and every script it runs checks the origin', () => {
      expect(view).toContain(
        "..addJavaScriptChannel('hubEmbed', onMessageReceived: (message) => _receive(message.message))",
      );
      expect(view).toContain('if (await _onWidget()) protocol.receive(text);');
      expect(view).toContain("HubEmbedNavigation.originOf(await controller.currentUrl() ?? '') == widgetOrigin");
      expect(view).toContain("controller.runJavaScript('if(location.origin===$origin){$script}');");
      expect(view).toContain('send: (script) => _run(script)');
      // Nothing else runs scripts in the page.
      expect(view.match(/runJavaScript\(/g)).toHaveLength(1);
    });

    it('the main frame stays on the widget’s and the form site’s origins; other links leave', () => {
      expect(view).toContain('onNavigationRequest: _decide');
      expect(view).toContain('}) : allowedOrigins = {widgetOrigin, formOrigin}');
      expect(view).toContain('switch (HubEmbedNavigation.decide(request.url, allowedOrigins))');
      expect(view).toMatch(
        /case NavigationChoice\.external:\n\s+launchUrl\(Uri\.parse\(request\.url\), mode: LaunchMode\.externalApplication\);\n\s+return NavigationDecision\.prevent;/,
      );
      expect(view).toMatch(/case NavigationChoice\.blocked:\n\s+return NavigationDecision\.prevent;/);
    });

    it('shows one host request with its answer', () => {
      expect(view).toContain("final answer = await host.setTags(['HR']);");
      expect(view).toContain('TagsChanged(:final tags) => widget.api.saveFilter(tags)');
      expect(view).toContain('required Future<HubToken?> Function(HubTokenRequest request) getToken,');
      expect(view).toContain('widget.api.hubToken(request.reason, request.previous)');
    });

    it('an iOS web content process that ends loads the page again', () => {
      expect(view).toMatch(
        /onWebResourceError: \(error\) \{[\s\S]*?if \(error\.errorType == WebResourceErrorType\.webContentProcessTerminated\) \{\n\s+protocol\.reload\(\);\n\s+controller\.reload\(\);/,
      );
    });
  });
});

// That the page really reads it is test/native-hosts/react-native.test.ts's Android case.
it('docs/webview.md says where the page reads the early carrier hubEmbedNonce', () => {
  expect(doc).toContain('window.ReactNativeWebView.injectedObjectJson()');
});

describe('page snippets carry a viewport meta (iOS lays a page without one out at 980 px)', () => {
  const VIEWPORT = '<meta name="viewport" content="width=device-width, initial-scale=1">';
  const pages = {
    'docs/webview.md': doc,
    'examples/wechat/README.md': read('examples/wechat/README.md'),
  };
  for (const [file, text] of Object.entries(pages)) {
    it(file, () => {
      const blocks = [...text.matchAll(/```html\n([\s\S]*?)```/g)].map((m) => m[1]!);
      const pageBlocks = blocks.filter((block) => /<hub-embed|<script|<html/i.test(block));
      expect(pageBlocks.length).toBeGreaterThan(0);
      for (const block of pageBlocks) expect(block).toContain(VIEWPORT);
    });
  }
});

describe('docs/webview.md on React Native’s injected object', () => {
  // That the page really waits for the marker is test/native-hosts/react-native.test.ts's Android case.
  it('says that React Native’s injected object is readable by every frame and carries no nonce', () => {
    expect(doc).toContain('window.ReactNativeWebView.injectedObjectJson()');
    expect(doc).toContain('hubEmbedMarker: true');
    expect(doc).not.toContain('hubEmbedNonce');
  });
});

// Issue 44 item 8: a developer searches the docs for what the widget shows.
it('docs/webview.md quotes the no-host text exactly as the widget shows it, in each language', () => {
  const texts = [...read('src/components/strings.ts').matchAll(/'no-host': '([^']+)'/g)].map((m) => m[1]!);
  expect(texts).toHaveLength(2);
  for (const text of texts) expect(doc).toContain(`"${text}"`);
});
