"""copy_json: a state's clone must share nothing mutable with the original."""

from __future__ import annotations

from fractions import Fraction

from engine.core.copying import copy_json


def test_copy_shares_nothing_mutable_and_equals_the_original() -> None:
    original = {"battles": [{"attackers": ["a", "b"], "left": {"x": 1}, "mp": Fraction(3, 2)}],
                "hexes": ("0101", ["0102"]), "seen": {"p1"}, "none": None, "done": True}
    copied = copy_json(original)
    assert copied == original
    copied["battles"][0]["attackers"].append("c")
    copied["battles"][0]["left"]["x"] = 2
    copied["hexes"][1].append("0103")
    copied["seen"].add("p2")
    assert original == {"battles": [{"attackers": ["a", "b"], "left": {"x": 1}, "mp": Fraction(3, 2)}],
                        "hexes": ("0101", ["0102"]), "seen": {"p1"}, "none": None, "done": True}


def test_a_pacific_battles_clone_keeps_its_open_decisions_apart() -> None:
    from engine.games.pacific_battles.state import PBState

    state = PBState(pending=[{"side": "Allied", "kind": "crt", "done": ["x"]}],
                    battles=[{"hex": "0101", "attackers": ["a"]}])
    clone = state.clone()
    clone.pending[0]["done"].append("y")
    clone.battles[0]["attackers"].append("b")
    assert state.pending == [{"side": "Allied", "kind": "crt", "done": ["x"]}]
    assert state.battles == [{"hex": "0101", "attackers": ["a"]}]
