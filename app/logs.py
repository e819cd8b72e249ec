"""Keep secrets out of the server's logs.  No page or API puts a secret in an address
any more, but old links (``?token=...``) still arrive: their access log lines are
written with the secret replaced."""

from __future__ import annotations

import logging
import re

_SECRET_PARAM = re.compile(r"((?:^|[?&;])(?:token|secret|key|password)=)[^&;#\s]*", re.IGNORECASE)


def redact(text: str) -> str:
    return _SECRET_PARAM.sub(r"\1[redacted]", text)


class RedactSecrets(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.msg, str):
            record.msg = redact(record.msg)
        return True


def install() -> None:
    access = logging.getLogger("uvicorn.access")
    if not any(isinstance(f, RedactSecrets) for f in access.filters):
        access.addFilter(RedactSecrets())
