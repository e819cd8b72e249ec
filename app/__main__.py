"""``python -m app``: serve on http://127.0.0.1:8000 (SQLite under ./data unless DATABASE_URL says otherwise).

``HOST`` and ``PORT`` choose where it listens; the links it gives players (their private
links, invitations, mails) name that address unless ``BASE_URL`` names another (a proxy's,
or a host's name when it listens on every address)."""

import os

import uvicorn


def listening_url(host: str, port: int) -> str:
    """The address a browser on this machine reaches the server at (every address: this machine's own)."""
    shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    return f"http://[{shown}]:{port}" if ":" in shown else f"http://{shown}:{port}"


if __name__ == "__main__":
    host, port = os.environ.get("HOST", "127.0.0.1"), int(os.environ.get("PORT", "8000"))
    os.environ.setdefault("BASE_URL", listening_url(host, port))  # (read by the settings when the app is imported)
    uvicorn.run("app.main:app", host=host, port=port)
