"""Pacific Battles' board reads the legal commands from the game's choices (orders.py),
never spelling out a landing phase's thousands: what it finds by kind, by piece and by
hex is what the flat list holds, at every decision of a whole game with every option
on, for every side that decides."""

from __future__ import annotations

import json

from app.games.pacific_battles.orders import Order, Orders, order
from engine.core.choices import narrowed
from engine.games import get_rules
from engine.games.pacific_battles import face_up
from engine.record.selfcheck import all_options
from engine.selfplay import play_one


def _keys(orders: list[Order]) -> list[str]:
    return sorted(json.dumps([o.command.type, o.command.data, o.owner, o.owners, o.place], sort_keys=True)
                  for o in orders)


def test_the_orders_by_kind_piece_and_hex_are_the_flat_lists() -> None:
    rules = get_rules("pacific_battles")
    record = play_one("pacific_battles", seed=5, index=0, check_leaks=False, options=all_options("pacific_battles"))
    assert record.error is None, record.error
    state, checked, landings = rules.blank(), 0, 0
    for n, event in enumerate(record.events):
        rules.apply(state, event)
        if n % 2:  # every other state: the test stays quick, and still sees every kind of phase
            continue
        for side in rules.prompt(state).acting:
            flat = [order(c) for c in rules.legal_commands(state, side)]
            orders = Orders(rules.legal_choices(state, side))
            where = f"event {state.seq}, {side}"
            assert orders.types == list(dict.fromkeys(o.command.type for o in flat)), where
            for kind in orders.types:
                of_kind = [o for o in flat if o.command.type == kind]
                assert orders.count(kind) == len(of_kind), where
                assert _keys(orders.of_type(kind)) == _keys(of_kind), where
            pieces = {p for o in flat for p in o.owners}
            assert orders.pieces() == pieces, where
            assert orders.pieces(skip=face_up.KINDS) == {
                p for o in flat if o.command.type not in face_up.KINDS for p in o.owners}, where
            for pid in pieces:
                assert _keys(orders.of_piece(pid)) == _keys([o for o in flat if pid in o.owners]), where
            assert _keys(orders.unowned()) == _keys([o for o in flat if o.owner is None]), where
            checked += 1
            landings += len(flat) > 1000
    assert checked > 300 and landings > 10


def test_a_choice_narrowed_to_a_value_holds_only_its_commands() -> None:
    choice = {"type": "land", "data": {}, "product": {"unit": ["a", "b"], "hex": ["0101", "0102"]}}
    assert narrowed(choice, "unit", "b") == {"type": "land", "data": {}, "product": {"unit": ["b"],
                                                                                     "hex": ["0101", "0102"]}}
    assert narrowed(choice, "unit", "c") is None
    assert narrowed(choice, "supply", "a") is None
    one = {"type": "move", "data": {"unit": "a"}, "product": {"to": ["0101"]}}
    assert narrowed(one, "unit", "a") is one and narrowed(one, "unit", "b") is None
