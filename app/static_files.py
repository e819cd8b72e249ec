"""Static files with long-lived caching.  Pages link them as ``/static/NAME?v=HASH``
(``static_url``): the content hash changes whenever the file does, so browsers may
keep a linked version for a year without asking again."""

from __future__ import annotations

import hashlib
import os
from functools import cache
from pathlib import Path

from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

STATIC = Path(__file__).resolve().parents[1] / "static"
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "public, max-age=0, must-revalidate"  # an unversioned address: ask each time (cheap 304s)


@cache
def static_url(name: str) -> str:
    digest = hashlib.sha256((STATIC / name).read_bytes()).hexdigest()[:12]
    return f"/static/{name}?v={digest}"


class CachedStaticFiles(StaticFiles):
    def file_response(self, full_path: os.PathLike[str] | str, stat_result: os.stat_result, scope: Scope,
                      status_code: int = 200) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        versioned = b"v=" in scope.get("query_string", b"") or "/vendor/" in scope.get("path", "")
        response.headers["Cache-Control"] = IMMUTABLE if versioned else REVALIDATE
        return response
