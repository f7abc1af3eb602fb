from enum import Enum
from dataclasses import dataclass
from typing import Any, Optional, TypeVar, Type, cast


T = TypeVar("T")
EnumT = TypeVar("EnumT", bound=Enum)


def from_str(x: Any) -> str:
    assert isinstance(x, str)
    return x


def from_none(x: Any) -> Any:
    assert x is None
    return x


def from_union(fs, x):
    for f in fs:
        try:
            return f(x)
        except:
            pass
    assert False


def to_enum(c: Type[EnumT], x: Any) -> EnumT:
    assert isinstance(x, c)
    return x.value


def to_class(c: Type[T], x: Any) -> dict:
    assert isinstance(x, c)
    return cast(Any, x).to_dict()


def from_bool(x: Any) -> bool:
    assert isinstance(x, bool)
    return x


class NotificationEventEvent(Enum):
    """One of the notification events."""

    ENTERPRISE_AUTHORIZATION_APPROVED = "enterprise_authorization_approved"
    ENTERPRISE_AUTHORIZATION_PENDING = "enterprise_authorization_pending"
    ORDER_CREATED = "order_created"
    ORDER_DISPATCHED = "order_dispatched"
    ORDER_GRABBED = "order_grabbed"
    ORDER_GRAB_AVAILABLE = "order_grab_available"
    ORDER_MATCHED = "order_matched"


@dataclass
class Notification:
    """The message, displayable to the end user."""

    content: str
    """Message text, displayable to the end user."""

    link_url: str
    """In-site path beginning with `/`; contains neither domain nor token. The full link: the
    form site's root + `link_url` + `token` (an access token of `target.client_user_id`,
    URL-encoded), joined with `&` when the path already has a query and `?` otherwise.
    """
    title: str
    """Message title, displayable to the end user."""

    @staticmethod
    def from_dict(obj: Any) -> 'Notification':
        assert isinstance(obj, dict)
        content = from_str(obj.get("content"))
        link_url = from_str(obj.get("link_url"))
        title = from_str(obj.get("title"))
        return Notification(content, link_url, title)

    def to_dict(self) -> dict:
        result: dict = {}
        result["content"] = from_str(self.content)
        result["link_url"] = from_str(self.link_url)
        result["title"] = from_str(self.title)
        return result


@dataclass
class Target:
    """The end user the event is about."""

    client_user_id: Optional[str] = None
    """Target end user, as the developer's own id."""

    @staticmethod
    def from_dict(obj: Any) -> 'Target':
        assert isinstance(obj, dict)
        client_user_id = from_union([from_none, from_str], obj.get("client_user_id"))
        return Target(client_user_id)

    def to_dict(self) -> dict:
        result: dict = {}
        result["client_user_id"] = from_union([from_none, from_str], self.client_user_id)
        return result


@dataclass
class NotificationEvent:
    """A notification event: a business message (orders, matching, grabbing, enterprise
    authorization).
    
    The fields every event carries. Sent as HTTP POST with a JSON body; authenticated by the
    source IP only (no signature).
    """
    event: NotificationEventEvent
    """One of the notification events.
    
    Event name; equal to the `X-Webhook-Event` header.
    """
    notification: Notification
    """The message, displayable to the end user."""

    short_code: str
    """Project short code; may be an empty string for enterprise-authorization events."""

    target: Target
    """The end user the event is about."""

    timestamp: str
    """Event time, ISO 8601 with the UTC+08:00 offset."""

    project_icon_url: Optional[str] = None
    """Project icon URL."""

    @staticmethod
    def from_dict(obj: Any) -> 'NotificationEvent':
        assert isinstance(obj, dict)
        event = NotificationEventEvent(obj.get("event"))
        notification = Notification.from_dict(obj.get("notification"))
        short_code = from_str(obj.get("short_code"))
        target = Target.from_dict(obj.get("target"))
        timestamp = from_str(obj.get("timestamp"))
        project_icon_url = from_union([from_none, from_str], obj.get("project_icon_url"))
        return NotificationEvent(event, notification, short_code, target, timestamp, project_icon_url)

    def to_dict(self) -> dict:
        result: dict = {}
        result["event"] = to_enum(NotificationEventEvent, self.event)
        result["notification"] = to_class(Notification, self.notification)
        result["short_code"] = from_str(self.short_code)
        result["target"] = to_class(Target, self.target)
        result["timestamp"] = from_str(self.timestamp)
        result["project_icon_url"] = from_union([from_none, from_str], self.project_icon_url)
        return result


@dataclass
class Billing:
    """What to deduct or refund."""

    amount: str
    """The amount, in yuan, with two decimals (a string: `"1.50"` is 150 cents)."""

    reason: str
    """Reason text, displayable to the user."""

    @staticmethod
    def from_dict(obj: Any) -> 'Billing':
        assert isinstance(obj, dict)
        amount = from_str(obj.get("amount"))
        reason = from_str(obj.get("reason"))
        return Billing(amount, reason)

    def to_dict(self) -> dict:
        result: dict = {}
        result["amount"] = from_str(self.amount)
        result["reason"] = from_str(self.reason)
        return result


class BillingEventEvent(Enum):
    """`billing_deduct` or `billing_refund`."""

    BILLING_DEDUCT = "billing_deduct"
    BILLING_REFUND = "billing_refund"


@dataclass
class BillingEvent:
    """A billing event, sent to the billing URL: the developer does the accounting on its side.
    
    The fields every event carries. Sent as HTTP POST with a JSON body; authenticated by the
    source IP only (no signature).
    """
    billing: Billing
    """What to deduct or refund."""

    event: BillingEventEvent
    """`billing_deduct` or `billing_refund`.
    
    Event name; equal to the `X-Webhook-Event` header.
    """
    short_code: str
    """Project short code; may be an empty string for enterprise-authorization events."""

    target: Target
    """The end user the event is about."""

    timestamp: str
    """Event time, ISO 8601 with the UTC+08:00 offset."""

    project_icon_url: Optional[str] = None
    """Project icon URL."""

    @staticmethod
    def from_dict(obj: Any) -> 'BillingEvent':
        assert isinstance(obj, dict)
        billing = Billing.from_dict(obj.get("billing"))
        event = BillingEventEvent(obj.get("event"))
        short_code = from_str(obj.get("short_code"))
        target = Target.from_dict(obj.get("target"))
        timestamp = from_str(obj.get("timestamp"))
        project_icon_url = from_union([from_none, from_str], obj.get("project_icon_url"))
        return BillingEvent(billing, event, short_code, target, timestamp, project_icon_url)

    def to_dict(self) -> dict:
        result: dict = {}
        result["billing"] = to_class(Billing, self.billing)
        result["event"] = to_enum(BillingEventEvent, self.event)
        result["short_code"] = from_str(self.short_code)
        result["target"] = to_class(Target, self.target)
        result["timestamp"] = from_str(self.timestamp)
        result["project_icon_url"] = from_union([from_none, from_str], self.project_icon_url)
        return result


@dataclass
class BillingDeductAnswer:
    """The receiver's answer to `billing_deduct`, with HTTP 200."""

    ok: bool
    """`true`: the deduction succeeded. `false`: it failed (insufficient balance or similar)."""

    @staticmethod
    def from_dict(obj: Any) -> 'BillingDeductAnswer':
        assert isinstance(obj, dict)
        ok = from_bool(obj.get("ok"))
        return BillingDeductAnswer(ok)

    def to_dict(self) -> dict:
        result: dict = {}
        result["ok"] = from_bool(self.ok)
        return result


def notification_event_from_dict(s: Any) -> NotificationEvent:
    return NotificationEvent.from_dict(s)


def notification_event_to_dict(x: NotificationEvent) -> Any:
    return to_class(NotificationEvent, x)


def billing_event_from_dict(s: Any) -> BillingEvent:
    return BillingEvent.from_dict(s)


def billing_event_to_dict(x: BillingEvent) -> Any:
    return to_class(BillingEvent, x)


def billing_deduct_answer_from_dict(s: Any) -> BillingDeductAnswer:
    return BillingDeductAnswer.from_dict(s)


def billing_deduct_answer_to_dict(x: BillingDeductAnswer) -> Any:
    return to_class(BillingDeductAnswer, x)
