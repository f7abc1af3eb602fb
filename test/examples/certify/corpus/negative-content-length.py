"""examples/python/receiver.py with the Content-Length it once believed: int() of the header as sent.

"-1" becomes read(-1), which reads until the sender stops (any size, before any check of the body), and
"1e3" raises in the handler thread, which closes the connection without an answer.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "..", "examples", "python"))
import receiver  # noqa: E402


class Believing(receiver.Handler):
    def read_body(self, limit):
        length = int(self.headers.get("Content-Length") or 0)
        if length > limit:
            self.close_connection = True
            return None, 413
        return self.rfile.read(length), None


if __name__ == "__main__":
    server = receiver.ThreadingHTTPServer(("127.0.0.1", receiver.PORT), Believing)
    print(f"python receiver on http://127.0.0.1:{server.server_address[1]}", flush=True)
    server.serve_forever()
