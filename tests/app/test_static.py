"""Third-party browser files are the registry's, byte for byte (static/vendor/VERSIONS)."""

from __future__ import annotations

import hashlib
from pathlib import Path

VENDOR = Path(__file__).resolve().parents[2] / "static" / "vendor"


def test_vendored_files_match_their_recorded_hashes() -> None:
    rows = [line.split() for line in (VENDOR / "VERSIONS").read_text().splitlines()
            if line.strip() and not line.startswith("#")]
    assert rows, "no vendored files listed"
    for name, version, _src, here, sha in rows:
        assert version in here, (name, version, here)
        assert hashlib.sha256((VENDOR / here).read_bytes()).hexdigest() == sha, here


def test_pages_load_the_pinned_htmx() -> None:
    base = (Path(__file__).resolve().parents[2] / "templates" / "base.html").read_text()
    assert "/static/vendor/htmx-2.0.11.min.js" in base
    assert base.index("htmx-2.0.11.min.js") < base.index("htmx-ext-sse-2.2.4.min.js")  # the extension needs htmx
    assert base.index("htmx-2.0.11.min.js") < base.index("htmx-ext-ws-2.0.4.min.js")
