// Bridge protocol v1 (docs/webview.md), the host side, in plain Dart (dart:convert, dart:math, dart:async;
// no Flutter import), so it could run under `dart test` anywhere; hub_embed_view.dart is the webview_flutter
// glue around it. No Dart SDK installs from Debian or npm, so CI holds this file to the protocol test
// vectors (test/fixtures/bridge-vectors.json) by reading it (test/host/docs-hosts.test.ts), rule by rule;
// its Kotlin twin (examples/android/HubEmbedProtocol.kt) runs every vector on a JVM.
import 'dart:async';
import 'dart:convert';
import 'dart:math';

// #region dart-protocol-api
/// What the widget page tells the app, each with its documented params (src/bridge/methods.ts).
sealed class HubEvent {}

/// [locale] is the widget's language (`zh-CN` or `en`), for your own controls; null from older pages.
class WidgetReady extends HubEvent { WidgetReady(this.version, [this.locale]); final String version; final String? locale; }
class TableSelected extends HubEvent { TableSelected(this.shortCode, this.name); final String shortCode, name; }
/// The user changed the selection in the page (a chip, or "show all": no tags); never for your own setTags.
class TagsChanged extends HubEvent { TagsChanged(this.tags); final List<String> tags; }
class FormOpened extends HubEvent { FormOpened(this.shortCode, this.handledBy); final String shortCode, handledBy; }
class FormClosed extends HubEvent { FormClosed(this.shortCode); final String shortCode; }
class WidgetError extends HubEvent { WidgetError(this.kind, this.message); final String kind, message; }
/// What the form page posted to the widget: any JSON value.
class FormMessage extends HubEvent { FormMessage(this.shortCode, this.data); final String shortCode; final Object? data; }

class HubToken { const HubToken(this.accessToken, this.expiresIn); final String accessToken; final int expiresIn; }

/// Why the page needs a token: `initial`; `expiring` (the token is about to expire); `unauthorized` (the
/// service refused [previous] before its time: get a new one from your server, never the cached one).
/// [previous] is the token being replaced, with `expiring` and `unauthorized` only.
class HubTokenRequest {
  const HubTokenRequest(this.reason, [this.previous]);
  final String reason;
  final String? previous;

  /// The page's auth.getToken params as the app gets them, as hub-embed/host reads them: pages before 0.2
  /// said `expired`, read as `expiring`; anything else unknown is `initial`. A previous token is passed on
  /// only with a later reason, and only as a string of at most 4,096 characters.
  factory HubTokenRequest.fromParams(Map<String, Object?>? p) {
    final reason = switch (p?['reason']) {
      'unauthorized' => 'unauthorized',
      'expiring' || 'expired' => 'expiring',
      _ => 'initial',
    };
    final previous = p?['previous'];
    return HubTokenRequest(reason, reason != 'initial' && previous is String && previous.length <= 4096 ? previous : null);
  }
}

/// The page's answer to a host request: [result] when [ok], else a protocol error [code] and its message.
class PageAnswer {
  const PageAnswer.ok(this.result) : ok = true, code = null, message = null;
  const PageAnswer.failed(String this.code, String this.message) : ok = false, result = null;
  final bool ok;
  final Object? result;
  final String? code, message;
}

class HubEmbedProtocol {
  HubEmbedProtocol({
    required this.platform,
    required this.send,
    String? nonce,
    this.getToken,
    this.openForm,
    this.onEvent,
    this.onRejected,
    this.onPageForm,
    this.timeout = const Duration(seconds: 10),
  }) : _nonce = nonce ?? randomNonce();

  final String platform;
  /// This load's nonce, put into the marker; the page stamps it on every message. Every reload() draws a
  /// fresh one.
  String get nonce => _nonce;
  String _nonce;
  /// Supplies the user's token; null when nobody is signed in (E_DENIED).
  /// Pass the request's reason and previous on to your server: with `unauthorized` it must drop `previous`.
  final Future<HubToken?> Function(HubTokenRequest request)? getToken;
  /// Opens the form natively and returns true, or false to let the page open it itself.
  final bool Function(String shortCode, String url)? openForm;
  final void Function(HubEvent event)? onEvent;
  /// Each dropped message and why: foreign, malformed, nonce, sid, too large, no such request, and for events
  /// "unknown event <name>" or "bad params: <name>" (the reasons of hub-embed/host's kernel).
  final void Function(String reason)? onRejected;
  /// Whether the page's own form is open now ([pageForm]), each time it changes: Android's back closes it.
  final void Function(bool open)? onPageForm;
  /// Delivers a script to the widget page's main frame (runJavaScript).
  final void Function(String script) send;
  final Duration timeout;
// #endregion dart-protocol-api

  static const maxMessageChars = 4 * 1024 * 1024;
  static const errorCodes = {'E_NO_HANDLER', 'E_TIMEOUT', 'E_CANCELLED', 'E_DENIED', 'E_UNSUPPORTED', 'E_VERSION', 'E_INTERNAL'};

  List<String> _sessions = [];
  final _cancelled = <String>{};
  /// Host requests by id, oldest first (a Dart map keeps insertion order); `sid` is null while one waits for
  /// a page to say hello.
  final _waiting = <String, _Waiting>{};
  var _counter = 0;
  /// Bumped by every reload: an answer the app gives after the page went away is not sent to the new page.
  var _load = 0;

  /// The selection the widget shows: the user's last one in the page (TagsChanged) or the app's last
  /// setTags; null until either. Each page session gets it as it says hello, so a page that loaded again (a
  /// reload, a content process that died) shows what the user chose, as <HubEmbedView> does.
  List<String>? get selection => _selection;
  List<String>? _selection;

  /// Whether the page said its own form is open (FormOpened handledBy page): Android's back closes it first.
  bool get pageForm => _pageForm;
  var _pageForm = false;
  set _formOpen(bool open) {
    if (open == _pageForm) return;
    _pageForm = open;
    onPageForm?.call(open);
  }
  /// Whether a page's FormOpened was believed since the user last touched the view: one per touch.
  var _formBelieved = false;

  /// The marker script, with this load's nonce or [nonce] (a document-start marker armed for the next
  /// load). It sets the marker only in a document of [widgetOrigin]: a script run while the previous page
  /// is still shown (iOS's onPageStarted) or in another origin's frame finds another origin there and sets
  /// nothing.
  String marker(String widgetOrigin, {String transport = 'android', String? nonce}) {
    final json = jsonEncode({'transport': transport, 'v': 1, 'nonce': nonce ?? this.nonce});
    return 'if(location.origin===${scriptLiteral(widgetOrigin)})'
        'window.__HUB_EMBED_BRIDGE__=JSON.parse(${scriptLiteral(json)});true;';
  }

  /// A new page started: a fresh nonce (the marker injected for this load carries it), or [nonce], the one
  /// a document-start marker fixed before the load; its sessions forgotten, what the old page was asked
  /// failed. Requests still waiting for a hello keep waiting, for the new page's.
  void reload([String? nonce]) {
    _load++;
    _nonce = nonce ?? randomNonce();
    _formOpen = false; // a page that loads again has no form open
    _sessions = [];
    _cancelled.clear();
    final asked = {for (final entry in _waiting.entries) if (entry.value.sid != null) entry.key: entry.value};
    for (final id in asked.keys) _waiting.remove(id);
    for (final call in asked.values) {
      call.timer.cancel();
      call.done(const PageAnswer.failed('E_CANCELLED', 'the page loaded again'));
    }
  }

  /// Tells a page whose marker came late to look for the host again and say hello.
  void announce() => _deliver({'sid': '', 'id': 'ready', 'kind': 'evt', 'method': 'bridge.ready'});

  // #region dart-receive
  /// One string the page posted. Never throws: whatever is not this load's v1 message is dropped.
  void receive(String raw) {
    if (raw.length > maxMessageChars) return onRejected?.call('too large');
    final Object? m;
    try {
      m = jsonDecode(raw);
    } catch (_) {
      // FormatException, or anything else the decoder throws: never the app's problem.
      return onRejected?.call('malformed');
    }
    if (m is! Map<String, Object?> || m['ns'] != 'hub-embed' || m['v'] != 1) return onRejected?.call('foreign');
    final kind = m['kind'];
    final method = m['method'];
    final sid = m['sid'];
    final id = m['id'];
    final kindOk = kind == 'req' || kind == 'evt' ? method is String : kind == 'res' || kind == 'cancel';
    if (!kindOk || sid is! String || id is! String || id.length > 64) return onRejected?.call('malformed');
    if (m['nonce'] != nonce) return onRejected?.call('nonce');
    final hello = kind == 'req' && method == 'bridge.hello';
    if (!hello && !_sessions.contains(sid)) return onRejected?.call('sid');

    switch (kind) {
      case 'evt':
        _event(method as String, m['params']);
      case 'cancel':
        if (_cancelled.length < 1000) _cancelled.add(id);
      case 'res':
        _settle(m, sid, id);
      default:
        // A hello makes its session the newest, the one host requests go to.
        if (hello) {
          final sessions = [..._sessions.where((s) => s != sid), sid];
          _sessions = sessions.length > 16 ? sessions.sublist(sessions.length - 16) : sessions;
        }
        unawaited(_answer(method as String, m['params'], sid, id));
    }
  }
  // #endregion dart-receive

  // #region dart-host-requests
  /// Host -> page: select these tags in the widget; completes with the page's answer (or E_TIMEOUT, E_CANCELLED).
  /// Called before a page said hello, it waits for the hello. The selection is kept either way, for the next
  /// page session.
  Future<PageAnswer> setTags(List<String> tags) {
    _selection = List.unmodifiable(tags);
    return request('widget.setTags', {'tags': tags});
  }

  Future<PageAnswer> refresh() => request('widget.refresh', {});

  /// `result` is {closed: true} when a form was open in the page.
  Future<PageAnswer> closeForm() => request('form.close', {});

  // #region dart-back
  /// Android's back, as <HubEmbedView> takes it: with the page's form open, it closes that form and returns
  /// true (consumed); otherwise false, and back goes to the app. A FormOpened with no dialog behind it (a
  /// page's own message) costs one press: the page answers {closed: false} and the next press goes to the app.
  bool back() {
    if (!_pageForm) return false;
    closeForm().then((answer) {
      final result = answer.result;
      if (!(answer.ok && result is Map && result['closed'] == true)) _formOpen = false;
    });
    return true;
  }

  /// The user touched the view: the page's next FormOpened is believed again (a page cannot hold back alone).
  void touched() => _formBelieved = false;
  // #endregion dart-back

  /// Asks the newest page session. Before any page said hello (an app that calls setTags right after
  /// loading), the request waits for the first hello, within the same timeout, counted from the call.
  Future<PageAnswer> request(String method, Map<String, Object?> params) {
    final id = 'h${++_counter}';
    final answer = Completer<PageAnswer>();
    final timer = Timer(timeout, () {
      final pending = _waiting.remove(id);
      if (pending == null) return;
      answer.complete(PageAnswer.failed('E_TIMEOUT', pending.sid == null ? '$method timed out: no widget page said hello' : '$method timed out'));
    });
    final call = _Waiting(method, params, answer.complete, timer);
    _waiting[id] = call;
    if (_sessions.isNotEmpty) _ask(id, call, _sessions.last);
    return answer.future;
  }

  void _ask(String id, _Waiting call, String sid) {
    call.sid = sid;
    _deliver({'sid': sid, 'id': id, 'kind': 'req', 'method': call.method, 'params': call.params});
  }
  // #endregion dart-host-requests

  void _settle(Map<String, Object?> m, String sid, String id) {
    final call = _waiting[id];
    if (call == null || call.sid != sid) return onRejected?.call('no such request');
    _waiting.remove(id);
    call.timer.cancel();
    if (m['ok'] == true) return call.done(PageAnswer.ok(m['result']));
    final error = m['error'];
    final code = error is Map ? error['code'] : null;
    final message = error is Map && error['message'] is String ? error['message'] as String : 'page error';
    call.done(PageAnswer.failed(errorCodes.contains(code) ? code as String : 'E_INTERNAL',
        message.length > 500 ? message.substring(0, 500) : message));
  }

  void _event(String name, Object? params) {
    final read = _events[name];
    if (read == null) return onRejected?.call('unknown event ${_prefix(name, 100)}');
    // An event the app cannot type is not passed on half-read.
    final event = params is Map<String, Object?> ? read(params) : null;
    if (event == null) return onRejected?.call('bad params: $name');
    if (event is TagsChanged) _selection = event.tags;
    if (event is FormOpened) {
      final byPage = event.handledBy == 'page';
      if (!byPage || !_formBelieved) _formOpen = byPage;
      if (byPage) _formBelieved = true;
    }
    if (event is FormClosed) _formOpen = false;
    onEvent?.call(event);
  }

  /// Each page event, read into its type when its params have exactly the shape hub-embed/host checks
  /// (src/host/event-shapes.ts: strings of bounded length, known values); null for any other shape.
  static final Map<String, HubEvent? Function(Map<String, Object?>)> _events = {
    'widget.ready': (p) => switch ((_text(p['version'], 100), p.containsKey('locale'), _text(p['locale'], 35))) {
          // locale may be absent (older pages); present, it is a short string, not null or a number.
          (final String version, false, _) => WidgetReady(version),
          (final String version, true, final String locale) => WidgetReady(version, locale),
          _ => null,
        },
    'table.selected': (p) => switch ((_text(p['shortCode'], 100), _text(p['name']))) {
          (final String code, final String name) => TableSelected(code, name),
          _ => null,
        },
    // As many tags, each as long, as the host may send in widget.setTags.
    'tags.changed': (p) => switch (_strings(p['tags'], 100, 200)) { final List<String> tags => TagsChanged(tags), _ => null },
    'form.opened': (p) => switch ((_text(p['shortCode'], 100), p['handledBy'])) {
          (final String code, final String by) when by == 'host' || by == 'page' => FormOpened(code, by),
          _ => null,
        },
    'form.closed': (p) => switch (_text(p['shortCode'], 100)) { final String code => FormClosed(code), _ => null },
    'widget.error': (p) => switch ((_text(p['kind'], 100), _text(p['message'], 2000))) {
          (final String kind, final String message) => WidgetError(kind, message),
          _ => null,
        },
    // What a form page posts is its own: only whose it is, and that there is data (JSON null counts).
    'form.message': (p) => switch (_text(p['shortCode'], 100)) {
          final String code when p.containsKey('data') => FormMessage(code, p['data']),
          _ => null,
        },
  };

  /// A string of at most [max] UTF-16 units (JavaScript's length), or null.
  static String? _text(Object? value, [int max = 500]) => value is String && value.length <= max ? value : null;

  /// A JSON array of at most [count] strings of at most [max] units each, or null.
  static List<String>? _strings(Object? value, int count, int max) {
    if (value is! List || value.length > count) return null;
    final texts = [for (final item in value) if (_text(item, max) case final String text) text];
    return texts.length == value.length ? List.unmodifiable(texts) : null;
  }

  static String _prefix(String text, int units) => text.length > units ? text.substring(0, units) : text;

  // #region dart-answers
  Future<void> _answer(String method, Object? params, String sid, String id) async {
    final asked = _load;
    void reply(bool ok, Map<String, Object?> payload) {
      // Not to a page that cancelled the call or went away meanwhile.
      if (_cancelled.remove(id) || asked != _load) return;
      _deliver({'sid': sid, 'id': id, 'kind': 'res', 'ok': ok, (ok ? 'result' : 'error'): payload});
    }

    void fail(String code, String message) => reply(false, {'code': code, 'message': message});

    final p = params is Map<String, Object?> ? params : null;
    try {
      switch (method) {
        case 'bridge.hello':
          reply(true, {
            'v': 1,
            'platform': platform,
            'capabilities': [if (getToken != null) 'auth.getToken', if (openForm != null) 'form.open'],
            'config': <String, Object?>{},
          });
          // After the hello's answer: what the app asked before any page said hello goes to this session,
          // and the kept selection, unless one of those already sets tags, before the page loads anything.
          final queued = {for (final entry in _waiting.entries) if (entry.value.sid == null) entry.key: entry.value};
          queued.forEach((queuedId, call) => _ask(queuedId, call, sid));
          final selection = _selection;
          if (!queued.values.any((call) => call.method == 'widget.setTags') && selection != null) unawaited(setTags(selection));
        case 'auth.getToken' when getToken != null:
          final token = await getToken!(HubTokenRequest.fromParams(p));
          if (token == null) return fail('E_DENIED', 'no signed-in user');
          if (token.accessToken.isEmpty || token.expiresIn <= 0) {
            return fail('E_INTERNAL', 'getToken must give a token and expires_in > 0');
          }
          reply(true, {'access_token': token.accessToken, 'expires_in': token.expiresIn});
        case 'form.open' when openForm != null:
          final url = p?['url'];
          final shortCode = p?['shortCode'];
          if (url is! String || shortCode is! String) return fail('E_DENIED', 'form.open needs {url, shortCode}');
          reply(true, {'handled': openForm!(shortCode, url)});
        default:
          fail('E_NO_HANDLER', 'the app handles no $method');
      }
    } catch (error) {
      final text = '$error';
      fail('E_INTERNAL', text.length > 500 ? text.substring(0, 500) : text);
    }
  }
  // #endregion dart-answers

  void _deliver(Map<String, Object?> message) =>
      send(receiveScript(jsonEncode({...message, 'ns': 'hub-embed', 'v': 1, 'nonce': nonce})));

  // #region dart-escape
  /// A JavaScript string literal of [json], with U+2028, U+2029 and < escaped so nothing ends the script.
  static String scriptLiteral(String json) => jsonEncode(json)
      .replaceAll('\u2028', r'\u2028')
      .replaceAll('\u2029', r'\u2029')
      .replaceAll('<', r'\u003c');

  static String receiveScript(String json) => 'window.__hubEmbedReceive&&window.__hubEmbedReceive(${scriptLiteral(json)});true;';
  // #endregion dart-escape

  static String randomNonce() {
    final random = Random.secure();
    return List.generate(16, (_) => random.nextInt(256).toRadixString(16).padLeft(2, '0')).join();
  }
}

// #region dart-navigation
enum NavigationChoice { load, external, blocked }

/// Which URLs load inside the WebView: only the widget's and the form site's origins. Other web links leave
/// for the browser, and schemes that run script or read files go nowhere. The same rules as hub-embed/host's
/// decideNavigation and the Kotlin host's HubEmbedNavigation.
class HubEmbedNavigation {
  static const _blockedSchemes = {'javascript:', 'data:', 'file:', 'blob:', 'vbscript:', 'content:', 'intent:'};
  static final _head = RegExp(r'^(https?:)//([^/\\?#]*)(?:[/\\?#]|$)', caseSensitive: false);
  static final _authority = RegExp(r'^(?:[a-z\d.-]+|\[[\da-f:.]+\])(?::\d{1,5})?$');
  static final _scheme = RegExp(r'^([a-z][a-z\d+.-]*:)', caseSensitive: false);
  static final _invisible = RegExp('[\u0000-\u0020\u007f-\u009f\u2028\u2029]');

  /// `scheme://host[:port]`, lower-cased, default port dropped; null for anything but a plain http(s) URL.
  static String? originOf(String url) {
    final match = _head.firstMatch(url);
    if (match == null) return null;
    final scheme = match[1]!.toLowerCase();
    final authority = match[2]!.toLowerCase();
    if (!_authority.hasMatch(authority)) return null;
    final port = scheme == 'http:' ? ':80' : ':443';
    return '$scheme//${authority.endsWith(port) ? authority.substring(0, authority.length - port.length) : authority}';
  }

  static NavigationChoice decide(String url, Set<String> allowedOrigins) {
    if (_invisible.hasMatch(url)) return NavigationChoice.blocked;
    if (url == 'about:blank' || url == 'about:srcdoc') return NavigationChoice.load;
    final scheme = _scheme.firstMatch(url)?[1]?.toLowerCase();
    if (scheme == null || scheme == 'about:' || _blockedSchemes.contains(scheme)) return NavigationChoice.blocked;
    if (allowedOrigins.contains(originOf(url))) return NavigationChoice.load;
    return NavigationChoice.external;
  }
}
// #endregion dart-navigation

/// A host request: sent to page session [sid], or waiting (null) for a page to say hello.
class _Waiting {
  _Waiting(this.method, this.params, this.done, this.timer);
  final String method;
  final Map<String, Object?> params;
  final void Function(PageAnswer) done;
  final Timer timer;
  String? sid;
}
