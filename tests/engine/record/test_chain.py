"""The record's hash chain and its sealed entries, on small hand-made records."""

from __future__ import annotations

import hashlib
import json

from engine.core import record as rec
from engine.core import seeds
from engine.core.visibility import hide
from engine.record import ADMIN, SPECTATOR, Recorder, verify_record

SIDES = ("Allied", "Japanese")


def book(hidden_information: bool = True) -> Recorder:
    b = Recorder("pacific_battles", SIDES, hidden_information, open_top="11" * 32, hidden_top="22" * 32,
                 record_salt="salt-of-this-record", periods=4)
    for side in SIDES:
        b.entropy_commit(side, seeds.entropy_commitment(f"{side} entropy"))
    for side in SIDES:
        b.entropy_reveal(side, f"{side} entropy")
    return b


def test_canonical_json_is_rfc_8785() -> None:
    assert rec.canonical({"b": 1, "a": [1.0, "é", None, True]}) == '{"a":[1,"é",null,true],"b":1}'.encode()
    assert rec.canonical({"a": 1e21, "b": 0.1}) == b'{"a":1e+21,"b":0.1}'


def test_each_hash_is_sha256_of_the_canonical_link_and_the_previous_hash() -> None:
    b = book()
    b.chat("Allied", "hello")
    entry = b.entries[-1]
    assert b.links[-1] == entry  # everybody reads it: its own link
    raw = rec.canonical(entry) + b.hashes[-2].encode()
    assert b.hashes[-1] == hashlib.sha256(raw).hexdigest() == rec.chain_next(b.hashes[-2], entry)
    assert b.hashes[0] == rec.chain_next(rec.GENESIS, b.entries[0])


def test_a_line_to_one_side_is_sealed_for_the_other_and_still_links_the_chain() -> None:
    b = book()
    b.chat(None, "to Allied only: the reinforcements are late", readers=["Allied"])
    b.chat("Japanese", "all in the open")
    k = len(b.entries) - 2
    theirs, mine = b.export("Japanese"), b.export("Allied")
    assert "reinforcements" not in json.dumps(theirs) and "reinforcements" in json.dumps(mine)
    assert theirs["entries"][k] == {"seq": k, "hash": b.hashes[k], "link": b.links[k]}
    assert mine["entries"][k]["salt"] == rec.entry_salt("salt-of-this-record", k)
    assert "salt-of-this-record" not in json.dumps(mine)
    for viewer in (*SIDES, ADMIN, SPECTATOR):
        assert verify_record(b.export(viewer)).ok, viewer
    # the same line with another text, or the same text with another salt, seals otherwise
    other = {**b.entries[k], "text": "to Allied only: the reinforcements are early"}
    salt = rec.entry_salt("salt-of-this-record", k)
    assert rec.seal(salt, other) != b.links[k]["sealed"]
    assert rec.seal(rec.entry_salt("another salt", k), b.entries[k]) != b.links[k]["sealed"]


def test_a_hidden_event_shows_its_public_stub_and_a_command_of_a_hidden_game_is_its_side_s() -> None:
    b = book()
    b.event({"type": "game_created", "data": {"secret": "s3cret", "scenario": "historical"}, "side": None},
            key=(seeds.HIDDEN, 1))
    b.command({"type": "move", "data": {"unit": "4 Inf"}, "side": "Allied"})
    b.event({"type": "moved", "data": hide({"unit": "4 Inf", "to": "1010"}, ["Allied"], {"side": "Allied"}),
             "side": "Allied"}, key=(seeds.OPEN, 1))
    b.command({"type": "pass", "data": {"why": "Henderson field"}, "side": "Japanese"})
    b.event({"type": "passed", "data": {"to": "Allied"}, "side": "Japanese"}, key=(seeds.OPEN, 1))
    created, move, moved, pass_, passed = b.links[-5:]
    assert created["readers"] == [] and created["public"]["event"]["data"] == {"scenario": "historical"}
    assert move["readers"] == ["Allied"] and move["public"] is None
    assert moved["readers"] == ["Allied"] and moved["public"] == {"event": {"type": "moved", "data": {
        "side": "Allied"}, "side": "Allied"}}
    assert pass_["readers"] == ["Japanese"] and passed == b.entries[-1]  # the event is everybody's
    allied = json.dumps(b.export("Allied"))
    assert "Henderson" not in allied and "s3cret" not in allied and "1010" in allied
    japanese = json.dumps(b.export("Japanese"))
    assert "Henderson" in japanese and "1010" not in japanese and "4 Inf" not in japanese
    for viewer in (*SIDES, ADMIN, SPECTATOR):
        verdict = verify_record(b.export(viewer))
        assert verdict.ok, (viewer, verdict.message)
    b_open = book(hidden_information=False)
    b_open.command({"type": "pass", "data": {}, "side": "Japanese"})
    assert b_open.links[-1] == b_open.entries[-1]  # a game without hidden information seals no command
    b_open.chat("Japanese", "a command without its events")
    verdict = verify_record(b_open.export(ADMIN))
    assert verdict.bad_seq == len(b_open.entries) - 2 and "followed by the events" in verdict.message


def test_the_salt_published_at_the_end_opens_every_sealed_entry() -> None:
    b = book()
    b.chat(None, "to Japanese only", readers=["Japanese"])
    b.finish()
    exported = b.export("Allied")
    assert all("entry" in item for item in exported["entries"])
    assert verify_record(exported).ok
    forged = json.loads(json.dumps(exported))
    forged["entries"][5]["salt"] = rec.entry_salt("a guess", 5)
    verdict = verify_record(forged)
    assert not verdict.ok and verdict.bad_seq == 5


def test_entropy_is_committed_by_both_sides_before_either_is_shown() -> None:
    b = Recorder("first_blood", ("US", "IJ"), False, open_top="11" * 32, hidden_top="22" * 32,
                 record_salt="x", periods=2)
    b.entropy_commit("US", seeds.entropy_commitment("us"))
    b.entropy_reveal("US", "us")  # before IJ's commitment: IJ could pick its entropy knowing US's
    b.entropy_commit("IJ", seeds.entropy_commitment("ij"))
    verdict = verify_record(b.export(ADMIN))
    assert verdict.bad_seq == 2 and "after every side has committed" in verdict.message
    b = book()
    b.entries[3]["entropy"] = "changed"  # a reveal that is not what was committed (hashes made again)
    prev = rec.GENESIS
    for i, e in enumerate(b.entries):
        prev = b.hashes[i] = rec.chain_next(prev, e)
        b.links[i] = e
    verdict = verify_record(b.export(ADMIN))
    assert verdict.bad_seq == 3 and "not the one it committed to" in verdict.message


def test_the_file_must_be_a_record_of_a_known_version() -> None:
    b = book()
    assert "not a record file" in verify_record({"entries": []}).message
    assert "version" in verify_record({**b.export(ADMIN), "version": 2}).message
    assert "its first entry" in verify_record({**b.export(ADMIN), "game": "first_blood"}).message


def test_an_append_path_may_decide_by_outcome_with_the_same_dice_and_state() -> None:
    from engine.core.events import Command
    from engine.core.game import replay
    from engine.games import get_rules
    from engine.record.keyed import decide_keyed, next_period, outcome_keyed

    rules = get_rules("first_blood")
    log = rules.create("campaign", {}, "the game's secret")
    state = replay(rules, log)
    keys = {seeds.OPEN: "a" * 64, seeds.HIDDEN: "b" * 64}
    for _ in range(300):
        if rules.prompt(state).side is None:
            break
        legal = [c for c in rules.legal_commands(state) if c.type != "undo"]
        command = Command(legal[len(legal) // 2].type, legal[len(legal) // 2].data, rules.prompt(state).side)
        events, rolls, chain = decide_keyed(rules, state, command, keys.get)
        out, rolls2, chain2 = outcome_keyed(rules, state, command, keys.get)
        assert (out.events, rolls2, chain2) == (events, rolls, chain)
        assert out.state.secret == "the game's secret"
        state = out.state
        log += out.events
    assert any(e.to_json()["data"].get("die") for e in log)  # dice were rolled
    assert rules.state_to_json(state) == rules.state_to_json(replay(rules, log))
    assert next_period(1, None, 0) == 1 and next_period(1, 0, 0) == 1 and next_period(1, 0, 1) == 2
    assert next_period(4, 3, 2) == 5  # a turn played again (a rewind) takes a fresh period


def test_a_file_of_any_shape_gets_a_verdict_never_an_exception() -> None:
    good = book()
    good.chat("Allied", "hi")
    whole = good.export(ADMIN)
    shapes = [None, [], "text", {"format": "hexwar-record", "version": 1, "entries": "x"},
              {**whole, "entries": [1, 2]}, {**whole, "entries": [{"seq": 0}]},
              {**whole, "entries": [{"seq": 0, "hash": "x", "entry": []}]}]
    for k in range(len(whole["entries"])):
        for field in ("entry", "hash", "seq"):
            for value in (None, 1.5, "x", [], {}, {"kind": "seed", "seq": k, "chain": "open", "period": "1"},
                          {"kind": "event", "seq": k, "n": 0, "event": {"type": "x"}, "key": ["open", 99]}):
                doc = json.loads(json.dumps(whole))
                doc["entries"][k][field] = value
                shapes.append(doc)
    for doc in shapes:
        verdict = verify_record(doc)
        assert not verdict.ok and verdict.message.startswith("FAIL: ")


def test_an_entry_sealed_from_a_side_that_may_read_it_is_named() -> None:
    b = book()
    b.chat(None, "to Allied only", readers=["Allied"])
    k = len(b.entries) - 1
    mine = b.export("Allied")
    assert verify_record(mine).ok
    mine["entries"][k] = {"seq": k, "hash": b.hashes[k], "link": b.links[k]}  # the server keeps it from Allied
    verdict = verify_record(mine)
    assert verdict.bad_seq == k and "Allied may read it" in verdict.message
    b.finish()
    over = b.export("Japanese")
    over["entries"][k] = {"seq": k, "hash": b.hashes[k], "link": b.links[k]}
    verdict = verify_record(over)
    assert verdict.bad_seq == k and "every entry comes whole" in verdict.message


def test_a_line_for_the_players_alone_is_sealed_in_a_spectator_s_copy_only() -> None:
    """A chat line the players read and nobody else (readers: every side) verifies sealed in
    a spectator's copy; sealed in a player's or the admin's copy it is an error."""
    b = book()
    b.chat("Allied", "between us", readers=list(SIDES))
    k = len(b.entries) - 1
    watcher = b.export(SPECTATOR)
    assert "link" in watcher["entries"][k] and "between us" not in json.dumps(watcher)
    assert verify_record(watcher, b.hashes[-1]).ok
    for viewer in (*SIDES, ADMIN):
        copy = b.export(viewer)
        assert copy["entries"][k]["entry"]["text"] == "between us" and verify_record(copy).ok
        forged = json.loads(json.dumps(copy))
        forged["entries"][k] = {"seq": k, "hash": b.hashes[k], "link": b.links[k]}
        verdict = verify_record(forged)
        assert not verdict.ok and verdict.bad_seq == k and f"though {viewer} may read it" in verdict.message
