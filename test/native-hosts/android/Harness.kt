// Runs examples/android/HubEmbedProtocol.kt on a JVM for test/native-hosts/android/kotlin-vectors.test.ts: one JSON command
// per stdin line, one JSON line per thing the host did on stdout (non-ASCII escaped, so no console charset
// can change a byte). The test decides what is right; this file only moves strings, as the Android glue does.
import com.example.hubembed.HubEmbedNavigation
import com.example.hubembed.HubEmbedProtocol
import com.example.hubembed.HubEvent
import com.example.hubembed.HubToken
import com.example.hubembed.HubTokenRequest
import com.example.hubembed.PageAnswer
import org.json.JSONArray
import org.json.JSONObject

private fun ascii(json: String) = buildString {
  for (c in json) if (c.toInt() < 0x7f) append(c) else append(String.format("\\u%04x", c.toInt()))
}

private fun out(json: JSONObject) = println(ascii(json.toString()))

private fun answerJson(answer: PageAnswer) = JSONObject().put("out", "answer").put("ok", answer.ok)
  .put("result", answer.result ?: JSONObject.NULL).put("code", answer.code ?: JSONObject.NULL)
  .put("message", answer.message ?: JSONObject.NULL)

private fun eventJson(event: HubEvent): JSONObject {
  val params = when (event) {
    // A null locale puts no key: the params the page sent had none.
    is HubEvent.Ready -> JSONObject().put("version", event.version).put("locale", event.locale)
    is HubEvent.TableSelected -> JSONObject().put("shortCode", event.shortCode).put("name", event.name)
    is HubEvent.TagsChanged -> JSONObject().put("tags", JSONArray(event.tags))
    is HubEvent.FormOpened -> JSONObject().put("shortCode", event.shortCode).put("handledBy", event.handledBy)
    is HubEvent.FormClosed -> JSONObject().put("shortCode", event.shortCode)
    is HubEvent.WidgetError -> JSONObject().put("kind", event.kind).put("message", event.message)
    is HubEvent.FormMessage -> JSONObject().put("shortCode", event.shortCode).put("data", event.data ?: JSONObject.NULL)
  }
  return JSONObject().put("out", "event").put("type", event.javaClass.simpleName).put("params", params)
}

fun main() {
  val timers = mutableListOf<() -> Unit>()
  val held = mutableListOf<(HubToken?) -> Unit>()
  var host: HubEmbedProtocol? = null
  val input = System.`in`.bufferedReader(Charsets.UTF_8)
  while (true) {
    val line = input.readLine() ?: break
    if (line.isBlank()) continue
    val command = JSONObject(line)
    when (command.getString("op")) {
      "host" -> {
        val token = command.optJSONObject("token")
        val openForm = command.opt("openForm")
        val tokens: (HubTokenRequest, (HubToken?) -> Unit) -> Unit = { request, done ->
          // A null previous puts no key, as the vectors write a request without one.
          out(JSONObject().put("out", "getToken").put("reason", request.reason).put("previous", request.previous))
          // {hold: true}: the app answers later, at {op: release} (a slow server).
          if (token!!.optBoolean("hold")) held.add(done) else done(if (token.has("access_token")) HubToken(token.getString("access_token"), token.getInt("expires_in")) else null)
        }
        val forms: (String, String) -> Boolean = { shortCode, url ->
          out(JSONObject().put("out", "openForm").put("shortCode", shortCode).put("url", url))
          openForm == true
        }
        host = HubEmbedProtocol(
          platform = command.getString("platform"),
          nonce = command.getString("nonce"),
          getToken = if (token == null) null else tokens,
          openForm = if (openForm is Boolean) forms else null,
          onEvent = { out(eventJson(it)) },
          send = { script, json -> out(JSONObject().put("out", "send").put("json", json).put("script", script)) },
          schedule = { _, task -> timers.add(task) },
          onRejected = { out(JSONObject().put("out", "rejected").put("reason", it)) }
        )
      }
      // {stamp: true}: the message gets the host's current nonce, as the page reads it from this load's marker.
      "post" -> host!!.receive(
        if (command.optBoolean("stamp")) JSONObject(command.getString("data")).put("nonce", host!!.nonce).toString()
        else command.getString("data")
      )
      "setTags" -> {
        val tags = command.getJSONArray("tags")
        host!!.setTags((0 until tags.length()).map { tags.getString(it) }) { out(answerJson(it)) }
      }
      "refresh" -> host!!.refresh { out(answerJson(it)) }
      "closeForm" -> host!!.closeForm { out(answerJson(it)) }
      "back" -> out(JSONObject().put("out", "back").put("handled", host!!.back()))
      "touch" -> host!!.touched()
      "reload" -> if (command.has("nonce")) host!!.reload(command.getString("nonce")) else host!!.reload()
      "selection" -> out(JSONObject().put("out", "selection").put("tags", host!!.selection?.let { JSONArray(it) } ?: JSONObject.NULL))
      "release" -> { val due = held.toList(); held.clear(); due.forEach { it(HubToken("late-token", 60)) } }
      "announce" -> host!!.announce()
      "elapse" -> { val due = timers.toList(); timers.clear(); due.forEach { it() } }
      "marker" -> out(JSONObject().put("out", "marker").put("script", host!!.marker(command.getString("origin"))))
      "navigate" -> {
        val allowed = command.getJSONArray("allowed")
        val origins = (0 until allowed.length()).map { allowed.getString(it) }.toSet()
        val urls = command.getJSONArray("urls")
        val decisions = JSONArray()
        for (i in 0 until urls.length()) decisions.put(HubEmbedNavigation.decide(urls.getString(i), origins).name.toLowerCase())
        out(JSONObject().put("out", "decisions").put("decisions", decisions))
      }
      else -> throw IllegalArgumentException("unknown op " + command.getString("op"))
    }
  }
}
