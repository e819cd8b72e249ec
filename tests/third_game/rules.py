"""Sealed Bids, a game for tests: North and South each hold 10 crowns; three lots are
sold, one after another.  For each lot both bid at once, in secret (the bids are sealed
decisions, engine/core/sealed.py); the higher bid wins the lot and is paid; a tie is
settled by a die (1-3 North, 4-6 South).  Whoever wins more lots wins the game."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from engine.core import dice, sealed
from engine.core.errors import IllegalCommandError, MalformedCommandError
from engine.core.events import Command, Event
from engine.core.game import Emitter, Headline, Outcome, Prompt, RulesBase, check_turn
from engine.core.visibility import hide

SIDES = ("North", "South")
LOTS = 3
PURSE = 10


@dataclass
class BidState:
    seq: int = 0
    secret: str = ""
    lot: int = 0
    purse: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SIDES, PURSE))
    won: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SIDES, 0))
    round: sealed.Round = field(default_factory=sealed.Round)
    last: dict[str, Any] | None = None  # the last lot's bids and winner
    result: dict[str, Any] | None = None


class SealedBids(RulesBase[BidState]):
    id = "sealed_bids"
    title = "Sealed Bids"
    sides = SIDES
    options: dict[str, str] = {}
    scenarios = {"standard": "Three lots"}
    hidden_information = True
    turn_event = "lot_opened"

    def blank(self) -> BidState:
        return BidState()

    def clone(self, state: BidState) -> BidState:
        return copy.deepcopy(state)

    def state_to_json(self, state: BidState) -> dict[str, Any]:
        return {"seq": state.seq, "secret": state.secret, "lot": state.lot, "purse": state.purse,
                "won": state.won, "round": state.round.to_json(), "last": state.last, "result": state.result}

    def state_from_json(self, obj: dict[str, Any]) -> BidState:
        return BidState(obj["seq"], obj["secret"], obj["lot"], dict(obj["purse"]), dict(obj["won"]),
                        sealed.Round.from_json(obj["round"]), obj["last"], obj["result"])

    def create(self, scenario: str = "standard", options: dict[str, Any] | None = None,
               secret: str = "") -> list[Event]:
        if scenario not in self.scenarios:
            raise MalformedCommandError("", f"unknown scenario {scenario!r}; known: {sorted(self.scenarios)}")
        if options:
            raise MalformedCommandError("", f"unknown option(s) {sorted(options)}; this game has none")
        em = Emitter(self, self.blank())
        em.emit("game_created", None, game=self.id, scenario=scenario, options={}, secret=secret,
                commitment=dice.commitment(secret))
        em.emit("lot_opened", None, lot=1)
        return em.events

    def apply(self, state: BidState, event: Event) -> None:
        d = event.data
        if event.type == "game_created":
            state.secret = d["secret"]
        elif event.type == "lot_opened":
            state.lot, state.round = d["lot"], sealed.Round("bid", SIDES)
        elif event.type == sealed.SEALED:
            sealed.apply_sealed(state.round, event)
        elif event.type == sealed.REVEALED:
            state.round = sealed.Round()
        elif event.type == "lot_sold":
            state.purse[d["to"]] -= d["price"]
            state.won[d["to"]] += 1
            state.last = dict(d)
        elif event.type == "game_ended":
            state.result = dict(d["result"])
        state.seq += 1

    def prompt(self, state: BidState) -> Prompt:
        if state.result is not None:
            text = f"Game over: {state.result['winner']}."
            return Prompt(None, "game_over", text, text)
        waiting = state.round.waiting
        return Prompt(waiting[0], "bid", f"Bid for lot {state.lot} (sealed)",
                      f"waiting for {' and '.join(waiting)} to bid for lot {state.lot}", rule="2", sides=waiting)

    def legal_commands(self, state: BidState, side: str | None = None) -> list[Command]:
        if state.result is not None:
            return []
        sides = [s for s in state.round.waiting if side is None or s == side]
        return [Command("bid", {"amount": n}, s) for s in sides for n in range(state.purse[s] + 1)]

    def decide(self, state: BidState, command: Command) -> list[Event]:
        return self.outcome(state, command).events

    def outcome(self, state: BidState, command: Command) -> Outcome[BidState]:
        check_turn(self.prompt(state), command)
        if command.type != "bid":
            raise IllegalCommandError("2", f"{command.type!r} is no command of this game: bid for the lot")
        amount, side = command.data.get("amount"), command.side or state.round.waiting[0]
        if type(amount) is not int or not 0 <= amount <= state.purse[side]:
            raise IllegalCommandError("2", f"a bid is a whole number of crowns from 0 to the {state.purse[side]} "
                                           "in your purse")
        em = Emitter(self, state, describe=True)
        # the others read that it was made, and its log line (a hidden event's stub carries its own)
        em.emit(sealed.SEALED, side, **hide({"kind": "bid", "decision": amount}, [side],
                                             public={"kind": "bid", "sealed": True, "text": f"{side} seals a bid"}))
        if not em.state.round.open:
            bids = dict(em.state.round.decisions)
            em.emit(sealed.REVEALED, None, **sealed.revealed_event(em.state.round).data)
            die = em.roll() if bids["North"] == bids["South"] else None
            to = max(SIDES, key=lambda s: bids[s]) if die is None else ("North" if die <= 3 else "South")
            em.emit("lot_sold", None, lot=state.lot, to=to, price=bids[to], bids=bids, die=die)
            if state.lot < LOTS:
                em.emit("lot_opened", None, lot=state.lot + 1)
            else:
                n, s = em.state.won["North"], em.state.won["South"]
                winner = "North" if n > s else "South" if s > n else "nobody (a draw)"
                em.emit("game_ended", None, result={"winner": winner, "reason": f"lots won {n} to {s}"})
        return em.outcome()

    def describe(self, state: BidState, event: Event) -> str | None:
        d = event.data
        if event.type == "lot_opened":
            return f"Lot {d['lot']}"
        if event.type == sealed.SEALED:
            return f"{event.side} seals a bid"
        if event.type == "lot_sold":
            tie = f" (a tie, the die {d['die']})" if d["die"] is not None else ""
            return f"Lot {d['lot']} to {d['to']} for {d['price']} crowns{tie}"
        if event.type == "game_ended":
            return f"Game over: {d['result']['winner']} wins" if d["result"]["winner"] in SIDES else "A draw"
        return None

    def label(self, state: BidState, command: Command) -> str:
        return f"Bid {command.data.get('amount')} crowns"

    def view(self, state: BidState, side: str | None, legal: list[Command] | None = None) -> dict[str, Any]:
        p = self.prompt(state)
        return {"game": self.id, "lot": state.lot, "lots": LOTS, "purse": state.purse, "won": state.won,
                "my_bid": state.round.for_side(side) if side in SIDES else None,
                "sealed": sorted(state.round.decisions), "last": state.last, "result": state.result,
                "your_turn": side is not None and side in p.sides,
                "prompt": {"side": p.side, "sides": list(p.sides), "kind": p.kind, "text": p.text,
                           "waiting": p.waiting, "rule": p.rule}}

    def secrets(self, state: BidState, viewer: str | None) -> list[str]:
        return [f'"amount": {bid}' for s, bid in state.round.decisions.items() if s != viewer]

    def headline(self, state: BidState) -> Headline:
        return Headline(state.lot, f"lot {state.lot}", "bidding")


RULES = SealedBids()
