"""The FastAPI application: migrations at start, routes, health check."""

from __future__ import annotations

import logging
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from sqlalchemy import text

from app.config import Settings, get_settings
from app.db import Database, migrate
from app.routes import admin, admin_pages, api, pages
from app.services.games import GameService


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI):  # noqa: ANN202
        migrate(settings.database_url)
        yield
        app.state.db.engine.dispose()

    app = FastAPI(title="Guadalcanal play-by-browser", version="0.1.0", lifespan=lifespan,
                  description="Hex-and-counter wargames over an append-only event log judged by a pure rules engine.")
    app.state.settings = settings
    app.state.db = Database(settings.database_url)
    app.state.games = GameService(settings.snapshot_every, settings.fixed_dice_secret)
    app.include_router(api.router)
    app.include_router(admin.router)
    app.include_router(pages.router)
    app.include_router(pages.posts)
    app.include_router(admin_pages.router)
    app.mount("/static", StaticFiles(directory=Path(__file__).resolve().parents[1] / "static"), name="static")

    @app.get("/healthz", tags=["health"])
    def healthz() -> Any:
        try:
            with app.state.db.engine.connect() as conn:
                conn.execute(text("SELECT 1"))
        except Exception:  # noqa: BLE001 - any database failure; details stay in the server log
            logging.getLogger(__name__).exception("health check: database unreachable")
            return JSONResponse({"status": "error", "database": "unreachable"}, status_code=503)
        return {"status": "ok", "database": "ok"}

    return app


app = create_app()
