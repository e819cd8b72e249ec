"""Playing Pacific Battles by clicking its map (issue 12): a click on a piece of one's own
selects it and highlights where it may go, a click on a highlighted hex gives that
command, a click elsewhere says the engine's reason, and a click can select nothing of
the enemy's."""

from __future__ import annotations

import html
import re

from app_support import listed
from fastapi.testclient import TestClient
from pb_support import SET_UP, new_game, seat, seq_of


def marks(page: str, kind: str) -> set[str]:
    return set(re.findall(rf'<polygon class="mark {kind}" data-hex="(\d+)"', page))


def click(client: TestClient, gid: str, page: str, **values: str) -> str:
    r = client.post(f"/games/{gid}/click", data={"seq": seq_of(page), **values})
    assert r.status_code == 200, r.text
    return r.text


def test_selecting_a_unit_highlights_its_set_up_hexes_and_a_click_places_it(client: TestClient) -> None:
    g = new_game(client)
    gid = g["id"]
    seat(client, gid, g["Japanese"])
    page = client.get(f"/games/{gid}").text
    assert marks(page, "reach") == set()  # nothing selected: nothing to highlight
    unit = SET_UP[2]
    answer = click(client, gid, page, unit=unit)
    assert f"Selected: {unit}" in answer and f'data-select="{unit}"' in answer
    commands = client.get(f"/api/games/{gid}/legal", headers={"Authorization": f"Bearer {g['Japanese']}"})
    legal = {c["data"]["hex"] for c in listed(commands.json())
             if c["type"] == "place" and c["data"]["unit"] == unit}
    assert legal and marks(answer, "reach") == legal  # exactly the engine's legal set-up hexes (25.4)
    to = sorted(legal)[0]
    placed = click(client, gid, answer, hex=to, select=unit)
    assert seq_of(placed) == seq_of(answer) + 1
    assert re.search(rf'class="counter own[^"]*" data-hex="{to}" data-unit="{re.escape(html.escape(unit))}"', placed)


def test_a_click_where_the_selected_unit_may_not_go_gives_the_engines_reason(client: TestClient) -> None:
    g = new_game(client)
    gid = g["id"]
    seat(client, gid, g["Japanese"])
    page = client.get(f"/games/{gid}").text
    answer = click(client, gid, page, unit=SET_UP[2])
    refused = click(client, gid, answer, hex="1648", select=SET_UP[2])  # Cape Esperance: far from Henderson
    assert 'role="alert"' in refused and "25.4" in refused
    assert seq_of(refused) == seq_of(page)  # nothing was written
    assert f"Selected: {SET_UP[2]}" in refused  # and the selection is kept


def test_a_click_cannot_select_or_name_an_enemy_piece(client: TestClient) -> None:
    g = new_game(client)
    gid = g["id"]
    seat(client, gid, g["Japanese"])
    page = client.get(f"/games/{gid}").text
    placed = click(client, gid, click(client, gid, page, unit=SET_UP[2]), hex="0815", select=SET_UP[2])
    if seq_of(placed) == seq_of(page):  # 0815 was not legal: take the first highlighted hex instead
        answer = click(client, gid, page, unit=SET_UP[2])
        placed = click(client, gid, answer, hex=sorted(marks(answer, "reach"))[0], select=SET_UP[2])
    where = re.search(rf'data-hex="(\d+)" data-unit="{re.escape(html.escape(SET_UP[2]))}"', placed).group(1)
    seat(client, gid, g["Allied"])
    page = client.get(f"/games/{gid}").text
    for values in ({"unit": SET_UP[2]}, {"select": SET_UP[2], "hex": where}, {"hex": where}):
        answer = click(client, gid, page, **values)
        assert SET_UP[2] not in html.unescape(answer) and "Selected:" not in answer
        assert "not examined" in answer  # the stack is there, unknown


def test_each_player_steps_back_through_the_game_seeing_only_what_they_saw(client: TestClient) -> None:
    g = new_game(client)
    gid = g["id"]
    seat(client, gid, g["Japanese"])
    page = client.get(f"/games/{gid}").text
    for unit in SET_UP:
        answer = click(client, gid, page, unit=unit)
        page = click(client, gid, answer, hex=sorted(marks(answer, "reach"))[-1], select=unit)
    last = seq_of(page)
    mine = client.get(f"/games/{gid}/at/{last}")
    assert mine.status_code == 200 and "Sequence of play" in mine.text and "Air operations display" in mine.text
    assert all(name in html.unescape(mine.text) for name in SET_UP)
    before = client.get(f"/games/{gid}/at/{last - 1}").text  # one counter fewer on the map
    assert before.count('class="counter own') == mine.text.count('class="counter own') - 1
    log = client.get(f"/games/{gid}/log").text
    assert f"/games/{gid}/at/" in log
    seat(client, gid, g["Allied"])
    theirs = client.get(f"/games/{gid}/at/{last}")
    assert theirs.status_code == 200 and "not examined" in theirs.text
    assert [n for n in SET_UP if n in html.unescape(theirs.text)] == []
    seat(client, gid, None)
    assert client.get(f"/games/{gid}/at/{last}").status_code == 403  # a running game's moments are its players'


def test_a_click_naming_nonsense_is_refused_plainly_and_changes_nothing(client: TestClient) -> None:
    g = new_game(client)
    gid = g["id"]
    seat(client, gid, g["Japanese"])
    page = client.get(f"/games/{gid}").text
    long = client.post(f"/games/{gid}/click", data={"seq": seq_of(page), "hex": "9" * 500})
    assert long.status_code == 422
    odd = click(client, gid, page, hex="<b>x</b>", select="no such piece")
    assert "&lt;b&gt;x&lt;/b&gt;" in odd and "<b>x</b>" not in odd and "Selected:" not in odd
    assert seq_of(client.get(f"/games/{gid}").text) == seq_of(page)
