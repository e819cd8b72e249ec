"""JSON answers encoded once per state: the bytes, and their gzip made on first demand.

The legal commands and the views of a game change only when its log grows, while both
players (and their polls) ask for them again and again; so the service keeps them
encoded beside the state, and a client that accepts gzip gets the compressed bytes
without compressing them again (the gzip middleware leaves an encoded answer alone)."""

from __future__ import annotations

import gzip
from dataclasses import dataclass, field

from fastapi import Request, Response

MIN_GZIP = 1024  # smaller answers gain nothing from compression


@dataclass
class Encoded:
    body: bytes
    _gzip: bytes | None = field(default=None, repr=False)

    def gzipped(self) -> bytes:
        if self._gzip is None:  # two requests may both compress: the same bytes
            # level 1: most states' answers are read once or twice, so compressing is a cost
            # per read; level 6 took four times as long for 10% fewer bytes
            self._gzip = gzip.compress(self.body, compresslevel=1, mtime=0)
        return self._gzip


def json_answer(request: Request, answer: Encoded) -> Response:
    """The encoded answer, gzipped when the client accepts it and it is worth it."""
    headers = {"Vary": "Accept-Encoding"}
    if len(answer.body) >= MIN_GZIP and "gzip" in request.headers.get("accept-encoding", ""):
        return Response(answer.gzipped(), media_type="application/json",
                        headers={**headers, "Content-Encoding": "gzip"})
    return Response(answer.body, media_type="application/json", headers=headers)
