"""What a request leaves for Python's garbage collector (issue 7, "cost of an action").

A Jinja context can be a reference cycle (macros imported with it close over it), freed
only by the collector.  A board drawn into such a cycle took its game state, view and legal list
with it, and the collector's pauses to free them set the p99 of a command; the pages
hold their objects weakly (app/templating.py), so these are freed by reference counting."""

from __future__ import annotations

import gc
import re
from collections.abc import Iterator
from contextlib import contextmanager

from fastapi.testclient import TestClient

# the game's own objects: engine states and units, and the boards drawn from them
GAME_MODULES = ("engine.", "app.services.")


@contextmanager
def garbage_left() -> Iterator[set[str]]:
    """The types (module.name) of what became cyclic garbage inside the block."""
    kinds: set[str] = set()
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        yield kinds
        gc.collect()
        kinds.update(f"{type(o).__module__}.{type(o).__qualname__}" for o in gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()


def game_objects(kinds: set[str]) -> list[str]:
    return sorted(k for k in kinds if k.startswith(GAME_MODULES))


def test_boards_and_their_answers_leave_no_game_data_to_the_collector(client: TestClient,
                                                                      game: dict[str, str]) -> None:
    gid = game["id"]
    client.post(f"/games/{gid}/seat", data={"token": game["US"]}, follow_redirects=False)
    seq = int(re.search(r'data-seq="(\d+)"', client.get(f"/games/{gid}").text).group(1))
    with garbage_left() as kinds:
        for n, hex_id in enumerate(("0709", "0710", "0711")):  # each answer is a board; each replaces a state
            r = client.post(f"/games/{gid}/click", data={"hex": hex_id, "select": f"us-1-{n + 1}", "seq": seq + n})
            assert r.status_code == 200 and 'role="alert"' not in r.text, r.text[:500]
            assert client.get(f"/games/{gid}").status_code == 200  # the whole page too
    assert kinds  # the check sees the request's own cycles (its streams)...
    assert not game_objects(kinds), game_objects(kinds)  # ...and nothing of the game in them
    # and the board's template is no cycle at all: its macros are given the board, not the context
    assert "jinja2.runtime.Context" not in kinds


def test_a_pacific_battles_board_leaves_no_game_data_to_the_collector(client: TestClient) -> None:
    r = client.post("/new", data={"game": "pacific_battles", "scenario": "short", "side": "Allied", "name": "Ann"},
                    follow_redirects=False)
    assert r.status_code == 303, r.text[:300]
    gid = re.search(r"/games/([0-9a-f]+)", r.headers["location"]).group(1)
    with garbage_left() as kinds:
        for _ in range(2):
            assert client.get(f"/games/{gid}").status_code == 200
            assert client.get(f"/games/{gid}/board").status_code == 200
    assert kinds
    assert not game_objects(kinds), game_objects(kinds)
