"""The SVG map renderer: geometry (Layout), structure, escaping, speed and determinism."""

from __future__ import annotations

import math
import os
import re
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from app.games.first_blood.layout import Layout, Point
from app.games.first_blood.svg import grid, hex_name, render_base, render_layers, render_map, render_terrain
from engine.core.hexes import neighbor_ids
from engine.games.first_blood.board import load_board

SVG = "{http://www.w3.org/2000/svg}"
ROOT = Path(__file__).resolve().parents[2]
TURNS = ["Sep I", "Sep II", "Sep III", "Oct I", "Oct II", "Oct III", "Nov I", "Nov II", "Nov III",
         "Dec I", "Dec II", "Dec III", "Jan I", "Jan II", "Jan III"]


def unit(uid: str, loc: str, **kw: Any) -> dict[str, Any]:
    u = {"id": uid, "side": "US", "name": uid, "kind": "ground", "type": "marines", "cf": 5, "mf": 6,
         "range": 0, "loc": loc, "face_down": False, "mf_left": 6, "stopped": False, "moved": False,
         "fought": False, "defended": False, "support": None}
    u.update(kw)
    return u


def fake_view(units: list[dict[str, Any]], **kw: Any) -> dict[str, Any]:
    v = {"title": "First Blood", "turn": 3, "turn_name": "Sep III", "turns": TURNS, "phase": "us_movement",
         "phase_title": "US movement (§6)", "units": units, "obligations": [], "combat": None,
         "strips": {"0605": {"status": "dest", "built": False, "work": 1},
                    "0705": {"status": "dest", "built": False, "work": 0},
                    "0708": {"status": "oper", "built": True, "work": 0},
                    "0709": {"status": "dam", "built": True, "work": 2}}}
    v.update(kw)
    return v


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def groups(root: ET.Element, cls: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if cls in (g.get("class") or "").split()]


def hex_group(root: ET.Element, hex_id: str) -> ET.Element:
    (g,) = [g for g in groups(root, "hex") if g.get("data-hex") == hex_id]
    return g


def hex_state(root: ET.Element, hex_id: str) -> ET.Element:
    """What the view says of the hex now (drawn in the layers, over its base hex)."""
    (g,) = [g for g in groups(root, "hex-state") if g.get("data-hex") == hex_id]
    return g


def counter(root: ET.Element, uid: str) -> ET.Element:
    (g,) = [g for g in groups(root, "counter") if g.get("data-unit") == uid]
    return g


def texts(el: ET.Element) -> list[str]:
    return ["".join(t.itertext()) for t in el.iter(f"{SVG}text")]


def tooltip(root: ET.Element, button: ET.Element) -> str:
    """The tooltip a mouse gets over a map button: the <title> of the group around it, not
    one inside it (which would be read as the button's text, WCAG 2.5.3)."""
    assert button.find(f".//{SVG}title") is None
    (tip,) = [g for g in root.iter(f"{SVG}g") if button in list(g)]
    assert tip.get("class") == "tip"
    return "".join(tip.find(f"{SVG}title").itertext())


def named_as_drawn(button: ET.Element) -> str:
    """A map button's name, checked to begin with what it reads (label in name); the rest."""
    name, reads = button.get("aria-label", ""), " ".join(t for t in texts(button) if t.strip())
    assert reads and name.startswith(reads), (name, reads)
    return name[len(reads):]


@pytest.fixture(scope="module")
def midgame_view() -> dict[str, Any]:
    from engine.core.game import replay
    from engine.games.first_blood.rules import RULES
    from engine.selfplay import play_one
    rec = play_one("first_blood", 1, 0)
    return RULES.view(replay(RULES, rec.events[:400]), "US")


# --- Layout -------------------------------------------------------------------

LAY = Layout(40.0, Point(1000.0, 800.0))

# Figures 4 and 5: the six neighbours of 0710 and of 0507.
NEIGHBOURS = [
    ("0710", {"0809", "0709", "0810", "0711", "0610", "0609"}),
    ("0507", {"0406", "0508", "0506", "0407", "0607", "0606"}),
]


@pytest.mark.parametrize(("hex_id", "expected"), NEIGHBOURS)
def test_neighbours_are_one_hex_width_away(hex_id: str, expected: set[str]) -> None:
    assert set(neighbor_ids(hex_id)) == expected
    c = LAY.centre(hex_id)
    for nb in expected:
        p = LAY.centre(nb)
        assert math.hypot(p.x - c.x, p.y - c.y) == pytest.approx(LAY.hex_width, abs=1e-9)


@pytest.mark.parametrize(("hex_id", "expected"), NEIGHBOURS)
def test_shared_edge_midpoint_is_midpoint_of_centres(hex_id: str, expected: set[str]) -> None:
    c = LAY.centre(hex_id)
    corners = LAY.corners(hex_id)
    for nb in expected:
        p1, p2 = LAY.edge(hex_id, nb)
        p = LAY.centre(nb)
        assert (p1.x + p2.x) / 2 == pytest.approx((c.x + p.x) / 2, abs=1e-9)
        assert (p1.y + p2.y) / 2 == pytest.approx((c.y + p.y) / 2, abs=1e-9)
        assert math.hypot(p2.x - p1.x, p2.y - p1.y) == pytest.approx(LAY.size, abs=1e-9)
        for q in (p1, p2):  # both ends are corners of the hex
            assert min(math.hypot(q.x - k.x, q.y - k.y) for k in corners) == pytest.approx(0, abs=1e-9)
        q1, q2 = LAY.edge(nb, hex_id)  # the same hexside seen from the other hex
        assert sorted((round(q.x, 6), round(q.y, 6)) for q in (q1, q2)) == \
            sorted((round(q.x, 6), round(q.y, 6)) for q in (p1, p2))


@pytest.mark.parametrize(("west", "east"), [("0710", "0709"), ("0020", "0000"), ("1210", "1208")])
def test_columns_grow_to_the_west(west: str, east: str) -> None:
    assert LAY.centre(west).x < LAY.centre(east).x
    assert LAY.centre(west).y == LAY.centre(east).y


@pytest.mark.parametrize(("north", "south"), [("0809", "0709"), ("1209", "0009")])
def test_rows_grow_to_the_north(north: str, south: str) -> None:
    assert LAY.centre(north).y < LAY.centre(south).y


@pytest.mark.parametrize(("even", "odd"), [("0202", "0102"), ("0202", "0302"), ("0810", "0710")])
def test_even_rows_sit_half_a_hex_west(even: str, odd: str) -> None:
    assert LAY.centre(even).x == pytest.approx(LAY.centre(odd).x - LAY.hex_width / 2)


# --- structure ------------------------------------------------------------------

def test_output_is_a_standalone_responsive_svg() -> None:
    svg = render_map(fake_view([]))
    root = parse(svg)
    assert root.tag == f"{SVG}svg"
    assert root.get("width") == "100%"
    assert re.fullmatch(r"0 0 [\d.]+ [\d.]+", root.get("viewBox") or "")
    assert root.find(f"{SVG}style") is not None
    assert root.find(f"{SVG}title") is not None
    assert "Map and order of battle: reconstructions" in texts(root)


def test_every_land_hex_has_exactly_one_group() -> None:
    """The terrain draws every land hex once, as a picture: no button, no name of its own
    (the hexes a player may act on are buttons in the layers, see below)."""
    board = load_board()
    root = parse(render_map(fake_view([])))
    hexes = groups(root, "hex")
    ids = [g.get("data-hex") for g in hexes]
    assert sorted(ids) == sorted(board.hexes)
    for g in hexes:
        h = g.get("data-hex")
        assert g.get("role") is None and g.get("tabindex") is None and g.get("id") is None
        assert f"terrain-{board.hexes[h].centre}" in g.get("class", "").split()
        assert g.find(f"{SVG}polygon") is not None
        assert texts(g)[0] == h
        assert " ".join(texts(g)) in hex_name(h).replace(",", "")  # what it reads, in its name in that order


def test_hex_aria_label() -> None:
    root = parse(render_map(fake_view([])))
    g = hex_group(root, "0709")
    assert hex_name("0709") == "Hex 0709, Henderson Field, clear"
    assert texts(g) == ["0709", "Henderson Field"]
    assert "airstrip" in g.get("class", "").split()
    state = hex_state(root, "0709")
    assert state.get("aria-label", "").startswith("Hex 0709, Henderson Field, clear, ")
    assert state.get("role") is None  # said of, not a button: nothing to do there
    assert "air strip damaged, work 2" in state.get("aria-label", "")
    assert "Dam" in texts(state)
    assert "2" in texts(state)  # work marker


def test_map_units_are_drawn_in_their_hex() -> None:
    units = [unit("us-1", "0709"), unit("us-2", "0709", type="infantry"), unit("ij-1", "0507", side="IJ",
                                                                                  type="infantry", cf=4, mf=8)]
    root = parse(render_map(fake_view(units)))
    for u in units:
        g = counter(root, u["id"])
        assert g.get("data-hex") == u["loc"] and g.get("data-loc") == u["loc"]
        x, y = map(float, re.fullmatch(r"translate\(([-\d.]+) ([-\d.]+)\)", g.get("transform", "")).groups())
        poly = hex_group(root, u["loc"]).find(f"{SVG}polygon")
        pts = [tuple(map(float, p.split(","))) for p in poly.get("points", "").split()]
        assert min(p[0] for p in pts) < x < max(p[0] for p in pts)
        assert min(p[1] for p in pts) < y < max(p[1] for p in pts)


def test_counter_attributes_and_text() -> None:
    units = [unit("us-1-1", "0709", name="1/1"), unit("us-11-4", "0708", name="11/4", type="artillery",
                                                     cf=4, mf=3, range=6, moved=True, stopped=True)]
    root = parse(render_map(fake_view(units)))
    g = counter(root, "us-1-1")
    assert g.get("aria-label") == "1/1 5-6, US marines"  # what it reads first, then what it is
    assert named_as_drawn(g) == ", US marines"
    assert {"counter", "side-US"} <= set(g.get("class", "").split())
    assert g.get("role") == "button" and g.get("tabindex") == "0"
    assert tooltip(root, g) == "US 1/1 marines 5-6; CF 5 MF 6"
    assert "1/1" in texts(g) and "5-6" in texts(g)
    art = counter(root, "us-11-4")
    assert "4-6-3" in texts(art)
    assert art.get("aria-label") == "11/4 4-6-3, US artillery"
    assert tooltip(root, art) == "US 11/4 artillery 4-6-3; CF 4 MF 3 range 6; MF left 6; moved; stopped (enemy ZOC)"
    assert {"moved", "stopped"} <= set(art.get("class", "").split())


def test_air_and_naval_counters() -> None:
    units = [unit("us-f", "cap", kind="fighter", type="fighter", cf=0, mf=0),
             unit("us-fb", "ga", kind="fighter_bomber", type="fighter_bomber", cf=0, mf=0),
             unit("ij-dd", "ijn_attack", side="IJ", kind="destroyer", type="destroyer", cf=0, mf=0)]
    root = parse(render_map(fake_view(units)))
    assert "F" in texts(counter(root, "us-f"))
    assert "FB" in texts(counter(root, "us-fb"))
    assert "DD" in texts(counter(root, "ij-dd"))
    assert counter(root, "ij-dd").get("data-loc") == "ijn_attack"


def test_face_down_usaf_unit_in_the_status_box() -> None:
    units = [unit("us-vmf", "strip:0708", kind="fighter", type="fighter", face_down=True),
             unit("us-vmsb", "strip:0708", kind="bomber", type="bomber")]
    root = parse(render_map(fake_view(units)))
    g = counter(root, "us-vmf")
    assert "face-down" in g.get("class", "").split()
    assert g.get("data-loc") == "strip:0708" and g.get("data-hex") is None
    assert "Refuelling" in texts(g)
    assert named_as_drawn(g) == ", US fighter" and "refuelling" in tooltip(root, g)
    assert "face-down" not in counter(root, "us-vmsb").get("class", "").split()
    (status,) = [e for e in root.iter(f"{SVG}g") if e.get("data-loc") == "strip:0708" and "counter" not in
                 e.get("class", "")]
    assert named_as_drawn(status) == ": air strip status box, operational, 2 units"
    assert status.get("aria-label", "").startswith("0708 Oper")
    assert tooltip(root, status) == "Air strip 0708: air strip status box, operational, 2 units"


def test_every_location_kind_is_drawn_and_dead_units_are_not() -> None:
    units = [unit("a", "box:A", side="IJ"), unit("b", "entry:us-east-1"), unit("c", "arriving"),
             unit("d", "usaf_reserve"), unit("e", "eliminated"), unit("f", "pool"), unit("g", "ijaaf_reserve")]
    root = parse(render_map(fake_view(units)))
    drawn = {g.get("data-unit"): g.get("data-loc") for g in groups(root, "counter")}
    assert drawn == {"a": "box:A", "b": "entry:us-east-1", "c": "arriving", "d": "usaf_reserve",
                     "g": "ijaaf_reserve"}
    locs = {g.get("data-loc") for g in root.iter(f"{SVG}g") if "counter" not in g.get("class", "")}
    assert {"box:A", "box:B", "box:C", "box:D", "arriving", "cap", "ga", "usaf_reserve", "ijaaf_reserve",
            "ijaaf_attack", "ijn_reserve", "ijn_attack", "strip:0708", "strip:0709", "strip:0605",
            "strip:0705"} <= locs
    entries = {g.get("data-entry") for g in groups(root, "entry")}
    assert entries == set(load_board().entries)
    (entry,) = [g for g in groups(root, "entry") if g.get("data-entry") == "us-east-1"]
    assert named_as_drawn(entry).startswith(": entry point ") and entry.get("aria-label", "").endswith(", 1 units")
    assert tooltip(root, entry) == entry.get("aria-label")
    (box,) = [g for g in groups(root, "box") if g.get("data-loc") == "box:A"]
    assert named_as_drawn(box) == ": box, 1 units" and tooltip(root, box).endswith(": enters " + ", ".join(
        load_board().boxes["A"].hexes))


def test_turn_track_highlights_the_current_turn() -> None:
    root = parse(render_map(fake_view([], turn=4)))
    (cell,) = [r for r in root.iter(f"{SVG}rect") if "current" in (r.get("class") or "").split()]
    assert cell.get("data-turn") == "4"


# --- options ----------------------------------------------------------------------

def test_highlights_and_targets() -> None:
    root = parse(render_map(fake_view([]), highlights={"0709": "3", "box:B": "4", "entry:us-east-1": "2"},
                            targets=["0810"]))
    g = hex_state(root, "0709")
    assert "reachable" in g.get("class", "").split()
    assert "3" in texts(g)
    assert "cost 3" in g.get("aria-label", "")
    assert "target" in hex_state(root, "0810").get("class", "").split()
    assert "reachable" not in hex_state(root, "0810").get("class", "").split()
    # a hex the player may act on is a button named by its terrain, first by what it reads
    # (its number and name, drawn by the terrain; an air strip's chits, drawn over it); a
    # cost badge drawn over it said last
    for state in (g, hex_state(root, "0810")):
        assert state.get("role") == "button" and state.get("tabindex") == "0"
        assert tooltip(root, state) == state.get("aria-label")
        hit = state.find(f"{SVG}use")  # the whole hex takes a click: the hex's shape, at its centre
        assert hit.get("class", "").split()[0] == "hit" and hit.get("href") == "#hex-shape"
    assert hex_state(root, "0810").get("aria-label") == "Hex 0810, jungle, attack target"
    assert named_as_drawn(g) == ": Hex 0709, Henderson Field, clear, air strip damaged, work 2, cost 3"
    assert not [g for g in groups(root, "hex-state") if g.get("data-hex") == "0506"]  # a quiet hex: nothing
    (box,) = [e for e in groups(root, "box") if e.get("data-loc") == "box:B"]
    assert "reachable" in box.get("class", "").split()
    assert named_as_drawn(box) == ": box, empty, cost 4"  # it reads "Box B 4": its title and its cost badge
    (entry,) = [e for e in groups(root, "entry") if e.get("data-entry") == "us-east-1"]
    assert texts(entry) == ["2"] and entry.get("aria-label", "").startswith("US beach: entry point ")
    assert entry.get("aria-label", "").endswith(", cost 2")  # the badge drawn instead of the words: said last


def test_selected_unit_has_a_ring_and_is_on_top() -> None:
    units = [unit("us-1", "0709"), unit("us-2", "0709"), unit("us-3", "0709")]
    root = parse(render_map(fake_view(units), selected="us-1"))
    g = counter(root, "us-1")
    assert "selected" in g.get("class", "").split()
    assert any("selection-ring" in (r.get("class") or "") for r in g.iter(f"{SVG}rect"))
    order = [e.get("data-unit") for e in groups(root, "counter")]
    assert order.index("us-1") > order.index("us-3")


def test_obligations_mark_units_and_hexes() -> None:
    units = [unit("us-1", "0710"), unit("ij-1", "0709", side="IJ")]
    root = parse(render_map(fake_view(units, obligations=[{"unit": "us-1", "hex": "0709"}])))
    assert "must-attack" in counter(root, "us-1").get("class", "").split()
    assert "must-attack" not in counter(root, "ij-1").get("class", "").split()
    assert "must-be-attacked" in hex_state(root, "0709").get("class", "").split()


def test_6_4_an_overstacked_hex_is_marked_and_says_why() -> None:
    units = [unit(f"us-{i}", "0710") for i in range(4)]
    root = parse(render_map(fake_view(units, overstacked=["0710"])))
    state = hex_state(root, "0710")
    assert "overstacked" in state.get("class", "").split()
    assert "over-stacked" in (state.get("aria-label") or "")
    assert "overstacked" not in hex_state(root, "0709").get("class", "").split()
    assert [p for p in root.iter(f"{SVG}polygon") if p.get("class") == "mark-over"]


def test_text_is_escaped() -> None:
    nasty = '<script>&"'
    units = [unit("us-x", "0709", name=nasty), unit("us-y", "box:A", name="a\x00b&c")]
    svg = render_map(fake_view(units), title="A & <B>", highlights={"0709": "<1>"})
    assert "<script>" not in svg
    root = parse(svg)
    g = counter(root, "us-x")
    assert nasty in texts(g)
    assert nasty in (g.get("aria-label") or "")
    assert "ab&c" in texts(counter(root, "us-y"))
    assert "A & <B>" in texts(root)
    assert "<1>" in texts(hex_state(root, "0709"))


def test_the_base_never_changes_and_the_layers_hold_the_view() -> None:
    """The page keeps the base and swaps only the layers: everything the view says is in them."""
    units = [unit("us-1", "0709"), unit("us-2", "box:A")]
    base = parse(render_base())
    assert base.get("class") == "fb-map map-base" and not groups(base, "counter") and not groups(base, "hex-state")
    assert base.get("role") == "img" and base.find(f"{SVG}image") is not None and not groups(base, "hex")
    terrain = parse(render_terrain())
    assert len(groups(terrain, "hex")) == len(load_board().hexes)
    layers = parse(render_layers(fake_view(units), highlights={"0709": "3"}, selected="us-1"))
    assert layers.get("id") == "map-layers" and not groups(layers, "hex")
    assert {g.get("data-unit") for g in groups(layers, "counter")} == {"us-1", "us-2"}
    assert "reachable" in hex_state(layers, "0709").get("class", "").split()
    assert render_base() == render_base()
    # the standalone document is exactly the terrain and the layers together (one <svg> and <title> fewer)
    whole = parse(render_map(fake_view(units), highlights={"0709": "3"}, selected="us-1"))
    assert len(list(whole.iter())) == len(list(terrain.iter())) + len(list(layers.iter())) - 2


def test_the_layers_let_clicks_through_to_the_hexes() -> None:
    """Clicks reach the terrain (whose hex the page reads from the grid) through the layers,
    except on counters, places and the hexes a player may act on."""
    css = (ROOT / "static" / "app.css").read_text()
    assert re.search(r"svg\.map-layers \{[^}]*pointer-events: none", css)
    assert re.search(r"\.map-layers \.counter, \.map-layers \.box, \.map-layers \.entry, "
                     r"\.map-layers \.status-hex,\s*\.map-layers \.hex-state\[role=button\] "
                     r"\{ pointer-events: auto; \}", css)


def test_the_terrain_is_one_file_for_everybody_and_the_page_reads_clicks_from_its_grid() -> None:
    """The terrain is published as a file of its own, versioned, with nothing a view says
    in it; the page's base layer only points at it (with the grid), and every land hex's
    centre lies where that grid says."""
    from app.games.maps import map_file

    base = render_base()
    assert len(base) < 1000
    assert re.search(r'href="/maps/first_blood\.svg\?v=([0-9a-f]{12})"', base).group(1) == \
        map_file("first_blood").version
    assert map_file("first_blood").body.decode() == render_terrain()
    terrain = parse(render_terrain())
    assert not groups(terrain, "counter") and not groups(terrain, "hex-state")
    assert terrain.find(f"{SVG}style") is not None  # (a picture takes no other stylesheet)
    assert not [e for e in terrain.iter() if e.get("role") == "button" or e.get("tabindex")]
    ox, oy, sx, sy, half, radius = map(float, parse(base).get("data-grid").split())
    assert (ox, oy, sx, sy, half, radius) == tuple(float(format(v, ".7g")) for v in grid())
    for g in groups(terrain, "hex"):
        h = g.get("data-hex")
        row, col = int(h[:2]), int(h[2:])
        corners = [tuple(map(float, xy.split(","))) for xy in g.find(f"{SVG}polygon").get("points").split()]
        cx, cy = sum(x for x, _ in corners) / 6, sum(y for _, y in corners) / 6
        assert abs(cx - (ox + col * sx + (half if row % 2 else 0))) < 0.05 and abs(cy - (oy + row * sy)) < 0.05, h
        assert max(math.hypot(x - cx, y - cy) for x, y in corners) == pytest.approx(radius, abs=0.05)


# --- a real game ------------------------------------------------------------------

def test_midgame_view_renders_fast_and_deterministically(midgame_view: dict[str, Any]) -> None:
    render_map(midgame_view)  # warm the board cache
    start = time.perf_counter()
    first = render_map(midgame_view, highlights={"0709": "3"}, targets=["0810"])
    elapsed = time.perf_counter() - start
    assert elapsed < 1.0, f"render took {elapsed * 1000:.0f} ms"  # ~10 ms in practice; 100 ms is the budget
    assert render_map(midgame_view, highlights={"0709": "3"}, targets=["0810"]) == first
    root = parse(first)
    shown = [u for u in midgame_view["units"] if u["loc"] not in ("eliminated", "pool")]
    assert len(groups(root, "counter")) == len(shown)
    for u in shown:
        if u["loc"].isdigit():
            assert counter(root, u["id"]).get("data-hex") == u["loc"]


def test_view_is_not_mutated(midgame_view: dict[str, Any]) -> None:
    import copy
    before = copy.deepcopy(midgame_view)
    render_map(midgame_view, selected=midgame_view["units"][0]["id"])
    assert midgame_view == before


def test_output_does_not_depend_on_hash_seed() -> None:
    code = ("import hashlib, sys; sys.path.insert(0, 'tests/app'); from test_render import fake_view, unit;"
            "from app.games.first_blood.svg import render_base, render_layers, render_map;"
            "print(hashlib.sha256(render_map(fake_view([unit('u', '0709')])).encode()).hexdigest())")
    out = set()
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        res = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                             check=True)
        out.add(res.stdout.strip())
    assert len(out) == 1


@pytest.mark.skipif(not Path("/usr/bin/chromium").exists(), reason="needs Debian chromium")
def test_chromium_can_draw_it(midgame_view: dict[str, Any], tmp_path: Path) -> None:
    svg = tmp_path / "map.svg"
    png = tmp_path / "map.png"
    svg.write_text(render_map(midgame_view), encoding="utf-8")
    subprocess.run([shutil.which("chromium") or "/usr/bin/chromium", "--headless", "--no-sandbox", "--disable-gpu",
                    f"--screenshot={png}", "--window-size=1600,1300", svg.as_uri()],
                   capture_output=True, timeout=60, check=False)
    assert png.exists() and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert png.stat().st_size > 50_000  # a real picture, not a blank page
