"""The reconstructed Guadalcanal map as SVG (app/render/pacific_map.py)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from app.render.pacific_map import render_pacific_map
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
    from app.render.pacific_pieces import render_pieces

    hq = {"id": "1 Mar Div HQ", "unit": "1 Mar Div HQ", "side": "Allied", "hex": "1532", "kind": "hq",
          "suppressed": False, "factors": [0, 1, 8], "support": 2, "radius": 3, "active": True}
    svg = render_pieces({"units": [hq], "stacks": [], "fortified": []})
    assert svg.count('class="hq-radius"') == 1 and "radius 3 (10.1, 10.4)" in svg
    assert 'class="hq-radius"' not in render_pieces({"units": [{**hq, "active": False}], "stacks": [], "fortified": []})
