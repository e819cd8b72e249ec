"""The board's command form, as its post sends it or as a message over the board's socket:
its fields within their limits (one check for both ways), and the engine's command it
stands for."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qsl

from fastapi import HTTPException, Request

from app.text import strict_json

PARTS_MAX = 1200  # the page's part digests: 17 characters each, a few dozen parts
MESSAGE_MAX = 8192  # a command form: its data (4,096 at most), the page's map digests, a few fields
# each field of the form and its longest value
FIELDS = {"type": 64, "data": 4096, "command": 4200, "pick": 200, "select": 64, "parts": PARTS_MAX, "seq": 20}
CLICK_FIELDS = {"seq": 20, "hex": 64, "unit": 64, "select": 64, "parts": PARTS_MAX}  # a click on the map's
NOT_UNDERSTOOD = "That command was not understood."


def checked(raw: Mapping[str, Any], fields: Mapping[str, int] = FIELDS) -> dict[str, str] | None:
    """The form's fields ("" for one not sent) if each is text (or a number) within its
    limit, else None."""
    form = {name: raw.get(name, "") for name in fields}
    if not all(isinstance(v, str | int) and not isinstance(v, bool) and len(str(v)) <= fields[k]
               for k, v in form.items()):
        return None
    return {k: str(v) for k, v in form.items()}


def from_message(text: str | None) -> dict[str, str] | None:
    """A socket message as the form's fields (None: it is not one): JSON text, an object."""
    if text is None or len(text) > MESSAGE_MAX:
        return None
    try:
        raw: Any = json.loads(text)
    except ValueError:
        return None
    return checked(raw) if isinstance(raw, dict) else None


async def posted(request: Request, fields: Mapping[str, int] = FIELDS) -> dict[str, str]:
    """A post's form fields (a page's htmx and a page without script both post it
    URL-encoded, read here at once; any other encoding as Starlette reads a form);
    a form that is not the board's: 422.  (FastAPI's ``Form`` parameters cost a tenth of
    a millisecond more, each field validated on its own, on the busiest routes.)"""
    if request.headers.get("content-type", "").startswith("application/x-www-form-urlencoded"):
        try:
            raw: dict[str, Any] = dict(parse_qsl((await request.body()).decode(), keep_blank_values=True,
                                                 max_num_fields=len(fields) * 2))
        except (UnicodeDecodeError, ValueError):
            raise HTTPException(422, NOT_UNDERSTOOD) from None
    else:
        raw = dict((await request.form()).items())
    form = checked(raw, fields)
    if form is None:
        raise HTTPException(422, NOT_UNDERSTOOD)
    return form


def sent_seq(form: Mapping[str, str]) -> int:
    """The log's length the form was drawn at (422: none)."""
    try:
        return int(form["seq"])
    except ValueError:
        raise HTTPException(422, "a command says the log's length it was chosen at (seq)") from None


def command_payload(kind: str, data: str, command: str, pick: str) -> dict[str, Any]:
    """The form as the engine's command: ``type`` and ``data``, or a button of a list's one
    form: ``command``, "type data"; or the form's ``type`` and ``data`` with the one field
    its button names: ``pick``, "field value"."""
    if command:
        kind, _, data = command.partition(" ")
    if not kind:
        raise HTTPException(422, "a command names its type")
    payload = _payload(data or "{}")
    name, _, value = pick.partition(" ")
    if name and isinstance(payload, dict):
        payload = {**payload, name: value}
    return {"type": kind, "data": payload}


def _payload(data: str) -> Any:
    """A command button's ``data`` field (JSON), or None if it is not JSON."""
    try:
        return strict_json(data.encode()) if len(data) <= 4096 else None
    except ValueError:
        return None
