// The WKWebView glue around HubEmbedProtocol.swift (iOS 16+): the marker at document start in the main
// frame, a WKScriptMessageHandler that takes strings from the widget page's main frame only, navigation
// kept to the widget's and the form site's origins, links that leave in an SFSafariViewController, and the
// page loaded again when iOS ends the web content process (the protocol then selects the user's last tags).
// Replies go back through evaluateJavaScript, so host requests (setTags) and answers share one path.
//
// No Swift toolchain installs from Debian or npm: test/host/docs-hosts.test.ts reads this file for the
// rules below (the iOS path itself runs in a real WebKit in test/native-hosts/webkitgtk.test.ts, with the kernel).
import SafariServices
import UIKit
import WebKit

// #region swift-host
@MainActor
final class HubEmbedWebView: NSObject, WKScriptMessageHandler, WKNavigationDelegate, WKUIDelegate {
  let webView: WKWebView
  let protocolHost = HubEmbedProtocol(platform: "ios")
  private let widgetOrigin: String
  private let allowedOrigins: Set<String>
  /// Shows SFSafariViewController for links that leave the widget.
  weak var presenter: UIViewController?

  /// `widgetOrigin` and `formOrigin` are exact origins, e.g. https://widget.example.com.
  init(widgetOrigin: String, formOrigin: String) {
    self.widgetOrigin = widgetOrigin
    allowedOrigins = [widgetOrigin, formOrigin]
    let config = WKWebViewConfiguration()
    webView = WKWebView(frame: .zero, configuration: config)
    super.init()
    armMarker()
    // WKUserContentController retains its handlers: call detach() when the screen goes away.
    webView.configuration.userContentController.add(WeakHandler(self), contentWorld: .page, name: "hubEmbed")
    protocolHost.send = { [weak self] script in
      guard let self, self.onWidget else { return }
      self.webView.evaluateJavaScript(script)
    }
    webView.navigationDelegate = self
    webView.uiDelegate = self
  }

  /// The nonce of the marker in place now: the one the next page load gets.
  private var markerNonce = ""

  /// A marker with a fresh nonce for the next page load: a WKUserScript is fixed before the load starts,
  /// so each load's nonce is drawn before it, and the protocol takes it up when the load commits.
  private func armMarker() {
    markerNonce = HubEmbedProtocol.randomNonce()
    let scripts = webView.configuration.userContentController
    scripts.removeAllUserScripts()
    // Before any script of the page, in the main frame only: sub-frames never see the nonce.
    scripts.addUserScript(
      WKUserScript(source: protocolHost.marker(widgetOrigin: widgetOrigin, nonce: markerNonce), injectionTime: .atDocumentStart, forMainFrameOnly: true))
  }

  func detach() { webView.configuration.userContentController.removeScriptMessageHandler(forName: "hubEmbed") }

  /// Selects tags in the widget, and keeps them: a page that loads again shows them too.
  func setTags(_ tags: [String], done: @escaping (PageAnswer) -> Void = { _ in }) { protocolHost.setTags(tags, done: done) }

  private var lastURL: URL?

  func load(_ url: URL) {
    lastURL = url
    webView.load(URLRequest(url: url))
  }

  private var onWidget: Bool { webView.url.flatMap { HubEmbedNavigation.originOf($0.absoluteString) } == widgetOrigin }

  func userContentController(_ ucc: WKUserContentController, didReceive message: WKScriptMessage) {
    let frame = message.frameInfo
    let origin = frame.securityOrigin
    let from = "\(origin.protocol)://\(origin.host)" + (origin.port == 0 ? "" : ":\(origin.port)")
    guard frame.isMainFrame, HubEmbedNavigation.originOf(from) == widgetOrigin, onWidget,
          let text = message.body as? String else { return }   // anything but a string is not our page's bridge
    protocolHost.receive(text)
  }

  // A new page in the main frame, with the marker armed before it: the protocol takes up that marker's
  // nonce (the old page's sessions go, what it was asked fails), and the next load gets a marker of its own.
  func webView(_ webView: WKWebView, didCommit navigation: WKNavigation!) {
    protocolHost.reload(nonce: markerNonce)
    armMarker()
  }

  // iOS ended the web content process (often while the app was in the background; or it crashed): the view
  // is blank and stays so. Load the page again; when it says hello, the protocol selects the user's last tags.
  func webViewWebContentProcessDidTerminate(_ webView: WKWebView) {
    protocolHost.reload()
    if webView.url != nil { webView.reload() } else if let lastURL { load(lastURL) }
  }

  func webView(_ webView: WKWebView, decidePolicyFor action: WKNavigationAction,
               decisionHandler: @escaping @MainActor (WKNavigationActionPolicy) -> Void) {
    // Sub-frames of the page load as the page says; the main frame stays on the allowed origins.
    guard action.targetFrame?.isMainFrame ?? true, let url = action.request.url else { return decisionHandler(.allow) }
    switch HubEmbedNavigation.decide(url.absoluteString, allowedOrigins: allowedOrigins) {
    case .load: decisionHandler(.allow)
    case .external:
      if action.navigationType == .linkActivated { openExternal(url) }   // no tap, no leaving the app
      decisionHandler(.cancel)
    case .blocked: decisionHandler(.cancel)
    }
  }

  // window.open and target=_blank: no second WebView.
  func webView(_ webView: WKWebView, createWebViewWith configuration: WKWebViewConfiguration,
               for action: WKNavigationAction, windowFeatures: WKWindowFeatures) -> WKWebView? {
    if let url = action.request.url, HubEmbedNavigation.decide(url.absoluteString, allowedOrigins: []) == .external {
      openExternal(url)
    }
    return nil
  }

  private func openExternal(_ url: URL) {
    guard ["http", "https"].contains(url.scheme?.lowercased() ?? "") else { return UIApplication.shared.open(url) }
    presenter?.present(SFSafariViewController(url: url), animated: true)
  }
}

/// Holds the handler weakly, so the content controller does not keep the screen alive.
private final class WeakHandler: NSObject, WKScriptMessageHandler {
  weak var target: (NSObject & WKScriptMessageHandler)?
  init(_ target: NSObject & WKScriptMessageHandler) { self.target = target }
  func userContentController(_ ucc: WKUserContentController, didReceive message: WKScriptMessage) {
    target?.userContentController(ucc, didReceive: message)
  }
}
// #endregion swift-host

// #region swift-usage
// In a view controller: events to the app, and one request to the page with its answer.
@MainActor
func showWidget(in controller: UIViewController, api: MyServer) -> HubEmbedWebView {
  let host = HubEmbedWebView(widgetOrigin: "https://widget.example.com", formOrigin: "https://forms.example.com")
  host.presenter = controller
  // nil: nobody signed in. With `unauthorized` your server drops `previous` from its cache.
  host.protocolHost.getToken = { request in try await api.hubToken(reason: request.reason, previous: request.previous) }
  host.protocolHost.onEvent = { event in
    switch event {
    case .ready(let version, let locale): api.log("widget \(version) ready, in \(locale ?? "its default language")")
    case .tableSelected(let shortCode, let name): api.log("table \(shortCode): \(name)")
    // The host already selects these again after a reload; keep them to open the next screen with them.
    case .tagsChanged(let tags): api.saveFilter(tags)
    case .formOpened(let shortCode, let handledBy): api.log("form \(shortCode) opened by \(handledBy)")
    case .formClosed: api.refreshOrders()   // the outcome comes from your own server
    case .widgetError(let kind, let message): api.log("widget error \(kind): \(message)")
    case .formMessage(let shortCode, let json): api.log("form \(shortCode) said \(json)")
    }
  }
  controller.view.addSubview(host.webView)
  // The filter the user chose last time, if any: the page gets it as it says hello.
  if let saved = api.savedFilter() { host.setTags(saved) }
  host.load(URL(string: "https://widget.example.com/embed")!)
  return host
}

// Later, e.g. from a filter in your own toolbar:
// host.setTags(["HR"]) { answer in if case .failed(let code, _) = answer { api.log("setTags: \(code)") } }
// #endregion swift-usage

/// Stands for your app's own server client.
protocol MyServer {
  /// POSTs {reason, previous} to your token route with the app's session.
  func hubToken(reason: String, previous: String?) async throws -> HubToken?
  func refreshOrders()
  func saveFilter(_ tags: [String])
  func savedFilter() -> [String]?
  func log(_ text: String)
}
