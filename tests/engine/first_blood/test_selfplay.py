"""A small version of the self-play run: random legal play must always finish,
never dead-end, and replay from its JSON log to the same state."""

import io

from engine.selfplay import Chooser, main, play_one, run


def test_random_games_finish_and_replay():
    out = io.StringIO()
    stats = run("first_blood", games=4, seed=3, out=out)
    assert stats["errors"] == 0, out.getvalue()
    assert stats["replay_mismatches"] == 0, out.getvalue()
    assert stats["finished"] == 4
    assert stats["us_wins"] + stats["ij_wins"] == 4
    last = out.getvalue().strip().splitlines()[-1]
    assert last == (f"games=4 finished=4 errors=0 replay_mismatches=0 "
                    f"us_wins={stats['us_wins']} ij_wins={stats['ij_wins']}")


def test_self_play_is_deterministic():
    a = play_one("first_blood", seed=5, index=0)
    b = play_one("first_blood", seed=5, index=0)
    assert [e.to_json() for e in a.events] == [e.to_json() for e in b.events]
    assert a.winner == b.winner is not None


def test_a_game_exercises_every_part_of_the_turn():
    rec = play_one("first_blood", seed=1, index=0)
    types = {e.type for e in rec.events}
    for needed in ("unit_placed", "unit_moved", "combat_resolved", "supply_rolled", "strategic_shift",
                   "usaf_moved", "turn_started", "game_ended"):
        assert needed in types, needed


def test_chooser_is_a_deterministic_stream():
    a, b = Chooser("x"), Chooser("x")
    assert [a.unit() for _ in range(5)] == [b.unit() for _ in range(5)]
    assert all(0 <= Chooser("y").unit() < 1 for _ in range(100))


def test_command_line_exit_code(capsys):
    assert main(["--games", "1", "--seed", "2"]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1].startswith("games=1 finished=1 errors=0")
