"""Pacific Battles' stacks fan out (issue 31): a click on a stack of one's own spreads it
in a row, each counter apart; a piece picked where it stands (out of the fan, or by its
button: the page sends its hex with it) leaves the stack folded, so that the fan never
lies over the hexes the piece may go to."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from fastapi.testclient import TestClient
from pb_support import SET_UP, new_game, seat, seq_of

from app.games.pacific_battles.pieces_svg import SIZE, render_pieces

NS = "{http://www.w3.org/2000/svg}"
HEX = "1630"


def units(n: int) -> list[dict]:
    return [{"id": f"u{i}", "unit": "81 Inf", "side": "Japanese", "hex": HEX, "kind": "infantry",
             "suppressed": False, "factors": [1, 1, 10]} for i in range(n)]


def counters(svg: str) -> dict[str, ET.Element]:
    root = ET.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">{svg}</svg>')
    return {g.get("data-unit"): g for g in root.iter(f"{NS}g") if g.get("data-unit")}


def x_of(g: ET.Element) -> float:
    return float(g.find(f"{NS}rect").get("x"))


def test_a_fanned_stack_draws_every_counter_apart_and_a_folded_one_at_most_four() -> None:
    view = {"units": units(6), "stacks": [], "fortified": []}
    folded = counters(render_pieces(view))
    assert len(folded) == 4 and "+2" in render_pieces(view)
    fanned_svg = render_pieces(view, fan=HEX)
    fanned = counters(fanned_svg)
    assert len(fanned) == 6 and f'<g class="fan" data-hex="{HEX}"' in fanned_svg
    xs = sorted(x_of(g) for g in fanned.values())
    assert all(b - a >= SIZE for a, b in zip(xs, xs[1:], strict=False))  # none overlaps another
    other = {**units(1)[0], "id": "far", "hex": "1727"}  # drawn after 1630's stack, were it not fanned
    enemy = {"hex": "1631", "side": "Allied", "zoc": True, "units": None}
    both = render_pieces({"units": [*units(3), other], "stacks": [enemy], "fortified": []}, fan=HEX)
    assert both.index('class="fan"') > max(both.index('data-unit="far"'), both.index('data-hex="1631"'))  # on top
    one = {"units": units(1), "stacks": [], "fortified": []}
    assert 'class="fan"' not in render_pieces(one, fan=HEX)  # a lone counter has nothing to spread


def click(client: TestClient, gid: str, page: str, **values: str) -> str:
    r = client.post(f"/games/{gid}/click", data={"seq": seq_of(page), **values})
    assert r.status_code == 200, r.text
    return r.text


def test_a_click_on_a_stack_fans_it_and_a_piece_picked_where_it_stands_folds_it(client: TestClient) -> None:
    g = new_game(client)
    gid = g["id"]
    seat(client, gid, g["Japanese"])
    page = client.get(f"/games/{gid}").text
    for unit in SET_UP:
        page = click(client, gid, click(client, gid, page, unit=unit), hex=HEX, select=unit)
    assert len(re.findall(rf'class="counter own[^"]*" data-hex="{HEX}"', page)) == len(SET_UP)
    fanned = click(client, gid, page, unit=SET_UP[0])  # a counter of the stack, on the map
    assert f'<g class="fan" data-hex="{HEX}"' in fanned and f"Hex {HEX}" in fanned
    picked = click(client, gid, fanned, unit=SET_UP[1], hex=HEX, select=SET_UP[0])  # out of the fan
    assert 'class="fan"' not in picked and f"Selected: {SET_UP[1]}" in picked
    hexed = click(client, gid, picked, hex=HEX, select=SET_UP[1])  # the hex itself: the next piece, spread out
    assert 'class="fan"' in hexed and f"Selected: {SET_UP[2]}" in hexed
