"""A scripted whole turn of Pacific Battles (scenario "historical"), for tests that
play it through the server: ``TurnDriver.next_command(state, side)`` answers the side
to act with one of the engine's legal commands, from right after the game's creation
through the Japanese set-up, all of August 1942 and into September.

The script steers towards a turn that uses every part of the sequence of play (4.1):
the Japanese set up on the coast next to Henderson Field; the Allies land a regiment
next to each of two of those stacks, their HQ and engineer with supply apart; both
sides allocate air to superiority, interdiction, recon and strike; the Japanese land
their HQ with supply under the Allied interdiction; logistics activate the HQs and
fortify; the movement phases fly recon, the strike phases strike a hex nobody must
attack; every battle the rules make mandatory is declared and fought, the first on
the Raid CRT and the next on the Assault CRT.  Where the plan cannot be followed (a
marker or a die changed the position) the first suitable legal command is taken, and
a phase with nothing to do is ended.  ``covered(events)`` reads from the true event
log which goals the game met, so a test asserts what happened, not what was meant.

Pure engine and data: no server, no dice of its own (the game's secret rolls them).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.core.errors import RuleError
from engine.core.events import Command, Event
from engine.core.game import replay
from engine.core.hexes import distance_between
from engine.core.sealed import REVEALED, SEALED
from engine.games.pacific_battles import battles, planning, tables
from engine.games.pacific_battles import queries as q
from engine.games.pacific_battles import sequence as seq
from engine.games.pacific_battles.movement import SUPPLY
from engine.games.pacific_battles.rules import RULES
from engine.games.pacific_battles.state import PBState

SCENARIO = "historical"
SECRET = "whole-turn-88"  # a dice secret under which the turn fights four battles, both sides attacking, on both
# CRTs, and naval markers are held by both sides unplayed (the tests' servers roll every game from it)
# 25.4a: on the coast within three hexes of Henderson Field, two stacks apart that the
# Allies can reach from the sea, and the engineer inland out of the way.
SETUP = {"81 Inf": "1630", "3 K SNLF (-)": "1633", "11+13 Eng": "1430"}
ATTACKERS = ("1 Mar", "5 Mar")  # one regiment landed next to each Japanese stack
ALLIED_HQ, ALLIED_ENGINEER, JAPANESE_HQ = "1 Mar Div HQ", "1 Eng", "35 HQ"
JAPANESE_LANDING = ("28 Inf", "5 Y SNLF")  # landed with the HQ; the rest of the month waits
TABLES = ("raid", "assault")
IMPULSE_PHASES = tuple(f"{kind}_{who}_{step}" for kind, who in seq.IMPULSES for step, _ in seq.STEPS)

GOALS = (
    "set_up", "initiative", "markers_drawn_Allied", "markers_drawn_Japanese", "allocated_Allied",
    "allocated_Japanese", "allocations_revealed", "air_superiority", "interdiction_roll", "hq_activated",
    "fortified", *IMPULSE_PHASES, "recon", "strike", "raid_battle", "assault_battle", "victory_phase",
    "next_turn",
)


def acting_side(state: PBState) -> str | None:
    """Who decides now (in the secret air allocation: the first still to allocate)."""
    return RULES.prompt(state).side


class TurnDriver:
    """Both players' choices for the set-up and one whole turn.  It keeps only what it
    planned (where the landings go, which CRTs it chose); the rest is read from the
    state each time, so one driver follows one game from its creation."""

    def __init__(self) -> None:
        self.tables: list[str] = []  # the CRT of each battle, as chosen
        self.landings: dict[tuple[str, int], dict[str, list[str]]] = {}  # (side, turn) -> unit -> hexes wanted

    # --- the one entry point ------------------------------------------------------------------
    def next_command(self, state: PBState, side: str) -> Command:
        legal = [c for c in RULES.legal_commands(state, side) if c.type != "undo"]
        if state.phase == "air_allocation" and not state.pending:
            return self._allocate(state, side)
        if not legal:
            raise AssertionError(f"{side} has no legal command in {state.phase}")
        if state.pending:
            return self._decision(state, side, legal)
        phase, step = state.phase, seq.step(state.phase)
        if phase == "japanese_setup":
            return self._set_up(state, legal)
        if phase.startswith("reinforcements_"):
            return self._land(state, side, legal)
        if phase.startswith("logistics_"):
            return _first(legal, "activate", "fortify", "refit") or _end(legal)
        if step == "movement":
            return _first(legal, "recon") or _end(legal)
        if step == "strike":
            return self._strike(state, side, legal) or _end(legal)
        if step == "combat":
            return self._combat(state, side, legal)
        return _end(legal)

    # --- the set-up (25.4a) -------------------------------------------------------------------
    def _set_up(self, state: PBState, legal: list[Command]) -> Command:
        places = [c for c in legal if c.type == "place"]
        for c in places:
            if SETUP.get(state.off[c.data["unit"]].unit) == c.data["hex"]:
                return c
        return places[0] if places else _end(legal)

    # --- the secret air allocation (4.1 1c, 16.3) ------------------------------------------------
    def _allocate(self, state: PBState, side: str) -> Command:
        """Some of every mission.  A mixed split is not in the legal list (too many to list,
        engine/games/pacific_battles/rules.py): the engine's own judge accepts it first."""
        left = state.air[side].reserve
        want: dict[str, int] = dict.fromkeys(planning.allocation_missions(state), 0)
        interdiction = tables.INTERDICTION_POINTS[0] if left >= tables.INTERDICTION_POINTS[0] + 2 else 0
        # short of air (Weather, New Guinea Diversion) the Allies keep a strike, the Japanese a recon
        extras = ("strike", "recon") if side == "Allied" else ("recon", "strike")
        for mission, points in (("interdiction", interdiction), ("superiority", 1), *((m, 1) for m in extras)):
            take = min(points, left)
            want[mission] += take
            left -= take
        want["superiority"] += left  # the rest fights for the air (16.5)
        data = {m: n for m, n in want.items() if m != "support" or n}
        planning.check_allocate(state, side, {"support": 0, **data})  # raises if the engine would refuse it
        return Command("allocate", data)

    # --- reinforcements (6.0, 16.6) -----------------------------------------------------------------
    def _land(self, state: PBState, side: str, legal: list[Command]) -> Command:
        key = (side, state.turn)
        if key not in self.landings:  # made once, at the phase's start: what lands changes the map
            self.landings[key] = (_allied_plan if side == "Allied" else _japanese_plan)(state)
        plan = self.landings[key]
        lands = [c for c in legal if c.type == "land"]
        for unit, hexes in plan.items():
            for h in hexes:
                for c in lands:
                    if c.data == {"unit": unit, "hex": h}:
                        return c
        supply = [c for c in lands if state.off[c.data["unit"]].unit == SUPPLY]
        wanted = plan.get(SUPPLY, [])
        for h in wanted:  # supply points: one a hex (26.8), the HQ's hex first
            if not _has_supply(state, side, h):
                for c in supply:
                    if c.data["hex"] == h:
                        return c
        return _end(legal)  # the rest waits for a later turn (6.21)

    # --- strikes (16.8) -------------------------------------------------------------------------------
    def _strike(self, state: PBState, side: str, legal: list[Command]) -> Command | None:
        if state.strikes:
            return None
        strikes = [c for c in legal if c.type == "strike"]
        if not strikes:
            return None
        mine = [p.hex for p in state.on_map(side)]
        # a hex nobody must attack, so the strike cannot spoil a battle; all the points at once
        apart = [c for c in strikes if all(distance_between(c.data["hex"], h) > 1 for h in mine)] or strikes
        return max(apart, key=lambda c: (c.data["points"], -distance_between(c.data["hex"], q.henderson_hex())))

    # --- land combat (14.0) ------------------------------------------------------------------------
    def _combat(self, state: PBState, side: str, legal: list[Command]) -> Command:
        must, _ = battles.obligations(state, side)
        if state.declaring is not None:
            busy = battles.in_battle(state)
            _, unmet_hexes = battles.unmet(state, side)
            for c in legal:  # every unit that must attack, and the other combat units; no HQ volunteers
                if c.type == "add" and (c.data["unit"] in must or q.is_combat(state.pieces[c.data["unit"]])):
                    return c
            free = [p for p in state.on_map(side) if p.id not in busy and p.unit != SUPPLY]
            for c in legal:  # a hex that no free unit could attack joins this battle (14.21)
                if c.type == "add_hex" and c.data["hex"] in unmet_hexes and not any(
                        q.adjacent(p.hex, c.data["hex"]) for p in free):
                    return c
            return _first(legal, "close", "cancel") or legal[0]
        fight = _first(legal, "fight")
        if fight is not None:
            return fight
        unmet_units, unmet_hexes = battles.unmet(state, side)
        declares = [c for c in legal if c.type == "declare"]
        for c in declares:
            if c.data["hex"] in unmet_hexes:
                return c
        for c in declares:
            if any(q.adjacent(state.pieces[u].hex, c.data["hex"]) for u in unmet_units if u in state.pieces):
                return c
        if not set(TABLES) <= set(self.tables):  # a battle of choice while a CRT is still unused
            for c in declares:
                if any(q.is_combat(p) and q.adjacent(p.hex, c.data["hex"]) for p in state.on_map(side)):
                    return c
        return _end(legal)

    # --- decisions owed inside a phase ----------------------------------------------------------------
    def _decision(self, state: PBState, side: str, legal: list[Command]) -> Command:
        kind = state.pending[0]["kind"]
        if kind == "crt":  # 14.4: the first battle on the Raid CRT, the next on the Assault CRT
            unused = [t for t in TABLES if t not in self.tables]
            table = unused[0] if unused else TABLES[0]
            self.tables.append(table)
            return Command("crt", {"table": table})
        if kind == "losses":  # the smallest counter, never an HQ while another will do
            loses = [c for c in legal if c.type == "lose"]
            if loses:
                return min(loses, key=lambda c: _loss_order(state, c.data["unit"]))
        if kind == "fire":  # 16.52: all at the enemy's superiority, so the interdiction flies
            return _first(legal, "fire") or legal[0]
        if kind in ("react", "magic"):
            return _first(legal, "pass") or legal[0]
        if kind == "pursue":
            return _first(legal, "stop") or legal[0]
        return _first(legal, "dig", "activate_free", "retreat", "hit") or legal[0]


# --- plans made at the start of a reinforcement phase ------------------------------------------------

def _allied_plan(state: PBState) -> dict[str, list[str]]:
    """Each regiment next to a different Japanese stack, on a hex next to no other; the HQ
    and engineer on a quiet coastal hex near them, a supply point there and next to it."""
    enemy = q.enemy_hexes(state, "Allied")
    coast = sorted(h for h in q.board().coastal if h not in enemy)
    quiet = [h for h in coast if not any(q.adjacent(h, e) for e in enemy)]
    plan: dict[str, list[str]] = {}
    used: set[str] = set()
    targets = sorted(enemy & set(q.board().terrain), key=lambda h: distance_between(h, q.henderson_hex()))
    fronts: list[str] = []
    for unit in ATTACKERS:
        for t in targets:
            spots = [h for h in coast if q.adjacent(h, t) and h not in used
                     and not any(q.adjacent(h, e) for e in enemy - {t})]
            if spots and t not in fronts:
                fronts.append(t)
                plan[unit] = spots
                used.add(spots[0])
                break
        else:  # fewer stacks than regiments: the second one joins the first battle
            spots = [h for h in coast if fronts and q.adjacent(h, fronts[0]) and h not in used]
            if spots:
                plan[unit] = spots
                used.add(spots[0])
    if not fronts:  # no Japanese stack on the coast (Disease): ashore near Henderson Field all the same
        spots = sorted(quiet, key=lambda h: (distance_between(h, q.henderson_hex()), h))
        for unit, h in zip(ATTACKERS, spots, strict=False):
            plan[unit] = [h]
    attack = [hexes[0] for hexes in plan.values()]
    base = sorted((h for h in quiet if h not in attack),
                  key=lambda h: (sum(distance_between(h, a) for a in attack), h))
    if base:
        plan[ALLIED_HQ] = base[:1]
        plan[ALLIED_ENGINEER] = base[:1]
        near = [h for h in quiet if q.adjacent(h, base[0])]
        plan[SUPPLY] = [base[0], *near]
    return plan


def _japanese_plan(state: PBState) -> dict[str, list[str]]:
    """The HQ and supply on the coast well away from the Allies, nearest Henderson Field
    first, and the safe regiments beside them; but while fewer Japanese stacks are next to
    Allied units than there are CRTs (Disease took the set-up force), a regiment lands next
    to the Allies, so that the month has its battles all the same."""
    allied = {p.hex for p in state.on_map("Allied")}
    far = sorted((h for h in q.board().coastal if h not in allied
                  and all(distance_between(h, a) >= 3 for a in allied)),
                 key=lambda h: (distance_between(h, q.henderson_hex()), h))
    if not far:
        return {}
    near = [h for h in far if distance_between(h, far[0]) <= 2]
    plan = {JAPANESE_HQ: far[:1], SUPPLY: near}
    for unit in JAPANESE_LANDING:
        plan[unit] = near[1:] + far[:1]
    fighting = [p for p in state.on_map("Allied") if q.is_combat(p)]
    engaged = {p.hex for p in state.on_map("Japanese") if any(q.adjacent(p.hex, a.hex) for a in fighting)}
    fronts = sorted((h for h in q.board().coastal if h not in allied and any(q.adjacent(h, a.hex) for a in fighting)),
                    key=lambda h: (any(q.adjacent(h, e) for e in engaged), h))  # a battle of its own first
    need = max(0, len(TABLES) - len(engaged))  # a battle for each CRT
    for unit in JAPANESE_LANDING[:need]:
        if fronts:
            plan = {unit: fronts, **{k: v for k, v in plan.items() if k != unit}}
            fronts = fronts[1:] + fronts[:1]
    return plan


# --- small helpers ---------------------------------------------------------------------------------

def _first(legal: list[Command], *types: str) -> Command | None:
    for t in types:
        for c in legal:
            if c.type == t:
                return c
    return None


def _end(legal: list[Command]) -> Command:
    c = _first(legal, "end_phase")
    if c is None:
        raise AssertionError(f"no way to end the phase among {[c.type for c in legal][:10]}")
    return c


def _has_supply(state: PBState, side: str, hex_id: str) -> bool:
    return any(p.unit == SUPPLY and p.side == side for p in state.at(hex_id))


def _loss_order(state: PBState, pid: str) -> tuple[bool, int, str]:
    p = state.pieces.get(pid) or state.off[pid]
    return (p.unit != SUPPLY and q.kind(p.unit) == "hq", q.battalions(p.unit), pid)


# --- what the game did -------------------------------------------------------------------------------

def covered(events: Iterable[Event]) -> dict[str, bool]:
    """Which ``GOALS`` the true event log (as an admin reads it) shows, for the turn of
    August 1942 and the start of the next."""
    got: set[str] = set()
    turn = 0
    for e in events:
        d: dict[str, Any] = e.data
        if e.type == "turn_began":
            turn = d["turn"]
            if turn == 2:
                got.add("next_turn")
        elif e.type == "piece_placed" and turn == 0:
            got.add("set_up")
        if turn != 1:
            continue
        if e.type == "initiative_set":
            got.add("initiative")
        elif e.type == "marker_drawn":
            got.add(f"markers_drawn_{d['side']}")
        elif e.type == SEALED and d.get("kind") == planning.AIR_ROUND:
            got.add(f"allocated_{e.side}")
        elif e.type == REVEALED and d.get("kind") == planning.AIR_ROUND:
            got.add("allocations_revealed")
        elif e.type == "superiority_fired":
            got.add("air_superiority")
        elif e.type == "interdicted":
            got.add("interdiction_roll")
        elif e.type in ("hq_activated", "fortified"):
            got.add(e.type)
        elif e.type == "phase_began":
            got.add(d["phase"] if d["phase"] in IMPULSE_PHASES else f"{d['phase']}_phase")
        elif e.type == "examined" and d.get("rule") == "16.7":
            got.add("recon")
        elif e.type == "strike_result":
            got.add("strike")
        elif e.type == "battle_resolved" and d.get("table") in TABLES:
            got.add(f"{d['table']}_battle")
    return {g: g in got for g in GOALS}


def play_locally(secret: str, limit: int = 400) -> tuple[PBState, list[Event]]:
    """The scripted turn in the engine alone (no server): the final state and every event."""
    events = RULES.create(SCENARIO, {}, secret)
    state = replay(RULES, events)
    driver = TurnDriver()
    for _ in range(limit):
        if state.turn >= 2 or state.result is not None:
            break
        side = acting_side(state)
        if side is None:
            break
        cmd = driver.next_command(state, side)
        try:
            new = RULES.decide(state, Command(cmd.type, cmd.data, side))
        except RuleError as exc:  # pragma: no cover - a driver bug, said plainly
            raise AssertionError(f"{side} {cmd.type} {cmd.data} refused: {exc}") from None
        for e in new:
            RULES.apply(state, e)
        events.extend(new)
    return state, events

