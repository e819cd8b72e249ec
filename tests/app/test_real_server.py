"""The real server as an OS process (uvicorn): what only shows there.  Secrets stay out
of its access log, several workers start together on a fresh SQLite file, and a burst
of players slows it down without breaking it."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
from app_support import listed
from live_server import LiveServer, free_port, invitation_token, server_env

ROOT = Path(__file__).resolve().parents[2]


def test_secrets_never_reach_the_access_log(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    with LiveServer(server_env(url), access_log=True) as server:
        c = httpx.Client(base_url=server.url)
        created = c.post("/api/games", json={"side": "US", "name": "Alice"}).json()
        gid, secret, invite = created["game_id"], created["token"], invitation_token(created["invite_url"])
        fresh = httpx.Client(base_url=server.url)
        # old links still carry the secret in the query: they are redirected, and logged redacted
        assert fresh.get(f"/games/{gid}?token={secret}", follow_redirects=False).status_code == 303
        assert fresh.get(f"/join/{gid}?token={invite}", follow_redirects=False).status_code == 303
        # today's links keep it in the fragment, which the page posts
        r = fresh.post(f"/games/{gid}/seat", data={"token": secret}, follow_redirects=False,
                       headers={"origin": server.url})
        assert r.status_code == 303
        assert fresh.get(f"/api/games/{gid}").json()["you"] == "US"
        server.stop()
        log = server.stderr_text()
    assert f"/games/{gid}" in log and "token=[redacted]" in log  # the requests were logged
    assert secret not in log and invite not in log


def test_several_workers_start_together_on_a_fresh_sqlite_file(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'fresh' / 'games.db'}"
    with LiveServer(server_env(url), workers=3) as server:
        r = httpx.post(f"{server.url}/api/games", json={"side": "IJ"})
        assert r.status_code == 201, r.text
        log = server.stderr_text()
    assert "already exists" not in log and "Traceback" not in log, log[-3000:]


async def _burst(base: str, games: list[dict[str, str]]) -> list[int | str]:
    """Every player at once: the board, whose turn it is, a poll, and one command each."""
    limits = httpx.Limits(max_connections=400, max_keepalive_connections=0)
    async with httpx.AsyncClient(base_url=base, timeout=120, limits=limits) as c:
        async def player(g: dict[str, str], side: str) -> list[int | str]:
            auth = {"Authorization": f"Bearer {g[side]}"}
            codes: list[int | str] = []
            try:
                codes.append((await c.get(f"/games/{g['id']}", headers=auth)).status_code)
                legal = await c.get(f"/api/games/{g['id']}/legal", headers=auth)
                codes.append(legal.status_code)
                codes.append((await c.get(f"/games/{g['id']}/poll", params={"seq": 0}, headers=auth)).status_code)
                body = legal.json()
                if commands := listed(body):
                    cmd = commands[0]
                    r = await c.post(f"/api/games/{g['id']}/commands", headers=auth,
                                     json={"type": cmd["type"], "data": cmd["data"], "expected_seq": body["seq"]})
                    codes.append(r.status_code)
            except httpx.HTTPError as exc:
                codes.append(type(exc).__name__)
            return codes

        results = await asyncio.gather(*(player(g, s) for g in games for s in ("US", "IJ")))
    return [code for codes in results for code in codes]


def test_a_burst_slows_the_server_down_but_never_breaks_it(database_url: str) -> None:
    """Many more requests at once than threads and pooled connections: they queue, none fails."""
    env = server_env(database_url, THREADS="4")
    with LiveServer(env) as server:
        games = []
        with httpx.Client(base_url=server.url) as c:
            for _ in range(40):
                body = c.post("/api/games", json={"side": "US"}).json()
                joined = httpx.post(f"{server.url}/api/games/{body['game_id']}/join",
                                    json={"token": invitation_token(body["invite_url"])}).json()
                games.append({"id": body["game_id"], "US": body["token"], "IJ": joined["token"]})
        codes = asyncio.run(_burst(server.url, games))
        log = server.stderr_text()
        for g in games:
            r = httpx.post(f"{server.url}/api/admin/games/{g['id']}/verify", auth=("admin", "admin-live-password"))
            assert r.json()["ok"], r.text
    assert len(codes) == 40 * 2 * 3 + 40  # board, legal, poll for each player; a command for each US
    assert set(codes) <= {200, 204}, sorted(map(str, codes))
    assert "Traceback" not in log, log[-3000:]


def test_the_readme_server_command_gives_links_to_the_port_it_listens_on(tmp_path: Path) -> None:
    """``PORT=... python -m app`` without ``BASE_URL``: a player's links name that port (they
    named 8000 whatever the port, and a copied link led nowhere)."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "BASE_URL"}
    env.update(PORT=str(port), DATABASE_URL=f"sqlite:///{tmp_path / 'games.db'}", SECRET_KEY="readme-command-key")
    proc = subprocess.Popen([sys.executable, "-m", "app"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(200):
            try:
                if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.1)
        created = httpx.post(f"{base}/api/games", json={"side": "US", "name": "Alice"}).json()
        assert created["play_url"].startswith(f"{base}/games/"), created["play_url"]
        assert created["invite_url"].startswith(f"{base}/join/"), created["invite_url"]
    finally:
        proc.terminate()
        proc.wait(timeout=20)
