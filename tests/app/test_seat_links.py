"""Seats that follow the player: the private link shown after creating or joining,
replacing a lost link (the old one stops working at once, the fast command path
included), an admin issuing a new link (recorded in the admin audit), and a clear
page for a used invitation."""

from __future__ import annotations

import re
from typing import Any

from app_support import ADMIN, bearer, listed
from fastapi.testclient import TestClient

LINK = re.compile(r'value="([^"]+)"[^>]*id="private-link-url"')


def private_link(html: str) -> str | None:
    m = LINK.search(html)
    return None if m is None else m.group(1).replace("&amp;", "&")


def command(client: TestClient, gid: str, token: str, legal_from: str | None = None) -> Any:
    """Post the first placement the US may make, with ``token`` (the legal list read
    with ``legal_from``, else with ``token``): the command's answer."""
    legal = client.get(f"/api/games/{gid}/legal", headers=bearer(legal_from or token)).json()
    cmd = next(c for c in listed(legal) if c["type"] == "place")
    return client.post(f"/api/games/{gid}/commands", headers=bearer(token),
                       json={"type": cmd["type"], "data": cmd["data"], "expected_seq": legal["seq"]})


def test_a_player_replaces_a_lost_link_and_the_old_one_stops_working(client: TestClient,
                                                                     game: dict[str, str]) -> None:
    gid, old = game["id"], game["US"]
    assert command(client, gid, old).status_code == 200  # this worker now knows the old secret
    r = client.post(f"/api/games/{gid}/seat/new-link", headers=bearer(old))
    assert r.status_code == 200, r.text
    new = r.json()["token"]
    assert new != old and r.json()["side"] == "US"
    assert r.json()["play_url"] == f"http://testserver/games/{gid}#token={new}"
    assert r.headers["set-cookie"].startswith(f"seat_{gid}={new}.")  # this browser's cookie follows
    client.cookies.clear()
    refused = command(client, gid, old, legal_from=new)  # the fast path knew it: the write refuses it
    assert refused.status_code == 403, refused.text
    assert client.get(f"/api/games/{gid}/legal", headers=bearer(old)).status_code == 403
    assert command(client, gid, new).status_code == 200
    assert client.get(f"/api/games/{gid}", headers=bearer(game["IJ"])).json()["you"] == "IJ"  # the other seat keeps its


def test_only_a_seated_player_can_replace_their_link(client: TestClient, game: dict[str, str]) -> None:
    gid = game["id"]
    assert client.post(f"/api/games/{gid}/seat/new-link").status_code == 401
    assert client.post(f"/api/games/{gid}/seat/new-link", headers=bearer("not-a-secret")).status_code == 403
    created = client.post("/api/games", json={"side": "US", "name": "A"}).json()
    invite = created["invite_url"].split("token=")[1]
    client.cookies.clear()  # an unused invitation opens no seat, so it cannot replace one either
    assert client.post(f"/api/games/{created['game_id']}/seat/new-link", headers=bearer(invite)).status_code == 403


def test_an_admin_issues_a_new_link_and_it_is_in_the_audit(client: TestClient, game: dict[str, str]) -> None:
    gid = game["id"]
    url = f"/api/admin/games/{gid}/seats/IJ/new-link"
    assert client.post(url).status_code == 401
    assert client.post(url, auth=("admin", "wrong")).status_code == 401
    r = client.post(url, auth=ADMIN)
    assert r.status_code == 200, r.text
    new = r.json()["token"]
    assert client.get(f"/api/games/{gid}", headers=bearer(game["IJ"])).status_code == 403
    assert client.get(f"/api/games/{gid}", headers=bearer(new)).json()["you"] == "IJ"
    audit = client.get("/api/admin/audit", auth=ADMIN).json()
    assert audit["total"] == 1
    entry = audit["items"][0]
    assert (entry["admin"], entry["action"], entry["game_id"], entry["detail"]) == \
        (ADMIN[0], "new_seat_link", gid, {"side": "IJ"})
    assert new not in str(audit)  # the audit never holds the secret
    assert client.post(f"/api/admin/games/{gid}/seats/XX/new-link", auth=ADMIN).status_code == 404


def test_an_admin_cannot_give_out_a_seat_nobody_has_taken(client: TestClient) -> None:
    created = client.post("/api/games", json={"side": "US", "name": "A"}).json()
    r = client.post(f"/api/admin/games/{created['game_id']}/seats/IJ/new-link", auth=ADMIN)
    assert r.status_code == 409 and "joins with the invitation" in r.json()["detail"]
    assert client.get("/api/admin/audit", auth=ADMIN).json()["total"] == 0


# --- the pages -----------------------------------------------------------------------------

def test_after_creating_a_game_the_player_sees_their_private_link_open(client: TestClient) -> None:
    r = client.post("/new", data={"side": "US", "name": "Alice"}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].endswith("?welcome=1")
    gid = r.headers["location"].split("?")[0].rsplit("/", 1)[1]
    html = client.get(r.headers["location"]).text
    link = private_link(html)
    assert link is not None and link.startswith(f"http://testserver/games/{gid}#token=")
    assert '<details class="card private-link" id="private-link" open>' in html
    assert "Keep this link." in html and 'data-copy="private-link-url"' in html
    assert 'data-copy="invite-link"' in html  # the invitation has its copy button too
    assert html.index('id="invite"') < html.index('id="private-link"')  # what to send, first
    token = link.split("#token=")[1]
    client.cookies.clear()
    assert client.get(f"/api/games/{gid}", headers=bearer(token)).json()["you"] == "US"  # it is the seat's secret
    # later visits: the link is there, folded
    client.post(f"/games/{gid}/seat", data={"token": token})
    later = client.get(f"/games/{gid}").text
    assert private_link(later) == link and 'id="private-link" open' not in later


def test_spectators_and_board_updates_carry_no_private_link(client: TestClient, game: dict[str, str]) -> None:
    gid = game["id"]
    assert private_link(client.get(f"/games/{gid}").text) is None  # a spectator
    client.post(f"/games/{gid}/seat", data={"token": game["US"]})
    assert private_link(client.get(f"/games/{gid}").text) is not None
    board = client.get(f"/games/{gid}/board", params={"seq": 0}).text  # an out-of-band update
    assert game["US"] not in board


def test_joining_by_the_invitation_shows_the_new_private_link(client: TestClient) -> None:
    created = client.post("/api/games", json={"side": "US", "name": "A"}).json()
    gid, invite = created["game_id"], created["invite_url"].split("token=")[1]
    client.cookies.clear()
    r = client.post(f"/join/{gid}", data={"token": invite, "name": "Bob"}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/games/{gid}?welcome=1"
    link = private_link(client.get(r.headers["location"]).text)
    assert link is not None and invite not in link  # the seat's own secret, not the used-up invitation
    client.cookies.clear()
    again = client.post(f"/join/{gid}", data={"token": invite, "name": "Eve"}, headers={"Accept": "text/html"})
    assert again.status_code == 403 and again.headers["content-type"].startswith("text/html")
    assert "open the private link you were shown then" in again.text


def test_replacing_the_link_in_the_browser_needs_the_box_ticked(client: TestClient, game: dict[str, str]) -> None:
    gid = game["id"]
    client.post(f"/games/{gid}/seat", data={"token": game["US"]})
    refused = client.post(f"/games/{gid}/seat/new-link", data={}, headers={"Accept": "text/html"})
    assert refused.status_code == 422 and "tick the box" in refused.text
    assert client.get(f"/api/games/{gid}", headers=bearer(game["US"])).json()["you"] == "US"  # unchanged
    r = client.post(f"/games/{gid}/seat/new-link", data={"confirm": "yes"}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/games/{gid}?welcome=1"
    page = client.get(r.headers["location"]).text  # the new cookie
    link = private_link(page)
    assert link is not None and game["US"] not in link
    assert client.get(f"/api/games/{gid}", headers=bearer(game["US"])).status_code == 403
    client.cookies.clear()
    assert client.post(f"/games/{gid}/seat/new-link", data={"confirm": "yes"},
                       headers={"Accept": "text/html"}).status_code == 401


def test_the_admin_page_issues_a_new_link_and_lists_it_in_the_audit(client: TestClient,
                                                                    game: dict[str, str]) -> None:
    gid = game["id"]
    page = client.get(f"/admin/games/{gid}", auth=ADMIN).text
    assert f'action="/admin/games/{gid}/seats/US/new-link"' in page
    assert client.post(f"/admin/games/{gid}/seats/US/new-link", data={"confirm": "yes"}).status_code == 401
    r = client.post(f"/admin/games/{gid}/seats/US/new-link", data={"confirm": "yes"}, auth=ADMIN)
    assert r.status_code == 200, r.text
    link = re.search(r'value="(http://testserver/games/' + gid + r'#token=[\w-]+)"', r.text)
    assert link is not None and 'data-copy="new-link-url"' in r.text
    new = link.group(1).split("#token=")[1]
    assert client.get(f"/api/games/{gid}", headers=bearer(new)).json()["you"] == "US"
    audit = client.get("/admin/audit", auth=ADMIN).text
    assert "issued a new seat link" in audit and f"/admin/games/{gid}" in audit and "side US" in audit
    assert new not in audit
