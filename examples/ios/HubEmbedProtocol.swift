// Bridge protocol v1 (docs/webview.md), the host side, in Foundation only (no WebKit, no UIKit), so it
// could run under `swift test` on any machine; HubEmbedWebView.swift is the WKWebView glue around it.
// No Swift toolchain installs from Debian or npm, so CI holds this file to the protocol test vectors
// (test/fixtures/bridge-vectors.json) by reading it (test/host/docs-hosts.test.ts), rule by rule; the
// Kotlin twin of this file (examples/android/HubEmbedProtocol.kt) runs every vector on a JVM.
//
// Call everything on the main actor, including the answers the app gives to getToken.
import Foundation

// #region swift-protocol-api
/// What the widget page tells the app, each with its documented params (src/bridge/methods.ts).
enum HubEvent: Equatable {
  /// `locale` is the widget's language (`zh-CN` or `en`), for your own controls; nil from older pages.
  case ready(version: String, locale: String?)
  case tableSelected(shortCode: String, name: String)
  /// The user changed the selection in the page (a chip, or "show all": no tags); never for your own setTags.
  case tagsChanged(tags: [String])
  case formOpened(shortCode: String, handledBy: String)
  case formClosed(shortCode: String)
  case widgetError(kind: String, message: String)
  /// What the form page posted to the widget, as JSON text.
  case formMessage(shortCode: String, json: String)
}

struct HubToken { let accessToken: String; let expiresIn: Int }

/// Why the page needs a token: `initial`; `expiring` (the token is about to expire); `unauthorized` (the
/// service refused `previous` before its time: get a new one from your server, never the cached one).
/// `previous` is the token being replaced, with `expiring` and `unauthorized` only.
struct HubTokenRequest: Equatable { let reason: String; let previous: String? }

/// The page's answer to a host request: a result, or a protocol error code and its message.
enum PageAnswer { case ok(Any?), failed(code: String, message: String) }

@MainActor
final class HubEmbedProtocol {
  let platform: String
  /// This load's nonce, put into the marker; the page stamps it on every message. Every reload() draws a
  /// fresh one (or takes the one the load's marker was made with).
  private(set) var nonce: String
  /// Supplies the user's token; nil when nobody is signed in (E_DENIED). Pass the request's reason and
  /// previous on to your server: with `unauthorized` it must drop `previous` from its cache.
  var getToken: ((_ request: HubTokenRequest) async throws -> HubToken?)?
  /// Opens the form natively and returns true, or false to let the page open it itself.
  var openForm: ((_ shortCode: String, _ url: String) -> Bool)?
  var onEvent: (HubEvent) -> Void = { _ in }
  /// Each dropped message and why: foreign, malformed, nonce, sid, too large, no such request, and for events
  /// "unknown event <name>" or "bad params: <name>" (the reasons of hub-embed/host's kernel).
  var onRejected: (String) -> Void = { _ in }
  /// Delivers a script to the widget page's main frame (evaluateJavaScript).
  var send: (_ script: String) -> Void = { _ in }
  var timeout: Duration = .seconds(10)
// #endregion swift-protocol-api

  private var sessions: [String] = []
  private var cancelled = Set<String>()
  /// Host requests by id; `sid` is nil while one waits for a page to say hello, `number` keeps their order.
  private var waiting: [String: (sid: String?, number: Int, method: String, params: [String: Any], done: (PageAnswer) -> Void)] = [:]
  private var counter = 0
  /// Bumped by every reload: an answer the app gives after the page went away is not sent to the new page.
  private var load = 0
  /// The selection the widget shows: the user's last one in the page (tagsChanged) or the app's last setTags;
  /// nil until either. Each page session gets it as it says hello, so a page that loaded again (a reload, a
  /// content process that died) shows what the user chose, as <HubEmbedView> does.
  private(set) var selection: [String]?

  static let maxMessageChars = 4 * 1024 * 1024

  /// The page's auth.getToken params as the app gets them, as hub-embed/host reads them: pages before 0.2
  /// said `expired`, read as `expiring`; anything else unknown is `initial`. A previous token is passed on
  /// only with a later reason, and only as a string of at most 4,096 characters.
  static func tokenRequest(_ p: [String: Any]?) -> HubTokenRequest {
    let reason: String
    switch p?["reason"] as? String {
    case "unauthorized": reason = "unauthorized"
    case "expiring", "expired": reason = "expiring"
    default: reason = "initial"
    }
    let previous = (p?["previous"] as? String).flatMap { reason != "initial" && $0.utf16.count <= 4096 ? $0 : nil }
    return HubTokenRequest(reason: reason, previous: previous)
  }
  static let errorCodes: Set<String> = ["E_NO_HANDLER", "E_TIMEOUT", "E_CANCELLED", "E_DENIED", "E_UNSUPPORTED", "E_VERSION", "E_INTERNAL"]

  init(platform: String, nonce: String = HubEmbedProtocol.randomNonce()) {
    self.platform = platform
    self.nonce = nonce
  }

  /// The script that sets the marker, injected at document start in the main frame. A WKUserScript runs in
  /// every page the main frame shows, so it sets the marker only in a document of `widgetOrigin`: no other
  /// site's page learns the nonce.
  /// `nonce`: the one the marker carries, by default this load's (a marker made for the next load gets its own).
  func marker(widgetOrigin: String, transport: String = "webkit", nonce: String? = nil) -> String {
    let json = Self.json(["transport": transport, "v": 1, "nonce": nonce ?? self.nonce])
    return "if(location.origin===\(Self.scriptLiteral(widgetOrigin)))"
      + "window.__HUB_EMBED_BRIDGE__=JSON.parse(\(Self.scriptLiteral(json)));true;"
  }

  /// A new page started: a fresh nonce (or `nonce`, the one its marker was made with), its sessions
  /// forgotten, what the old page was asked failed. Requests still waiting for a hello keep waiting, for the
  /// new page's.
  func reload(nonce: String = HubEmbedProtocol.randomNonce()) {
    load += 1
    self.nonce = nonce
    sessions = []
    cancelled = []
    let asked = waiting.filter { $0.value.sid != nil }
    for id in asked.keys { waiting.removeValue(forKey: id) }
    for call in asked.values { call.done(.failed(code: "E_CANCELLED", message: "the page loaded again")) }
  }

  // #region swift-receive
  /// One string the page posted. Never throws: whatever is not this load's v1 message is dropped.
  func receive(_ raw: String) {
    guard raw.utf16.count <= Self.maxMessageChars else { return onRejected("too large") }
    guard let data = raw.data(using: .utf8),
          let value = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
      return onRejected("malformed")
    }
    // JSONSerialization reads true as 1: `v` must be a number, not a Bool, to be 1.
    guard let m = value as? [String: Any], m["ns"] as? String == "hub-embed",
          let v = m["v"] as? NSNumber, CFGetTypeID(v) != CFBooleanGetTypeID(), v.doubleValue == 1 else {
      return onRejected("foreign")
    }
    let kind = m["kind"] as? String
    let method = m["method"] as? String
    let kindOk = kind == "req" || kind == "evt" ? method != nil : kind == "res" || kind == "cancel"
    guard kindOk, let kind, let sid = m["sid"] as? String, let id = m["id"] as? String, id.utf16.count <= 64 else {
      return onRejected("malformed")
    }
    guard m["nonce"] as? String == nonce else { return onRejected("nonce") }
    let hello = kind == "req" && method == "bridge.hello"
    guard hello || sessions.contains(sid) else { return onRejected("sid") }

    switch kind {
    case "evt": event(method!, m["params"])
    case "cancel": if cancelled.count < 1000 { cancelled.insert(id) }
    case "res": settle(m, sid: sid, id: id)
    default:
      // A hello makes its session the newest, the one host requests go to.
      if hello { sessions = Array((sessions.filter { $0 != sid } + [sid]).suffix(16)) }
      Task { await answer(method!, m["params"], sid: sid, id: id) }
    }
  }
  // #endregion swift-receive

  // #region swift-host-requests
  /// Host -> page: select these tags in the widget; `done` gets the page's answer (or E_TIMEOUT, E_CANCELLED).
  /// Called before a page said hello, it waits for the hello. The selection is kept either way, for the next
  /// page session.
  func setTags(_ tags: [String], done: @escaping (PageAnswer) -> Void = { _ in }) {
    selection = tags
    request("widget.setTags", ["tags": tags], done: done)
  }

  func refresh(done: @escaping (PageAnswer) -> Void = { _ in }) { request("widget.refresh", [:], done: done) }

  func closeForm(done: @escaping (PageAnswer) -> Void = { _ in }) { request("form.close", [:], done: done) }

  /// Asks the newest page session. Before any page said hello (an app that calls setTags right after
  /// load), the request waits for the first hello, within the same timeout, counted from the call.
  func request(_ method: String, _ params: [String: Any], done: @escaping (PageAnswer) -> Void) {
    counter += 1
    let id = "h\(counter)"
    waiting[id] = (nil, counter, method, params, done)
    Task { [timeout] in
      try? await Task.sleep(for: timeout)
      guard let pending = waiting.removeValue(forKey: id) else { return }
      let message = pending.sid == nil ? "\(method) timed out: no widget page said hello" : "\(method) timed out"
      pending.done(.failed(code: "E_TIMEOUT", message: message))
    }
    if let sid = sessions.last { ask(id, sid: sid) }
  }

  private func ask(_ id: String, sid: String) {
    guard let call = waiting[id] else { return }
    waiting[id]?.sid = sid
    deliver(["sid": sid, "id": id, "kind": "req", "method": call.method, "params": call.params])
  }
  // #endregion swift-host-requests

  private func settle(_ m: [String: Any], sid: String, id: String) {
    guard let call = waiting[id], call.sid == sid else { return onRejected("no such request") }
    waiting.removeValue(forKey: id)
    if m["ok"] as? Bool == true { return call.done(.ok(m["result"])) }
    let error = m["error"] as? [String: Any]
    let code = error?["code"] as? String ?? ""
    call.done(.failed(code: Self.errorCodes.contains(code) ? code : "E_INTERNAL",
                      message: String((error?["message"] as? String ?? "page error").prefix(500))))
  }

  private func event(_ name: String, _ params: Any?) {
    guard let read = Self.events[name] else {
      return onRejected("unknown event \(String(decoding: Array(name.utf16.prefix(100)), as: UTF16.self))")
    }
    // An event the app cannot type is not passed on half-read.
    guard let p = params as? [String: Any], let event = read(p) else { return onRejected("bad params: \(name)") }
    if case .tagsChanged(let tags) = event { selection = tags }
    onEvent(event)
  }

  /// Each page event, read into its type when its params have exactly the shape hub-embed/host checks
  /// (src/host/event-shapes.ts: strings of bounded length, known values); nil for any other shape.
  private static let events: [String: ([String: Any]) -> HubEvent?] = [
    "widget.ready": { p in
      // locale may be absent (older pages); present, it is a short string, not null or a number.
      guard let version = text(p["version"], 100) else { return nil }
      if p["locale"] == nil { return .ready(version: version, locale: nil) }
      return text(p["locale"], 35).map { .ready(version: version, locale: $0) }
    },
    "table.selected": { p in
      guard let code = text(p["shortCode"], 100), let name = text(p["name"]) else { return nil }
      return .tableSelected(shortCode: code, name: name)
    },
    // As many tags, each as long, as the host may send in widget.setTags.
    "tags.changed": { p in strings(p["tags"], count: 100, max: 200).map { .tagsChanged(tags: $0) } },
    "form.opened": { p in
      guard let code = text(p["shortCode"], 100), let by = text(p["handledBy"]), by == "host" || by == "page" else { return nil }
      return .formOpened(shortCode: code, handledBy: by)
    },
    "form.closed": { p in text(p["shortCode"], 100).map { .formClosed(shortCode: $0) } },
    "widget.error": { p in
      guard let kind = text(p["kind"], 100), let message = text(p["message"], 2000) else { return nil }
      return .widgetError(kind: kind, message: message)
    },
    // What a form page posts is its own: only whose it is, and that there is data (JSON null counts).
    "form.message": { p in
      guard let code = text(p["shortCode"], 100), let data = p["data"] else { return nil }
      return .formMessage(shortCode: code, json: json(data))
    },
  ]

  /// A string of at most `max` UTF-16 units (JavaScript's length), or nil.
  private static func text(_ value: Any?, _ max: Int = 500) -> String? {
    guard let text = value as? String, text.utf16.count <= max else { return nil }
    return text
  }

  /// A JSON array of at most `count` strings of at most `max` units each, or nil.
  private static func strings(_ value: Any?, count: Int, max: Int) -> [String]? {
    guard let array = value as? [Any], array.count <= count else { return nil }
    let texts = array.compactMap { text($0, max) }
    return texts.count == array.count ? texts : nil
  }

  // #region swift-answers
  private func answer(_ method: String, _ params: Any?, sid: String, id: String) async {
    let asked = load
    func reply(_ ok: Bool, _ payload: [String: Any]) {
      // Not to a page that cancelled the call or went away meanwhile.
      if cancelled.remove(id) != nil || asked != load { return }
      var res: [String: Any] = ["sid": sid, "id": id, "kind": "res", "ok": ok]
      res[ok ? "result" : "error"] = payload
      deliver(res)
    }
    func fail(_ code: String, _ message: String) { reply(false, ["code": code, "message": message]) }

    let p = params as? [String: Any]
    switch method {
    case "bridge.hello":
      let capabilities = [getToken.map { _ in "auth.getToken" }, openForm.map { _ in "form.open" }].compactMap { $0 }
      reply(true, ["v": 1, "platform": platform, "capabilities": capabilities, "config": [String: Any]()])
      guard asked == load else { return }   // the page loaded again while this hello waited its turn
      // After the hello's answer: what the app asked before any page said hello goes to this session, in
      // order, and the kept selection, unless one of those already sets tags, before the page loads anything.
      let queued = waiting.filter { $0.value.sid == nil }.sorted { $0.value.number < $1.value.number }
      for (queuedId, _) in queued { ask(queuedId, sid: sid) }
      if !queued.contains(where: { $0.value.method == "widget.setTags" }), let selection { setTags(selection) }
    case "auth.getToken":
      guard let getToken else { return fail("E_NO_HANDLER", "the app handles no \(method)") }
      do {
        guard let token = try await getToken(Self.tokenRequest(p)) else {
          return fail("E_DENIED", "no signed-in user")
        }
        guard !token.accessToken.isEmpty, token.expiresIn > 0 else {
          return fail("E_INTERNAL", "getToken must give a token and expires_in > 0")
        }
        reply(true, ["access_token": token.accessToken, "expires_in": token.expiresIn])
      } catch {
        fail("E_INTERNAL", String(String(describing: error).prefix(500)))
      }
    case "form.open":
      guard let openForm else { return fail("E_NO_HANDLER", "the app handles no \(method)") }
      guard let url = p?["url"] as? String, let shortCode = p?["shortCode"] as? String else {
        return fail("E_DENIED", "form.open needs {url, shortCode}")
      }
      reply(true, ["handled": openForm(shortCode, url)])
    default:
      fail("E_NO_HANDLER", "the app handles no \(method)")
    }
  }
  // #endregion swift-answers

  private func deliver(_ message: [String: Any]) {
    var envelope = message
    envelope["ns"] = "hub-embed"
    envelope["v"] = 1
    envelope["nonce"] = nonce
    send(Self.receiveScript(Self.json(envelope)))
  }

  // #region swift-escape
  /// JSON text; .withoutEscapingSlashes writes `/` as JSON.stringify does.
  static func json(_ value: Any) -> String {
    let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .withoutEscapingSlashes])
    return data.flatMap { String(data: $0, encoding: .utf8) } ?? "null"
  }

  /// A JavaScript string literal of `json`, with U+2028, U+2029 and < escaped so nothing ends the script.
  static func scriptLiteral(_ text: String) -> String {
    json(text)   // a JSON string literal is a JavaScript string literal, once these three are escaped
      .replacingOccurrences(of: "\u{2028}", with: "\\u2028")
      .replacingOccurrences(of: "\u{2029}", with: "\\u2029")
      .replacingOccurrences(of: "<", with: "\\u003c")
  }

  static func receiveScript(_ json: String) -> String {
    "window.__hubEmbedReceive&&window.__hubEmbedReceive(\(scriptLiteral(json)));true;"
  }
  // #endregion swift-escape

  static func randomNonce() -> String {
    (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
  }
}

// #region swift-navigation
/// Which URLs load inside the WebView: only the widget's and the form site's origins. Other web links leave
/// for an SFSafariViewController, and schemes that run script or read files go nowhere. The same rules as
/// hub-embed/host's decideNavigation and the Kotlin host's HubEmbedNavigation.
enum HubEmbedNavigation {
  enum Decision { case load, external, blocked }

  static let blockedSchemes: Set<String> = ["javascript:", "data:", "file:", "blob:", "vbscript:", "content:", "intent:"]

  /// `scheme://host[:port]`, lower-cased, default port dropped; nil for anything but a plain http(s) URL.
  static func originOf(_ url: String) -> String? {
    guard let head = url.range(of: #"^(https?:)//([^/\\?#]*)(?:[/\\?#]|$)"#, options: [.regularExpression, .caseInsensitive])
    else { return nil }
    let match = String(url[head])
    let scheme = String(match.prefix { $0 != ":" }).lowercased() + ":"
    let authority = String(match.dropFirst(scheme.count + 2).prefix { !"/\\?#".contains($0) }).lowercased()
    guard authority.range(of: #"^(?:[a-z\d.-]+|\[[\da-f:.]+\])(?::\d{1,5})?$"#, options: .regularExpression) != nil
    else { return nil }
    let port = scheme == "http:" ? ":80" : ":443"
    return "\(scheme)//" + (authority.hasSuffix(port) ? String(authority.dropLast(port.count)) : authority)
  }

  static func decide(_ url: String, allowedOrigins: Set<String>) -> Decision {
    if url.range(of: #"[\x{0}-\x{20}\x{7f}-\x{9f}\x{2028}\x{2029}]"#, options: .regularExpression) != nil { return .blocked }
    if url == "about:blank" || url == "about:srcdoc" { return .load }
    guard let end = url.range(of: #"^[a-zA-Z][a-zA-Z\d+.-]*:"#, options: .regularExpression) else { return .blocked }
    let scheme = url[end].lowercased()
    if scheme == "about:" || blockedSchemes.contains(scheme) { return .blocked }
    if let origin = originOf(url), allowedOrigins.contains(origin) { return .load }
    return .external
  }
}
// #endregion swift-navigation
