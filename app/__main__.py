"""``python -m app``: serve on http://127.0.0.1:8000 (SQLite under ./data unless DATABASE_URL says otherwise)."""

import os

import uvicorn

if __name__ == "__main__":
    uvicorn.run("app.main:app", host=os.environ.get("HOST", "127.0.0.1"), port=int(os.environ.get("PORT", "8000")))
