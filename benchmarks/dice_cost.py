"""What the seed chains cost a command (issue 36: "at most 5% more than today at p50"): the
same command path A/B, one app whose games roll from one secret (record version 1, as
before) and one whose games roll from seed chains and both players' entropy (version 2,
as a game made now), interleaved command by command, on one PostgreSQL database.

Each pair of games (one per app) is played from its start by choosers of one seed, over
the JSON API of the app in this process (its event-loop write path included): the games
are the same until their first die, then alike.  It prints each game kind's p50 and mean
per command in each app and their ratio.  A benchmark, not a test::

    python benchmarks/dice_cost.py [--games 6] [--commands 150]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from fastapi.testclient import TestClient  # noqa: E402
from sqlalchemy import create_engine, text  # noqa: E402

from app.config import Settings  # noqa: E402
from app.main import create_app  # noqa: E402
from engine.core.choices import expand  # noqa: E402
from engine.core.events import Command  # noqa: E402
from engine.selfplay import Chooser, choose  # noqa: E402

SERVER = "postgresql+psycopg://postgres@127.0.0.1:5432"
SCENARIOS = {"first_blood": ("campaign", "US"), "pacific_battles": ("short", "Japanese")}
MODES = ("one secret", "seed chains")


def seated(client: TestClient, game: str) -> tuple[str, dict[str, str]]:
    scenario, side = SCENARIOS[game]
    made = client.post("/api/games", json={"game": game, "scenario": scenario, "side": side}).json()
    joined = client.post(f"/api/games/{made['game_id']}/join", json={"token": made["invite_url"].split("token=")[1]})
    client.cookies.clear()
    return made["game_id"], {side: made["token"], joined.json()["side"]: joined.json()["token"]}


def step(client: TestClient, gid: str, tokens: dict[str, str], rng: Chooser) -> float | None:
    """One command of whichever side decides (None: the game is over); its time."""
    for token in tokens.values():
        legal = client.get(f"/api/games/{gid}/legal", headers={"Authorization": f"Bearer {token}"}).json()
        if legal["your_turn"]:
            commands = [Command(c["type"], c["data"]) for c in expand(legal["choices"])]
            cmd = choose(rng, legal["prompt"]["kind"], commands)
            started = time.perf_counter()
            r = client.post(f"/api/games/{gid}/commands", headers={"Authorization": f"Bearer {token}"},
                            json={"type": cmd.type, "data": cmd.data, "expected_seq": legal["seq"]})
            took = time.perf_counter() - started
            assert r.status_code == 200, r.text
            return took
    return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=6, help="pairs of games per game kind")
    ap.add_argument("--commands", type=int, default=150, help="commands per game")
    args = ap.parse_args()
    name = f"dice_cost_{uuid.uuid4().hex[:8]}"
    admin = create_engine(f"{SERVER}/postgres", isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f"CREATE DATABASE {name}"))
    try:
        base: dict[str, Any] = {"database_url": f"{SERVER}/{name}", "secret_key": "bench", "admin_user": "a",
                                "admin_password": "bench-password", "base_url": "http://bench",
                                "rate_limit_commands": "1000000/minute", "mail_interval_seconds": 0}
        apps = {MODES[0]: TestClient(create_app(Settings(**base, fixed_dice_secret="bench"))),
                MODES[1]: TestClient(create_app(Settings(**base)))}
        for client in apps.values():
            client.__enter__()
        times: dict[tuple[str, str], list[float]] = {(g, m): [] for g in SCENARIOS for m in MODES}
        for game in SCENARIOS:
            for n in range(args.games):
                games = {m: seated(c, game) for m, c in apps.items()}
                rngs = {m: Chooser(f"dice-cost:{game}:{n}") for m in MODES}
                for i in range(args.commands):
                    for m in (MODES if i % 2 == 0 else MODES[::-1]):  # neither app always first
                        took = step(apps[m], *games[m], rngs[m])
                        if took is not None and i >= 5:  # (the first commands warm the caches)
                            times[(game, m)].append(took)
        for client in apps.values():
            client.__exit__(None, None, None)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        admin.dispose()
    print("the command path, one secret against seed chains (ms per JSON command, in this process):")
    for game in SCENARIOS:
        one, chains = times[(game, MODES[0])], times[(game, MODES[1])]
        p50 = [statistics.median(t) * 1000 for t in (one, chains)]
        mean = [statistics.mean(t) * 1000 for t in (one, chains)]
        print(f"  {game:16} n={len(one)}/{len(chains)}  p50 {p50[0]:.2f} / {p50[1]:.2f} ({p50[1] / p50[0]:.3f}x)  "
              f"mean {mean[0]:.2f} / {mean[1]:.2f} ({mean[1] / mean[0]:.3f}x)  "
              f"goal p50 <= 1.05x: {'PASS' if p50[1] <= 1.05 * p50[0] else 'MISS'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
