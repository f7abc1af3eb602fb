#!/usr/bin/env python3
"""The native shell of an iOS-style host, on WebKitGTK: a WebView whose user content manager registers
`hubEmbed` with register_script_message_handler_with_reply, which gives the page the same
`window.webkit.messageHandlers.hubEmbed.postMessage(...)` promise as iOS's WKScriptMessageHandlerWithReply.

It decides nothing about the protocol. Like the thin Swift host of docs/webview-ios.md, it moves strings:
every page message goes out on stdout to the Node process that runs the host kernel (hub-embed/host),
and that process's answers come back on stdin, one JSON object per line:
  in:  {"op": "load", "url": ..., "marker": <script run at document start in the main frame>}
       {"op": "eval", "script": ...}      evaluateJavaScript, e.g. the kernel's __hubEmbedReceive scripts
       {"op": "reply", "id": n, "json": <string or null>}   the replyHandler's value for message n
       {"op": "quit"}
  out: {"op": "started", "webkit": "2.50.x"}   {"op": "loaded", "url": ...}
       {"op": "message", "id": n, "data": <the page's string>}
"""
import json
import os
import sys

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("WebKit2", "4.1")
gi.require_version("JavaScriptCore", "4.1")
from gi.repository import GLib, Gtk, JavaScriptCore, WebKit2  # noqa: E402

pending = {}
counter = 0


def emit(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


manager = WebKit2.UserContentManager()
manager.register_script_message_handler_with_reply("hubEmbed", None)
view = WebKit2.WebView.new_with_user_content_manager(manager)


def on_message(_manager, value, reply):
    global counter
    counter += 1
    # A page that posts a non-string gets it stringified by JavaScriptCore, as on iOS.
    pending[counter] = (reply, value.get_context())
    emit({"op": "message", "id": counter, "data": value.to_string()})
    return True  # the reply comes later, from the kernel


manager.connect("script-message-with-reply-received::hubEmbed", on_message)


def on_load_changed(_view, event):
    if event == WebKit2.LoadEvent.COMMITTED:
        emit({"op": "loaded", "url": view.get_uri()})


view.connect("load-changed", on_load_changed)


def handle(command):
    op = command["op"]
    if op == "load":
        manager.remove_all_scripts()
        manager.add_script(
            WebKit2.UserScript.new(
                command["marker"],
                WebKit2.UserContentInjectedFrames.TOP_FRAME,
                WebKit2.UserScriptInjectionTime.START,
                None,
                None,
            )
        )
        view.load_uri(command["url"])
    elif op == "eval":
        view.evaluate_javascript(command["script"], -1, None, None, None, None, None)
    elif op == "reply":
        reply, context = pending.pop(command["id"])
        text = command["json"]
        value = JavaScriptCore.Value.new_null(context) if text is None else JavaScriptCore.Value.new_string(context, text)
        reply.return_value(value)
    elif op == "quit":
        Gtk.main_quit()


buffer = b""


def on_stdin(fd, condition):
    # Raw reads of whatever arrived: a buffered readline() would keep a second line in Python's buffer,
    # where the fd watch never sees it, and that command would wait for the next write.
    global buffer
    chunk = os.read(fd, 65536) if condition & GLib.IO_IN else b""
    if not chunk:
        Gtk.main_quit()
        return False
    buffer += chunk
    *lines, buffer = buffer.split(b"\n")
    for line in lines:
        if line.strip():
            handle(json.loads(line))
    return True


GLib.io_add_watch(sys.stdin.fileno(), GLib.IO_IN | GLib.IO_HUP, on_stdin)
window = Gtk.Window(title="hub-embed iOS-style host")
window.set_default_size(420, 800)
window.add(view)
window.show_all()
version = f"{WebKit2.get_major_version()}.{WebKit2.get_minor_version()}.{WebKit2.get_micro_version()}"
emit({"op": "started", "webkit": version, "userAgent": view.get_settings().get_user_agent()})
Gtk.main()
