"""The FastAPI application: migrations at start, routes, health check."""

from __future__ import annotations

import gc
import logging
from contextlib import asynccontextmanager, suppress
from datetime import UTC, datetime
from functools import partial
from typing import Any

import anyio.to_thread
from apscheduler.job import Job
from apscheduler.jobstores.base import JobLookupError
from apscheduler.schedulers.background import BackgroundScheduler
from fastapi import FastAPI
from fastapi.responses import JSONResponse
from sqlalchemy import text
from starlette.middleware.gzip import GZipMiddleware

from app import errors, logs
from app.async_appends import AsyncAppends
from app.config import Settings, get_settings, sqlite_path
from app.db import Database, migrate
from app.games import boards
from app.hot_path import HotCommands
from app.live import Hub
from app.mail import Smtp, deliver_due
from app.middleware import Admission, SecurityHeaders
from app.ratelimit import RateLimits
from app.routes import admin, admin_pages, api, board_socket, pages
from app.services import clock, computer
from app.services.chat import Chat
from app.services.games import GameService
from app.services.notices import Notices
from app.services.signin import Signin
from app.services.witness import witness
from app.sqlite_appends import SqliteAppends
from app.static_files import STATIC, CachedStaticFiles
from app.templating import compile_all

# Python's collector walks every container it tracks in a full collection: with the
# frameworks' and the engine's import-time objects that took 100-150 ms on this
# project's benchmark machine, many times a minute (the p99 of a command).  What exists
# once the server has started lives as long as the process, so it is frozen out of the
# collections.  A young collection's pause grows with its threshold (it walks and frees
# that many objects): at 10,000 it was 5-13 ms once every hundred requests, the p99 of a
# command; at 1,000 it is about 1 ms, spread out.  What requests leave for it is small
# (the frameworks' and Jinja's own cycles: app/templating.py keeps a board out of them).
GC_THRESHOLDS = (1_000, 20, 20)


def settle_garbage_collector() -> None:
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def _start_now(job: Job) -> None:
    with suppress(JobLookupError):  # (the scheduler shutting down)
        job.modify(next_run_time=datetime.now(UTC))


class _NotOverlapping(logging.Filter):
    """Drops the scheduler's warning that a job's run was skipped because its last run goes
    on: one run at a time is what each job asks for (a run of the computer's job may play
    for longer than its interval, and plays on meanwhile)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "maximum number of running instances" not in record.getMessage()


def new_scheduler() -> BackgroundScheduler:
    jobs_log = logging.getLogger("app.jobs")
    if not any(isinstance(f, _NotOverlapping) for f in jobs_log.filters):
        jobs_log.addFilter(_NotOverlapping())
    return BackgroundScheduler(daemon=True, logger=jobs_log)


def start_jobs(app: FastAPI, settings: Settings) -> BackgroundScheduler | None:
    """The periodic jobs of every worker: sending the mail that is due (each mail is
    claimed by one worker), the clocks' reminders and timeouts and the computer's moves
    (one worker at a time).  ``MAIL_INTERVAL_SECONDS=0`` runs none (tests call them)."""
    if settings.mail_interval_seconds <= 0:
        return None
    if settings.smtp_url:
        Smtp.from_url(settings.smtp_url)  # a malformed SMTP_URL stops the start, not the first mail
    scheduler = new_scheduler()
    scheduler.add_job(deliver_due, "interval", seconds=settings.mail_interval_seconds, max_instances=1,
                      coalesce=True, args=[app.state.db.sessions, settings.smtp_url, settings.mail_from],
                      kwargs={"webhook_private": settings.webhook_allow_private,
                              "composers": {"signin": app.state.signin.compose},
                              "witness": partial(witness, service=app.state.games)})
    scheduler.add_job(lambda: clock.tick(app.state.db.sessions, app.state.notices, app.state.games.now()),
                      "interval", seconds=settings.clock_interval_seconds, max_instances=1, coalesce=True)
    # the computer's moves, within seconds of the handover and outside the request threads
    computer_job = scheduler.add_job(computer.play_due, "interval", seconds=settings.computer_interval_seconds,
                                     max_instances=1, coalesce=True,
                                     args=[app.state.db.sessions, app.state.games, settings.secret_key])
    # and at once when a command in this worker leaves the computer a decision (the look every
    # few seconds finds those of other workers' commands)
    app.state.games.on_computer_due = partial(computer.wake, partial(_start_now, computer_job))
    if app.state.limits.store is not None:  # rate-limit hits older than any window
        scheduler.add_job(app.state.limits.store.purge, "interval", hours=1, max_instances=1, coalesce=True)
    scheduler.start()
    return scheduler


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI):  # noqa: ANN202
        migrate(settings.database_url)
        # the threads that run blocking routes: as many as admitted requests (README, "Sizing")
        anyio.to_thread.current_default_thread_limiter().total_tokens = settings.threads
        for board in boards():  # what each board draws once per process: before the freeze, so
            board.warm()        # that the collector never walks it
        compile_all()  # likewise the templates, before the first request can race to compile them
        settle_garbage_collector()
        scheduler = start_jobs(app, settings)
        await app.state.hub.start()
        if app.state.appends is not None:
            await app.state.appends.open()
        yield
        await app.state.hub.stop()
        if scheduler is not None:
            scheduler.shutdown(wait=True)
        app.state.db.engine.dispose()
        app.state.limits.close()
        if app.state.appends is not None:
            await app.state.appends.close()

    app = FastAPI(title="Guadalcanal play-by-browser", version="0.1.0", lifespan=lifespan,
                  max_body_size=settings.max_body_bytes,
                  description="Hex-and-counter wargames over an append-only event log judged by a pure rules engine.")
    app.state.settings = settings
    app.state.db = Database(settings.database_url, pool_size=settings.threads)
    app.state.signin = Signin(settings.base_url, settings.secret_key)
    app.state.notices = Notices(settings.base_url, settings.secret_key, settings.mail_grace_seconds)
    app.state.games = GameService(settings.snapshot_every, settings.fixed_dice_secret, app.state.notices)
    app.state.hub = Hub(settings.database_url, settings.live_poll_seconds, settings.max_streams)
    app.state.games.on_moved = app.state.hub.moved
    app.state.chat = Chat(app.state.notices)
    app.state.chat.on_chat = app.state.hub.chatted
    app.state.limits = RateLimits(settings)
    # commands decided on the event loop (app/fast_commands.py): only with rate counters in
    # memory (a shared store's counting would block the loop); on SQLite, a file's (an
    # in-memory database is its connection's own)
    url = settings.database_url
    appends: AsyncAppends | SqliteAppends | None = None
    if settings.fast_writes > 0 and app.state.limits.in_memory:
        if url.startswith("postgresql"):
            appends = AsyncAppends(url, settings.fast_writes)
        elif sqlite_path(url) is not None:
            appends = SqliteAppends(url)
    app.state.appends = appends
    errors.install(app)
    logs.install()
    app.include_router(pages.board_posts)  # first: the busiest routes (app/routes/pages.py)
    app.include_router(board_socket.router)  # (the same commands over the page's WebSocket)
    app.include_router(api.moves)  # (and the API's)
    app.include_router(api.router)
    app.include_router(api.imports, max_body_size=settings.max_import_bytes)
    app.include_router(admin.router)
    app.include_router(pages.router)
    app.include_router(pages.posts)
    app.include_router(admin_pages.router)
    app.mount("/static", CachedStaticFiles(directory=STATIC), name="static")
    # outermost last: headers on every answer, compression, admission to the app, and
    # innermost a command's post (the API's, the board's), taken without FastAPI's routing
    app.add_middleware(HotCommands)
    app.add_middleware(Admission, limit=settings.threads, timeout=settings.admission_timeout,
                       read_limit=settings.read_threads or max(1, settings.threads // 2))
    # level 1: a third of level 5's work for a few per cent more bytes (answers kept encoded
    # per state are compressed once each, at the same level: app/answers.py)
    app.add_middleware(GZipMiddleware, minimum_size=1024, compresslevel=1)
    app.add_middleware(SecurityHeaders)

    @app.get("/healthz", tags=["health"], responses=errors.responses(503))
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
