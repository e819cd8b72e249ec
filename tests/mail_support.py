"""A real SMTP server for the mail tests (aiosmtpd), keeping every message it is given."""

from __future__ import annotations

import email
import email.policy
from collections.abc import Iterator
from contextlib import contextmanager
from email.message import Message
from typing import Any

from aiosmtpd.controller import Controller
from live_server import free_port


class Inbox:
    """An aiosmtpd handler that keeps every message it is given."""

    def __init__(self) -> None:
        self.messages: list[Message] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802 - aiosmtpd's name
        self.messages.append(email.message_from_bytes(envelope.original_content, policy=email.policy.default))
        return "250 OK"


@contextmanager
def smtp_server(inbox: Inbox | None = None) -> Iterator[tuple[str, Inbox]]:
    """``(SMTP_URL, inbox)`` of a server on a free port of 127.0.0.1, for the block."""
    inbox = inbox or Inbox()
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield f"smtp://127.0.0.1:{port}", inbox
    finally:
        controller.stop()
