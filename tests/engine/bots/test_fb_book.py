"""First Blood's set-up book (engine/bots/first_blood/book.py): the bots play a set-up of
the book a placement at a time, drawn by their own seed, and leave to greedy what the
position does not allow."""

from __future__ import annotations

from engine.bots import make_bot
from engine.bots.base import sub_seed
from engine.bots.first_blood import book
from engine.bots.first_blood.book import SETUP, SetUp
from engine.bots.seat import Seats
from engine.core.events import Command
from engine.core.game import replay
from engine.games.first_blood.rules import RULES


def set_up(books: dict[str, dict], seeds: dict[str, str], level: str = "greedy"):
    """Both sides set up by bots of ``level`` (each with its book and seed): the state after
    the set-up, and each side's placements in order."""
    events = RULES.create(book.SCENARIO, {}, "book-test")
    state = replay(RULES, events)
    seats = Seats(RULES, events)
    bots = {s: make_bot("first_blood", level, books[s]) for s in RULES.sides}
    placed: dict[str, list[tuple[str, str]]] = {s: [] for s in RULES.sides}
    notes: dict[str, list[bool]] = {s: [] for s in RULES.sides}
    while state.phase in SETUP.values():
        side = RULES.prompt(state).side
        decision = bots[side].decide(seats.input_for(state, side, seeds[side], 0.01))
        cmd = decision.command
        if cmd.type == "place":
            placed[side].append((cmd.data["unit"], cmd.data["to"]))
            notes[side].append(bool(decision.notes.get("book")))
        new = RULES.decide(state, Command(cmd.type, cmd.data, side))
        for e in new:
            RULES.apply(state, e)
        seats.hand_out(new)
    return state, placed, notes


def greedy_set_up(side: str) -> SetUp:
    return book.candidate(side, "test", noise=False)


def shifted(setup: SetUp, unit: str, to: str) -> SetUp:
    return SetUp(setup.side, tuple((u, to if u == unit else h) for u, h in setup.placements))


def test_a_bot_plays_its_books_set_up_a_placement_at_a_time() -> None:
    other = book.candidate("US", "other", noise=True)
    assert other.placements != greedy_set_up("US").placements  # (a set-up greedy would not make)
    for level in ("greedy", "search"):
        _, placed, notes = set_up({"US": {"US": (other,)}, "IJ": {}}, {"US": "a", "IJ": "b"}, level)
        assert placed["US"] == list(other.placements)
        assert all(notes["US"]) and not any(notes["IJ"])  # the IJ had no book: greedy's own


def test_a_placement_the_position_does_not_allow_is_left_to_greedy() -> None:
    mine = greedy_set_up("US")
    unit = next(u for u, h in mine.placements if h[0].isdigit())  # a ground unit on a map hex
    spoiled = shifted(mine, unit, "0101")  # outside the set-up area (§3)
    _, placed, notes = set_up({"US": {"US": (spoiled,)}, "IJ": {}}, {"US": "a", "IJ": "b"})
    assert notes["US"].count(False) == 1  # that one placement was greedy's, the last
    assert placed["US"][:-1] == [p for p in mine.placements if p[0] != unit]
    assert placed["US"][-1][0] == unit and placed["US"][-1][1] != "0101"


def test_the_set_up_drawn_is_the_bots_seeds_own_among_the_best_few() -> None:
    base = greedy_set_up("IJ")
    units = [u for u, _ in base.placements]
    flips = [shifted(base, u, "box:D" if dict(base.placements)[u] == "box:A" else "box:A") for u in units[:4]]
    us = {"US": (greedy_set_up("US"),)}  # (quick: the US's placements from a book too)
    books = {"US": us, "IJ": {"IJ": (flips[0], flips[1], flips[2], flips[3])}}  # the fourth is never drawn
    drawn = {}
    for seed in range(12):
        _, placed, _ = set_up(books, {"US": "us", "IJ": f"ij-{seed}"})
        drawn[seed] = next(i for i, f in enumerate(flips) if list(f.placements) == placed["IJ"])
    assert set(drawn.values()) == {0, 1, 2}
    for seed in (0, 5):  # the same seed, the same set-up
        _, placed, _ = set_up(books, {"US": "us", "IJ": f"ij-{seed}"})
        assert placed["IJ"] == list(flips[drawn[seed]].placements)
    assert sub_seed("ij-0", "set-up book") != sub_seed("ij-1", "set-up book")


def test_the_shipped_book_sets_up_both_sides_whole_and_legally() -> None:
    shipped = book.load()
    assert set(shipped) == {"US", "IJ"} and all(len(shipped[s]) >= book.DRAWN_FROM for s in shipped)
    for setups in shipped.values():
        scores = [s.score for s in setups]
        assert scores == sorted(scores, reverse=True)  # best first
    state, placed, notes = set_up({s: shipped for s in RULES.sides}, {"US": "us", "IJ": "ij"})
    assert state.phase not in SETUP.values()
    for side in RULES.sides:  # every placement the book's (a legal command of the set-up)
        assert all(notes[side]) and placed[side] in [list(s.placements) for s in shipped[side][:book.DRAWN_FROM]]
