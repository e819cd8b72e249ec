"""The self-check (``python -m engine.record.selfcheck``): records of self-played games with
every option, each viewer's export verified and spoiled once; one seed of each game here
(the 200-seed run is a measurement: README)."""

from __future__ import annotations

from engine.record import selfcheck


def test_one_seed_of_each_game_verifies_from_every_export_and_each_spoiled_byte_is_named(capsys) -> None:
    assert selfcheck.main(["--games", "1", "--workers", "1", "--first-seed", "7"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1].startswith("OK: 4 records, 0 failures")
    assert "first_blood: 1 finished + 1 under way, 6 exports verified, 6 spoiled and named" in out


def test_a_spoiled_byte_is_one_the_file_still_reads() -> None:
    doc = {"entries": [{"seq": 0, "hash": "ab" * 32, "entry": {"seq": 0, "kind": "dice", "n": 12}}]}
    spoiled = selfcheck.spoil(doc, "x")
    assert spoiled is not None
    bad, k = spoiled
    assert k == 0 and bad["entries"][0] != doc["entries"][0] and len(str(bad)) == len(str(doc))
