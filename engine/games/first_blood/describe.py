"""One line of plain English per event, for the game log.  ``None`` marks pure
bookkeeping events that a log view may hide."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core import undo
from engine.core.events import Event
from engine.games.first_blood import evolve
from engine.games.first_blood import queries as q
from engine.games.first_blood.oob import turn_name
from engine.games.first_blood.phases.results import describe_decision
from engine.games.first_blood.state import FBState

PLACES = {
    "cap": "the USAF CAP box", "ga": "the USAF Ground Attack box", "usaf_reserve": "the USAF Reserve",
    "ijaaf_reserve": "the IJAAF Reserve", "ijaaf_attack": "the IJAAF Attack box",
    "ijn_reserve": "the IJN Reserve", "ijn_attack": "the IJN Attack box",
    "arriving": "waiting to be placed", "pool": "still to come", "eliminated": "eliminated",
}


NOT_PLACES = ("arriving", "pool", "eliminated")  # where a unit is that is no place: what it is


def heading(loc: str) -> str:
    """How a panel heads the units at ``loc``: "In the IJN Reserve", "In 0709", but
    "Waiting to be placed"."""
    where = place(loc)
    return where[:1].upper() + where[1:] if loc in NOT_PLACES else f"In {where}"


def place(loc: str | None) -> str:
    if loc is None:
        return "nowhere"
    if loc in PLACES:
        return PLACES[loc]
    if loc.startswith("box:"):
        return f"off-map box {loc[4:]}"
    if loc.startswith("entry:"):
        e = q.board().entries.get(loc[6:])
        return f"entry point {e.name if e else loc[6:]}"
    if loc.startswith("strip:"):
        return f"air strip {loc[6:]}"
    return loc


def _names(units: list[str]) -> str:
    return ", ".join(q.label(u) for u in units)


Describer = Callable[[FBState, dict[str, Any], str | None], str | None]
LINES: dict[str, Describer] = {
    # (what it retracts is struck through above it: a count of events, which grew with each
    # take-back in a row as it counted the earlier ones, told a player nothing)
    undo.UNDONE: lambda s, d, side: f"{side} takes back: {step_text(s, d['step']) or 'the last step'}",
    "game_created": lambda s, d, side: f"Game created ({d['scenario']}); " + (
        f"dice commitment {d['commitment'][:16]}..." if d.get("commitment")
        else "the dice come from the seed chains its record commits to"),
    "turn_started": lambda s, d, side: f"Turn {d['turn']}: {d['name']}",
    "phase_started": lambda s, d, side: None,
    "units_arrived": lambda s, d, side: f"{side} units arrive: {_names(d['units'])}",
    "unit_placed": lambda s, d, side: f"{q.label(d['unit'])} placed in {place(d['to'])}",
    "unit_moved": lambda s, d, side: (
        f"{q.label(d['unit'])} moves {place(d['frm'])} -> {place(d['to'])} ({d['cost']} MF)"
        + (", halts in enemy ZOC" if d["stops"] else "")),
    "strip_overrun": lambda s, d, side: (
        f"IJ overruns air strip {d['hex']}: destroyed"
        + (f", {_names(d['usaf'])} lost" if d["usaf"] else "")
        + (", engineering work lost" if d["work_lost"] else "")),
    "air_combat": lambda s, d, side: _air_combat(d),
    "support_assigned": lambda s, d, side: f"{q.label(d['unit'])} will support the attack on {d['hex']}",
    "support_spent": lambda s, d, side: (
        f"{q.label(d['unit'])} has fired its shore bombardment and leaves play (§6.6)"
        if q.spec(d["unit"]).kind == "destroyer" else f"{q.label(d['unit'])} returns to Ground Attack (§7.4)"),
    "support_returned": lambda s, d, side: f"{q.label(d['unit'])} returns unused",
    "bombarded": lambda s, d, side: _bombarded(d),
    "strategic_shift": lambda s, d, side: (
        "IJ strategic phase: "
        + (f"{_names(d['removed'])} {'leaves' if len(d['removed']) == 1 else 'leave'} play" if d["removed"]
           else "nothing leaves play")
        + (f"; {_names(d['advanced'])} {'moves' if len(d['advanced']) == 1 else 'move'} to the Attack boxes"
           if d["advanced"] else "")),
    "usaf_refuelled": lambda s, d, side: (
        f"Refuelled and ready: {_names(d['units'])}" if d["units"] else None),
    "usaf_moved": lambda s, d, side: (
        f"{q.label(d['unit'])} " + ("lands face-down on " if d["face_down"] else "goes to ")
        + place(d["to"])),
    "combat_declared": lambda s, d, side: f"{side} declares an attack on {d['hex']}",
    "combat_target_added": lambda s, d, side: f"{side} adds {d['hex']} to the attack",
    "combat_unit_added": lambda s, d, side: (
        f"{q.label(d['unit'])} joins the attack" + (" with remote fire" if d["role"] == "remote" else "")),
    "combat_cancelled": lambda s, d, side: f"{side} withdraws the attack declaration",
    "combat_resolved": lambda s, d, side: _resolved(d, side),
    "combat_steps": lambda s, d, side: None,
    "entries_blocked": lambda s, d, side: (
        f"Every entry hex of {', '.join(x.split(':')[1] for x in d['blocked'])} is held by the enemy: "
        "attack upon entry allowed (§5.3)"),
    "combat_step_done": lambda s, d, side: None,
    "combat_ended": lambda s, d, side: None,
    "decision_opened": lambda s, d, side: _decision(d),
    "decision_closed": lambda s, d, side: None,
    "unit_eliminated": lambda s, d, side: f"{q.label(d['unit'])} eliminated: {d['reason']}",
    "unit_retreated": lambda s, d, side: f"{q.label(d['unit'])} retreats {d['frm']} -> {d['to']}",
    "unit_advanced": lambda s, d, side: f"{q.label(d['unit'])} advances {place(d['frm'])} -> {d['to']}",
    "supply_rolled": lambda s, d, side: (
        f"IJ supply roll: {d['die']}" + (": one unit must be given up (§8)" if d["loss"] else ": no loss")),
    "work_done": lambda s, d, side: f"{_names(d['units'])} work on air strip {d['hex']} (marker {d['marker']})",
    "work_disrupted": lambda s, d, side: f"Work on air strip {d['hex']} is lost: {d['reason']}",
    "strip_repaired": lambda s, d, side: f"Air strip {d['hex']} is operational again",
    "game_ended": lambda s, d, side: f"Game over after {turn_name(d['turn'])}: {d['winner']} wins. {d['reason']}",
}


def _air_combat(d: dict[str, Any]) -> str:
    one = len(d["attackers"]) == 1  # §6.7: a fighter, or two bombers, lost with the USAF unit
    return (f"{_names(d['attackers'])} {'shoots' if one else 'shoot'} down {q.label(d['target'])}; "
            f"{'both are' if one else 'all are'} lost (§6.7)")


def _decision(d: dict[str, Any]) -> str | None:
    if d.get("replaces"):
        return None
    return f"{d['decision']['side']} must {describe_decision(d['decision'])}"


def _resolved(d: dict[str, Any], side: str | None) -> str:
    targets = ", ".join(d["targets"])
    if d["die"] is None:
        return (f"{side} attacks {targets}: {d['attack']} vs {d['defence']} is worse than 1:2, "
                f"attackers eliminated (§7.6)")
    mod = d["modifier"]
    sign = f" {'+' if mod >= 0 else '-'}{abs(mod)}" if mod else ""
    raw = d["die"] + mod  # (§7.6: a result above 6 is treated as 6, below 1 as 1)
    total = str(raw) if raw == d["total"] else f"{raw}, read as {d['total']}"
    return (f"{side} attacks {targets} at {d['odds']} ({d['attack']} vs {d['defence']}), "
            f"die {d['die']}{sign} = {total}: {d['result']}")


def _bombarded(d: dict[str, Any]) -> str:
    who = q.label(d["unit"])
    what = {"usaf_eliminated": f"destroys {q.label(d['target'])}" if d["target"] else "",
            "damaged": "damages the strip", "destroyed": "destroys the strip",
            "none": "has no effect on the strip"}[d["effect"]]
    extra = ", engineering work lost" if d["work_lost"] else ""
    return f"{who} bombards air strip {d['hex']} and {what}{extra}"


def describe(state: FBState, event: Event) -> str | None:
    fn = LINES.get(event.type)
    return None if fn is None else fn(state, event.data, event.side)


def step_text(state: FBState, step: int) -> str | None:
    """The first log line of the step that began at event ``step`` (what an undo
    takes back), described in the state just before it."""
    events = [e for n, e in state.undo.events if n >= step]
    if not events:
        return None
    before = undo.rebuild(state, step, evolve.apply, FBState.clone)
    before.seq = step
    return describe(before, events[0])


def command_label(state: FBState, command: Any) -> str:
    """A button label for a legal command, in plain English."""
    t, d = command.type, command.data
    unit = q.label(d["unit"]) if "unit" in d else ""
    labels: dict[str, Callable[[], str]] = {
        "place": lambda: f"Place {unit} in {place(d['to'])}",
        "move": lambda: f"Move {unit} to {place(d['to'])}",
        "air_attack": lambda: (f"{_names(d['units'])} {'attacks' if len(d['units']) == 1 else 'attack'} "
                               f"{q.label(d['target'])}: it is lost, and "
                               f"{'so is the attacker' if len(d['units']) == 1 else 'so are the attackers'} (§6.7)"),
        "naval_support": lambda: f"{unit}: shore bombardment on {d['hex']}",
        "air_support": lambda: f"{unit}: air support on {d['hex']}",
        "attack": lambda: f"Attack {d['hex']}" if state.combat is None else f"Add {d['hex']} to the attack",
        "add": lambda: f"Add {unit} to the attack",
        "cancel_attack": lambda: "Cancel this attack",
        "resolve": lambda: "Resolve the attack (roll the die)",
        "bombard": lambda: f"{unit} bombards air strip {d['hex']}"
                           + (f", hitting {q.label(d['target'])}" if d.get("target") else ""),
        "eliminate": lambda: f"Eliminate {unit}",
        "retreat": lambda: f"Retreat {unit} to {d['to']}" if d.get("to") else f"Stop {unit}'s retreat (eliminated)",
        "advance": lambda: f"Advance {unit} into {d['to']}",
        "end_advance": lambda: "Do not advance (further)",
        "work": lambda: f"{_names(d['units'])} work on air strip {d['hex']}",
        "to_reserve": lambda: f"Send {unit} to the USAF Reserve",
        "land": lambda: f"Land {unit} on air strip {d['hex']}",
        "allocate": lambda: f"Allocate {unit} to {place(d['box'])}",
        "end_phase": lambda: "End the phase",
    }
    return labels[t]() if t in labels else t
