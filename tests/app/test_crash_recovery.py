"""Crash recovery: kill -9 the real server in the middle of a steady stream of commands,
start it again on the same database, and check that nothing acknowledged was lost.

For every game: each event the server answered with a 2xx is in the log with the
same sequence number and type; the log is 0..n-1 without a gap; it replays
(admin verify); and the restarted server takes a further legal command."""

from __future__ import annotations

import threading
import time

import httpx
from live_server import ADMIN_USER, LiveServer, server_env
from load_support import Recorder, new_game, nothing_lost, writer

GAMES = 4
THREADS_PER_GAME = 2  # two writers per game, so the optimistic lock is exercised too
LOAD_SECONDS = 2.5
ADMIN_PASSWORD = "crash-test-admin"


def test_kill_minus_nine_mid_load_loses_nothing_acknowledged(database_url: str) -> None:
    server = LiveServer(server_env(database_url, admin_password=ADMIN_PASSWORD))
    with server, httpx.Client(base_url=server.url, timeout=10.0) as client:
        games = [new_game(client, n) for n in range(GAMES)]
        rec, stop = Recorder(), threading.Event()
        threads = [threading.Thread(target=writer, args=(server.url, g, rec, stop), daemon=True)
                   for g in games for _ in range(THREADS_PER_GAME)]
        for t in threads:
            t.start()
        time.sleep(LOAD_SECONDS)
        server.kill()  # SIGKILL in the middle of the load
        time.sleep(0.3)  # the writers meet a dead server for a moment
        stop.set()
        for t in threads:
            t.join(15)
        assert not any(t.is_alive() for t in threads), "a writer hung"
        assert rec.statuses["200"] >= GAMES * 3, f"too little load before the kill: {dict(rec.statuses)}"
        assert not rec.unexpected, rec.unexpected[:5]

        server.start()  # same database, same port
        nothing_lost(client, games, rec, (ADMIN_USER, ADMIN_PASSWORD))
