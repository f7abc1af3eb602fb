// The webview_flutter glue around hub_embed_protocol.dart: the widget page in a WebViewController, the
// marker and the answers only while the current page is on the widget's origin, navigation kept to the
// widget's and the form site's origins, other links in the browser.
//
// The marker goes in at document start, before any script of the page, where webview_flutter (4.15 and
// later) and the platform offer document-start scripts: armed before each load with a fresh nonce, for that
// load only, as the Kotlin host does. Where they do not (addDocumentStartJavaScript throws
// UnsupportedError), it goes in at onPageStarted (on Android usually before the page's scripts; on iOS the
// new document does not exist yet, and the marker's own origin check makes that run a no-op) and again at
// onPageFinished, followed by `bridge.ready`, which makes a page that met the marker late say hello.
// webview_flutter does not say which frame or origin posted to a JavaScript channel (the `hubEmbed`
// channel is visible to every frame), so every message must carry the nonce, which only the widget
// origin's documents can read, and nothing is received or sent unless the WebView's current URL is on the
// widget's origin.
//
// When iOS ends the web content process, webview_flutter reports it as a web resource error of type
// webContentProcessTerminated, and the host loads the page again (the protocol then selects the user's last
// tags). On Android, webview_flutter (4.x) offers no render-process callback: a renderer that dies takes
// the app with it, and no Dart code can prevent that (docs/webview-flutter.md).
//
// No Dart SDK installs from Debian or npm: test/host/docs-hosts.test.ts reads this file for these rules.
import 'package:flutter/widgets.dart';
import 'package:url_launcher/url_launcher.dart';
import 'package:webview_flutter/webview_flutter.dart';

import 'hub_embed_protocol.dart';

// #region dart-host
class HubEmbedHost {
  HubEmbedHost({
    required this.widgetOrigin,
    required String formOrigin,
    required Future<HubToken?> Function(HubTokenRequest request) getToken,
    required void Function(HubEvent event) onEvent,
  }) : allowedOrigins = {widgetOrigin, formOrigin} {
    protocol = HubEmbedProtocol(
      platform: 'flutter',
      getToken: getToken,
      onEvent: onEvent,
      onPageForm: (open) => pageForm.value = open,
      // Only into a document of the widget's origin, even if the WebView moved on meanwhile.
      send: (script) => _run(script),
    );
    controller = WebViewController()
      ..setJavaScriptMode(JavaScriptMode.unrestricted)
      // Before loadRequest: a channel takes effect from the next page load.
      ..addJavaScriptChannel('hubEmbed', onMessageReceived: (message) => _receive(message.message))
      ..setNavigationDelegate(NavigationDelegate(
        onNavigationRequest: _decide,
        onPageStarted: (url) {
          // A document-start marker ran as this page's document was made: the protocol takes up its nonce,
          // and the next load gets a marker of its own. Without one, a fresh nonce, injected now.
          final armed = _markerNonce;
          protocol.reload(armed);
          if (armed != null) {
            _armMarker();
          } else if (HubEmbedNavigation.originOf(url) == widgetOrigin) {
            _run(protocol.marker(widgetOrigin));
          }
        },
        onPageFinished: (url) async {
          if (!await _onWidget()) return;
          if (_markerNonce == null) _run(protocol.marker(widgetOrigin));
          // A hello sent before onPageStarted reached us was forgotten by reload(), and a page that met the
          // marker late may not have said one: ask again.
          protocol.announce();
        },
        onWebResourceError: (error) {
          // iOS ended the web content process (often in the background): the view is blank and stays so.
          // Load the page again; when it says hello, the protocol selects the user's last tags.
          if (error.errorType == WebResourceErrorType.webContentProcessTerminated) {
            protocol.reload();
            controller.reload();
          }
        },
      ));
  }

  /// Exact origins, e.g. https://widget.example.com.
  final String widgetOrigin;
  final Set<String> allowedOrigins;
  late final HubEmbedProtocol protocol;
  late final WebViewController controller;
  /// Whether the page's own form is open: while it is, Android's back closes it ([HubEmbedBack]).
  final pageForm = ValueNotifier<bool>(false);

  /// Android's back: closes the page's form and returns true, or returns false (back is the app's).
  bool back() => protocol.back();

  /// The document-start marker in place for the next page load, and its nonce; null where the platform
  /// has no document-start scripts.
  DocumentStartJavaScriptRegistration? _markerScript;
  String? _markerNonce;

  Future<void> load(String url) async {
    // Before the first load: a document-start script runs from the next document on.
    if (_markerNonce == null) await _armMarker();
    await controller.loadRequest(Uri.parse(url));
  }

  /// A marker with a fresh nonce, at document start, for the next page load. The old one goes first: a
  /// load between the two gets no marker and takes the onPageFinished path, never a nonce the protocol
  /// does not hold.
  Future<void> _armMarker() async {
    final old = _markerScript;
    _markerScript = null;
    _markerNonce = null;
    await old?.remove();
    final nonce = HubEmbedProtocol.randomNonce();
    try {
      _markerScript = await controller.addDocumentStartJavaScript(protocol.marker(widgetOrigin, nonce: nonce));
      _markerNonce = nonce;
    } on UnsupportedError {
      // No document-start scripts on this platform or WebView: the marker comes at onPageStarted.
    }
  }

  /// Selects tags in the widget, and keeps them: a page that loads again shows them too.
  Future<PageAnswer> setTags(List<String> tags) => protocol.setTags(tags);

  Future<bool> _onWidget() async => HubEmbedNavigation.originOf(await controller.currentUrl() ?? '') == widgetOrigin;

  Future<void> _receive(String text) async {
    // Another site the WebView shows now (a form page) never reaches the protocol; the nonce keeps the
    // widget page's sub-frames out.
    if (await _onWidget()) protocol.receive(text);
  }

  void _run(String script) {
    final origin = HubEmbedProtocol.scriptLiteral(widgetOrigin);
    controller.runJavaScript('if(location.origin===$origin){$script}');
  }

  NavigationDecision _decide(NavigationRequest request) {
    // Sub-frames of the page load as the page says; the main frame stays on the allowed origins.
    if (!request.isMainFrame) return NavigationDecision.navigate;
    switch (HubEmbedNavigation.decide(request.url, allowedOrigins)) {
      case NavigationChoice.load:
        return NavigationDecision.navigate;
      case NavigationChoice.external:
        launchUrl(Uri.parse(request.url), mode: LaunchMode.externalApplication);
        return NavigationDecision.prevent;
      case NavigationChoice.blocked:
        return NavigationDecision.prevent;
    }
  }
}

/// The host's WebView with Android's back closing the page's form first, as <HubEmbedView> does: the route
/// pops only while no page form is open. A touch makes the page's next FormOpened believed again.
class HubEmbedBack extends StatelessWidget {
  const HubEmbedBack({super.key, required this.host});
  final HubEmbedHost host;

  @override
  Widget build(BuildContext context) => ValueListenableBuilder<bool>(
        valueListenable: host.pageForm,
        builder: (context, formOpen, child) => PopScope(
          canPop: !formOpen,
          onPopInvokedWithResult: (didPop, _) {
            if (!didPop) host.back();
          },
          child: child!,
        ),
        child: Listener(
          onPointerDown: (_) => host.protocol.touched(),
          child: WebViewWidget(controller: host.controller),
        ),
      );
}
// #endregion dart-host

// #region dart-usage
// In a widget: events to the app, and one request to the page with its answer.
class HubEmbedScreen extends StatefulWidget {
  const HubEmbedScreen({super.key, required this.api});
  final MyServer api;
  @override
  State<HubEmbedScreen> createState() => _HubEmbedScreenState();
}

class _HubEmbedScreenState extends State<HubEmbedScreen> {
  late final host = HubEmbedHost(
    widgetOrigin: 'https://widget.example.com',
    formOrigin: 'https://forms.example.com',
    // null: nobody signed in. With `unauthorized` your server drops `previous` from its cache.
    getToken: (request) => widget.api.hubToken(request.reason, request.previous),
    onEvent: (event) => switch (event) {
      WidgetReady(:final version, :final locale) =>
        widget.api.log('widget $version ready, in ${locale ?? 'its default language'}'),
      TableSelected(:final shortCode, :final name) => widget.api.log('table $shortCode: $name'),
      // The host already selects these again after a reload; keep them to open the next screen with them.
      TagsChanged(:final tags) => widget.api.saveFilter(tags),
      FormOpened(:final shortCode, :final handledBy) => widget.api.log('form $shortCode opened by $handledBy'),
      FormClosed() => widget.api.refreshOrders(),   // the outcome comes from your own server
      WidgetError(:final kind, :final message) => widget.api.log('widget error $kind: $message'),
      FormMessage(:final shortCode, :final data) => widget.api.log('form $shortCode said $data'),
    },
  );

  @override
  void initState() {
    super.initState();
    // The filter the user chose last time, if any: the page gets it as it says hello.
    final saved = widget.api.savedFilter();
    if (saved != null) host.setTags(saved);
    host.load('https://widget.example.com/embed');
  }

  /// E.g. from a filter in your own toolbar.
  Future<void> showHr() async {
    final answer = await host.setTags(['HR']);
    if (!answer.ok) widget.api.log('setTags failed: ${answer.code}');
  }

  @override
  Widget build(BuildContext context) => HubEmbedBack(host: host);
}
// #endregion dart-usage

/// Stands for your app's own server client.
abstract class MyServer {
  /// POSTs {reason, previous} to your token route with the app's session.
  Future<HubToken?> hubToken(String reason, String? previous);
  void refreshOrders();
  void saveFilter(List<String> tags);
  List<String>? savedFilter();
  void log(String text);
}
