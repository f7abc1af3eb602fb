// The Android glue around HubEmbedProtocol.kt: a WebView that shows the widget page, hands the page's
// strings to the protocol and the protocol's scripts to the page, keeps navigation to the widget's and the
// form site's origins, sends other links to a Custom Tab, and puts a new WebView in place of one whose
// renderer died (the protocol then selects the user's last tags in the new page), and keeps clear of the
// system bars and the keyboard by their insets (edge to edge). Dependencies: androidx.webkit (1.6+),
// androidx.browser and androidx.core (core-ktx). R8: keep @JavascriptInterface methods
// (-keepclassmembers class * { @android.webkit.JavascriptInterface <methods>; }).
//
// This file needs the Android SDK, which CI does not have: test/host/docs-hosts.test.ts reads it for the
// rules below; the protocol it calls runs on a JVM against every test vector (test/native-hosts/android/kotlin-vectors.test.ts).
package com.example.hubembed

import android.annotation.SuppressLint
import android.content.Context
import android.content.Intent
import android.graphics.Bitmap
import android.net.Uri
import android.os.Handler
import android.os.Looper
import android.os.Message
import android.view.ViewGroup
import android.webkit.JavascriptInterface
import android.webkit.RenderProcessGoneDetail
import android.webkit.WebChromeClient
import android.webkit.WebResourceRequest
import android.webkit.WebView
import android.webkit.WebViewClient
import androidx.activity.ComponentActivity
import androidx.activity.addCallback
import androidx.browser.customtabs.CustomTabsIntent
import androidx.core.view.ViewCompat
import androidx.core.view.WindowInsetsCompat
import androidx.core.view.updateLayoutParams
import androidx.webkit.ScriptHandler
import androidx.webkit.WebViewCompat
import androidx.webkit.WebViewFeature

// #region kotlin-host
class HubEmbedWebView(
  private val context: Context,
  webView: WebView,
  /** The widget page's exact origin, e.g. https://widget.example.com. */
  private val widgetOrigin: String,
  /** The form site's exact origin ({form_url}): forms load inside the WebView too. */
  formOrigin: String,
  /**
   * Your server's token for the signed-in user; call done(null) when nobody is signed in. Pass the request's
   * reason and previous on: with `unauthorized` your server must drop `previous` from its cache.
   */
  getToken: (request: HubTokenRequest, done: (HubToken?) -> Unit) -> Unit,
  /** What the widget tells the app: Ready, TableSelected, TagsChanged, FormOpened, FormClosed, WidgetError, FormMessage. */
  onEvent: (HubEvent) -> Unit,
  /** A new WebView took the place of one whose renderer died (same parent, index and layout): keep it, not the old one. */
  private val onWebViewReplaced: (WebView) -> Unit = {}
) {
  /** The WebView showing the widget: a new one after a renderer died. */
  var webView: WebView = webView
    private set
  private val allowedOrigins = setOf(widgetOrigin, formOrigin)
  private var url: String? = null
  private var setUpFor: WebView? = null
  private val main = Handler(Looper.getMainLooper())
  /** Whether the current main-frame page is the widget page: only then does the host inject or answer. */
  private var onWidget = false
  /** The document-start marker in place now, and its nonce: the one the next page load gets. */
  private var markerScript: ScriptHandler? = null
  private var markerNonce = ""
  private var atDocumentStart = false

  val protocol = HubEmbedProtocol(
    platform = "android",
    getToken = getToken,
    // No openForm: forms open in the page's own dialog. To show them in a screen of yours, pass
    // openForm = { shortCode, url -> showForm(url); true } (url is on the form site; check its origin).
    onEvent = onEvent,
    send = { script, _ -> if (onWidget) webView.evaluateJavascript(script, null) },
    schedule = { delayMs, task -> main.postDelayed({ task() }, delayMs) }
  )

  /** Selects tags in the widget, and keeps them: a page that loads again shows them too. */
  fun setTags(tags: List<String>, done: (PageAnswer) -> Unit = {}) = protocol.setTags(tags, done)

  /** Android's back: closes the page's form and returns true, or returns false (back is the app's). */
  fun back(): Boolean = protocol.back()

  fun load(url: String) {
    this.url = url
    // Once per WebView: its scripts and listener stay for every page it loads.
    if (setUpFor != webView) setUp(webView)
    setUpFor = webView
    webView.loadUrl(url)
  }

  @SuppressLint("SetJavaScriptEnabled", "JavascriptInterface", "ClickableViewAccessibility")
  private fun setUp(view: WebView) {
    keepClearOfBarsAndKeyboard(view)
    // A touch makes the page's next form.opened believed again (back then closes that form first).
    view.setOnTouchListener { _, _ -> protocol.touched(); false }
    view.settings.javaScriptEnabled = true
    view.settings.setSupportMultipleWindows(true)   // window.open and target=_blank reach onCreateWindow
    atDocumentStart = WebViewFeature.isFeatureSupported(WebViewFeature.DOCUMENT_START_SCRIPT)
    markerScript = null   // a new WebView (after a renderer died) starts with no script of the old one
    if (atDocumentStart) armMarker(view)
    if (WebViewFeature.isFeatureSupported(WebViewFeature.WEB_MESSAGE_LISTENER)) {
      // Injected only into frames of the widget origin; runs on the UI thread.
      WebViewCompat.addWebMessageListener(view, "hubEmbed", setOf(widgetOrigin)) { _, message, sourceOrigin, isMainFrame, _ ->
        val data = message.data
        if (isMainFrame && sourceOrigin.toString() == widgetOrigin && onWidget && data != null) protocol.receive(data)
      }
    } else {
      // A JavascriptInterface is visible to every frame and runs on the "JavaBridge" thread: hop to the UI
      // thread, check the main frame's origin there; the nonce keeps the widget page's sub-frames out.
      view.addJavascriptInterface(object {
        @JavascriptInterface fun postMessage(json: String) {
          main.post { if (onWidget && view == webView && HubEmbedNavigation.originOf(view.url ?: "") == widgetOrigin) protocol.receive(json) }
        }
      }, "hubEmbed")
    }
    view.webViewClient = object : WebViewClient() {
      override fun onPageStarted(view: WebView, url: String, favicon: Bitmap?) {
        // A document-start marker ran as this page's document was made, before this call: the protocol takes
        // up its nonce, and the next load gets a marker of its own. Without one, a fresh nonce.
        if (atDocumentStart) {
          protocol.reload(markerNonce)
          armMarker(view)
        } else protocol.reload()
        onWidget = HubEmbedNavigation.originOf(url) == widgetOrigin
        // Without document-start scripts the marker (and its nonce) comes as early as Android lets it, and
        // once more when the page is committed; the page waits for a late marker, bridge.ready tells it.
        if (!atDocumentStart && onWidget) view.evaluateJavascript(protocol.marker(widgetOrigin), null)
      }

      override fun onPageCommitVisible(view: WebView, url: String) {
        if (!onWidget) return
        if (!atDocumentStart) view.evaluateJavascript(protocol.marker(widgetOrigin), null)
        // A hello the new page sent before onPageStarted reached us was forgotten by reload(): ask again.
        protocol.announce()
      }

      override fun shouldOverrideUrlLoading(view: WebView, request: WebResourceRequest): Boolean {
        // Sub-frames of the page load as the page says; the main frame stays on the allowed origins.
        if (!request.isForMainFrame) return false
        return when (HubEmbedNavigation.decide(request.url.toString(), allowedOrigins)) {
          HubEmbedNavigation.Decision.LOAD -> false
          HubEmbedNavigation.Decision.EXTERNAL -> { if (request.hasGesture()) openExternal(request.url); true }
          HubEmbedNavigation.Decision.BLOCKED -> true
        }
      }

      override fun onRenderProcessGone(view: WebView, detail: RenderProcessGoneDetail): Boolean {
        // The renderer crashed or Android reclaimed it: this WebView can show nothing again, and returning
        // false would take the app down with it. A new WebView takes its place and loads the page again;
        // when that page says hello, the protocol selects the user's last tags in it.
        if (view == webView) replaceDeadWebView(view) else view.destroy()
        return true
      }
    }
    view.webChromeClient = object : WebChromeClient() {
      override fun onCreateWindow(view: WebView, isDialog: Boolean, isUserGesture: Boolean, resultMsg: Message): Boolean {
        if (!isUserGesture) return false
        // The new window's URL arrives in a throwaway WebView's first navigation: send it out, create nothing.
        val probe = WebView(view.context)
        probe.webViewClient = object : WebViewClient() {
          override fun shouldOverrideUrlLoading(v: WebView, r: WebResourceRequest): Boolean {
            if (HubEmbedNavigation.decide(r.url.toString(), emptySet()) == HubEmbedNavigation.Decision.EXTERNAL) openExternal(r.url)
            v.destroy()
            return true
          }

          // It shares the renderer: unhandled, that renderer's death would end the app.
          override fun onRenderProcessGone(v: WebView, detail: RenderProcessGoneDetail): Boolean { v.destroy(); return true }
        }
        (resultMsg.obj as WebView.WebViewTransport).webView = probe
        resultMsg.sendToTarget()
        return true
      }
    }
  }

  /**
   * Edge to edge (Android 15 with targetSdk 35; every app on Android 16): the window draws under the system
   * bars and no longer resizes for the keyboard, so adjustResize keeps nothing clear. The WebView keeps
   * clear by the insets instead: the bars' and the display cutout's on every side, and at the bottom the
   * keyboard's (IME) while it shows, so the widget's search and form fields stay above it.
   */
  private fun keepClearOfBarsAndKeyboard(view: WebView) {
    ViewCompat.setOnApplyWindowInsetsListener(view) { v, insets ->
      val bars = insets.getInsets(WindowInsetsCompat.Type.systemBars() or WindowInsetsCompat.Type.displayCutout())
      val keyboard = insets.getInsets(WindowInsetsCompat.Type.ime())
      v.updateLayoutParams<ViewGroup.MarginLayoutParams> {
        setMargins(bars.left, bars.top, bars.right, maxOf(bars.bottom, keyboard.bottom))
      }
      WindowInsetsCompat.CONSUMED
    }
    ViewCompat.requestApplyInsets(view)
  }

  /** A marker with a fresh nonce, at document start in the widget origin's frames only, for the next page load. */
  private fun armMarker(view: WebView) {
    markerScript?.remove()
    markerNonce = HubEmbedProtocol.randomNonce()
    // Before any script of the page, in the widget origin's frames only.
    markerScript = WebViewCompat.addDocumentStartJavaScript(view, protocol.marker(widgetOrigin, nonce = markerNonce), setOf(widgetOrigin))
  }

  private fun replaceDeadWebView(dead: WebView) {
    protocol.reload()   // what the dead page was asked fails now (E_CANCELLED)
    onWidget = false
    val parent = dead.parent as? ViewGroup
    val index = parent?.indexOfChild(dead) ?: -1
    val layout = dead.layoutParams
    parent?.removeView(dead)
    dead.destroy()
    val fresh = WebView(context)
    webView = fresh
    if (parent != null) parent.addView(fresh, index, layout)
    onWebViewReplaced(fresh)
    url?.let { load(it) }
  }

  /** Web links in a Custom Tab; mailto: and tel: to their apps. javascript:, data:, file:, intent: never get here. */
  private fun openExternal(uri: Uri) {
    when (uri.scheme) {
      "http", "https" -> CustomTabsIntent.Builder().build().launchUrl(context, uri)
      "mailto", "tel" -> context.startActivity(Intent(Intent.ACTION_VIEW, uri))
    }
  }
}
// #endregion kotlin-host

// #region kotlin-usage
// In an Activity: events to the app, and one request to the page with its answer.
fun showWidget(context: Context, webView: WebView, api: MyServer) {
  val host = HubEmbedWebView(context, webView, "https://widget.example.com", "https://forms.example.com",
    getToken = { request, done -> api.hubToken(request.reason, request.previous) { token -> done(token) } },   // done on the UI thread
    onEvent = { event ->
      when (event) {
        is HubEvent.Ready -> api.log("widget ${event.version} ready, in ${event.locale ?: "its default language"}")
        is HubEvent.TableSelected -> api.log("table ${event.shortCode}: ${event.name}")
        // The host already selects these again after a reload; keep them to open the next screen with them.
        is HubEvent.TagsChanged -> api.saveFilter(event.tags)
        is HubEvent.FormOpened -> api.log("form ${event.shortCode} opened by ${event.handledBy}")
        is HubEvent.FormClosed -> api.refreshOrders()   // the outcome comes from your own server
        is HubEvent.WidgetError -> api.log("widget error ${event.kind}: ${event.message}")
        is HubEvent.FormMessage -> api.log("form ${event.shortCode} said ${event.data}")
      }
    })
  // The filter the user chose last time, if any: the page gets it as it says hello.
  api.savedFilter()?.let { host.setTags(it) }
  host.load("https://widget.example.com/embed")
  // Later, e.g. from a filter in your own toolbar:
  host.setTags(listOf("HR")) { answer -> if (!answer.ok) api.log("setTags failed: ${answer.code}") }
  // Android's back closes the page's form first, as <HubEmbedView> does; with none open, back is the app's.
  (context as? ComponentActivity)?.let { activity ->
    activity.onBackPressedDispatcher.addCallback(activity) {
      if (host.back()) return@addCallback
      isEnabled = false
      activity.onBackPressedDispatcher.onBackPressed()
      isEnabled = true
    }
  }
}
// #endregion kotlin-usage

/** Stands for your app's own server client. */
interface MyServer {
  /** POSTs {reason, previous} to your token route with the app's session (docs/react-native.md, the app's token route). */
  fun hubToken(reason: String, previous: String?, done: (HubToken?) -> Unit)
  fun refreshOrders()
  fun saveFilter(tags: List<String>)
  fun savedFilter(): List<String>?
  fun log(text: String)
}
