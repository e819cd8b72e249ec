"""The board's commands over a WebSocket, for ``ws_vs_post.py`` only (issue 35, item 3):
the project's own app with one more route, ``/games/{id}/ws``, that takes a board's
command form as htmx's WebSocket extension sends it (the form's fields as one JSON
message) and answers with the HTML the board's post answers, through the same command
path (app/command_path.py, the seat's cookie sent with the handshake).  Not part of the
product: it exists to measure whether a command over a live connection beats a post.

    python -m uvicorn ws_board:app --app-dir benchmarks   # (with the server's environment)
"""

from __future__ import annotations

from fastapi import WebSocket, WebSocketDisconnect

from app import command_path
from app.main import create_app
from app.routes.pages import BoardAnswer, command_payload

app = create_app()


@app.websocket("/games/{game_id}/ws")
async def board_socket(ws: WebSocket, game_id: str) -> None:
    await ws.accept()
    try:
        while True:
            form = await ws.receive_json()
            command = command_payload(str(form.get("type", "")), str(form.get("data", "{}")),
                                      str(form.get("command", "")), str(form.get("pick", "")))
            answer = BoardAnswer(str(form.get("select", "")), str(form.get("parts", "")))
            # (the WebSocket is the request here: its cookies, headers and app are read alike)
            sent = await command_path.send(ws, game_id, command, int(form["seq"]), answer)  # type: ignore[arg-type]
            await ws.send_text(bytes(sent.body).decode())
    except WebSocketDisconnect:
        return
