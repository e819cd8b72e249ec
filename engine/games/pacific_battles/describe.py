"""Log lines and command labels in plain words.

An event reaches ``describe`` whole, or cut down to its public stub for a viewer who may
not read it (engine/core/visibility.py): every line is written from the data in hand, so
a stub gives the stub's line and names nothing it does not hold."""

from __future__ import annotations

from typing import Any

from engine.core.events import Command, Event
from engine.games.pacific_battles import queries as q
from engine.games.pacific_battles import sequence as seq
from engine.games.pacific_battles.sequence import turn_name
from engine.games.pacific_battles.state import PBState


def _names(units: list[Any]) -> str:
    return ", ".join(u[1] if isinstance(u, list) else str(u) for u in units)


def describe(state: PBState, event: Event) -> str | None:
    d, t = event.data, event.type
    who = d.get("side") or d.get("owner") or event.side or (d.get("seen_by") or [""])[0]
    if t == "game_created":
        return f"{d.get('scenario', '')} scenario of Pacific Battles: Guadalcanal created"
    if t == "decision_progress" and "rout" in d:  # (the retreating side's alone: the stub says nothing)
        return (f"{q.label(state, d['unit'])} routs: die {d['rout']}, so many hexes of retreat (15.32; one from a "
                "fortification, 21.2)")
    if t in ("forces_set", "markers_to_draw", "round_opened", "fire_chosen", "decision_progress", "decision_made",
             "decision_rewritten", "follow_on_set", "battle_opened", "battle_hex_added", "attacker_added",
             "refit_credit_used", "strikes_resolved", "battle_units_changed", "bridges_set"):
        return None
    if t == "henderson_set":
        return f"Henderson Field activated by {d['side']} (26.1)" if d.get("side") else "Henderson Field inactive"
    if t == "turn_began":
        return f"{d.get('name') or turn_name(d['turn'])} begins"
    if t == "phase_began":
        return None
    if t == "turned_face_up":
        return f"{d['side']} turn {d['name']} in {d['hex']} face up (34.0)"
    if t == "turned_face_down":
        return f"{d['side']} turn {q.label(state, d['unit'])} face down again (34.0)"
    if t == "initiative_set":
        return f"{d['first']} has the initiative: {d['why']}"
    if t == "start_force":
        return f"{who} start force (35.4)" + (f", die {d['die']}: {d['note']}" if "die" in d else ": rolled in secret")
    if t == "marker_scheduled":
        return f"{who} takes {d['marker']} at {d['why']}"
    if t == "marker_drawn":
        return f"{who} draws {q.marker_name(d['marker'])}" if "marker" in d else f"{who} draws a command marker"
    if t == "marker_played":
        return f"{who} plays {d['marker']}: {d['effect']}"
    if t == "markers_expired":
        gone = [*d.get("to_pool", []), *d.get("removed", [])]
        return f"{who}: {', '.join(gone)} expire at the end of the turn" if gone else None
    if t == "command_raised":
        return f"{who} command control level +{d['by']}"
    if t == "bombardment_shift":
        return f"{who} bombardment shifts one column right for the rest of the game"
    if t == "vp_scored":
        return f"{who} {'+' if d['points'] >= 0 else ''}{d['points']} VP: {d['why']}"
    if t == "air_changed":
        parts = [f"{k} {v:+d}" for k, v in sorted(d.get("boxes", {}).items()) if v]
        parts += [f"{k} {v:+d}" for k, v in sorted(d.get("missions", {}).items()) if v]
        why = f"; {d['why']}" if d.get("why") else ""  # (its why may hold brackets of its own)
        return f"{who} air: {', '.join(parts)}{why}" if parts else None
    if t == "decision_sealed":
        return f"{event.side} has allocated its air missions" if "decision" not in d else (
            f"You allocate your air missions: {_missions(d['decision'])}")
    if t == "decisions_revealed":
        return "Air missions revealed: " + "; ".join(f"{s}: {_missions(a)}" for s, a in sorted(d["decisions"].items()))
    if t == "superiority_fired":
        lines = []
        for s, shots in sorted(d["fires"].items()):
            for sh in shots:
                lines.append(f"{s} fires {sh['points']} at {sh['at']}: die {sh['die']}, {sh['eliminated']} "
                             f"eliminated, {sh['damaged']} damaged")
        return "Air superiority (16.51): " + "; ".join(lines)
    if t == "pieces_added":
        if "pieces" not in d:
            parts = [f"{d[k]} {k}" for k in ("track", "supply", "delayed") if d.get(k)]
            return f"{who} reinforcements scheduled ({', '.join(parts)})" if parts else None
        return f"{who} track: {_names(d['pieces'])}"
    if t == "piece_placed":
        if "id" not in d:
            return f"{who} places a unit in {d.get('hex', '?')}"
        return f"{q.label(state, d['id'])} placed in {d['hex']}"
    if t == "off_moved":
        if "ids" not in d:
            if d.get("delayed_turn"):
                return f"{who} reinforcements of {turn_name(d['delayed_turn'])} delayed a turn"
            if d.get("delayed"):
                return f"{who}: {d['delayed']} reinforcement(s) delayed"
            return f"{who} moves a unit off the map"
        return f"{', '.join(q.label(state, i) for i in d['ids'])} to the {d['box']}" + (
            f" (due {turn_name(d['due'])})" if d.get("box") == "track" and d.get("due") else "")
    if t == "landing_readied":
        if "id" not in d:
            return f"{who} readies {d['what']} to land, under interdiction (16.61)"
        return f"{q.label(state, d['id'])} readied to land in {d['hex']}, under interdiction (16.61)"
    if t == "interdiction_over":
        return None
    if t == "interdicted":
        return f"Interdiction ({d['points']} points) of {d['what']} of {who}: die {d['die']}, {d['result']}"
    if t == "pieces_moved":
        if "ids" not in d:
            how = " by sea" if d.get("amphibious") else ""
            return f"{who} moves {d.get('count', 1)} unit(s){how} {d.get('from')} -> {d.get('to')}"
        what = ("retreats" if d.get("retreat") else "pursues" if d.get("pursuit") else "lands" if d.get("landing")
                else f"sails to assault {d['assault']} from" if d.get("assault") else "moves")
        return f"{', '.join(q.label(state, i) for i in d['ids'])} {what} {d.get('from')} -> {d['to']}"
    if t == "pieces_removed":
        if "ids" not in d:
            verb = "evacuates" if d.get("evacuated") else "loses"
            return f"{who} {verb} {d.get('what', 'a unit')}" + (f" from {d['hex']}" if d.get("evacuated") and d.get(
                "hex") else f" in {d['hex']}" if d.get("hex") else "")
        box = {"mix": "out of play", "replace": "to the Replacement box", "dead": "permanently eliminated",
               "evacuated": "evacuated"}[d["box"]]
        return f"{', '.join(q.label(state, i) for i in d['ids'])}: {box}" + (f" ({d['why']})" if d.get("why") else "")
    if t == "broken_down":
        if "id" not in d:
            return f"{who} breaks down a unit in {d.get('hex')}"
        return f"{q.label(state, d['id'])} breaks down into {len(d['into'])} battalions (9.1)"
    if t == "combined":
        return f"{who} combines battalions in {d.get('hex')}" + (f" into {d['into']}" if "into" in d else "")
    if t == "suppressed":
        if "ids" not in d:
            return f"{who} units in {d.get('hex')} suppressed"
        return f"Suppressed: {', '.join(q.label(state, i) for i in d['ids'])}"
    if t == "suppression_removed":
        return f"{who} removes suppression markers"
    if t == "supply_spent":
        if "ids" not in d:
            return f"{who} spends {d.get('points', 1)} supply point(s)"
        return f"{who} spends {len(d['ids'])} supply point(s): {d.get('why', '')}"
    if t == "hq_activated":
        return f"{who} activates an HQ" if "hq" not in d else f"{q.label(state, d['hq'])} activated (7.3)"
    if t == "hqs_deactivated":
        return None if "ids" not in d else f"Inactive: {', '.join(q.label(state, i) for i in d['ids'])} ({d['why']})"
    if t == "fortified":
        return f"{who} fortifies {', '.join(d['hexes'])} (21.0)" if d.get("hexes") else None
    if t == "examined":
        if "units" not in d:
            return f"{who} examines enemy stacks ({d.get('why', '')})"
        found = "; ".join(f"{h}: {_names(u)}" for h, u in d["units"].items())
        return f"Examined ({d['why']}, {d['rule']}): {found or 'nothing there'}"
    if t == "track_examined":
        return "MAGIC: Japanese track examined" if "units" not in d else (
            "MAGIC: on the Japanese track " + "; ".join(f"{u} ({turn_name(due)})" for _, u, due in d["units"]))
    if t == "strike_placed":
        what = (f"naval bombardment ({d['naval']}, {d.get('value')})" if d.get("naval")
                else f"HQ artillery of {d.get('value')} (29.0)" if d.get("artillery")
                else f"{d['air']} air strike point(s)")
        return f"{who} places {what} on {d['hex']}"
    if t == "strike_result":
        return (f"Strike on {d['hex']}: {d['air']} air + {d['naval']} naval or artillery on the {d['column']} "
                f"column, die "
                f"{d['die']}: {d['result']}")
    if t == "battle_declared":
        return f"Battle declared: {', '.join(d.get('units', []))} against {', '.join(d['defenders'])}"
    if t == "battle_cancelled":
        return "Battle declaration cancelled"
    if t == "close_support_added":
        return f"{d['points']} close air support point(s) on {q.battle_name(state, d['battle'])} (31.1)"
    if t == "battle_withdrawn":
        name = q.battle_name(state, d["battle"])
        return f"{name[0].upper()}{name[1:]} taken out again"
    if t == "battles_fought":
        told = "; ".join(f"{_names(b['attackers'])} against {', '.join(b['defenders'])}" for b in d.get("battles", []))
        return f"{d['count']} battle(s) declared: {told or 'none'}"
    if t == "battle_marker":
        return None
    if t == "battle_resolved":
        if "die" not in d:
            return f"Battle {d['battle'] + 1}: {d.get('words', '')}"
        shifts = ", ".join(f"{v:+d} {why} ({rule})" for v, why, rule in d["shifts"]) or "no shifts"
        return (f"{d['attacker']} attacks {', '.join(d['hexes'])} on the {d['table']} CRT: {d['attack']} against "
                f"{d['defence']} ({d['base']}), {shifts} -> {d['column']}; die {d['die']}: {d['result']}, {d['words']}")
    if t == "decision_owed":
        return None
    if t == "game_ended":
        return game_over(d)
    if t == "undone":
        return f"{event.side} takes back a step"
    return t.replace("_", " ")


def _missions(a: dict[str, int]) -> str:
    parts = [f"{m} {n}" for m, n in sorted(a.items()) if n]
    return ", ".join(parts) or "all in Reserve"


def command_label(state: PBState, c: Command) -> str:
    d, t = c.data, c.type

    def lab(pid: str) -> str:
        return q.label(state, pid)

    if t == "end_phase":
        return f"End {seq.title(state)}"
    if t == "undo":
        return "Take back the last step"
    if t == "place":
        return f"Place {lab(d['unit'])} in {q.hex_name(d['hex'])}"
    if t == "show":
        return f"Turn {lab(d['unit'])} face up: the enemy sees it until you turn it down (34.0)"
    if t == "hide":
        return f"Turn {lab(d['unit'])} face down again (34.0)"
    if t == "land":
        return f"Land {lab(d['unit'])} in {q.hex_name(d['hex'])}"
    if t == "interdict":
        return f"Interdict {'a supply point' if d['next'] == 'supply' else 'a landing unit'} next (16.61)"
    if t == "move":
        return f"Move {lab(d['unit'])} to {q.hex_name(d['to'])}"
    if t == "carry":
        return f"Move {lab(d['unit'])} to {q.hex_name(d['to'])} carrying a supply point (20.4)"
    if t == "assault":
        return f"Assault {q.hex_name(d['target'])} from the sea with {lab(d['carrier'])} and its stack (22.3)"
    if t == "sail":
        return f"Sail {lab(d['carrier'])} with its {d['cargo']} to {q.hex_name(d['to'])} (22.1)"
    if t == "strike":
        return f"Strike {q.hex_name(d['hex'])} with {d['points']} air point(s)"
    if t == "play":
        target = d.get("target")
        if target and target.isdigit() and int(target) < len(state.battles):
            return f"Play {d['marker']} on {q.battle_name(state, target)}"
        return f"Play {d['marker']}" + (f" on {q.hex_name(target)}" if target else "")
    if t == "fire":
        n = d["at_others"]
        return (f"Fire {n} air superiority point(s) at the enemy's other missions, the rest at its air superiority "
                "(16.52)" if n else "Fire every air superiority point at the enemy's air superiority (16.52)")
    if t == "hit":
        return f"Place an air loss on the enemy's {d['mission']} mission ({d['kind']}, 16.52)"
    if t == "withdraw":
        return f"Take {q.battle_name(state, d['battle'])} out again"
    if t == "air_support":
        return f"Close air support: {d['points']} air point(s) to {q.battle_name(state, d['battle'])} (31.1)"
    if t == "artillery":
        return f"Artillery of {lab(d['hq'])}: {d['points']} point(s) on {q.hex_name(d['hex'])} (29.0)"
    if t == "delay_turn":
        return f"MAGIC: delay the Japanese reinforcements of {turn_name(d['turn'])} a turn"
    if t == "combine":
        return f"Combine {', '.join(lab(u) for u in d['units'])} into {d['into']}"
    if t == "dig":
        return f"Dig In: fortify {q.hex_name(d['hex'])}"
    if t == "activate_free":
        return f"Staff Planning: activate {lab(d['hq'])} for free"
    if t == "repair":
        return f"Repair aircraft with {lab(d['supply'])} (7.6)"
    if t == "fortify":
        return f"Fortify with {lab(d['engineer'])} and {lab(d['supply'])} (20.3)"
    if t == "buy":
        return f"Buy {d['unit']} for two VP (25.6d, 25.7d)"
    if t == "buy_marker":
        return "Buy a command marker for two VP (27.2)"
    if t == "roll_start_force":
        return "Roll the die for your start force, in secret (Variable Forces, 35.4)"
    if t in ("declare", "add_hex"):
        return f"{'Declare a battle against' if t == 'declare' else 'Add the defending hex'} {q.hex_name(d['hex'])}"
    if t == "add":
        return f"Add {lab(d['unit'])} to the attack"
    if t in ("close", "cancel") and state.declaring is not None:
        hexes = " and ".join(q.hex_name(h) for h in state.declaring["defenders"])
        if t == "cancel":
            return f"Cancel the battle against {hexes} being declared (14.2)"
        n = len(state.declaring["attackers"])
        return f"Declare the battle against {hexes} with its {n} attacker{'s' if n != 1 else ''} (14.2)"
    if t == "fight":
        n = len(state.battles)
        if not n:
            return "Declare no battle (14.3)"
        return f"Declare no more: fight the {n} battle{'s' if n != 1 else ''} declared (14.3)"
    if t == "recon":
        return f"Air recon over {q.hex_name(d['hex'])} (16.7)"
    if t == "allocate":
        return f"Allocate: {_missions(d)}"
    if t == "crt":
        return f"Fight on the {d['table'].title()} CRT"
    if t in ("retreat", "pursue"):
        return f"{t.title()} {lab(d['unit'])} to {d['to']}"
    if t in ("lose", "break", "to_base", "evacuate", "breakdown"):
        return f"{t.replace('_', ' ').title()}: {lab(d['unit'])}"
    if t == "activate":
        return f"Activate {lab(d['hq'])} with {lab(d['supply'])}"
    if t == "refit":
        return f"Refit {lab(d['unit'])} with {lab(d['supply'])}"
    args = ", ".join(f"{k} {v}" for k, v in sorted(d.items()) if v is not None)
    return f"{t.replace('_', ' ').title()}" + (f": {args}" if args else "")


def game_over(result: dict[str, Any]) -> str:
    """The end in a sentence: who won and by how much, then why (24.2, 25.3)."""
    winner, level, why = result.get("winner"), str(result.get("level") or ""), str(result.get("reason") or "")
    if level and why.endswith(f": {level}"):
        why = why[: -len(level) - 2]  # (the level is said first)
    if winner in (None, "draw"):
        who = "a draw"
    elif level == "won on time":
        who = f"{winner} wins on time"
    else:
        who = f"{winner}, {level}" if level else f"{winner} wins"
    why = why[:1].upper() + why[1:]
    return f"Game over: {who}." + (f" {why}{'' if why.endswith('.') else '.'}" if why else "")
