"""Webhooks: a seat's notices POSTed as JSON that Discord ("content") and Slack ("text")
both accept.  Sent from the outbox like the mails (app/mail.py), with the same retries.

A webhook URL is the player's, so the server must not be turned into a tool for reaching
what only it can reach: https only, no user name or password in it, and every address
its host resolves to must be a public one, checked when it is set and again before each
POST; redirects are not followed.  ``WEBHOOK_ALLOW_PRIVATE`` lifts the address rule (and
allows http) for a server whose players' hooks live on its own network, and for tests."""

from __future__ import annotations

import ipaddress
import json
import socket
import urllib.error
import urllib.request
from urllib.parse import urlsplit

from app.text import BadText

TIMEOUT = 10.0  # seconds for one POST
MAX_URL = 254
SPECIAL_USE = {"invalid", "test", "localhost", "local", "example", "internal", "lan", "home"}  # never public


def check_url(url: str, allow_private: bool = False) -> str:
    """The URL if hooks may be sent to it, else BadText saying why."""
    url = url.strip()
    if len(url) > MAX_URL:
        raise BadText(f"a webhook URL holds at most {MAX_URL} characters")
    parts = urlsplit(url)
    if parts.scheme != "https" and not (allow_private and parts.scheme == "http"):
        raise BadText("a webhook URL must start with https://")
    if not parts.hostname or parts.username or parts.password:
        raise BadText("a webhook URL needs a host name and no user name or password")
    top = parts.hostname.rstrip(".").rsplit(".", 1)[-1]
    if not allow_private and (top in SPECIAL_USE or "." not in parts.hostname):  # no lookup needed
        raise BadText(f"the webhook's host {parts.hostname} is not on the public internet")
    try:
        infos = socket.getaddrinfo(parts.hostname, parts.port or (443 if parts.scheme == "https" else 80),
                                   proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError):
        raise BadText(f"the host {parts.hostname} of the webhook URL is not known") from None
    if not allow_private:
        for info in infos:
            address = ipaddress.ip_address(info[4][0].split("%")[0])
            if not address.is_global:
                raise BadText(f"the webhook's host {parts.hostname} is not on the public internet ({address})")
    return url


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None  # a 3xx is then an error: a hook never goes where its URL does not say


_OPENER = urllib.request.build_opener(_NoRedirects)


def post(url: str, text: str, allow_private: bool = False) -> None:
    """POST one notice; OSError (urllib's errors among them) if it did not arrive."""
    try:
        check_url(url, allow_private)
    except BadText as exc:
        raise OSError(f"webhook refused: {exc}") from None
    body = json.dumps({"content": text[:2000], "text": text, "username": "Guadalcanal"}).encode()
    request = urllib.request.Request(url, data=body, method="POST", headers={
        "Content-Type": "application/json", "User-Agent": "guadalcanal-pbem-webhook/1"})
    with _OPENER.open(request, timeout=TIMEOUT) as answer:
        if answer.status >= 300:
            raise OSError(f"webhook answered {answer.status}")
