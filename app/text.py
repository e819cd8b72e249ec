"""What a user may write: one-line text without control characters, and JSON that
every part of the server (and PostgreSQL) can store and send back.

Refused here, with a clear 4xx, rather than failing later with a 500: NUL (PostgreSQL
text cannot hold it), other control characters and direction overrides in names, titles
and chat messages (which may hold line breaks), unpaired surrogates (they cannot be
encoded as UTF-8), and NaN/Infinity (not JSON).
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any

import orjson
from pydantic import AfterValidator

# control characters (C0, DEL, C1) and the bidirectional overrides and isolates, which make
# text read otherwise than it is written (U+202E turns what follows around)
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_CONTROL_IN_MESSAGE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")  # \t, \n allowed
_SURROGATE = re.compile(r"[\ud800-\udfff]")
TOKEN = re.compile(r"[A-Za-z0-9_-]{1,128}")  # the shape of every secret the server hands out


class BadText(ValueError):
    pass


def check_line(value: str) -> str:
    """A name or a title: printable text on one line."""
    if _SURROGATE.search(value):
        raise BadText("must be valid Unicode text (it holds an unpaired surrogate)")
    if _CONTROL.search(value):
        raise BadText("may not contain control characters (such as NUL, ESC or line breaks) or direction overrides")
    return value


def check_message(value: str) -> str:
    """A message of several lines (chat): line breaks and tabs, but no other control
    character and no direction override (``\r\n`` is kept as ``\n``)."""
    value = check_string(value).replace("\r\n", "\n")
    if _CONTROL_IN_MESSAGE.search(value):
        raise BadText("may not contain control characters (such as ESC) or direction overrides")
    return value


def check_string(value: str) -> str:
    """Any string inside a JSON body: storable and sendable."""
    if "\x00" in value:
        raise BadText("strings may not contain the NUL character")
    if _SURROGATE.search(value):
        raise BadText("strings must be valid Unicode (an unpaired surrogate was sent)")
    return value


_EMAIL = re.compile(r"[^@\s<>,;\"]+@[^@\s<>,;\"]+\.[^@\s<>,;\".]{2,}")


def check_email(value: str) -> str:
    """An e-mail address as people type it (trimmed, lower-case domain); "" for none."""
    value = check_line(value).strip()
    if not value:
        return ""
    if len(value) > 254 or not _EMAIL.fullmatch(value):
        raise BadText(f"{value[:60]!r} is not an e-mail address (like name@example.org)")
    local, domain = value.rsplit("@", 1)
    return f"{local}@{domain.lower()}"


def looks_like_token(value: str) -> bool:
    return TOKEN.fullmatch(value) is not None


Line = Annotated[str, AfterValidator(check_line)]
Email = Annotated[str, AfterValidator(check_email)]


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


def _check_tree(value: Any) -> None:
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            check_string(v)
        elif isinstance(v, dict):
            for k, item in v.items():
                check_string(k)
                stack.append(item)
        elif isinstance(v, list):
            stack.extend(v)


def strict_json(body: bytes) -> Any:
    """Parse a request body as strict JSON, or raise ``json.JSONDecodeError`` saying why."""
    try:
        doc = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise json.JSONDecodeError("the body is not UTF-8", "", exc.start) from None
    try:
        value = json.loads(doc, parse_constant=_reject_constant)
    except RecursionError:
        raise json.JSONDecodeError("the JSON is nested too deeply", "", 0) from None
    except json.JSONDecodeError:
        raise
    except ValueError as exc:
        raise json.JSONDecodeError(str(exc), "", 0) from None
    try:
        _check_tree(value)
    except BadText as exc:
        raise json.JSONDecodeError(str(exc), "", 0) from None
    return value


def dump_json(value: Any) -> bytes:
    """Compact UTF-8 JSON (orjson: the legal-command list of a set-up is 2,000 commands
    and some 150 KB; dataclasses such as ``Command`` are written as their fields)."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)
