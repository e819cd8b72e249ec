"""Server-side SVG rendering of game views (pure functions; no DB, no I/O)."""

from app.render.svg import render_base, render_layers, render_map

__all__ = ["render_base", "render_layers", "render_map"]
