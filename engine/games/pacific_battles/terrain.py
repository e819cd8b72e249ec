"""The Terrain Effects Chart for Guadalcanal at about 3 km a hex (26.10).

RECONSTRUCTION: the printed chart is missing from the source (Source Gaps).  The terrain
types are those the text names that the island has (16.7: clear, cultivated, marsh; 28.0:
hills and mountains; 33.0: village, airfield; 15.34 cities: none on Guadalcanal in 1942),
plus jungle, most of the island.  Costs are movement points for a non-mechanised and a
mechanised unit (2.32); None means prohibited (11.5).  Defensive shifts are column shifts
left for the defender in land combat (14.33, the single best applies) and for the hex
against bombardment (16.81).  Movement factors are 10 (Japanese battalions, 26.7) and 8
(US battalions), so a road hex costs 1 and open ground 2: a battalion marches ten hexes
(30 km) of coast road, or four or five hexes of grass, in a turn of a month.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Terrain:
    name: str
    infantry: int | None  # movement points to enter, non-mechanised
    mechanised: int | None
    defence: int  # column shifts left in land combat (14.33)
    bombardment: int  # column shifts left against air, naval and artillery bombardment (16.81)
    open_to_recon: bool  # 16.7: examined by air recon within two hexes


TERRAIN = {t.name: t for t in (
    Terrain("clear", 2, 2, 0, 0, True),  # kunai grass
    Terrain("cultivated", 2, 3, 0, 0, True),  # coconut plantations along the north coast
    Terrain("village", 2, 2, 1, 0, False),
    Terrain("airfield", 2, 2, 0, 0, False),  # Henderson Field (26.1)
    Terrain("marsh", 4, None, 1, 0, True),
    Terrain("jungle", 4, 8, 1, 1, False),
    Terrain("hills", 4, 6, 1, 1, False),  # Mount Austen, the Galloping Horse, the ridges (28.0)
    Terrain("mountain", 6, None, 2, 2, False),  # the central range
)}
SEA = "sea"  # all-sea hexes: no land unit enters (22.3), only amphibious moves pass


@dataclass(frozen=True)
class Hexside:
    name: str
    infantry: int | None  # extra movement points to cross (11.72)
    mechanised: int | None
    defence: int  # column shift left when every attacker is across it (part of 14.33's "single best")


HEXSIDES = {h.name: h for h in (
    Hexside("stream", 1, 2, 0),
    Hexside("river", 2, 4, 1),  # the Lunga, the Matanikau, the Ilu, the Tenaru, the Balesuna
)}
ROAD = {"road": (1, 1), "trail": (2, 4)}  # 11.71: along a connected road or trail, its cost alone


def enter_cost(terrain: str, mechanised: bool, hexside: str | None = None, path: str | None = None,
               bridged: bool = False) -> int | None:
    """The movement points to enter a hex of ``terrain`` across ``hexside``, or along a
    road or trail (``path``) that connects the two hexes; None where the unit may not go."""
    if terrain == SEA:
        return None
    if path is not None:  # 11.71: only the road's or trail's cost, whatever else the hex holds
        return ROAD[path][1 if mechanised else 0]
    t = TERRAIN[terrain]
    cost = t.mechanised if mechanised else t.infantry
    if cost is None:
        return None
    if hexside is not None and not bridged:  # 11.72: bridges negate the extra cost
        side = HEXSIDES[hexside]
        extra = side.mechanised if mechanised else side.infantry
        if extra is None:
            return None
        cost += extra
    return cost


def defence_shift(terrain: str, across: str | None = None) -> int:
    """14.33: the single best of the hex's terrain and the hexside every attacker crosses."""
    shifts = [TERRAIN[terrain].defence]
    if across is not None:
        shifts.append(HEXSIDES[across].defence)
    return max(shifts)

HIGH_GROUND = ("hills", "mountain")  # 28.0 (optional): "mountain, hilltop or ridge"
