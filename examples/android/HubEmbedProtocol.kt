// Bridge protocol v1 (docs/webview.md), the host side, in plain Kotlin and org.json: no android.* import,
// so the same file runs in the app and on a JVM, where test/native-hosts/android/kotlin-vectors.test.ts feeds it every
// protocol test vector (test/fixtures/bridge-vectors.json). HubEmbedWebView.kt is the Android glue around it.
// org.json is Android's own; on a JVM, Debian's libandroid-json-java is the same implementation.
//
// Not thread-safe on purpose: call everything on one thread (Android: the UI thread), including the
// answers the app gives to getToken.
package com.example.hubembed

import org.json.JSONArray
import org.json.JSONException
import org.json.JSONObject
import org.json.JSONTokener

// #region kotlin-protocol-api
/** What the widget page tells the app, each with its documented params (src/bridge/methods.ts). */
sealed class HubEvent {
  /** `locale` is the widget's language (`zh-CN` or `en`), for your own controls; null from older pages. */
  data class Ready(val version: String, val locale: String? = null) : HubEvent()
  data class TableSelected(val shortCode: String, val name: String) : HubEvent()
  /** The user changed the selection in the page (a chip, or "show all": no tags); never for your own setTags. */
  data class TagsChanged(val tags: List<String>) : HubEvent()
  data class FormOpened(val shortCode: String, val handledBy: String) : HubEvent()
  data class FormClosed(val shortCode: String) : HubEvent()
  data class WidgetError(val kind: String, val message: String) : HubEvent()
  /** What the form page posted to the widget; `data` is any JSON value (JSONObject, JSONArray, String, ...). */
  data class FormMessage(val shortCode: String, val data: Any?) : HubEvent()
}

data class HubToken(val accessToken: String, val expiresIn: Int)

/**
 * Why the page needs a token: `initial`; `expiring` (the token is about to expire); `unauthorized` (the
 * service refused [previous] before its time: get a new one from your server, never the cached one).
 * [previous] is the token being replaced, with `expiring` and `unauthorized` only.
 */
data class HubTokenRequest(val reason: String, val previous: String? = null)

/** The page's answer to a host request: `result` when ok, else a protocol error code and its message. */
data class PageAnswer(val ok: Boolean, val result: Any?, val code: String?, val message: String?)

class HubEmbedProtocol(
  private val platform: String,
  /** The first load's nonce; every reload() draws a fresh one (or takes the one the next load's marker carries). */
  nonce: String = randomNonce(),
  /** Supplies the user's token: call `done` once, with null when nobody is signed in (E_DENIED). */
  private val getToken: ((request: HubTokenRequest, done: (HubToken?) -> Unit) -> Unit)? = null,
  /** Opens the form natively and returns true, or false to let the page open it itself. */
  private val openForm: ((shortCode: String, url: String) -> Boolean)? = null,
  private val onEvent: (HubEvent) -> Unit = {},
  /** Delivers a message to the page: run `script` in the widget page's main frame (evaluateJavascript). */
  private val send: (script: String, json: String) -> Unit,
  /** Runs `task` after `delayMs` on the same thread (Android: Handler.postDelayed); null: no timeouts. */
  private val schedule: ((delayMs: Long, task: () -> Unit) -> Unit)? = null,
  /**
   * Each dropped message and why: foreign, malformed, nonce, sid, too large, no such request, and for events
   * "unknown event <name>" or "bad params: <name>" (the reasons of hub-embed/host's kernel).
   */
  private val onRejected: (reason: String) -> Unit = {},
  private val timeoutMs: Long = 10_000
)
// #endregion kotlin-protocol-api
{
  /** This load's nonce, put into the marker; the page stamps it on every message. */
  var nonce: String = nonce
    private set
  private var sessions = listOf<String>()
  private val cancelled = HashSet<String>()
  /** Host requests by id, oldest first: sent to a page session, or waiting for a page to say hello. */
  private val waiting = LinkedHashMap<String, Waiting>()
  private var counter = 0
  /** Bumped by every reload: an answer the app gives after the page went away is not sent to the new page. */
  private var load = 0

  /**
   * The selection the widget shows: the user's last one in the page (tags.changed) or the app's last
   * setTags; null until either. Each page session gets it as it says hello, so a page that loaded again (a
   * reload, a renderer that died) shows what the user chose, as <HubEmbedView> does.
   */
  var selection: List<String>? = null
    private set

  /** Whether the page said its own form is open (form.opened handledBy page): Android's back closes it first. */
  var pageForm = false
    private set
  /** Whether a page's form.opened was believed since the user last touched the view: one per touch. */
  private var formBelieved = false

  /** A host request; `sid` is null while it waits for a page to say hello. */
  private class Waiting(val method: String, val params: JSONObject, val done: (PageAnswer) -> Unit) {
    var sid: String? = null
  }

  /**
   * The script that sets the marker, for a document-start script (or, failing that, as early as the glue
   * can). It sets it only in a document of [widgetOrigin]: a run that lands in the previous page (a late
   * evaluateJavascript) or in another site's page sets nothing, so no other page learns the nonce.
   */
  fun marker(widgetOrigin: String, transport: String = "android", nonce: String = this.nonce): String {
    val json = JSONObject().put("transport", transport).put("v", 1).put("nonce", nonce).toString()
    return "if(location.origin===${scriptLiteral(widgetOrigin)})window.__HUB_EMBED_BRIDGE__=JSON.parse(${scriptLiteral(json)});true;"
  }

  /**
   * A new page started in the WebView: a fresh nonce (or [nonce], the one a marker fixed before the load
   * carries), its sessions forgotten, what the old page was asked failed. Requests still waiting for a
   * hello keep waiting, for the new page's.
   */
  fun reload(nonce: String = randomNonce()) {
    load++
    pageForm = false   // a page that loads again has no form open
    this.nonce = nonce
    sessions = listOf()
    cancelled.clear()
    val asked = waiting.filter { it.value.sid != null }
    for (id in asked.keys) waiting.remove(id)
    for (call in asked.values) call.done(PageAnswer(false, null, "E_CANCELLED", "the page loaded again"))
  }

  /** Tells a page whose marker came late to look for the host again and say hello. */
  fun announce() = deliver(envelope(JSONObject().put("sid", "").put("id", "ready").put("kind", "evt").put("method", "bridge.ready")))

  // #region kotlin-receive
  /** One string the page posted. Never throws: whatever is not this load's v1 message is dropped. */
  fun receive(raw: String) {
    if (raw.length > MAX_MESSAGE_CHARS) return onRejected("too large")
    val m = parse(raw)
    if (m == null) return onRejected("malformed")
    if (m !is JSONObject || m.opt("ns") != "hub-embed" || !isOne(m.opt("v"))) return onRejected("foreign")
    val kind = m.opt("kind")
    val method = m.opt("method") as? String
    val sid = m.opt("sid") as? String
    val id = m.opt("id") as? String
    val kindOk = if (kind == "req" || kind == "evt") method != null else kind == "res" || kind == "cancel"
    if (!kindOk || sid == null || id == null || id.length > 64) return onRejected("malformed")
    if (m.opt("nonce") != nonce) return onRejected("nonce")
    val hello = kind == "req" && method == "bridge.hello"
    if (!hello && sid !in sessions) return onRejected("sid")

    when (kind) {
      "evt" -> event(method!!, m.opt("params"))
      "cancel" -> if (cancelled.size < MAX_CANCELLED) cancelled.add(id)
      "res" -> settle(m, sid, id)
      else -> {
        // A hello makes its session the newest, the one host requests go to.
        if (hello) sessions = (sessions.filter { it != sid } + sid).takeLast(MAX_SESSIONS)
        answer(method!!, m.opt("params"), sid, id)
      }
    }
  }
  // #endregion kotlin-receive

  // #region kotlin-host-requests
  /**
   * Host -> page: select these tags in the widget; `done` gets the page's answer (or E_TIMEOUT, E_CANCELLED).
   * Called before a page said hello, it waits for the hello. The selection is kept either way, for the next
   * page session.
   */
  fun setTags(tags: List<String>, done: (PageAnswer) -> Unit = {}) {
    selection = tags.toList()
    request("widget.setTags", JSONObject().put("tags", JSONArray(tags)), done)
  }

  fun refresh(done: (PageAnswer) -> Unit = {}) = request("widget.refresh", JSONObject(), done)

  /** `result` is {closed: true} when a form was open in the page. */
  fun closeForm(done: (PageAnswer) -> Unit = {}) = request("form.close", JSONObject(), done)

  // #region kotlin-back
  /**
   * Android's back, as <HubEmbedView> takes it: with the page's form open, it closes that form and returns
   * true (consumed); otherwise false, and back goes to the app. A form.opened with no dialog behind it (a
   * page's own message) costs one press: the page answers {closed: false} and the next press goes to the app.
   */
  fun back(): Boolean {
    if (!pageForm) return false
    closeForm { answer -> if (!(answer.ok && (answer.result as? JSONObject)?.opt("closed") == true)) pageForm = false }
    return true
  }

  /** The user touched the view: the page's next form.opened is believed again (a page cannot hold back alone). */
  fun touched() {
    formBelieved = false
  }

  /** Whether the page's own form is open, from its form.opened (believed once per touch) and form.closed. */
  private fun followForm(event: HubEvent) {
    if (event is HubEvent.FormOpened) {
      val byPage = event.handledBy == "page"
      if (!byPage || !formBelieved) pageForm = byPage
      if (byPage) formBelieved = true
    }
    if (event is HubEvent.FormClosed) pageForm = false
  }
  // #endregion kotlin-back

  /**
   * Asks the newest page session. Before any page said hello (an app that calls setTags right after
   * load()), the request waits for the first hello, within the same timeout, counted from the call.
   */
  fun request(method: String, params: JSONObject, done: (PageAnswer) -> Unit) {
    val id = "h${++counter}"
    val call = Waiting(method, params, done)
    waiting[id] = call
    schedule?.invoke(timeoutMs) {
      val late = waiting.remove(id) ?: return@invoke
      late.done(PageAnswer(false, null, "E_TIMEOUT", if (late.sid == null) "$method timed out: no widget page said hello" else "$method timed out"))
    }
    sessions.lastOrNull()?.let { ask(id, call, it) }
  }

  private fun ask(id: String, call: Waiting, sid: String) {
    call.sid = sid
    deliver(envelope(JSONObject().put("sid", sid).put("id", id).put("kind", "req").put("method", call.method).put("params", call.params)))
  }
  // #endregion kotlin-host-requests

  private fun settle(m: JSONObject, sid: String, id: String) {
    val call = waiting[id]
    if (call == null || call.sid != sid) return onRejected("no such request")
    waiting.remove(id)
    if (m.opt("ok") == true) return call.done(PageAnswer(true, m.opt("result"), null, null))
    val error = m.optJSONObject("error")
    val code = error?.opt("code") as? String
    call.done(PageAnswer(false, null, if (code in ERROR_CODES) code else "E_INTERNAL", (error?.opt("message") as? String)?.take(500) ?: "page error"))
  }

  // #region kotlin-events
  private fun event(name: String, params: Any?) {
    val read = EVENTS[name] ?: return onRejected("unknown event ${name.take(100)}")
    // An event the app cannot type is not passed on half-read.
    val event = (params as? JSONObject)?.let(read) ?: return onRejected("bad params: $name")
    if (event is HubEvent.TagsChanged) selection = event.tags
    followForm(event)
    onEvent(event)
  }
  // #endregion kotlin-events

  // #region kotlin-answers
  private fun answer(method: String, params: Any?, sid: String, id: String) {
    val asked = load
    var answered = false
    fun reply(ok: Boolean, payload: JSONObject) {
      // Exactly once; not to a page that cancelled the call or went away meanwhile.
      if (answered) return
      answered = true
      if (cancelled.remove(id) || asked != load) return
      deliver(envelope(JSONObject().put("sid", sid).put("id", id).put("kind", "res").put("ok", ok).put(if (ok) "result" else "error", payload)))
    }
    fun fail(code: String, message: String) = reply(false, JSONObject().put("code", code).put("message", message))

    val p = params as? JSONObject
    try {
      when (method) {
        "bridge.hello" -> {
          reply(true, JSONObject().put("v", 1).put("platform", platform)
            .put("capabilities", JSONArray(listOfNotNull(getToken?.let { "auth.getToken" }, openForm?.let { "form.open" })))
            .put("config", JSONObject()))
          // After the hello's answer: what the app asked before any page said hello goes to this session,
          // and the kept selection, unless one of those already sets tags, before the page loads anything.
          val queued = waiting.filter { it.value.sid == null }
          for ((queuedId, call) in queued) ask(queuedId, call, sid)
          if (queued.values.none { it.method == "widget.setTags" }) selection?.let { setTags(it) }
        }
        "auth.getToken" -> {
          val tokens = getToken ?: return fail("E_NO_HANDLER", "the app handles no $method")
          tokens(tokenRequest(p)) { token ->
            when {
              token == null -> fail("E_DENIED", "no signed-in user")
              token.accessToken == "" || token.expiresIn <= 0 -> fail("E_INTERNAL", "getToken must give a token and expires_in > 0")
              else -> reply(true, JSONObject().put("access_token", token.accessToken).put("expires_in", token.expiresIn))
            }
          }
        }
        "form.open" -> {
          val open = openForm ?: return fail("E_NO_HANDLER", "the app handles no $method")
          val url = p?.opt("url") as? String
          val shortCode = p?.opt("shortCode") as? String
          if (url == null || shortCode == null) return fail("E_DENIED", "form.open needs {url, shortCode}")
          reply(true, JSONObject().put("handled", open(shortCode, url)))
        }
        else -> fail("E_NO_HANDLER", "the app handles no $method")
      }
    } catch (error: Exception) {
      fail("E_INTERNAL", (error.message ?: error.toString()).take(500))
    }
  }
  // #endregion kotlin-answers

  /**
   * The page's auth.getToken params as the app gets them, as hub-embed/host reads them: pages before 0.2 said
   * `expired`, read as `expiring`; anything else unknown is `initial`. A previous token is passed on only
   * with a later reason, and only as a string of at most 4,096 characters.
   */
  private fun tokenRequest(p: JSONObject?): HubTokenRequest {
    val reason = when (p?.opt("reason")) {
      "unauthorized" -> "unauthorized"
      "expiring", "expired" -> "expiring"
      else -> "initial"
    }
    val previous = (p?.opt("previous") as? String)?.takeIf { reason != "initial" && it.length <= 4096 }
    return HubTokenRequest(reason, previous)
  }

  private fun envelope(message: JSONObject): String =
    unescapeSlashes(message.put("ns", "hub-embed").put("v", 1).put("nonce", nonce).toString())

  private fun deliver(json: String) = send(receiveScript(json), json)

  companion object {
    const val MAX_MESSAGE_CHARS = 4 * 1024 * 1024
    private const val MAX_SESSIONS = 16
    private const val MAX_CANCELLED = 1000
    val ERROR_CODES = setOf("E_NO_HANDLER", "E_TIMEOUT", "E_CANCELLED", "E_DENIED", "E_UNSUPPORTED", "E_VERSION", "E_INTERNAL")

    // #region kotlin-event-shapes
    /**
     * Each page event, read into its type when its params have exactly the shape hub-embed/host checks
     * (src/host/event-shapes.ts: strings of bounded length, known values); null for any other shape.
     */
    private val EVENTS: Map<String, (JSONObject) -> HubEvent?> = mapOf(
      "widget.ready" to { p ->
        // locale may be absent (older pages); present, it is a short string, not null or a number.
        text(p, "version", 100)?.let { version ->
          if (!p.has("locale")) HubEvent.Ready(version) else text(p, "locale", 35)?.let { HubEvent.Ready(version, it) }
        }
      },
      "table.selected" to { p -> text(p, "shortCode", 100)?.let { code -> text(p, "name")?.let { HubEvent.TableSelected(code, it) } } },
      // As many tags, each as long, as the host may send in widget.setTags.
      "tags.changed" to { p -> strings(p.opt("tags"), 100, 200)?.let { HubEvent.TagsChanged(it) } },
      "form.opened" to { p ->
        text(p, "shortCode", 100)?.let { code -> text(p, "handledBy")?.takeIf { it == "host" || it == "page" }?.let { HubEvent.FormOpened(code, it) } }
      },
      "form.closed" to { p -> text(p, "shortCode", 100)?.let { HubEvent.FormClosed(it) } },
      "widget.error" to { p -> text(p, "kind", 100)?.let { kind -> text(p, "message", 2000)?.let { HubEvent.WidgetError(kind, it) } } },
      // What a form page posts is its own: only whose it is, and that there is data (JSON null counts).
      "form.message" to { p -> text(p, "shortCode", 100)?.takeIf { p.has("data") }?.let { HubEvent.FormMessage(it, p.opt("data")) } }
    )

    /** A string of at most `max` UTF-16 units (JavaScript's length), or null. */
    private fun text(p: JSONObject, key: String, max: Int = 500) = (p.opt(key) as? String)?.takeIf { it.length <= max }

    /** A JSON array of at most `count` strings of at most `max` units each, or null. */
    private fun strings(value: Any?, count: Int, max: Int): List<String>? {
      val array = value as? JSONArray ?: return null
      if (array.length() > count) return null
      return (0 until array.length()).map { i -> (array.opt(i) as? String)?.takeIf { it.length <= max } ?: return null }
    }
    // #endregion kotlin-event-shapes

    /** The JSON value of `raw`, or null when it is not exactly one JSON value. Never throws. */
    private fun parse(raw: String): Any? = try {
      val tokener = JSONTokener(raw)
      val value = tokener.nextValue()
      // Text after the value ("{} x") is not JSON, whatever a lenient tokener made of the start.
      if (tokener.nextClean() == '\u0000') value else null
    } catch (error: JSONException) {
      null
    } catch (error: RuntimeException) {
      null
    } catch (error: StackOverflowError) {
      null   // "[[[[…" nested deeper than the parser's recursion: the page must not crash the app
    }

    /**
     * Android's org.json writes `/` as `\/`. Both mean `/`, but the page (and the vectors) get the text
     * JSON.stringify would write: an odd run of backslashes before `/` loses its last one (`\\/` is an
     * escaped backslash and a slash, and stays).
     */
    private val SLASH = Regex("""(\\+)/""")
    private fun unescapeSlashes(json: String) =
      SLASH.replace(json) { run -> val n = run.groupValues[1].length; "\\".repeat(n - n % 2) + "/" }

    /** 1 as JSON reads it (1 and 1.0 are the same number); not "1", not true. */
    private fun isOne(value: Any?) = value is Number && value.toDouble() == 1.0

    // #region kotlin-escape
    /** A JavaScript string literal of `json`, with U+2028, U+2029 and < escaped so nothing ends the script. */
    fun scriptLiteral(json: String): String =
      unescapeSlashes(JSONObject.quote(json)).replace("\u2028", "\\u2028").replace("\u2029", "\\u2029").replace("<", "\\u003c")

    fun receiveScript(json: String) = "window.__hubEmbedReceive&&window.__hubEmbedReceive(${scriptLiteral(json)});true;"
    // #endregion kotlin-escape

    fun randomNonce(): String {
      val bytes = ByteArray(16)
      java.security.SecureRandom().nextBytes(bytes)
      return bytes.joinToString("") { String.format("%02x", it) }
    }
  }
}

// #region kotlin-navigation
/**
 * Which URLs load inside the WebView: only the widget's and the form site's origins. Other web links leave
 * for a Custom Tab, and schemes that run script or read files go nowhere. Origins are read by a small
 * parser that fails closed (userinfo, backslashes, percent-encoded hosts never count as allowed), the
 * same rules as hub-embed/host's decideNavigation.
 */
object HubEmbedNavigation {
  enum class Decision { LOAD, EXTERNAL, BLOCKED }

  private val BLOCKED_SCHEMES = setOf("javascript:", "data:", "file:", "blob:", "vbscript:", "content:", "intent:")
  private val HEAD = Regex("""^(https?:)//([^/\\?#]*)(?:[/\\?#]|$)""", RegexOption.IGNORE_CASE)
  private val AUTHORITY = Regex("""^(?:[a-z\d.-]+|\[[\da-f:.]+\])(?::\d{1,5})?$""")
  private val SCHEME = Regex("""^([a-z][a-z\d+.-]*:)""", RegexOption.IGNORE_CASE)
  private val INVISIBLE = Regex("[\u0000-\u0020\u007f-\u009f\u2028\u2029]")

  /** `scheme://host[:port]`, lower-cased, default port dropped; null for anything but a plain http(s) URL. */
  fun originOf(url: String): String? {
    val match = HEAD.find(url) ?: return null
    val scheme = asciiLower(match.groupValues[1])
    val authority = asciiLower(match.groupValues[2])
    if (!AUTHORITY.matches(authority)) return null
    val port = if (scheme == "http:") ":80" else ":443"
    return "$scheme//" + if (authority.endsWith(port)) authority.dropLast(port.length) else authority
  }

  fun decide(url: String, allowedOrigins: Set<String>): Decision {
    if (INVISIBLE.containsMatchIn(url)) return Decision.BLOCKED
    if (url == "about:blank" || url == "about:srcdoc") return Decision.LOAD
    val scheme = SCHEME.find(url)?.groupValues?.get(1)?.let(::asciiLower)
    if (scheme == null || scheme == "about:" || scheme in BLOCKED_SCHEMES) return Decision.BLOCKED
    if (originOf(url)?.let { it in allowedOrigins } == true) return Decision.LOAD
    return Decision.EXTERNAL
  }

  // URL schemes and hosts are lower-cased as ASCII, whatever the device's locale (Turkish dotless i).
  private fun asciiLower(text: String) = buildString { for (c in text) append(if (c in 'A'..'Z') c + 32 else c) }
}
// #endregion kotlin-navigation
