"""The board's commands over its page's WebSocket (issue 35).

A seated player's page opens ``/games/{id}/socket`` with htmx's WebSocket extension and,
while it is open, sends each command form over it (static/board.js) as one JSON message
of the form's fields: the answer is the HTML the board's post answers, through the same
command path (app/command_path.py), swapped in the same way.  Measured against the post,
a command took 0.72-0.77x the time and 0.77-0.83x the server's CPU
(benchmarks/ws_vs_post.py): what it saves is the HTTP request around the command.  The
post stays: a page posts whenever its socket is not open (a proxy that refuses
WebSockets, a dropped connection while it reconnects).

What a post checks on each request is checked at the handshake: the page's own site
(``from_another_site``: no same-origin rule guards a WebSocket) and the seat's cookie.
Each command is then judged as a post's is: the seat its secret opens, the rate limit,
the engine.  Anything a message gets wrong is answered in the page's error line."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, WebSocket, WebSocketDisconnect
from markupsafe import escape
from starlette.background import BackgroundTask

from app import command_path
from app.deps import from_another_site, presented_token
from app.routes import board_form
from app.routes.pages import BoardAnswer

router = APIRouter(include_in_schema=False)

POLICY = 1008  # the WebSocket close code of a refused handshake


@router.websocket("/games/{game_id}/socket")
async def board_socket(ws: WebSocket, game_id: str) -> None:
    token, bad_cookie = presented_token(ws, game_id, ws.app.state.settings)  # type: ignore[arg-type]
    if from_another_site(ws.headers) or not token or bad_cookie:
        await ws.close(POLICY)
        return
    await ws.accept()
    while True:
        try:
            message = await ws.receive()
        except WebSocketDisconnect:
            return
        if message["type"] == "websocket.disconnect":
            return
        text, after = await answer(ws, game_id, message.get("text"))
        await ws.send_text(text)
        if after is not None:  # what the post's answer does once sent (a snapshot)
            await after()


async def answer(ws: WebSocket, game_id: str, text: str | None) -> tuple[str, BackgroundTask | None]:
    """The HTML a message's command is answered with (an error line for a message that is
    not a command form)."""
    form = board_form.from_message(text)
    if form is None:
        return _error(board_form.NOT_UNDERSTOOD), None
    try:
        command = board_form.command_payload(form["type"], form["data"], form["command"], form["pick"])
        sent = await command_path.send(ws, game_id, command, board_form.sent_seq(form),  # type: ignore[arg-type]
                                       BoardAnswer(form["select"], form["parts"]))
    except HTTPException as exc:  # (no game, a seat's secret replaced, a rate limit: as a post is told)
        return _error(str(exc.detail)), None
    return bytes(sent.body).decode(), sent.background


def _error(text: str) -> str:
    """The page's error line, swapped in by its id (both boards have one)."""
    return f'<p id="net-error" class="error" role="alert" hx-swap-oob="true">{escape(text)}</p>'
