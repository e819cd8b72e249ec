"""Records of real games of both games: every export verifies, whole and per side; any byte
changed makes the checker fail naming the entry; no side's export shows what it may not
know."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.core import record as rec
from engine.core import seeds
from engine.games import get_rules
from engine.games.pacific_battles import leaks
from engine.record import ADMIN, SPECTATOR, verify_record
from engine.record.selfcheck import other
from engine.verify import main

ROOT = Path(__file__).resolve().parents[3]
GAMES = ("first_blood", "pacific_battles")


def copy(doc: dict[str, Any]) -> dict[str, Any]:
    return json.loads(json.dumps(doc))


def lines(doc: dict[str, Any]) -> list[str]:
    """The file as written one entry a line: line 0 the header, line k + 1 entry k."""
    head = {k: v for k, v in doc.items() if k != "entries"}
    return [json.dumps(head), *(json.dumps(item) for item in doc["entries"])]


def from_lines(text_lines: list[str]) -> dict[str, Any]:
    return {**json.loads(text_lines[0]), "entries": [json.loads(line) for line in text_lines[1:]]}


def rehash(doc: dict[str, Any], sides: tuple[str, ...], hidden_information: bool) -> dict[str, Any]:
    """A whole export with every hash made again from its entries (what a forger who changed
    an entry would do to hide it from a plain chain check)."""
    prev = rec.GENESIS
    for item in doc["entries"]:
        entry = item["entry"]
        readers, public = rec.visibility(entry, sides, hidden_information)
        link = entry if readers is None else rec.sealed_link(entry, item["salt"], readers, public)
        prev = item["hash"] = rec.chain_next(prev, link)
    return doc


def decision(doc: dict[str, Any], c: int) -> list[int]:
    """The event entries of the decision whose command is entry ``c``."""
    out = []
    for item in doc["entries"][c + 1:]:
        kind = item["entry"]["kind"]
        if kind == "command":
            break
        if kind == "event":
            out.append(item["seq"])
    return out


def first(doc: dict[str, Any], test) -> int:
    return next(k for k, item in enumerate(doc["entries"]) if "entry" in item and test(item["entry"]))


def viewers(book) -> tuple[str, ...]:
    return (ADMIN, *book.sides, SPECTATOR)


@pytest.mark.parametrize("game", GAMES)
def test_a_finished_game_verifies_from_every_export_and_replays(finished, game) -> None:
    book, state = finished[game]
    assert state.result is not None and book.over
    for viewer in viewers(book):
        verdict = verify_record(copy(book.export(viewer)), head=book.head)
        assert verdict.ok, (viewer, verdict.message)
        assert verdict.replayed and verdict.rolls_checked > 0 and verdict.rolls_waiting == 0, verdict.message
        assert verdict.message.startswith("OK: ")


@pytest.mark.parametrize("game", GAMES)
def test_an_unfinished_game_verifies_from_every_export_as_far_as_its_seeds_go(unfinished, game) -> None:
    book, state = unfinished[game]
    assert state.result is None and not book.over
    for viewer in viewers(book):
        verdict = verify_record(copy(book.export(viewer)), head=book.head)
        assert verdict.ok, (viewer, verdict.message)
        assert not verdict.replayed and "no replay" in verdict.message
    if game == "first_blood":  # open seeds of the turns over: their dice are checked already
        assert verify_record(copy(book.export("US"))).rolls_checked > 0
    for viewer in book.sides:  # each side has sealed entries (the creation's secret at least)
        assert any("link" in item for item in book.export(viewer)["entries"])


@pytest.mark.parametrize("game", GAMES)
def test_the_command_line_gives_one_verdict_line_and_its_exit_status(finished, game, tmp_path, capsys) -> None:
    book, _ = finished[game]
    path = tmp_path / "record.json"
    path.write_text(json.dumps(book.export(book.sides[0])))
    assert main([str(path), "--head", book.head]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1 and out[0].startswith("OK: ")
    assert main([str(path), "--head", "0" * 64]) == 1
    assert capsys.readouterr().out.startswith(f"FAIL: entry {len(book.entries) - 1} ")
    text = lines(book.export(ADMIN))
    k = first(book.export(ADMIN), lambda e: e["kind"] == "chat")
    text[k + 1] = text[k + 1].replace("your move", "your mövé")
    path.write_text("\n".join(text[:1] + [""] + text[1:])[:0] + json.dumps(from_lines(text)))
    assert main([str(path)]) == 1
    assert capsys.readouterr().out.startswith(f"FAIL: entry {k} (chat): ")
    path.write_text("{not json")
    assert main([str(path)]) == 2


def test_python_m_engine_verify_runs_on_a_file_python_m_engine_record_play_writes(tmp_path) -> None:
    path = tmp_path / "record.json"
    made = subprocess.run([sys.executable, "-m", "engine.record.play", "--game", "first_blood", "--seed", "5",
                           "--stop-after", "300", "--viewer", "US"], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert made.returncode == 0, made.stderr
    path.write_text(made.stdout)
    done = subprocess.run([sys.executable, "-m", "engine.verify", str(path)], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("OK: ") and len(done.stdout.splitlines()) == 1


def rolled(entry) -> bool:
    return entry["kind"] == "event" and bool(entry.get("rolls")) and "die" in json.dumps(entry["event"]["data"])


def change_die(data):
    """The first recorded die in an event's data, changed (the data is changed in place)."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key == "die" and isinstance(value, int):
                data[key] = value % 6 + 1
                return True
            if key == "dice" and isinstance(value, list) and value:
                value[0] = value[0] % 6 + 1
                return True
            if change_die(value):
                return True
    elif isinstance(data, list):
        return any(change_die(v) for v in data)
    return False


@pytest.mark.parametrize("game", GAMES)
def test_a_changed_die_chat_line_hash_or_sealed_link_is_named(finished, unfinished, game) -> None:
    book, _ = finished[game]
    whole = book.export(ADMIN)
    k = first(whole, rolled)
    doc = copy(whole)
    assert change_die(doc["entries"][k]["entry"]["event"]["data"])
    verdict = verify_record(doc)
    assert not verdict.ok and verdict.bad_seq == k and verdict.message.startswith(f"FAIL: entry {k} (event ")

    doc = copy(whole)
    roll = doc["entries"][k]["entry"]["rolls"][0]
    roll[3] = roll[3] % roll[2] + 1
    assert verify_record(doc).bad_seq == k

    k = first(whole, lambda e: e["kind"] == "chat")
    doc = copy(whole)
    doc["entries"][k]["entry"]["text"] += "!"
    verdict = verify_record(doc)
    assert verdict.bad_seq == k and f"entry {k} (chat)" in verdict.message

    for k in (0, 1, len(whole["entries"]) // 2, len(whole["entries"]) - 1):
        doc = copy(whole)
        doc["entries"][k]["hash"] = doc["entries"][k]["hash"][:-1] + ("0" if doc["entries"][k]["hash"][-1] != "0"
                                                                      else "1")
        verdict = verify_record(doc)
        assert verdict.bad_seq == k, verdict.message

    side_book, _ = unfinished[game]
    mine = side_book.export(side_book.sides[1])
    k = next(k for k, item in enumerate(mine["entries"]) if "link" in item)
    doc = copy(mine)
    doc["entries"][k]["link"]["sealed"] = hashlib.sha256(b"other").hexdigest()
    verdict = verify_record(doc)
    assert verdict.bad_seq == k and "sealed" in verdict.message


@pytest.mark.parametrize(("game", "viewer"), [("first_blood", ADMIN), ("pacific_battles", ADMIN),
                                              ("pacific_battles", "Japanese"), ("first_blood", "US")])
def test_any_byte_changed_in_an_entry_makes_the_check_fail_naming_that_entry(finished, unfinished, game,
                                                                             viewer) -> None:
    """Changes at 60 places spread over the file (one entry a line): a digit for another
    digit, a letter for another letter; a change that leaves no valid JSON is no test."""
    book, _ = (finished if viewer == ADMIN else unfinished)[game]
    text = lines(book.export(viewer))
    body = "\n".join(text[1:])
    places = [int(hashlib.sha256(f"{game}{viewer}{i}".encode()).hexdigest(), 16) % len(body) for i in range(400)]
    tried = 0
    for at in places:
        new = other(body[at])
        if new is None:
            continue
        changed = body[:at] + new + body[at + 1:]
        try:
            doc = from_lines([text[0], *changed.split("\n")])
        except json.JSONDecodeError:
            continue
        k = body.count("\n", 0, at)  # the entry of that line
        verdict = verify_record(doc)
        assert not verdict.ok and verdict.bad_seq == k, (at, body[max(0, at - 40):at + 40], verdict.message)
        tried += 1
        if tried == 60:
            break
    assert tried == 60


@pytest.mark.parametrize("game", GAMES)
def test_a_forger_who_hashes_the_chain_again_is_caught_by_the_dice_or_the_rules(finished, game) -> None:
    book, _ = finished[game]
    whole = book.export(ADMIN)
    redo = lambda doc: rehash(doc, book.sides, book.hidden_information)  # noqa: E731
    assert verify_record(redo(copy(whole))).ok  # rehashing alone changes nothing

    k = first(whole, rolled)
    doc = copy(whole)
    change_die(doc["entries"][k]["entry"]["event"]["data"])  # the die the event records
    verdict = verify_record(redo(doc))
    assert verdict.bad_seq == k and "the rules do not give this" in verdict.message, verdict.message

    doc = copy(whole)
    change_die(doc["entries"][k]["entry"]["event"]["data"])
    roll = doc["entries"][k]["entry"]["rolls"][0]  # ... and the die listed with it
    roll[3] = roll[3] % roll[2] + 1
    verdict = verify_record(redo(doc))
    assert verdict.bad_seq == k and "in the record, but the" in verdict.message, verdict.message

    k = first(whole, lambda e: e["kind"] == "seed" and e["chain"] == seeds.OPEN)
    doc = copy(whole)
    doc["entries"][k]["entry"]["seed"] = seeds.h(doc["entries"][k]["entry"]["seed"])
    verdict = verify_record(redo(doc))
    assert verdict.bad_seq == k and "not the chain's" in verdict.message

    c = next(item["seq"] for item in whole["entries"][60:] if item["entry"]["kind"] == "command"
             and whole["entries"][decision(whole, item["seq"])[0]]["entry"]["key"][0] == seeds.OPEN)
    doc = copy(whole)
    for k in decision(doc, c):  # the server picking the other chain's dice for a decision
        doc["entries"][k]["entry"]["key"][0] = seeds.HIDDEN
        doc["entries"][k]["entry"].pop("rolls", None)
    verdict = verify_record(redo(doc))
    assert verdict.bad_seq == decision(doc, c)[0] and "hidden seed" in verdict.message, verdict.message


def test_a_published_seed_is_never_used_again(finished) -> None:
    book, _ = finished["first_blood"]
    with pytest.raises(ValueError):
        book.key(seeds.OPEN, 3)
    whole = book.export(ADMIN)
    s = first(whole, lambda e: e["kind"] == "seed" and e["period"] == 3)  # the open seed of period 3 ...
    c = s + first({"entries": whole["entries"][s:]}, lambda e: e["kind"] == "command")
    doc = copy(whole)  # ... and the decision after it keyed to it, as if the period went on
    for k in decision(doc, c):
        doc["entries"][k]["entry"]["key"][1] = 3
    k = decision(doc, c)[0]
    verdict = verify_record(rehash(doc, book.sides, book.hidden_information))
    assert verdict.bad_seq == k and "published already" in verdict.message, verdict.message


@pytest.mark.parametrize("cut", [150, 400, 700, 1000])
def test_no_side_s_export_of_a_game_under_way_shows_what_it_may_not_know(cut) -> None:
    from engine.record.play import play

    book, state = play("pacific_battles", 3, stop_after=cut)
    rules = get_rules("pacific_battles")
    unpublished = [book.record_salt]
    for chain in seeds.CHAINS:  # every seed and dice key not published yet
        for p in range(1, book.periods + 1):
            if seeds.seed_for(p, book.published[chain]) is None:
                unpublished += [book.seed(chain, p), book.key(chain, p)]
    for viewer in (*rules.sides, SPECTATOR):
        text = json.dumps(book.export(viewer), sort_keys=True)
        needles = rules.secrets(state, None if viewer == SPECTATOR else viewer)  # the engine's spectator is None
        assert needles, viewer  # there is something to hide
        assert leaks.find(needles, text) == [], viewer
        if viewer != SPECTATOR:  # the search bites: the admin's export holds them
            assert leaks.find(needles, json.dumps(book.export(ADMIN))), viewer
        assert [s for s in unpublished if s in text] == [], viewer
        assert verify_record(json.loads(text)).ok


def test_no_side_s_export_of_first_blood_under_way_shows_the_dice_secrets(unfinished) -> None:
    book, _ = unfinished["first_blood"]
    secret_things = [book.record_salt]
    for chain in seeds.CHAINS:
        for p in range(1, book.periods + 1):
            if seeds.seed_for(p, book.published[chain]) is None:
                secret_things += [book.seed(chain, p), book.key(chain, p)]
    for viewer in (*book.sides, SPECTATOR):
        text = json.dumps(book.export(viewer))
        assert [s for s in secret_things if s in text] == []
    assert book.key(seeds.HIDDEN, 1) in json.dumps(book.export(ADMIN))  # the admin's has the creation's secret
