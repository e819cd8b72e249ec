"""The map's layers skip quiet hexes and reuse escaped attribute values and formatted
coordinates (issue 7, "cost of an action"): the drawing must stay exactly the same."""

from __future__ import annotations

import copy

from app.games.first_blood import svg
from app.games.first_blood.svg import _hex_state, _make_ctx, _q, _rows, layer_parts
from app.render.counters import n
from engine.core.events import Command
from engine.games.first_blood.rules import RULES
from engine.selfplay import play_one


def _view_with_everything() -> dict:
    """The US set-up with a few units placed on the map."""
    state = RULES.blank()
    for e in RULES.create("campaign", {}, "render-speedups"):
        RULES.apply(state, e)
    for _ in range(4):
        place = next(c for c in RULES.legal_commands(state, "US") if c.type == "place")
        state = RULES.outcome(state, Command(place.type, place.data, "US")).state
    return RULES.view(state, "US")


def test_every_hex_left_out_as_quiet_says_nothing() -> None:
    view = _view_with_everything()
    loc = next(u["loc"] for u in view["units"] if u["loc"] in {h for r in _rows().values() for h in r})
    ctx = _make_ctx(view, None, {"0709": "3", "entry:us-east-1": ""}, ["0810"])
    ctx.refused = {"0711": "too far"}
    busy = ctx.busy()
    assert {loc, "0709", "0810", "0711"} <= busy
    for hexes in _rows().values():
        for h in hexes:
            if h not in busy:
                assert _hex_state(ctx, h) == "", h  # a skipped hex would have drawn nothing


def test_cached_escaping_and_coordinates_give_the_same_text() -> None:
    for value in ('a "b" <c> & d', "plain", "x\x01y"):
        assert _q(value) == _q(value) == value.replace("\x01", "").replace("&", "&amp;").replace(
            "<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    assert _q(3) == "3"
    assert [n(v) for v in (0.0, -0.0, 1, 1.0, 2.505, -0.001, 12.3456)] == ["0", "0", "1", "1", "2.5", "0", "12.35"]
    view = _view_with_everything()
    assert layer_parts(view, highlights={"0709": "3"}) == layer_parts(view, highlights={"0709": "3"})


def test_a_row_of_counters_drawn_again_is_the_row_drawn_afresh() -> None:
    """A map row's counters and a box's are kept by the identity of the view's unit entries
    (shared by the states in which a unit looks the same): along a whole game, with a
    selection and an attack's marks, each answer is the drawing that entries never seen
    before give."""
    state, compared, kept_rows = RULES.blank(), 0, 0
    for n_event, event in enumerate(play_one("first_blood", seed=5, index=0, check_leaks=False).events):
        RULES.apply(state, event)
        if n_event % 7:
            continue
        for side in ("US", "IJ"):
            view = RULES.view(state, side)
            on_map = [u["id"] for u in view["units"] if len(str(u["loc"])) == 4]
            for selected in (None, *on_map[:1]):
                drawn = layer_parts(view, selected=selected)
                before = len(svg._LOOKS)
                assert layer_parts(view, selected=selected) == drawn
                kept_rows += len(svg._LOOKS) == before  # the second drawing drew no row
                assert layer_parts(copy.deepcopy(view), selected=selected) == drawn, (n_event, side, selected)
                compared += 1
    assert compared > 200 and kept_rows == compared
