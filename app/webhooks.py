"""Webhooks: a seat's notices POSTed as JSON that Discord ("content") and Slack ("text")
both accept.  Sent from the outbox like the mails (app/mail.py), with the same retries.

A webhook URL is the player's, so the server must not be turned into a tool for reaching
what only it can reach: https only, no user name or password in it, and every address
its host resolves to must be a public one (an IPv6 address that carries an IPv4 one, as
NAT64, 6to4 and the IPv4-mapped and -compatible forms do, is judged by the IPv4 address),
checked when it is set and again before each POST, which then connects to the very
address it checked (a name that resolves anew in between, DNS rebinding, reaches nothing
else); redirects are not followed.  ``WEBHOOK_ALLOW_PRIVATE`` lifts the address rule (and
allows http) for a server whose players' hooks live on its own network, and for tests."""

from __future__ import annotations

import http.client
import ipaddress
import json
import socket
import ssl
from urllib.parse import SplitResult, urlsplit

from app.text import BadText

TIMEOUT = 10.0  # seconds for one POST
MAX_URL = 254
SPECIAL_USE = {"invalid", "test", "localhost", "local", "example", "internal", "lan", "home"}  # never public
# IPv6 prefixes whose last 32 bits are an IPv4 address that the packet reaches
CARRY_IPV4 = [ipaddress.ip_network(n) for n in ("64:ff9b::/96", "64:ff9b:1::/48", "::/96", "::ffff:0:0/96",
                                                 "::ffff:0:0:0/96")]

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


def public(address: Address) -> bool:
    """Whether an address is on the public internet (and so is what it carries)."""
    if isinstance(address, ipaddress.IPv6Address):
        if address.teredo is not None:
            return False  # a tunnel to whatever its server chooses
        inner = address.sixtofour
        if inner is None and any(address in net for net in CARRY_IPV4):
            inner = ipaddress.IPv4Address(int(address) & 0xFFFF_FFFF)
        if inner is not None:
            return public(inner)
    return address.is_global and not address.is_multicast


def check_url(url: str, allow_private: bool = False) -> str:
    """The URL if hooks may be sent to it, else BadText saying why."""
    _checked(url, allow_private)
    return url.strip()


def _checked(url: str, allow_private: bool) -> tuple[SplitResult, list[Address]]:
    """The URL's parts and the addresses its host has now, every one of them allowed."""
    url = url.strip()
    if len(url) > MAX_URL:
        raise BadText(f"a webhook URL holds at most {MAX_URL} characters")
    parts = urlsplit(url)
    if parts.scheme != "https" and not (allow_private and parts.scheme == "http"):
        raise BadText("a webhook URL must start with https://")
    if not parts.hostname or parts.username or parts.password:
        raise BadText("a webhook URL needs a host name and no user name or password")
    top = parts.hostname.rstrip(".").rsplit(".", 1)[-1]
    if not allow_private and (top in SPECIAL_USE or ("." not in parts.hostname and ":" not in parts.hostname)):
        raise BadText(f"the webhook's host {parts.hostname} is not on the public internet")  # no lookup needed
    try:
        infos = socket.getaddrinfo(parts.hostname, _port(parts), proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError, ValueError):
        raise BadText(f"the host {parts.hostname} of the webhook URL is not known") from None
    addresses = [ipaddress.ip_address(info[4][0].split("%")[0]) for info in infos]
    if not allow_private:
        for address in addresses:
            if not public(address):
                raise BadText(f"the webhook's host {parts.hostname} is not on the public internet ({address})")
    return parts, addresses


def _port(parts: SplitResult) -> int:
    return parts.port or (443 if parts.scheme == "https" else 80)


class _PinnedHTTP(http.client.HTTPConnection):
    """A connection to ``address`` for the URL's host (its Host header): no second lookup."""

    def __init__(self, host: str, port: int, address: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self.address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self.address, self.port), self.timeout)


class _PinnedHTTPS(http.client.HTTPSConnection):
    """As ``_PinnedHTTP``, over TLS: the certificate is checked against the URL's host."""

    def __init__(self, host: str, port: int, address: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout, context=ssl.create_default_context())
        self.address = address

    def connect(self) -> None:
        sock = socket.create_connection((self.address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)


def post(url: str, text: str, allow_private: bool = False) -> None:
    """POST one notice; OSError if it did not arrive (a 3xx included: never followed)."""
    try:
        parts, addresses = _checked(url, allow_private)
    except BadText as exc:
        raise OSError(f"webhook refused: {exc}") from None
    send(parts, str(addresses[0]), text)


def send(parts: SplitResult, address: str, text: str) -> None:
    """POST one notice for the URL ``parts`` to ``address``, an address its host was found
    to have (and checked): the connection goes there and nowhere else."""
    body = json.dumps({"content": text[:2000], "text": text, "username": "Guadalcanal"}).encode()
    kind = _PinnedHTTPS if parts.scheme == "https" else _PinnedHTTP
    connection = kind(parts.hostname or "", _port(parts), address, TIMEOUT)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    try:
        connection.request("POST", target, body=body, headers={
            "Content-Type": "application/json", "User-Agent": "guadalcanal-pbem-webhook/1"})
        status = connection.getresponse().status
    except http.client.HTTPException as exc:
        raise OSError(f"webhook: {type(exc).__name__}: {exc}") from None
    finally:
        connection.close()
    if status >= 300:
        raise OSError(f"webhook answered {status}")
