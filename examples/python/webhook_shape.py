"""Whether a webhook body has the shape openapi.json gives its event.

It parses the body with the types generated from openapi.json (hub_types.py, by the quicktype command in
docs/openapi.md), which check every field's type and presence. Events that openapi.json does not name
(a later version of the service may add some) are left to the receiver's own rules.
"""
from hub_types import billing_event_from_dict, notification_event_from_dict

BILLING_EVENTS = ("billing_deduct", "billing_refund")
NOTIFICATION_EVENTS = (
    "order_matched",
    "order_created",
    "order_grab_available",
    "order_dispatched",
    "order_grabbed",
    "enterprise_authorization_pending",
    "enterprise_authorization_approved",
)


def has_event_shape(body):
    """True when `body` (parsed JSON) is an event of openapi.json with every field it requires, or an event it does not name."""
    if not isinstance(body, dict):
        return False
    event = body.get("event")
    parse = billing_event_from_dict if event in BILLING_EVENTS else notification_event_from_dict if event in NOTIFICATION_EVENTS else None
    if parse is None:
        return True
    try:
        parse(body)
    except (AssertionError, ValueError, TypeError, AttributeError, KeyError):
        return False
    return True
