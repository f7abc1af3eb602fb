#!/usr/bin/env python3
"""A token route and webhook receiver in Python's standard library only, graded by `hub-embed-mock certify`.

It is the part of an integrator's backend the spec asks for, in another language than the toolkit's:
sign-in (a session cookie), the token route (the API key stays here; the user comes from the session),
and the receiver (allow-list by the socket's address, deduct and refund once per body, a deadline
inside the service's 10 seconds, notification links by the spec's rule). The ledger is SQLite.
Two test hooks serve the grader: GET /api/points shows the signed-in user's balance and links.

Environment: HUB_API_KEY, HUB_BASE_URL, HUB_FORM_URL, HUB_WEBHOOK_IPS (comma-separated), PORT,
ALLOWED_ORIGINS (comma-separated; default http://127.0.0.1:PORT), HUB_DELIVERY_TIMEOUT_MS (default 10000).
"""
import hashlib
import json
import os
import re
import secrets
import sqlite3
import threading
import time
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from webhook_shape import has_event_shape  # the body's shape by openapi.json's types (hub_types.py)

API_KEY = os.environ["HUB_API_KEY"]
API_ROOT = os.environ["HUB_BASE_URL"].rstrip("/") + "/api/v1/hub"
FORM_URL = os.environ["HUB_FORM_URL"].rstrip("/")
ALLOW_IPS = {ip.strip() for ip in os.environ.get("HUB_WEBHOOK_IPS", "127.0.0.1").split(",") if ip.strip()}
PORT = int(os.environ.get("PORT", "3000"))
ORIGINS = {o.strip() for o in os.environ.get("ALLOWED_ORIGINS", f"http://127.0.0.1:{PORT}").split(",") if o.strip()}
USERS = {"alice": ("user-alice", 2000), "bob": ("user-bob", 0)}  # sign-in name: (client_user_id, opening cents)
MAX_BODY = 64 * 1024
# The service waits 10 s for an answer (HUB_DELIVERY_TIMEOUT_MS, for a simulator set shorter); a deduct
# not done well inside that is "not paid" and nothing is kept.
DEADLINE_S = 0.8 * int(os.environ.get("HUB_DELIVERY_TIMEOUT_MS", "10000")) / 1000
BODY_ERRORS = {400: "Content-Length must be one decimal number", 411: "Content-Length required",
               413: "body too large", 501: "Transfer-Encoding is not supported; send Content-Length"}
AMOUNT = re.compile(r"[0-9]{1,10}\.[0-9]{2}")  # with fullmatch: \d would take other scripts' digits, $ a newline
LENGTH = re.compile(r"[0-9]{1,19}")

db = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
db.executescript("""
  CREATE TABLE accounts (user TEXT PRIMARY KEY, cents INTEGER NOT NULL CHECK (cents >= 0));
  CREATE TABLE ledger (event_key TEXT PRIMARY KEY, user TEXT NOT NULL, kind TEXT NOT NULL, cents INTEGER NOT NULL);
  CREATE TABLE links (user TEXT NOT NULL, link TEXT NOT NULL);
""")
lock = threading.Lock()  # one writer at a time: SQLite's own rule, kept explicit
sessions = {}  # session id -> client_user_id
tokens = {}  # client_user_id -> (access_token, expires_at)


def exchange(user, refresh=False):
    """A token for the user from the service, cached until a minute before it expires."""
    cached = tokens.get(user)
    if cached and not refresh and cached[1] > time.time() + 60:
        return cached
    request = urllib.request.Request(
        API_ROOT + "/apikeys/token", method="POST", data=json.dumps({"client_user_id": user}).encode(),
        headers={"X-API-Key": API_KEY, "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        data = json.load(answer)["data"]
    tokens[user] = (data["access_token"], time.time() + data["expires_in"])
    return tokens[user]


def link_of(link_url, token):
    """The spec's rule: form-site root + link_url, token appended as query (& or ?), before any fragment."""
    path, _, fragment = link_url.partition("#")
    path, _, query = path.partition("?")
    pairs = [p for p in query.split("&") if p and urllib.parse.unquote(p.split("=")[0]).lower() != "token"]
    pairs.append("token=" + urllib.parse.quote(token, safe=""))
    return FORM_URL + path + "?" + "&".join(pairs) + ("#" + fragment if fragment else "")


def cents_of(amount):
    if not isinstance(amount, str) or not AMOUNT.fullmatch(amount):
        return None
    cents = int(amount.replace(".", ""))
    return cents if cents > 0 else None


def deduct(user, cents, key, arrived):
    with lock:
        db.execute("BEGIN IMMEDIATE")
        try:
            if db.execute("SELECT 1 FROM ledger WHERE event_key = ?", (key,)).fetchone():
                db.execute("COMMIT")
                return True  # the same delivery again: paid once, answered the same
            changed = db.execute("UPDATE accounts SET cents = cents - ? WHERE user = ? AND cents >= ?",
                                 (cents, user, cents)).rowcount
            if changed == 1:
                db.execute("INSERT INTO ledger VALUES (?, ?, 'deduct', ?)", (key, user, -cents))
            if changed != 1 or time.monotonic() - arrived > DEADLINE_S:
                db.execute("ROLLBACK")
                return False
            db.execute("COMMIT")
            return True
        except Exception:
            db.execute("ROLLBACK")
            raise


def refund(user, cents, key):
    with lock:
        db.execute("BEGIN IMMEDIATE")
        if not db.execute("SELECT 1 FROM ledger WHERE event_key = ?", (key,)).fetchone():
            charged = -(db.execute("SELECT COALESCE(SUM(cents), 0) FROM ledger WHERE user = ?", (user,)).fetchone()[0])
            if cents > charged:  # a refund gives back a charge; it never creates money
                db.execute("ROLLBACK")
                return False
            db.execute("UPDATE accounts SET cents = cents + ? WHERE user = ?", (cents, user))
            db.execute("INSERT INTO ledger VALUES (?, ?, 'refund', ?)", (key, user, cents))
        db.execute("COMMIT")
        return True


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def answer(self, status, payload=None, headers=()):
        body = b"" if payload is None else json.dumps(payload).encode()
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def session_user(self):
        for part in (self.headers.get("Cookie") or "").split(";"):
            name, _, value = part.strip().partition("=")
            if name == "session" and value in sessions:
                return sessions[value]
        return None

    def read_body(self, limit):
        """The body, or the error status to answer: refused before a byte of it is read.

        Only one decimal Content-Length up to the limit is believed: int() would take "-1" (and read(-1)
        reads until the sender stops), " +5" or "1_000", and "1e3" would raise in the handler thread.
        BaseHTTPRequestHandler does not decode chunked bodies, so Transfer-Encoding is refused too.
        """
        lengths = self.headers.get_all("Content-Length") or []
        if self.headers.get_all("Transfer-Encoding"):
            status = 501
        elif not lengths:
            status = 411
        elif len(lengths) > 1 or not LENGTH.fullmatch(lengths[0]):
            status = 400
        elif int(lengths[0]) > limit:
            status = 413
        else:
            return self.rfile.read(int(lengths[0])), None
        self.close_connection = True  # the unread body must not be taken for the next request
        return None, status

    def do_GET(self):
        user = self.session_user()
        if urllib.parse.urlsplit(self.path).path != "/api/points" or user is None:
            return self.answer(404 if user else 401, {"error": "sign in first" if user is None else "not found"})
        balance = db.execute("SELECT cents FROM accounts WHERE user = ?", (user,)).fetchone()[0]
        links = [row[0] for row in db.execute("SELECT link FROM links WHERE user = ?", (user,))]
        self.answer(200, {"balance_cents": balance, "links": links})

    def do_POST(self):
        arrived = time.monotonic()  # the service's 10 s count from here, body reading included
        path = urllib.parse.urlsplit(self.path).path
        if path == "/hooks/hub":
            return self.webhook(arrived)
        raw, refused = self.read_body(4096)
        if refused:
            return self.answer(refused, {"error": BODY_ERRORS[refused]})
        origin = self.headers.get("Origin")
        if origin is not None and origin not in ORIGINS:
            return self.answer(403, {"error": "cross-site request refused"})
        if path == "/sign-in":
            form = urllib.parse.parse_qs(raw.decode())
            name = (form.get("user") or [""])[0]
            if name not in USERS:
                return self.answer(400, {"error": "user must be alice or bob"})
            user, opening = USERS[name]
            with lock:
                db.execute("INSERT OR IGNORE INTO accounts VALUES (?, ?)", (user, opening))
            session = secrets.token_urlsafe(24)
            sessions[session] = user
            return self.answer(204, None, [("Set-Cookie", f"session={session}; HttpOnly; SameSite=Lax; Path=/")])
        if path == "/api/hub-token":
            user = self.session_user()
            if user is None:
                return self.answer(401, {"error": "sign in first"})
            try:
                asked = json.loads(raw or b"{}")
            except ValueError:
                asked = {}
            # Only `reason` and `previous` are read: the user is the session's, whatever the body says.
            stale = isinstance(asked, dict) and asked.get("reason") == "unauthorized"
            token, expires_at = exchange(user, refresh=stale)
            return self.answer(200, {"access_token": token, "expires_in": int(expires_at - time.time())},
                               [("Cache-Control", "no-store")])
        self.answer(404, {"error": "not found"})

    def webhook(self, arrived):
        # The socket's address only: a header (X-Forwarded-For) is the sender's to choose.
        if self.client_address[0] not in ALLOW_IPS:
            self.close_connection = True
            return self.answer(403, {"error": "address not allowed"})
        header = self.headers.get("X-Webhook-Event", "")
        raw, refused = self.read_body(MAX_BODY)
        if refused:
            return self.answer(refused, {"error": BODY_ERRORS[refused]})
        try:
            event = json.loads(raw)
        except ValueError:
            event = None
        billing_deduct = header == "billing_deduct"
        valid = has_event_shape(event) and event.get("event") == header and isinstance(event.get("target"), dict)
        user = event["target"].get("client_user_id") if valid else None
        key = hashlib.sha256(raw).hexdigest()
        if header in ("billing_deduct", "billing_refund"):
            cents = cents_of((event.get("billing") or {}).get("amount")) if valid else None
            if not (valid and isinstance(user, str) and cents):
                return self.answer(200 if billing_deduct else 400, {"ok": False})
            if billing_deduct:
                return self.answer(200, {"ok": deduct(user, cents, key, arrived)})
            return self.answer(200 if refund(user, cents, key) else 422, {"ok": True})
        if not valid:
            return self.answer(400, {"error": "not a notification"})
        link_url = (event.get("notification") or {}).get("link_url")
        if isinstance(user, str) and isinstance(link_url, str) and link_url.startswith("/") and not link_url.startswith("//"):
            with lock:
                db.execute("INSERT INTO links VALUES (?, ?)", (user, link_of(link_url, exchange(user)[0])))
        self.answer(204)

    def log_message(self, *args):
        pass  # quiet; the grader prints what was sent and answered


if __name__ == "__main__":
    server = ThreadingHTTPServer(("127.0.0.1", PORT), Handler)
    print(f"python receiver on http://127.0.0.1:{server.server_address[1]}", flush=True)
    server.serve_forever()
