"""Optimistic concurrency: many submissions based on the same sequence number,
exactly one wins; the log has no gap and no fork."""

from __future__ import annotations

import threading

from app_support import bearer, listed
from fastapi.testclient import TestClient
from sqlalchemy import select

from app.models import EventRow


def test_twenty_simultaneous_submissions_one_success(client: TestClient, game: dict[str, str]) -> None:
    gid = game["id"]
    legal = client.get(f"/api/games/{gid}/legal", headers=bearer(game["US"])).json()
    cmd = listed(legal)[0]
    body = {"type": cmd["type"], "data": cmd["data"], "expected_seq": legal["seq"]}
    barrier = threading.Barrier(20)
    codes: list[int] = []
    lock = threading.Lock()

    def submit() -> None:
        barrier.wait()
        r = client.post(f"/api/games/{gid}/commands", headers=bearer(game["US"]), json=body)
        with lock:
            codes.append(r.status_code)
            if r.status_code == 409:
                assert r.json()["current_seq"] > legal["seq"]

    threads = [threading.Thread(target=submit) for _ in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(codes) == [200] + [409] * 19

    db = client.app.state.db
    with db.sessions() as s:
        seqs = list(s.scalars(select(EventRow.seq).where(EventRow.game_id == gid).order_by(EventRow.seq)))
    view = client.get(f"/api/games/{gid}").json()
    assert seqs == list(range(view["seq"]))  # no gap, no duplicate


def test_stale_sequence_gets_409_with_current_and_writes_nothing(client: TestClient, game: dict[str, str]) -> None:
    gid = game["id"]
    legal = client.get(f"/api/games/{gid}/legal", headers=bearer(game["US"])).json()
    cmd = listed(legal)[0]
    r = client.post(f"/api/games/{gid}/commands", headers=bearer(game["US"]),
                    json={**cmd, "expected_seq": legal["seq"] - 1})
    assert r.status_code == 409
    assert r.json()["current_seq"] == legal["seq"]
    assert client.get(f"/api/games/{gid}").json()["seq"] == legal["seq"]


def test_twenty_simultaneous_joins_with_one_invitation_one_success(client: TestClient) -> None:
    body = client.post("/api/games", json={"side": "US", "name": "Alice"}).json()
    gid, invite = body["game_id"], body["invite_url"].split("token=")[1]
    client.cookies.clear()
    barrier = threading.Barrier(20)
    answers: list[tuple[int, str | None]] = []
    lock = threading.Lock()

    def join(i: int) -> None:
        barrier.wait()
        r = client.post(f"/api/games/{gid}/join", json={"token": invite, "name": f"Bob {i}"},
                        headers={"cookie": ""})
        with lock:
            answers.append((r.status_code, r.json().get("token")))

    threads = [threading.Thread(target=join, args=(i,)) for i in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    codes = sorted(code for code, _ in answers)
    assert codes == [200] + [403] * 19, codes
    secret = next(token for code, token in answers if code == 200)
    view = client.get(f"/api/games/{gid}", headers=bearer(secret)).json()
    assert view["you"] == "IJ"  # the one secret handed out works
