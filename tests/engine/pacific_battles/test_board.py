"""The reconstructed map of Guadalcanal (engine/games/pacific_battles/board.py and
data/guadalcanal.toml) holds the geography the campaign turned on."""

from __future__ import annotations

from engine.core.hexes import distance_between, parse_hex_id
from engine.games.pacific_battles.board import DATA, load_board

B = load_board()
P = B.places


def col(name: str) -> int:
    return parse_hex_id(P[name])[1]


def row(name: str) -> int:
    return parse_hex_id(P[name])[0]


def test_the_map_says_it_is_a_reconstruction_of_the_whole_island_at_3_km() -> None:
    assert "reconstruction" in B.note and DATA.read_text().startswith("# RECONSTRUCTION")
    assert 450 <= len(B.terrain) <= 650  # about 150 x 45 km of land at 3 km a hex
    assert {parse_hex_id(h)[1] for h in B.terrain} >= set(range(2, 49))  # the whole length


def test_the_north_coast_runs_west_to_east_in_the_historical_order() -> None:
    west_to_east = ["Cape Esperance", "Tassafaronga", "Kokumbona", "Point Cruz", "Kukum", "Lunga Point",
                    "Henderson Field", "Koli Point", "Tasimboko", "Taivu Point", "Aola", "Marau"]
    east = [B.km[P[n]][0] for n in west_to_east]
    assert east == sorted(east) and len(set(east)) == len(east)
    assert col("Cape Esperance") > col("Point Cruz") > col("Aola")  # columns grow westward


def test_26_8_the_objective_hexes_are_on_the_coast_and_are_the_ports() -> None:
    names = {n for n, h in P.items() if h in B.objectives}
    assert names == {"Cape Esperance", "Kamimbo", "Tassafaronga", "Kokumbona", "Point Cruz", "Lunga Point",
                     "Koli Point", "Taivu Point", "Aola"}
    assert all(h in B.coastal and any(n in B.sea for n in _all_neighbours(h)) for h in B.objectives)


def _all_neighbours(h: str) -> tuple[str, ...]:
    from engine.core.hexes import neighbor_ids
    return neighbor_ids(h)


def test_henderson_field_lies_inland_of_lunga_point_between_the_lunga_and_the_ilu() -> None:
    hf = P["Henderson Field"]
    assert B.terrain[hf] == "airfield" and list(B.terrain.values()).count("airfield") == 1
    assert hf not in B.objectives and distance_between(hf, P["Lunga Point"]) == 2
    road = B.paths["Coast road"]
    crossings = [(a, b, B.rivers[frozenset((a, b))]) for a, b in zip(road, road[1:], strict=False)
                 if frozenset((a, b)) in B.rivers]
    names = [r for _, _, r in crossings]
    assert names.index("Matanikau") < names.index("Lunga") < names.index("Ilu") < names.index("Tenaru")
    i = road.index(hf)
    assert "Lunga" in [B.rivers.get(frozenset(s)) for s in zip(road[:i], road[1:i + 1], strict=False)]
    assert "Ilu" in [B.rivers.get(frozenset(s)) for s in zip(road[i:], road[i + 1:], strict=False)]
    # the Marines' bridges carry the coast road over the Lunga, the Ilu and the Tenaru, not the Matanikau
    bridged = {r for a, b, r in crossings if frozenset((a, b)) in B.bridges}
    assert bridged == {"Lunga", "Ilu", "Tenaru"}


def test_the_high_ground_south_west_of_the_airfield() -> None:
    hf = P["Henderson Field"]
    assert {B.terrain[P[n]] for n in ("Mount Austen", "Gifu", "Galloping Horse", "Edson's Ridge")} == {"hills"}
    assert distance_between(P["Edson's Ridge"], hf) == 1 and row("Edson's Ridge") < row("Henderson Field")
    assert distance_between(P["Mount Austen"], hf) <= 2 and col("Mount Austen") > col("Henderson Field")
    assert distance_between(P["Gifu"], P["Mount Austen"]) == 1 and col("Gifu") > col("Mount Austen")
    assert row("Galloping Horse") < row("Point Cruz") and distance_between(P["Galloping Horse"], P["Point Cruz"]) <= 4


def test_the_plains_east_of_the_ilu_are_open_and_the_south_is_mountains() -> None:
    hf_col = col("Henderson Field")
    koli_col = col("Koli Point")
    plain = [h for h in B.terrain if koli_col < parse_hex_id(h)[1] < hf_col - 1 and parse_hex_id(h)[0] >= 14]
    assert plain and all(B.terrain[h] in ("clear", "cultivated", "marsh", "village") for h in plain)
    south = [h for h in B.terrain if abs(parse_hex_id(h)[1] - hf_col) <= 3 and parse_hex_id(h)[0] <= 9]
    assert sum(B.terrain[h] == "mountain" for h in south) > len(south) / 2


def test_11_71_the_coast_road_carries_a_battalion_ten_hexes_a_turn() -> None:
    road = B.paths["Coast road"]
    assert road[0] == P["Kokumbona"] and road[-1] == P["Taivu Point"]
    costs = [B.cost(a, b, mechanised=False) for a, b in zip(road, road[1:], strict=False)]
    assert costs == [1] * len(costs)  # the road alone, bridged or not (11.71)
    trail = B.paths["Maruyama trail"]
    assert trail[0] == P["Kokumbona"] and trail[-1] == P["Edson's Ridge"]
    assert all(B.cost(a, b, mechanised=False) == 2 for a, b in zip(trail, trail[1:], strict=False)
               if B.links[frozenset((a, b))] == "trail")


def test_11_72_a_river_off_the_road_costs_extra() -> None:
    side = next(s for s, r in B.rivers.items() if r == "Lunga" and s not in B.links)
    a, b = sorted(side)
    assert B.cost(a, b, mechanised=False) == {"jungle": 4, "clear": 2, "hills": 4, "mountain": 6,
                                              "cultivated": 2, "village": 2, "marsh": 4}[B.terrain[b]] + 2
    assert B.cost(a, next(iter(B.sea)), mechanised=False) is None


def test_26_2_the_off_map_bases() -> None:
    assert B.bases == {"Rabaul": "Japanese", "Espiritu Santo": "Allied"}
