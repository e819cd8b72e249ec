"""Who may do what: seats act only for their own side with their own secret;
admin pages need admin credentials; bad input changes nothing."""

from __future__ import annotations

import json

from app_support import ADMIN, bearer, listed
from fastapi.testclient import TestClient


def first_legal(client: TestClient, game: dict[str, str], side: str) -> dict:
    legal = client.get(f"/api/games/{game['id']}/legal", headers=bearer(game[side])).json()
    return {**listed(legal)[0], "expected_seq": legal["seq"]}


def seq(client: TestClient, gid: str) -> int:
    return client.get(f"/api/games/{gid}").json()["seq"]


def test_missing_secret_is_401_and_wrong_secret_403(client: TestClient, game: dict[str, str]) -> None:
    gid = game["id"]
    body = first_legal(client, game, "US")
    before = seq(client, gid)
    assert client.post(f"/api/games/{gid}/commands", json=body).status_code == 401
    assert client.post(f"/api/games/{gid}/commands", json=body, headers=bearer("not-a-secret")).status_code == 403
    assert seq(client, gid) == before


def test_a_seat_cannot_act_for_the_other_side(client: TestClient, game: dict[str, str]) -> None:
    gid = game["id"]
    body = first_legal(client, game, "US")  # the US sets up first
    r = client.post(f"/api/games/{gid}/commands", json=body, headers=bearer(game["IJ"]))
    assert r.status_code == 403
    assert "US" in r.json()["detail"]
    assert seq(client, gid) == body["expected_seq"]


def test_another_games_secret_does_not_work(client: TestClient, game: dict[str, str]) -> None:
    other = client.post("/api/games", json={"side": "US"}).json()
    client.cookies.clear()
    body = first_legal(client, game, "US")
    r = client.post(f"/api/games/{game['id']}/commands", json=body, headers=bearer(other["token"]))
    assert r.status_code == 403


def test_the_cookie_is_signed_httponly_and_works(client: TestClient) -> None:
    r = client.post("/api/games", json={"side": "IJ", "name": "Cookie"})
    cookie = r.headers["set-cookie"]
    value = cookie.split(";")[0].split("=", 1)[1].strip('"')
    assert "HttpOnly" in cookie and "samesite=lax" in cookie.lower()
    assert value.startswith(r.json()["token"] + ".") and len(value) > len(r.json()["token"]) + 20  # signed
    gid = r.json()["game_id"]
    assert client.get(f"/api/games/{gid}").json()["you"] == "IJ"
    client.cookies.set(f"seat_{gid}", r.json()["token"] + ".forged-signature")
    assert client.get(f"/api/games/{gid}").status_code == 403


def test_bad_json_and_unknown_commands_are_4xx_and_change_nothing(client: TestClient, game: dict[str, str]) -> None:
    gid, headers = game["id"], bearer(game["US"])
    before = seq(client, gid)
    r = client.post(f"/api/games/{gid}/commands", content=b"{not json",
                    headers={**headers, "content-type": "application/json"})
    assert r.status_code == 422
    r = client.post(f"/api/games/{gid}/commands", json={"type": "teleport", "data": {}, "expected_seq": before},
                    headers=headers)
    assert r.status_code == 422 and "unknown command" in r.json()["detail"]
    r = client.post(f"/api/games/{gid}/commands", json={"type": "place", "data": {"unit": "us-1-1", "to": "9999"},
                                                       "expected_seq": before}, headers=headers)
    assert r.status_code == 422 and r.json()["rule"] == "§3"
    r = client.post(f"/api/games/{gid}/commands", json={"type": "place", "data": {"unit": ["x"]},
                                                       "expected_seq": before}, headers=headers)
    assert r.status_code == 422
    assert seq(client, gid) == before


def test_admin_pages_refuse_non_admins(client: TestClient, game: dict[str, str]) -> None:
    gid = game["id"]
    for method, url in (("get", "/api/admin/games"), ("get", f"/api/admin/games/{gid}/log"),
                        ("post", f"/api/admin/games/{gid}/verify"), ("get", f"/api/admin/games/{gid}/export")):
        assert getattr(client, method)(url).status_code == 401
        assert getattr(client, method)(url, auth=("admin", "wrong")).status_code == 401
        assert getattr(client, method)(url, headers=bearer(game["US"])).status_code == 401
        assert getattr(client, method)(url, auth=ADMIN).status_code == 200


def test_players_export_only_finished_games_and_secret_stays_hidden(client: TestClient, game: dict[str, str]) -> None:
    gid = game["id"]
    assert client.get(f"/api/games/{gid}/export", headers=bearer(game["US"])).status_code == 409
    log = client.get(f"/api/games/{gid}/log").json()
    created = log["items"][0]
    assert created["type"] == "game_created" and created["data"]["secret"] is None  # no one secret: seed chains
    assert "dice_secret" not in client.get(f"/api/games/{gid}").json()
    # the chains' top seeds are the server's until the game is over: in no player's page, view or log
    tops = client.get(f"/api/admin/games/{gid}/export", auth=ADMIN).json()["dice"]["tops"]
    for path in (f"/api/games/{gid}", f"/api/games/{gid}/log", f"/api/games/{gid}/dice", f"/games/{gid}",
                 f"/games/{gid}/dice", f"/api/games/{gid}/export?format=record"):
        for token in (game["US"], game["IJ"], None):
            words = client.get(path, headers=bearer(token) if token else {}).text
            assert tops[:64] not in words and tops[64:] not in words, (path, token)


def test_an_unfinished_game_is_imported_only_by_an_admin(client: TestClient, game: dict[str, str]) -> None:
    """The file holds the dice secret: whoever imports an unfinished game could foresee its rolls."""
    exported = client.get(f"/api/admin/games/{game['id']}/export", auth=ADMIN).json()
    r = client.post("/api/games/import", json=exported)
    assert r.status_code == 403 and "admin" in r.json()["detail"]
    assert client.post("/api/games/import", json=exported, auth=ADMIN).status_code == 201


def test_form_posts_from_another_site_are_refused(client: TestClient) -> None:
    # "Origin: null" is what a form posted from another site and redirected with 307 carries
    for headers in ({"sec-fetch-site": "cross-site"}, {"origin": "https://evil.example"}, {"origin": "null"},
                    {"sec-fetch-site": "same-site"}, {"origin": "http://testserver.evil.example"}):
        r = client.post("/new", data={"side": "US"}, headers=headers, follow_redirects=False)
        assert r.status_code == 403
    ok = client.post("/new", data={"side": "US"}, headers={"origin": "http://testserver",
                                                          "sec-fetch-site": "same-origin"}, follow_redirects=False)
    assert ok.status_code == 303


def test_a_private_link_does_not_replace_another_seat_held_by_this_browser(client: TestClient) -> None:
    r = client.post("/new", data={"side": "US"}, follow_redirects=False)
    gid = r.headers["location"].split("?")[0].rsplit("/", 1)[1]
    ij_invite = client.cookies.get(f"invite_{gid}")
    assert ij_invite
    # the invitation is no seat secret: the seat form sends it on to the join page ...
    r = client.post(f"/games/{gid}/seat", data={"token": ij_invite}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/join/{gid}#token={ij_invite}"
    # ... where this browser, holding the US seat, may not take the IJ seat too
    r = client.post(f"/join/{gid}", data={"token": ij_invite, "name": "Me again"}, follow_redirects=False)
    assert r.status_code == 409 and "already holds the US seat" in r.text
    assert client.get(f"/api/games/{gid}").json()["you"] == "US"


def test_a_command_posted_from_another_site_changes_nothing(client: TestClient) -> None:
    r = client.post("/new", data={"side": "US"}, follow_redirects=False)
    gid = r.headers["location"].split("?")[0].rsplit("/", 1)[1]
    legal = client.get(f"/api/games/{gid}/legal").json()
    cmd = listed(legal)[0]
    r = client.post(f"/games/{gid}/command", headers={"origin": "null"},
                    data={"type": cmd["type"], "data": json.dumps(cmd["data"]), "seq": legal["seq"]})
    assert r.status_code == 403
    assert seq(client, gid) == legal["seq"]


def test_an_unused_invitation_opens_no_seat(client: TestClient) -> None:
    """The creator has seen the invitation: before the opponent joins it must not act for the IJ."""
    body = client.post("/api/games", json={"side": "US"}).json()
    gid, invite = body["game_id"], body["invite_url"].split("token=")[1]
    client.cookies.clear()
    assert client.get(f"/api/games/{gid}/legal", headers=bearer(invite)).status_code == 403
    r = client.post(f"/api/games/{gid}/commands", headers=bearer(invite),
                    json={"type": "end_phase", "data": {}, "expected_seq": seq(client, gid)})
    assert r.status_code == 403
    r = client.post(f"/games/{gid}/seat", data={"token": invite}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith(f"/join/{gid}#")
    assert "set-cookie" not in r.headers
    assert client.get(f"/api/games/{gid}").json()["you"] is None


def test_no_answer_puts_a_secret_in_an_address_query(client: TestClient) -> None:
    created = client.post("/api/games", json={"side": "US"}).json()
    for url in (created["play_url"], created["invite_url"]):
        assert "?" not in url and "#token=" in url
    r = client.post("/new", data={"side": "US"}, follow_redirects=False)
    gid = r.headers["location"].split("?")[0].rsplit("/", 1)[1]
    assert "token=" not in r.headers["location"]
    page = client.get(f"/games/{gid}").text
    assert "?token=" not in page and "&token=" not in page
    r = client.post("/join-link", data={"link": f"http://testserver/join/{gid}#token=abc"}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/join/{gid}#token=abc"
