"""The record's canonical JSON: the fast form must be byte for byte RFC 8785's (the
reference implementation, ``rfc8785``), or every published hash would be another."""

from __future__ import annotations

from typing import Any

import rfc8785
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import record as rec

# any text: control characters, quotes, backslashes, non-ASCII, astral planes, lone surrogates
TEXT = st.text(st.characters(min_codepoint=0, max_codepoint=0x10FFFF), max_size=12)
SCALARS = st.none() | st.booleans() | st.integers(-(2**53) - 2, 2**53 + 2) | TEXT
KEYS = st.text(st.characters(min_codepoint=0, max_codepoint=0x10FFFF), max_size=6)
JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=4),
                    max_leaves=20)
FLOATS = st.floats(allow_nan=False, allow_infinity=False)
ANY_NUMBER = st.recursive(SCALARS | FLOATS,
                          lambda inner: st.lists(inner, max_size=3) | st.dictionaries(KEYS, inner, max_size=3),
                          max_leaves=10)


def reference(value: Any) -> bytes | str:
    """RFC 8785's bytes, or the name of the error it raises (a lone surrogate, an integer
    beyond 2**53 - 1)."""
    try:
        return rfc8785.dumps(value)
    except Exception as exc:  # noqa: BLE001 - what matters is that both refuse alike
        return type(exc).__name__


def ours(value: Any) -> bytes | str:
    try:
        return rec.canonical(value)
    except Exception as exc:  # noqa: BLE001 - what matters is that both refuse alike
        return type(exc).__name__


@settings(max_examples=1500, deadline=None)
@given(JSON)
def test_the_fast_form_is_rfc_8785(value: Any) -> None:
    assert ours(value) == reference(value)


@settings(max_examples=500, deadline=None)
@given(ANY_NUMBER)
def test_floats_and_any_keys_take_the_reference_form(value: Any) -> None:
    assert ours(value) == reference(value)


def test_the_cases_where_the_forms_would_differ() -> None:
    # keys sorted by UTF-16 units (RFC 8785 3.2.3), not code points: an astral key before U+FFFD
    assert rec.canonical({"\ufffd": 1, "\U0001f600": 2}) == rfc8785.dumps({"\ufffd": 1, "\U0001f600": 2})
    assert rec.canonical({"\ufffd": 1, "\U0001f600": 2}).index("\U0001f600".encode()) < \
        rec.canonical({"\ufffd": 1, "\U0001f600": 2}).index("\ufffd".encode())
    assert ours(["\ud800"]) == reference(["\ud800"]) == "CanonicalizationError"  # a lone surrogate: refused
    assert rec.canonical({"a": "\x00\x1f\x7f\"\\\u2028"}) == rfc8785.dumps({"a": "\x00\x1f\x7f\"\\\u2028"})
    assert rec.canonical([1.5, 1e21, True]) == b"[1.5,1e+21,true]"
