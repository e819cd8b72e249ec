"""The periodic jobs' scheduler (app/main.py): a run skipped because the job's last run
still goes on is what one run at a time means, and is not logged as a warning; the
scheduler's other warnings still are."""

from __future__ import annotations

import logging
import threading
import time

import pytest
from apscheduler.events import EVENT_JOB_MAX_INSTANCES

from app.main import new_scheduler


def test_a_run_skipped_while_the_last_one_goes_on_is_not_a_warning(caplog: pytest.LogCaptureFixture) -> None:
    runs = threading.Semaphore(0)

    def slow() -> None:  # longer than its interval, as a run of the computer's job may be
        runs.release()
        time.sleep(2.5)

    scheduler = new_scheduler()
    skips: list[object] = []
    scheduler.add_listener(skips.append, EVENT_JOB_MAX_INSTANCES)
    scheduler.add_job(slow, "interval", seconds=1, max_instances=1, coalesce=True)
    with caplog.at_level(logging.INFO, logger="app.jobs"):
        scheduler.start()
        try:
            assert runs.acquire(timeout=5)
            time.sleep(2.2)  # the interval passed twice during the run
        finally:
            scheduler.shutdown(wait=True)
        logging.getLogger("app.jobs").warning("Run time of job %s was missed by %s", "x", "1s")
    said = [r.getMessage() for r in caplog.records if r.name == "app.jobs"]
    assert any("Scheduler started" in m for m in said)  # it logs there
    assert skips and not any("maximum number of running instances" in m for m in said), said
    assert any("was missed by" in m for m in said)
