"""examples/python/receiver.py with the amount's cents taken as int(float(amount) * 100).

float("0.29") * 100 is 28.999999999999996, which int() cuts to 28: each such deduct charges a cent less
and each such refund gives a cent less back.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "..", "examples", "python"))
import receiver  # noqa: E402


def cents_of(amount):
    if not isinstance(amount, str) or not receiver.AMOUNT.fullmatch(amount):
        return None
    cents = int(float(amount) * 100)
    return cents if cents > 0 else None


receiver.cents_of = cents_of

if __name__ == "__main__":
    server = receiver.ThreadingHTTPServer(("127.0.0.1", receiver.PORT), receiver.Handler)
    print(f"python receiver on http://127.0.0.1:{server.server_address[1]}", flush=True)
    server.serve_forever()
