"""The admin's list of games over many games: how long a filtered page takes to answer.

    python benchmarks/admin_list_benchmark.py [--games 10000 --runs 50]

Fills a fresh PostgreSQL database (127.0.0.1:5432, user postgres, trust auth; dropped
afterwards) with ``--games`` games of both kinds, each with two seats and its list
columns as appends leave them (games, seats and a few events each, written in bulk:
nothing is replayed), then times ``--runs`` answers of each of several filtered,
sorted and searched pages of ``GET /api/admin/games`` through the app (in-process,
over HTTP semantics, admin credentials) and prints the p50 and p95 in milliseconds.
The target is a filtered page under 100 ms at p50.  A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from fastapi.testclient import TestClient  # noqa: E402
from live_server import fresh_postgres_database  # noqa: E402
from sqlalchemy import create_engine, insert  # noqa: E402

from app.config import Settings  # noqa: E402
from app.main import create_app  # noqa: E402
from app.models import EventRow, Game, Seat  # noqa: E402
from app.security import hash_token, new_token  # noqa: E402

TARGET_MS = 100.0
ADMIN = ("admin", "bench-admin-password")
NAMES = ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Heidi", "Ivan", "Judy", "Mallory", "Oscar"]
PHASES = {"first_blood": ["US movement", "IJ movement", "US combat", "IJ combat", "US set-up (§3)"],
          "pacific_battles": ["initiative", "allied impulse", "japanese impulse", "supply"]}
SIDES = {"first_blood": ("US", "IJ"), "pacific_battles": ("Allied", "Japanese")}


def fill(url: str, games: int, seed: int) -> None:
    rnd = random.Random(seed)
    engine = create_engine(url)
    now = datetime.now(UTC)
    game_rows, seat_rows, event_rows = [], [], []
    for i in range(games):
        kind = "first_blood" if i % 3 else "pacific_battles"
        status = rnd.choices(["active", "waiting", "finished"], [6, 1, 3])[0]
        gid = f"g{i:011d}"
        updated = now - timedelta(minutes=rnd.randrange(60 * 24 * 90))
        clock = rnd.choice([None, 1, 3, 7]) if status == "active" else None
        sides = SIDES[kind]
        deciding = rnd.choice(sides) if status != "finished" else ""
        game_rows.append({
            "id": gid, "game": kind, "scenario": "campaign" if kind == "first_blood" else "short",
            "title": f"Ladder round {i % 40}" if i % 2 else "", "options": {}, "status": status, "seq": 40,
            "dice_secret": "x", "result": {"winner": sides[0], "reason": "bench"} if status == "finished" else None,
            "created_at": updated - timedelta(days=3), "updated_at": updated, "move_days": clock,
            "decision_side": deciding or None, "decision_since": updated if clock else None,
            "deadline_ts": int(updated.timestamp()) + clock * 86_400 if clock else None,
            "turn_no": rnd.randrange(1, 12), "turn_name": f"turn {rnd.randrange(1, 12)}",
            "phase": rnd.choice(PHASES[kind]), "to_move": deciding,
            "winner": sides[0] if status == "finished" else None})
        for n, side in enumerate(sides):
            name = NAMES[(i * 2 + n) % len(NAMES)]
            seat_rows.append({"game_id": gid, "side": side, "token_hash": hash_token(new_token()),
                              "display_name": name, "joined_at": updated,
                              "email": f"{name.lower()}{i}@example.org" if i % 4 else None})
        event_rows += [{"game_id": gid, "seq": s, "type": "bench", "payload": {}, "created_at": updated}
                       for s in range(3)]
    with engine.begin() as conn:
        for table, rows in ((Game, game_rows), (Seat, seat_rows), (EventRow, event_rows)):
            for start in range(0, len(rows), 5000):
                conn.execute(insert(table), rows[start:start + 5000])
    engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    queries = {
        "first page": {},
        "playing, first_blood, IJ to move": {"status": "playing", "game": "first_blood", "to_move": "IJ"},
        "claimable, by clock": {"status": "claimable", "sort": "clock", "desc": "false"},
        "finished, by turn": {"status": "finished", "sort": "turn"},
        "search an address": {"q": "carol12"},
        "search a name, page 3": {"q": "mallory", "offset": 100},
    }
    with fresh_postgres_database("bench_admin") as url:
        settings = Settings(database_url=url, secret_key="bench", admin_user=ADMIN[0], admin_password=ADMIN[1],
                            clock_interval_seconds=0, mail_interval_seconds=0)
        with TestClient(create_app(settings)) as client:  # migrates the database first
            t = time.perf_counter()
            fill(url, args.games, args.seed)
            print(f"games={args.games} filled_s={time.perf_counter() - t:.1f}")
            p50s = []
            for label, params in queries.items():
                times = []
                for _ in range(args.runs):
                    t = time.perf_counter()
                    r = client.get("/api/admin/games", params=params, auth=ADMIN)
                    times.append((time.perf_counter() - t) * 1000)
                    assert r.status_code == 200, r.text
                times.sort()
                p50, p95 = statistics.median(times), times[int(len(times) * 0.95) - 1]
                p50s.append(p50)
                print(f"{label:38s} total={r.json()['total']:6d} p50_ms={p50:6.1f} p95_ms={p95:6.1f}")
            times = []
            for _ in range(args.runs):  # the admin's page itself: the same query, its filters' choices, drawn
                t = time.perf_counter()
                r = client.get("/admin", params=queries["playing, first_blood, IJ to move"], auth=ADMIN)
                times.append((time.perf_counter() - t) * 1000)
                assert r.status_code == 200, r.text
            print(f"{'the page /admin, filtered':38s}              p50_ms={statistics.median(times):6.1f}")
            worst = max(p50s)
            print(f"worst_p50_ms={worst:.1f} target_ms={TARGET_MS:.0f} "
                  f"{'OK' if worst < TARGET_MS else 'SLOWER THAN THE TARGET'}")


if __name__ == "__main__":
    main()
