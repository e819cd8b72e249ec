"""The reconstructed Guadalcanal map as SVG (app/render/pacific_map.py)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from fastapi.testclient import TestClient

from app.games.pacific_battles.map_svg import render_pacific_map
from engine.games.pacific_battles.board import load_board

NS = "{http://www.w3.org/2000/svg}"


def test_the_map_draws_every_land_hex_river_path_place_and_base_and_says_it_is_a_reconstruction() -> None:
    board = load_board()
    svg = ET.fromstring(render_pacific_map())
    hexes = svg.findall(f".//{NS}polygon")
    assert sorted(p.get("data-hex") for p in hexes) == sorted(board.terrain)
    assert {p.get("class") for p in hexes} == {f"hex terrain-{t}" for t in set(board.terrain.values())}
    assert len(svg.findall(f".//{NS}g[@class='rivers']/{NS}line")) == len(board.rivers)
    assert len(svg.findall(f".//{NS}line[@class='bridged']")) == len(board.bridges)
    assert {p.get("class") for p in svg.findall(f".//{NS}polyline")} == {"road", "trail"}
    labels = {t.text for t in svg.findall(f".//{NS}text[@class='place']")}
    assert labels == set(board.places)
    assert {c.get("data-hex") for c in svg.findall(f".//{NS}circle[@class='objective']")} == set(board.objectives)
    assert {g.get("data-base") for g in svg.findall(f".//{NS}g[@class='base']")} == {"Rabaul", "Espiritu Santo"}
    assert "reconstruction" in svg.findtext(f"{NS}title") and "reconstruction" in svg.get("aria-label")


def test_an_activated_hq_shows_its_support_radius_and_an_inactive_one_does_not() -> None:
    from app.games.pacific_battles.pieces_svg import render_pieces

    hq = {"id": "1 Mar Div HQ", "unit": "1 Mar Div HQ", "side": "Allied", "hex": "1532", "kind": "hq",
          "suppressed": False, "factors": [0, 1, 8], "support": 2, "radius": 3, "active": True}
    svg = render_pieces({"units": [hq], "stacks": [], "fortified": []})
    assert svg.count('class="hq-radius"') == 1 and "radius 3 (10.1, 10.4)" in svg
    assert 'class="hq-radius"' not in render_pieces({"units": [{**hq, "active": False}], "stacks": [], "fortified": []})


def _face(pieces: dict, **kw: object) -> ET.Element:
    from app.games.pacific_battles.pieces_svg import render_pieces
    from engine.games.pacific_battles.rules import RULES
    from engine.games.pacific_battles.testing import position

    view = RULES.view(position(pieces, phase="initial_first_movement", **kw), "Allied")
    return ET.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">{render_pieces(view)}</svg>')


def test_a_stacks_supply_points_lie_under_its_units() -> None:
    """The counter drawn last is on top, and a click on the stack finds it: a unit, not the
    supply point with it (a click meant to add 7 Mar to an attack selected the supply)."""
    svg = _face({"A1": ("Supply", "1230", "Allied"), "Z9": ("Supply", "1230", "Allied"), "m": ("7 Mar", "1230"),
                 "b": ("USMC Bn", "1230")})
    drawn = [g.get("data-unit") for g in svg.iter(f"{NS}g") if "counter" in (g.get("class") or "")]
    assert drawn == ["Z9", "A1", "m", "b"]  # supply first (under), then the units, the first of them on top


def test_counters_follow_the_rulebooks_conventions() -> None:
    """2.31: the service colours, the unit size (* a breakdown unit) over its NATO frame,
    attack-defence-movement; 2.32 the mechanised oval; 8.0 a suppressed mark."""
    svg = _face({"m": ("1 Mar", "1230"), "a": ("164 Inf", "1231"), "s": ("Supply", "1330", "Allied"),
                 "b": ("USMC Bn", "1331"), "r": ("1 LVT", "1229")}, suppressed=("a",))
    counters = {g.get("data-unit"): g for g in svg.iter(f"{NS}g") if "counter" in (g.get("class") or "")}
    fills = {u: g.find(f"{NS}rect").get("fill") for u, g in counters.items()}
    assert fills["m"] == "#b9d98a" and fills["a"] == "#9aa05a" and fills["s"] == "#2f5d2a"  # USMC, Army, supply
    texts = {u: [t.text for t in g.iter(f"{NS}text")] for u, g in counters.items()}
    assert texts["m"][0].startswith("III ") and texts["b"][0].startswith("* ")
    assert re.fullmatch(r"\d+-\d+-\d+", texts["m"][-1])  # attack-defence-movement
    assert "S" in texts["a"] and "suppressed" in counters["a"].get("class")
    assert counters["r"].find(f".//{NS}ellipse") is not None  # mechanised
    assert counters["m"].find(f".//{NS}ellipse") is None
    assert all(g.get("role") == "button" and g.get("tabindex") == "0" for g in counters.values())
    # a breakdown unit's tinted box (2.31) by its class, drawn by map.css: the page's policy
    # forbids inline styles (the browser refused the tint and reported each counter)
    assert counters["b"].find(f".//{NS}rect[@class='frame breakdown']") is not None
    assert counters["m"].find(f".//{NS}rect[@class='frame breakdown']") is None
    assert counters["m"].find(f".//{NS}rect[@class='frame']") is not None
    assert not [e for g in counters.values() for e in g.iter() if e.get("style") is not None]


def test_the_terrain_is_one_cached_file_that_every_board_page_draws_under_its_counters(client: TestClient) -> None:
    """The page holds the map's frame (the grid a click is read by, the picture's address),
    not its 600-odd hexes: the file is fetched once and kept (versioned: a year)."""
    from app.games.pacific_battles.map_svg import grid, map_frame

    frame = map_frame()
    url = re.search(r'href="([^"]+)"', frame).group(1)
    assert url.startswith("/maps/pacific_battles.svg?v=") and len(frame) < 1000
    r = client.get(url)
    assert r.status_code == 200 and r.headers["content-type"] == "image/svg+xml"
    assert "immutable" in r.headers["cache-control"] and r.text == render_pacific_map()
    again = client.get("/maps/pacific_battles.svg", headers={"If-None-Match": r.headers["etag"]})
    assert again.status_code == 304 and "immutable" not in again.headers["cache-control"]
    assert client.get("/maps/no_such_game.svg").status_code == 404
    # every land hex's centre lies where the grid the page reads says (a click there is that hex)
    ox, oy, sx, sy, half, radius = (float(v) for v in re.search(r'data-grid="([^"]+)"', frame).group(1).split())
    assert (ox, oy, sx, sy, half, radius) == tuple(float(format(v, ".7g")) for v in grid())
    drawn = {p.get("data-hex"): p.get("points") for p in ET.fromstring(render_pacific_map()).iter(f"{NS}polygon")}
    for h, points in drawn.items():
        row, col = int(h[:2]), int(h[2:])
        corners = [tuple(map(float, xy.split(","))) for xy in points.split()]
        cx, cy = sum(x for x, _ in corners) / 6, sum(y for _, y in corners) / 6
        assert abs(cx - (ox + col * sx + (half if row % 2 else 0))) < 0.05 and abs(cy - (oy + row * sy)) < 0.05, h


def test_counters_drawn_once_for_what_they_show_are_those_drawn_anew() -> None:
    """A counter in a stack is kept by what it shows (pieces_svg ``_own_in_stack``): over a
    game's positions, for both sides, with a piece selected, ready and owing, the kept
    drawing of every part is the one drawn from nothing."""
    from app.games.pacific_battles import pieces_svg
    from engine.core.events import Command
    from engine.core.game import replay
    from engine.games import get_rules
    from engine.selfplay import Chooser, choose

    rules = get_rules("pacific_battles")
    state = replay(rules, rules.create("campaign", {}, "drawn-once"))
    rng = Chooser("drawn-once")
    compared = 0
    for step in range(400):
        if step % 40 == 0:
            for side in ("Allied", "Japanese"):
                view = rules.view(state, side)
                ids = [u["id"] for u in view["units"]]
                picks = (ids[::7], ids[1::5], ids[::3]) if ids else ((), (), ())
                for selected, ready, owing in (("", set(), set()), (ids[0] if ids else "", *map(set, picks[:2])),
                                               (ids[-1] if ids else "", set(picks[2]), set(picks[0]))):
                    kept = pieces_svg.piece_parts(view, selected, ready, owing)
                    kept_again = pieces_svg.piece_parts(view, selected, ready, owing)
                    pieces_svg._DRAWN.clear()
                    assert pieces_svg.piece_parts(view, selected, ready, owing) == kept == kept_again
                    compared += len(view["units"])
        prompt = rules.prompt(state)
        if prompt.side is None:
            break
        cmd = choose(rng, state.phase, rules.legal_commands(state))
        for e in rules.decide(state, Command(cmd.type, cmd.data, prompt.side)):
            rules.apply(state, e)
    assert compared > 500


def test_an_enemy_stack_reads_whether_it_has_a_zoc_only_as_far_as_the_viewer_was_told() -> None:
    """18.4 (R-PB-18.4): a stack whose ZOC the viewer has not been told reads "ZOC ?", not
    "no ZOC" (which would say the viewer may move next to it freely)."""
    from app.games.pacific_battles.pieces_svg import render_pieces

    def drawn(zoc: bool | None, units: list[dict[str, str]] | None = None) -> ET.Element:
        stack = {"hex": "1532", "side": "Japanese", "zoc": zoc, "fortified": False, "units": units}
        pieces = render_pieces({"units": [], "stacks": [stack]})
        svg = ET.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">{pieces}</svg>')
        return svg.find(f".//{NS}g[@data-hex='1532']")

    texts = {zoc: [t.text for t in drawn(zoc).iter(f"{NS}text")] for zoc in (True, False, None)}
    assert texts == {True: ["?", "ZOC"], False: ["?", "no ZOC"], None: ["?", "ZOC ?"]}
    assert drawn(None).findtext(f"{NS}title") == "Japanese stack in 1532: not examined (ZOC not told, 18.4)"
    assert drawn(False).findtext(f"{NS}title") == "Japanese stack in 1532: not examined (no ZOC, 18.4)"
    examined = drawn(None, [{"unit": "124 Inf"}, {"unit": "4 Inf"}])
    assert examined.findtext(f"{NS}title") == "Japanese stack in 1532, examined: 124 Inf, 4 Inf (ZOC not told)"
    assert [t.text for t in examined.iter(f"{NS}text")] == ["124 Inf", "2 seen"]


def test_the_displays_put_each_sides_vp_marker_and_air_points_in_their_boxes() -> None:
    from app.games.pacific_battles.board import DISPLAYS, PBBoard
    from app.games.pacific_battles.orders import Orders
    from app.templating import TEMPLATES
    from engine.core.game import replay
    from engine.games import get_rules

    rules = get_rules("pacific_battles")
    state = replay(rules, rules.create("campaign", {}, "displays"))
    view = rules.view(state, "Allied")
    view["sides"]["Allied"]["vp"], view["sides"]["Japanese"]["vp"] = 7, 23  # (a view as a late turn's)
    view["sides"]["Allied"]["air"] |= {"reserve": 5, "damaged": 2, "missions": {"strike": 3}}
    view["sides"]["Japanese"]["air"] |= {"reserve": 4, "eliminated": 1, "missions": {"superiority": 6}}
    board = PBBoard(None, None, view, state, Orders([]), state.seq, "", [], [], False, [])  # type: ignore[arg-type]
    html = TEMPLATES.env.get_template(DISPLAYS).render(b=board)
    boxes = re.findall(r"<li>(\d+)(.*?)</li>", re.search(r'class="track vp small".*?</ol>', html, re.S).group(0))
    assert [n for n, _ in boxes] == [str(n) for n in range(31)]  # the track runs on past the leader, by tens
    marked = {int(n): re.findall(r'title="(\w+): (\d+) VP"', inside) for n, inside in boxes if inside}
    assert marked == {7: [("Allied", "7")], 23: [("Japanese", "23")]}
    rows = dict(re.findall(r"<tr><th>([^<]+)</th>((?:<td>[^<]*</td>)+)</tr>", html))
    cells = {title: re.findall(r"<td>([^<]*)</td>", tds) for title, tds in rows.items()}
    assert cells["Reserve"] == ["5", "4"] and cells["Strike"] == ["3", "0"]
    assert cells["Air Superiority"] == ["0", "6"]
    assert cells["Damaged"] == ["2", "0"] and cells["Eliminated"] == ["0", "1"]
    assert cells["Air Supply"] == ["&ndash;", "&ndash;"]
