"""What every answer says about itself: security headers, caching, compression."""

from __future__ import annotations

import hashlib
import re

from fastapi.testclient import TestClient

from app.static_files import STATIC, static_url


def test_pages_cannot_be_framed_and_load_only_this_sites_scripts(client: TestClient) -> None:
    gid = client.post("/api/games", json={"side": "US"}).json()["game_id"]
    for url in ("/", f"/games/{gid}", f"/join/{gid}", f"/api/games/{gid}"):
        h = client.get(url).headers
        csp = h["content-security-policy"]
        assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp and "object-src 'none'" in csp
        assert "unsafe-eval" not in csp
        assert h["x-frame-options"] == "DENY"
        assert h["x-content-type-options"] == "nosniff"
        assert h["referrer-policy"] == "same-origin"


def test_pages_and_api_answers_are_not_stored_by_caches(client: TestClient) -> None:
    created = client.post("/api/games", json={"side": "US"})
    gid = created.json()["game_id"]
    assert created.headers["cache-control"] == "no-store"  # it carries the seat secret
    for url in ("/", f"/games/{gid}", f"/api/games/{gid}", f"/api/games/{gid}/legal"):
        assert client.get(url).headers["cache-control"] == "no-store", url


def test_static_files_are_cached_for_a_year_when_versioned(client: TestClient) -> None:
    page = client.get("/").text
    linked = re.findall(r'(?:href|src)="(/static/[^"]+)"', page)
    assert static_url("app.css") in linked and any("htmx" in u for u in linked)
    for url in linked:
        r = client.get(url)
        assert r.status_code == 200, url
        assert r.headers["cache-control"] == "public, max-age=31536000, immutable", url
    r = client.get("/static/app.css")  # an unversioned address is revalidated
    assert r.headers["cache-control"] == "public, max-age=0, must-revalidate"
    again = client.get("/static/app.css", headers={"if-none-match": r.headers["etag"]})
    assert again.status_code == 304


def test_the_address_of_a_static_file_names_its_content() -> None:
    """A changed file gets a new address, so a year of caching never serves a stale one."""
    digest = hashlib.sha256((STATIC / "app.css").read_bytes()).hexdigest()[:12]
    assert static_url("app.css") == f"/static/app.css?v={digest}"


def test_big_answers_are_compressed(client: TestClient) -> None:
    gid = client.post("/api/games", json={"side": "US"}).json()["game_id"]
    r = client.get(f"/games/{gid}", headers={"accept-encoding": "gzip"})
    assert r.headers["content-encoding"] == "gzip"
    assert int(r.headers["content-length"]) < len(r.content) / 3  # the body as sent vs. as read


def test_legal_commands_are_sent_compressed_and_mean_the_same(client: TestClient) -> None:
    body = client.post("/api/games", json={"side": "US"}).json()
    gid, auth = body["game_id"], {"Authorization": f"Bearer {body['token']}"}
    for form, ratio in (("grouped", 2), ("list", 5)):  # the default, and the long list one by one
        plain = client.get(f"/api/games/{gid}/legal", params={"form": form},
                           headers={**auth, "accept-encoding": "identity"})
        packed = client.get(f"/api/games/{gid}/legal", params={"form": form},
                            headers={**auth, "accept-encoding": "gzip"})
        assert "content-encoding" not in plain.headers
        assert packed.headers["content-encoding"] == "gzip" and packed.headers["vary"] == "Accept-Encoding"
        assert int(packed.headers["content-length"]) < len(plain.content) / ratio, form
        assert packed.json() == plain.json()
    assert len(plain.json()["commands"]) > 1000
