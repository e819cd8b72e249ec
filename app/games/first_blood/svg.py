"""The First Blood map as SVG (pure functions of the view).

The map is two layers.  The *terrain* (paper, sea, the hexes with their terrain,
rivers, ridges, the set-up line) never changes and is the same for everybody: it is
drawn once per process as a file of its own (:func:`render_terrain`, published as
``/maps/first_blood.svg?v=HASH`` by ``app/games/maps.py``), which the browser keeps;
the page's base layer (:func:`render_base`) only points at it and carries the hex grid
(:func:`grid`) a click on it is read by.  The *layers* (counters, boxes, highlights,
air strip markers, the turn track) are :func:`render_layers`, a function of the view:
the hexes a player can act on now (a move's destinations, attack targets) are buttons
there, named by their terrain and what is in them.  The game page stacks the two, so
an answer to a command sends only the layers; :func:`render_map` joins them into one
standalone SVG document.

They read the board from the engine (``load_board()``) and everything that
changes from the view dict built by ``engine.games.first_blood.view.build_view``;
no I/O beyond the stylesheet, no clock and no randomness, so the same arguments
always give the same bytes.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, TypeVar
from xml.sax.saxutils import escape

from app.games.first_blood.layout import TOP_BOXES, Layout, Page, Point, Rect, inset_band, page_layout
from app.games.maps import map_url, publish
from app.render.counters import (
    counter_body,
    factors,
    fitted_text,
    n,
    reads,
    star,
    status_chit,
    text,
    tip,
    type_name,
    work_chit,
    xml_chars,
)
from app.render.parts import Part, part
from engine.core.hexes import Hex, hex_from_id, hex_neighbors
from engine.games.first_blood.board import Board, EntryPoint, load_board

STATUS_WORDS = {"oper": "operational", "dam": "damaged", "dest": "destroyed"}
BOX_SIDE = {"ijaaf_reserve": "IJ", "ijaaf_attack": "IJ", "ijn_reserve": "IJ", "ijn_attack": "IJ",
            "cap": "US", "ga": "US", "usaf_reserve": "US"}
NOTE = "Map and order of battle: reconstructions"
T = TypeVar("T")
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.:-]*$")

MAP_CSS = Path(__file__).resolve().parents[3] / "static" / "map.css"  # linked by the page, inlined standalone


@cache
def _css() -> str:
    return MAP_CSS.read_text(encoding="utf-8")


@cache
def hex_shape() -> str:
    """The shape every hex's hit area uses (``<use href="#hex-shape">`` at its centre):
    one polygon in the layers' defs instead of six corners in each of a hundred buttons."""
    st = _static()
    lay, h = st.page.layout, st.order[0]  # (every hex has the same shape: any one)
    c = lay.centre(h)
    return (f'<defs><polygon id="hex-shape" points="'
            f'{_pts(Point(q.x - c.x, q.y - c.y) for q in lay.corners(h))}"/></defs>')


DEFS = (
    '<defs><pattern id="high-hatch" width="6" height="6" patternUnits="userSpaceOnUse" '
    'patternTransform="rotate(45)"><rect width="6" height="6" fill="#b98b4e" fill-opacity=".28"/>'
    '<line x1="0" y1="0" x2="0" y2="6" stroke="#7a4b1f" stroke-width="1.4" stroke-opacity=".55"/></pattern>'
    '<marker id="arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="4" markerHeight="4" '
    'orient="auto-start-reverse"><path d="M0 0L10 5L0 10Z" fill="context-stroke"/></marker></defs>'
)


# --- escaping and attributes ------------------------------------------------

def _q(value: object) -> str:
    """An attribute value, XML-escaped (quotes included)."""
    return _q_str(value) if type(value) is str else escape(xml_chars(value), {'"': "&quot;"})


@lru_cache(maxsize=8192)
def _q_str(value: str) -> str:
    # a map's attribute values are mostly the same few thousand strings (classes, ids,
    # labels) in every answer: each is escaped once
    return escape(xml_chars(value), {'"': "&quot;"})


def _attrs(base: Mapping[str, str], extra: Mapping[str, object] | None = None) -> str:
    """Serialise attributes; ``extra`` overrides ``base`` except ``class``, which is appended."""
    merged = dict(base)
    for key, value in (extra or {}).items():
        if value is None:
            continue
        if not _NAME.match(key):
            raise ValueError(f"render_map: not an XML attribute name: {key!r}")
        merged[key] = f"{merged['class']} {value}" if key == "class" and "class" in merged else str(value)
    return "".join(f' {k}="{_q(v)}"' for k, v in merged.items())


def _pts(points: Iterable[Point]) -> str:
    return " ".join(f"{n(p.x)},{n(p.y)}" for p in points)


# --- what does not depend on the view: computed once ------------------------

@dataclass(frozen=True)
class _Static:
    board: Board
    page: Page
    polygons: dict[str, str]  # hex id -> points
    insets: dict[str, str]  # hex id -> points of the outline marks drawn just inside it
    order: tuple[str, ...]  # the hexes in drawing order (_draw_order)
    decor: dict[str, str]  # hex id -> jungle bands / high ground
    overlay: str  # rivers, bridge, ridges, set-up line, place names
    runways: dict[str, tuple[Point, float]] = field(default_factory=dict)  # strip hex -> centre, angle


@cache
def _static() -> _Static:
    board = load_board()
    page = page_layout(board.hexes, [e.at for e in board.entries.values()],
                       {k: b.hexes for k, b in board.boxes.items()})
    lay = page.layout
    polygons = {h: _pts(lay.corners(h)) for h in board.hexes}
    insets = {h: _pts(lay.corners(h, 0.93)) for h in board.hexes}
    decor = {h: _hex_decor(board, lay, h) for h in board.hexes}
    runways = {}
    for pair in (board.henderson, board.fighter_strip):
        for h in pair:
            other = next((o for o in pair if o != h), h)
            a, b = lay.centre(h), lay.centre(other)
            runways[h] = (a, math.degrees(math.atan2(b.y - a.y, b.x - a.x)) if other != h else 0.0)
    return _Static(board, page, polygons, insets, tuple(sorted(board.hexes, key=_draw_order)), decor,
                   _overlay(board, lay), runways)


def _hex_decor(board: Board, lay: Layout, h: str) -> str:
    t, c = board.hexes[h], lay.centre(h)
    out = []
    if t.high:
        out.append(f'<polygon class="high-ground" points="{_pts(lay.corners(h))}"/>')
    for nb in sorted(t.jungle_edges):
        p1, p2 = lay.edge(h, nb)
        out.append(f'<polygon class="jungle-edge" points="{_pts(inset_band(p1, p2, c, 0.17))}"/>')
    return "".join(out)


def _line(cls: str, a: Point, b: Point) -> str:
    return f'<line class="{cls}" x1="{n(a.x)}" y1="{n(a.y)}" x2="{n(b.x)}" y2="{n(b.y)}"/>'


def _overlay(board: Board, lay: Layout) -> str:
    out = ['<g class="overlay">']
    ridges = sorted({tuple(sorted((h, o))) for h in board.hexes for o in board.neighbors(h) if board.is_ridge(h, o)})
    for a, b in ridges:
        p1, p2 = lay.edge(a, b)
        out.append(_line("ridge-hatch", p1, p2) + _line("ridge", p1, p2))
    for a, b in sorted(tuple(sorted(s)) for s in board.rivers):
        out.append(_line("river", *lay.edge(a, b)))
    for a, b in sorted(tuple(sorted(s)) for s in board.bridges):
        ca, cb = lay.centre(a), lay.centre(b)
        ang = math.degrees(math.atan2(cb.y - ca.y, cb.x - ca.x))
        m = Point((ca.x + cb.x) / 2, (ca.y + cb.y) / 2)
        ln = lay.size * 0.8
        out.append(f'<rect class="bridge" x="{n(-ln / 2)}" y="-5" width="{n(ln)}" height="10" '
                   f'transform="translate({n(m.x)} {n(m.y)}) rotate({n(ang)})"/>')
    setup = _setup_path(board, lay)
    out.append(f'<path class="setup-casing" d="{setup}"/><path class="setup-line" d="{setup}"/>')
    for h, label in sorted(board.labels.items()):
        c = lay.centre(h)
        out.append(f'<text class="place" x="{n(c.x)}" y="{n(c.y + lay.size * 0.5)}" font-size="8">{text(label)}</text>')
    out.append("</g>")
    return "".join(out)


def _setup_path(board: Board, lay: Layout) -> str:
    """The blue dashed line (§2.1, §3): every edge between a set-up hex and a land hex outside it."""
    def inside(h: Hex) -> bool:
        col = h.q + (h.r + 1) // 2
        return (h.r >= 0 and col >= 0 and f"{h.r:02d}{col:02d}" in board.hexes
                and board.in_setup_area(f"{h.r:02d}{col:02d}"))
    segs = []
    for hid in sorted(board.hexes):
        h = hex_from_id(hid)
        if not inside(h):
            continue
        for nb in hex_neighbors(h):
            col = nb.q + (nb.r + 1) // 2
            if not inside(nb) and f"{nb.r:02d}{col:02d}" in board.hexes:
                p1, p2 = lay.edge(h, nb)
                segs.append(f"M{n(p1.x)} {n(p1.y)}L{n(p2.x)} {n(p2.y)}")
    return "".join(segs)


# --- per-call context -------------------------------------------------------

@dataclass
class _Ctx:
    st: _Static
    view: Mapping[str, Any]
    selected: str | None
    highlights: Mapping[str, str]
    targets: frozenset[str]
    must_attack: frozenset[str] = frozenset()
    must_be_attacked: frozenset[str] = frozenset()
    overstacked: frozenset[str] = frozenset()
    refused: Mapping[str, str] = field(default_factory=dict)  # hex -> why the selected unit may not go there
    trail: tuple[str, ...] = ()  # the hexes of a move just made, in order (a replay's moment)
    fan: str | None = None  # a hex whose stack is spread out, every counter in reach of a click
    attacking: frozenset[str] = frozenset()
    combat_targets: frozenset[str] = frozenset()
    by_loc: dict[str, list[Mapping[str, Any]]] = field(default_factory=dict)

    def busy(self) -> frozenset[str]:
        """The places :func:`_hex_state` says something of (a superset): the others are
        skipped without asking it."""
        return frozenset().union(self.by_loc, self.st.runways, self.highlights, self.refused, self.targets,
                                 self.must_be_attacked, self.overstacked, self.combat_targets)

    def loc_classes(self, loc: str) -> list[str]:
        out = []
        if loc in self.highlights:
            out.append("reachable")
        if loc in self.targets:
            out.append("target")
        return out


def _make_ctx(view: Mapping[str, Any], selected: str | None, highlights: Mapping[str, str] | None,
              targets: Iterable[str]) -> _Ctx:
    owed = view.get("obligations") or []
    combat = view.get("combat") or {}
    by_loc: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for u in view.get("units") or []:
        by_loc[str(u.get("loc"))].append(u)
    if selected is not None:  # the selected counter goes on top of its stack
        for loc, units in by_loc.items():
            by_loc[loc] = sorted(units, key=lambda u: u.get("id") == selected)
    return _Ctx(
        _static(), view, selected, dict(highlights or {}), frozenset(targets),
        must_attack=frozenset(str(o["unit"]) for o in owed),
        must_be_attacked=frozenset(str(o["hex"]) for o in owed),
        overstacked=frozenset(map(str, view.get("overstacked") or ())),
        attacking=frozenset(map(str, [*(combat.get("attackers") or ()), *(combat.get("artillery") or ())])),
        combat_targets=frozenset(map(str, combat.get("targets") or ())),
        by_loc=dict(by_loc),
    )


# --- counters ----------------------------------------------------------------

def _unit_label(u: Mapping[str, Any]) -> str:
    kind = u.get("kind", "ground")
    label = f"{u.get('side', '')} {u.get('name', '')} {type_name(u)}"
    if kind == "ground":
        label += f" {factors(u)}"
    if u.get("face_down"):
        label += ", refuelling"
    return label


def _unit_name(u: Mapping[str, Any], body: str) -> str:
    """A counter button's name: what it reads ("1/1 5-6"), then its side and type."""
    return f"{reads(body)}, {u.get('side', '')} {type_name(u)}"


def _unit_title(u: Mapping[str, Any], must_attack: bool) -> str:
    bits = [_unit_label(u)]
    if u.get("kind", "ground") == "ground":
        bits.append(f"CF {u.get('cf')} MF {u.get('mf')}" + (f" range {u['range']}" if u.get("range") else ""))
        if (u.get("moved") or u.get("stopped")) and u.get("mf_left") is not None:
            bits.append(f"MF left {u.get('mf_left')}")
    for flag, word in (("moved", "moved"), ("fought", "fought"), ("stopped", "stopped (enemy ZOC)")):
        if u.get(flag):
            bits.append(word)
    if u.get("support"):
        bits.append(f"supporting {u['support']}")
    if must_attack:
        bits.append("must attack")
    return "; ".join(bits)


def _counter_marks(ctx: _Ctx, u: Mapping[str, Any]) -> tuple[bool, bool, bool]:
    """A counter's marks: it owes an attack, it is attacking, it is selected."""
    uid = str(u.get("id", ""))
    return uid in ctx.must_attack, uid in ctx.attacking, uid == ctx.selected


def _counter(ctx: _Ctx, u: Mapping[str, Any], at: Point, map_hex: str | None = None) -> str:
    marks = _counter_marks(ctx, u)
    try:  # a counter is drawn again and again the same, wherever it stands: once per look is enough
        head, tail = _counter_memo(tuple(u.items()), map_hex, marks, ctx.st.page.counter)
    except TypeError:  # a value that cannot be a key
        head, tail = _draw_counter(u, map_hex, marks, ctx.st.page.counter)
    return f'{head} transform="translate({n(at.x)} {n(at.y)})"{tail}'


@lru_cache(maxsize=8192)
def _counter_memo(items: tuple[tuple[str, Any], ...], map_hex: str | None, marks: tuple[bool, bool, bool],
                  size: float) -> tuple[str, str]:
    return _draw_counter(dict(items), map_hex, marks, size)


def _draw_counter(u: Mapping[str, Any], map_hex: str | None, marks: tuple[bool, bool, bool],
                  size: float) -> tuple[str, str]:
    """One counter, as the text before and after its position (a ``transform`` attribute,
    so that a counter moved along a row is not drawn again); ``marks``: it owes an attack,
    it is attacking, it is selected."""
    must_attack, attacking, selected = marks
    uid = str(u.get("id", ""))
    classes = ["counter", f"side-{u.get('side', '')}", f"kind-{u.get('kind', 'ground')}"]
    classes += [c for c in ("moved", "fought", "stopped") if u.get(c)]
    if u.get("face_down"):
        classes.append("face-down")
    if must_attack:
        classes.append("must-attack")
    if attacking:
        classes.append("attacking")
    if selected:
        classes.append("selected")
    base = {"class": " ".join(classes), "data-unit": uid, "data-loc": str(u.get("loc", ""))}
    if map_hex:
        base["data-hex"] = map_hex
    body = counter_body(u, size)
    base |= {"role": "button", "tabindex": "0", "aria-label": _unit_name(u, body)}
    h = size / 2
    ring = ""
    if selected:
        ring = f'<rect class="selection-ring" x="{n(-h - 3)}" y="{n(-h - 3)}" width="{n(size + 6)}" ' \
               f'height="{n(size + 6)}" rx="4"/>'
    # (the tooltip on a group around the button, as counters.tip does; split here for the memo)
    return (f'<g class="tip"><title>{text(_unit_title(u, must_attack))}</title><g{_attrs(base)}',
            f'><rect class="shadow" x="{n(-h + 1.5)}" y="{n(-h + 1.5)}" width="{n(size)}" height="{n(size)}" '
            f'rx="2"/>{body}{ring}</g></g>')


def _stack(ctx: _Ctx, units: list[Mapping[str, Any]], c: Point, step: float = 4.0,
           map_hex: str | None = None) -> str:
    k = len(units)
    if k > 3:
        step = max(1.5, step * 2 / (k - 1))
    out = []
    for i, u in enumerate(units):
        off = (i - (k - 1) / 2) * step
        out.append(_counter(ctx, u, Point(c.x + off, c.y - off), map_hex))
    return "".join(out)


def _fanned(ctx: _Ctx, h: str) -> str:
    """The stack in ``h`` spread out in a row centred on its hex, over its neighbours, on
    a backdrop that points at the hex: every counter can be read and clicked."""
    p = ctx.st.page
    units = ctx.by_loc[h]
    size, gap = p.counter, 3.0
    width = len(units) * size + (len(units) - 1) * gap + 2 * gap
    c = p.layout.centre(h)
    left = min(max(c.x - width / 2, 2.0), p.width - width - 2.0)
    top = c.y - size / 2 - gap
    out = [f'<g class="fan" data-hex="{h}" aria-label="{text(f"Stack in {h}")}">',
           f'<rect class="fan-bg" x="{n(left)}" y="{n(top)}" width="{n(width)}" height="{n(size + 2 * gap)}" rx="4"/>']
    for i, u in enumerate(units):
        x = left + gap + size / 2 + i * (size + gap)
        out.append(_counter(ctx, u, Point(x, c.y), h))
    out.append("</g>")
    return "".join(out)


def _flow(ctx: _Ctx, units: list[Mapping[str, Any]], area: Rect, max_rows: int) -> str:
    """Counters left to right in up to ``max_rows`` rows, overlapping when they do not fit."""
    if not units:
        return ""
    return _once_per_look(ctx, units, ("flow", area, max_rows), lambda: _flowed(ctx, units, area, max_rows))


def _flowed(ctx: _Ctx, units: list[Mapping[str, Any]], area: Rect, max_rows: int) -> str:
    size, gap = ctx.st.page.counter, 4.0
    per_row = max(1, int((area.w + gap) // (size + gap)))
    rows = min(max_rows, math.ceil(len(units) / per_row))
    per_row = math.ceil(len(units) / rows)
    step = size + gap if per_row == 1 else min(size + gap, (area.w - size) / (per_row - 1))
    out = []
    for i, u in enumerate(units):
        r, col = divmod(i, per_row)
        out.append(_counter(ctx, u, Point(area.x + size / 2 + col * step, area.y + size / 2 + r * (size + gap))))
    return "".join(out)


# --- map ---------------------------------------------------------------------

def _strip_marks(st: _Static, h: str, c: Point, strip: tuple[str, bool, int] | None) -> str:
    """An air strip hex's runway and (``strip``: its status, built, work) its chits."""
    lay = st.page.layout
    centre, ang = st.runways[h]
    ln = lay.hex_width * 0.98
    built = bool(strip and strip[1])
    cls = "runway" if built else "runway planned"
    out = [f'<g transform="translate({n(centre.x)} {n(centre.y)}) rotate({n(ang)})">'
           f'<rect class="{cls}" x="{n(-ln / 2)}" y="-4" width="{n(ln)}" height="8"/>']
    if built:
        out.append(f'<line class="runway-line" x1="{n(-ln / 2 + 3)}" y1="0" x2="{n(ln / 2 - 3)}" y2="0"/>')
    out.append("</g>")
    if strip:
        out.append(status_chit(strip[0], c.x - lay.hex_width * 0.3, c.y - lay.size * 0.3))
        out.append(work_chit(strip[2], c.x + lay.hex_width * 0.3, c.y - lay.size * 0.3))
    return "".join(out)


def _terrain_hex(st: _Static, h: str) -> str:
    """A hex as the terrain shows it (a picture: a click on it is read from the grid)."""
    lay = st.page.layout
    t, c = st.board.hexes[h], lay.centre(h)
    classes = ["hex", f"terrain-{t.centre}"]
    if t.high:
        classes.append("high")
    if h in st.runways:
        classes.append("airstrip")
    if st.board.in_setup_area(h):
        classes.append("setup-area")
    s = lay.size
    out = [f'<g class="{" ".join(classes)}" data-hex="{h}"><polygon class="bg" points="{st.polygons[h]}"/>',
           st.decor[h], f'<text class="hex-id" x="{n(c.x)}" y="{n(c.y - s * 0.6)}" font-size="8">{h}</text>']
    if t.label:
        out.append(" " + fitted_text(t.label, c.x, c.y + s * 0.62, 7, lay.hex_width * 0.8, "hex-label"))
    out.append("</g>")
    return "".join(out)


@cache
def hex_name(h: str) -> str:
    """A map hex as the terrain shows it, in words, what it reads first: "Hex 0709,
    Henderson Field, clear" (its number, its name, its terrain, high ground)."""
    t = _static().board.hexes[h]
    return ", ".join([f"Hex {h}", *([t.label] if t.label else []), t.centre, *(["high ground"] if t.high else [])])


def _hex_state(ctx: _Ctx, h: str) -> str:
    """What the view says of a hex now: reachable (with its cost), a target, owed an
    attack, an air strip's state, the units in it.  Empty for a quiet hex."""
    if not (h in ctx.by_loc or h in ctx.st.runways or h in ctx.highlights or h in ctx.refused or h in ctx.targets
            or h in ctx.must_be_attacked or h in ctx.overstacked or h in ctx.combat_targets):
        return ""  # most hexes: nothing in them, nothing said of them
    strip = (ctx.view.get("strips") or {}).get(h)
    return _hex_state_drawn(
        h, tuple(str(u.get("name", "")) for u in ctx.by_loc.get(h, ())),
        (str(strip.get("status", "")), bool(strip.get("built")), int(strip.get("work") or 0)) if strip else None,
        ctx.highlights.get(h), ctx.refused.get(h),
        (h in ctx.targets, h in ctx.must_be_attacked, h in ctx.overstacked, h in ctx.combat_targets))


@lru_cache(maxsize=4096)
def _hex_state_drawn(h: str, names: tuple[str, ...], strip: tuple[str, bool, int] | None, highlight: str | None,
                     refused: str | None, marks: tuple[bool, bool, bool, bool]) -> str:
    # a hex looks the same from one state to the next unless something in it changed:
    # drawn once per look (``marks``: a target, owed an attack, over-stacked, under attack).
    # A hex the player may act on (a destination, a target) is a button, its tooltip on a
    # group around it; the others are said of (a hex the selected unit may not go to says
    # why on hover), and a click on them is read from the grid
    st, lay = _static(), _static().page.layout
    target, must_be_attacked, overstacked, combat_target = marks
    button = highlight is not None or target
    c = lay.centre(h)
    classes = ["hex-state", *(["reachable"] if highlight is not None else []), *(["target"] if target else [])]
    aria = [hex_name(h)]
    if h in st.runways and strip:
        classes.append("airstrip")
        aria.append(f"air strip {STATUS_WORDS.get(strip[0], strip[0])}" + (f", work {strip[2]}" if strip[2] else ""))
    if must_be_attacked:
        classes.append("must-be-attacked")
        aria.append("must be attacked")
    if overstacked:
        classes.append("overstacked")
        aria.append("over-stacked: move a unit out before the phase ends")
    if combat_target:
        classes.append("combat-target")
    if highlight is not None:
        aria.append(_reach_text(highlight))
    elif refused is not None:
        aria.append(f"not reachable ({refused})")
    if target:
        aria.append("attack target")
    if names:
        aria.append("units " + ", ".join(names))
    label = ", ".join(aria)
    drawn = []
    if button or refused is not None:  # the whole hex takes the pointer: its tooltip, a click, the focus
        drawn.append(f'<use class="hit{" hl" if highlight is not None else ""}" href="#hex-shape" '
                     f'x="{n(c.x)}" y="{n(c.y)}"/>')
    if h in st.runways:
        drawn.append(_strip_marks(st, h, c, strip))
    if highlight:
        drawn.append(_badge(highlight, Point(c.x, c.y + lay.size * 0.66)))
    inside = "".join(drawn)
    if button and reads(inside) not in label:  # a button is named first by what it reads (an air strip's chits)
        label = f"{reads(inside)}: {label}"
    base = {"class": " ".join(classes), "data-hex": h}  # (no id: the hex names it, a hundred times a page)
    if button:
        base |= {"role": "button", "tabindex": "0"}
    base["aria-label"] = label
    if button:
        return tip(label, f"<g{_attrs(base)}>{inside}</g>")
    return f"<g{_attrs(base)}><title>{text(label)}</title>{inside}</g>"


def _reach_text(highlight: str) -> str:
    return f"cost {highlight}" if highlight else "reachable"


def _badge(label: str, at: Point) -> str:
    """The yellow disc with a highlight label (an MF cost) in it."""
    r = max(8.0, 3.2 * len(label) + 3)
    return (f'<rect class="cost-badge" x="{n(at.x - r)}" y="{n(at.y - 8)}" width="{n(2 * r)}" height="16" rx="8"/>'
            f'<text class="cost" x="{n(at.x)}" y="{n(at.y + 3.5)}" font-size="10">{text(label)}</text>')


def _marks(ctx: _Ctx) -> str:
    """Outlines drawn above all hexes (so neighbours never hide them)."""
    out = []
    # (a hex the selected unit may reach is told by its own hit area, class ``hl``)
    layers = (("mark-combat", ctx.combat_targets), ("mark-must", ctx.must_be_attacked),
              ("mark-over", ctx.overstacked), ("mark-target", ctx.targets))
    for cls, hexes in layers:
        for h in sorted(x for x in hexes if x in ctx.st.board.hexes):
            out.append(f'<polygon class="{cls}" points="{ctx.st.insets[h]}"/>')
    return "".join(out)


def _trail(ctx: _Ctx) -> str:
    """The way a unit just went, from hex centre to hex centre, ending in an arrow head."""
    if len(ctx.trail) < 2:
        return ""
    lay = ctx.st.page.layout
    points = " ".join(f"{n(p.x)},{n(p.y)}" for p in (lay.centre(h) for h in ctx.trail))
    return (f'<g class="trail" aria-label="moved {" to ".join(ctx.trail)}">'
            f'<polyline points="{points}" marker-end="url(#arrow)"/></g>')


def _entry(ctx: _Ctx, e: EntryPoint) -> str:
    loc = f"entry:{e.id}"
    return _entry_drawn(e, len(ctx.by_loc.get(loc, [])), ctx.highlights.get(loc), tuple(ctx.loc_classes(loc)))


@lru_cache(maxsize=512)
def _entry_drawn(e: EntryPoint, units: int, highlight: str | None, classes: tuple[str, ...]) -> str:
    """An entry point with ``units`` units in it, ``highlight``: its reach label (None: not
    reachable); drawn once per look, not once per answer."""
    lay = _static().page.layout
    c = lay.centre(e.at)
    loc = f"entry:{e.id}"
    drawn = "US beach" if e.side == "US" else "IJ entry"
    # named first as drawn ("IJ entry"; a cost badge drawn instead of the words ends the name)
    label = f"{drawn}: entry point {e.name}, to {', '.join(e.hexes)}" + (f", {units} units" if units else "")
    if highlight is not None:
        label += ", " + _reach_text(highlight)
    base = {"class": " ".join(["entry", f"side-{e.side}", *classes]), "data-entry": e.id,
            "data-loc": loc, "role": "button", "tabindex": "0", "aria-label": label}
    out = [f"<g{_attrs(base, None)}>", f'<polygon class="entry-bg" points="{_pts(lay.corners(e.at, 0.94))}"/>']
    for h in e.hexes:
        t = lay.centre(h)
        a = Point(c.x + (t.x - c.x) * 0.42, c.y + (t.y - c.y) * 0.42)
        b = Point(c.x + (t.x - c.x) * 0.72, c.y + (t.y - c.y) * 0.72)
        out.append(_line("entry-arrow", a, b))
    iy = c.y - lay.size * 0.55
    if e.side == "US":
        out.append(f'<circle class="us-disc" cx="{n(c.x)}" cy="{n(iy)}" r="8"/>'
                   + star(c.x, iy, 6.5, "star"))
    else:
        out.append(f'<circle class="sun-disc" cx="{n(c.x)}" cy="{n(iy)}" r="8"/>'
                   f'<circle class="sun" cx="{n(c.x)}" cy="{n(iy)}" r="4.5"/>')
    if highlight:
        out.append(_badge(highlight, Point(c.x, c.y + lay.size * 0.62)))
    else:
        out.append(f'<text class="entry-text" x="{n(c.x)}" y="{n(c.y + lay.size * 0.66)}" font-size="7.5">'
                   f"{drawn}</text>")
    out.append("</g>")
    return tip(label, "".join(out))


# --- panels ----------------------------------------------------------------

def _header(ctx: _Ctx, title: str) -> str:
    v = ctx.view
    phase = " \u00b7 ".join(str(x) for x in (v.get("turn_name"), v.get("phase_title")) if x)
    return _header_drawn(title, phase, tuple(map(str, v.get("turns") or ())), int(v.get("turn") or 0))


@lru_cache(maxsize=256)
def _header_drawn(title: str, phase: str, names: tuple[str, ...], current: int) -> str:
    """The title, the phase and the turn track with turn ``current`` marked."""
    p = _static().page
    r = p.header
    out = [f'<text class="header-title" x="{n(r.x + 2)}" y="{n(r.y + 15)}" font-size="15">{text(title)}</text>']
    if phase:
        out.append(f'<text class="header-phase" x="{n(r.x + r.w - 2)}" y="{n(r.y + 15)}" font-size="12">'
                   f"{text(phase)}</text>")
    for i, cell in enumerate(p.turn_cells):
        name = names[i] if i < len(names) else str(i + 1)
        state = "current" if i + 1 == current else ("past" if i + 1 < current else "")
        cls = f"turn-cell {state}".strip()
        out.append(f'<rect class="{cls}" data-turn="{i + 1}" x="{n(cell.x)}" y="{n(cell.y)}" width="{n(cell.w)}" '
                   f'height="{n(cell.h)}"/><text class="turn-text {state}" x="{n(cell.cx)}" y="{n(cell.cy + 4)}" '
                   f'font-size="11">{text(name)}</text>')
    return "".join(out)


def _box_frame(ctx: _Ctx, loc: str, r: Rect, title: str, side: str, count: int, extra_cls: str = "box",
               sub: str = "") -> str:
    return _box_frame_drawn(loc, r, title, side, count, extra_cls, sub, ctx.highlights.get(loc), loc in ctx.targets)


@lru_cache(maxsize=1024)
def _box_frame_drawn(loc: str, r: Rect, title: str, side: str, count: int, extra_cls: str, sub: str,
                     highlight: str | None, target: bool) -> str:
    # the same few dozen frames in every answer: each drawn once
    # named first as drawn: its title, then the cost in its badge ("IJAAF Reserve 4: ...")
    label = f"{title} {highlight}:" if highlight else f"{title}:"
    label += " box" + (f", {count} units" if count else ", empty")
    if highlight is not None:
        label += ", " + _reach_text(highlight)
    marks = [*(["reachable"] if highlight is not None else []), *(["target"] if target else [])]
    classes = [*extra_cls.split(), *([f"side-{side}"] if side else []), *marks]
    base = {"class": " ".join(classes), "data-loc": loc, "role": "button", "tabindex": "0", "aria-label": label}
    out = [f"<g{_attrs(base, None)}>"
           f'<rect class="box-bg" x="{n(r.x)}" y="{n(r.y)}" width="{n(r.w)}" height="{n(r.h)}" rx="3"/>'
           + fitted_text(title, r.cx, r.y + 12, 10, r.w - 8, "box-title")]
    if highlight:
        out.append(" " + _badge(highlight, Point(r.x + r.w - 12, r.y + 11)))
    out.append("</g>")
    return tip(sub or title, "".join(out))


def _top_boxes(ctx: _Ctx) -> str:
    p = ctx.st.page
    out = []
    for key, title in TOP_BOXES:
        r = p.top_boxes[key]
        if key.startswith("airfield:"):
            out.append(_airfield_box(ctx, key, title, r))
            continue
        units = ctx.by_loc.get(key, [])
        out.append(_box_frame(ctx, key, r, title, BOX_SIDE.get(key, ""), len(units)))
        out.append(_flow(ctx, units, Rect(r.x + 5, r.y + 20, r.w - 10, r.h - 24), 3))
    return "".join(out)


def _airfield_box(ctx: _Ctx, key: str, title: str, r: Rect) -> str:
    """An air field status box (§2.1): one status hex per strip hex, its USAF units beside it."""
    board = ctx.st.board
    hexes = board.henderson if key == "airfield:henderson" else board.fighter_strip
    out = [f'<g class="airfield-box" data-airfield="{_q(key.split(":")[1])}">'
           f'<rect class="box-bg" x="{n(r.x)}" y="{n(r.y)}" width="{n(r.w)}" height="{n(r.h)}" rx="3"/>'
           + fitted_text(title, r.cx, r.y + 12, 10, r.w - 8, "box-title") + "</g>"]
    row_h = (r.h - 18) / max(1, len(hexes))
    for i, h in enumerate(hexes):
        loc = f"strip:{h}"
        cy = r.y + 18 + row_h * (i + 0.5)
        units = ctx.by_loc.get(loc, [])
        strip = (ctx.view.get("strips") or {}).get(h) or {}
        status = str(strip.get("status", ""))
        label = (f"air strip status box, {STATUS_WORDS.get(status, status or 'unknown')}"
                 + (f", work {strip['work']}" if strip.get("work") else "")
                 + (f", {len(units)} units" if units else ""))
        work = int(strip.get("work") or 0)
        out.append(_status_hex(h, label, tuple(ctx.loc_classes(loc)), r.x + 22, cy, status, work))
        size = ctx.st.page.counter
        out.append(_flow(ctx, units, Rect(r.x + 44, cy - size / 2, r.w - 48, size), 1))
    return "".join(out)


@lru_cache(maxsize=512)
def _status_hex(h: str, label: str, classes: tuple[str, ...], x: float, y: float, status: str, work: int) -> str:
    """An air strip's status hex in its box, centred on (x, y); ``label`` says what it is,
    after what it reads ("0709 Dam 2": its hex, the status chit, the work marker)."""
    mini = Layout(17.0, Point(0, 0))
    pts = [Point(x + q.x - mini.centre("0000").x, y + q.y - mini.centre("0000").y) for q in mini.corners("0000")]
    inside = (f'<polygon class="mini" points="{_pts(pts)}"/>'
              f'<text class="hex-id" x="{n(x)}" y="{n(y - 4)}" font-size="8">{h}</text> '
              + (status_chit(status, x, y + 6) + " " if status else "") + work_chit(work, x, y + 21))
    name = f"{reads(inside)}: {label}"
    base = {"class": " ".join(["status-hex", *classes]), "data-loc": f"strip:{h}", "data-strip": h,
            "role": "button", "tabindex": "0", "aria-label": name}
    return tip(f"Air strip {h}: {label}", f"<g{_attrs(base, None)}>{inside}</g>")


def _bottom(ctx: _Ctx) -> str:
    p = ctx.st.page
    out = []
    for key, r in p.off_map.items():
        box = ctx.st.board.boxes[key]
        loc = f"box:{key}"
        units = ctx.by_loc.get(loc, [])
        sub = f"{box.name}: enters {', '.join(box.hexes)}"
        out.append(_box_frame(ctx, loc, r, box.name, "", len(units), "box offmap-box", sub))
        out.append(_flow(ctx, units, Rect(r.x + 5, r.y + 20, r.w - 10, p.counter), 1))
    t = p.tray
    units = ctx.by_loc.get("arriving", [])
    out.append(_box_frame(ctx, "arriving", t, "To place (arriving reinforcements)", "", len(units), "box tray"))
    if not units:  # (the counters are parts of their own: _tray)
        out.append(f'<text class="empty" x="{n(t.cx)}" y="{n(t.y + 40)}" font-size="10">nothing to place</text>')
    out.append(f'<text class="note" x="{n(p.width - 12)}" y="{n(p.height - 8)}" font-size="9">{text(NOTE)}</text>')
    return "".join(out)


TRAY_PARTS = 8  # the tray's counters are drawn in this many parts, each a run of slots


def _tray(ctx: _Ctx) -> list[str]:
    """The counters to place, in ``TRAY_PARTS`` parts.  Each keeps one slot for as long
    as its group is placed (every unit of its side arriving on its turn, in the view's
    order): placing one empties its slot and changes one part, not the whole row, and
    the counters left do not move under the player's pointer.  A row of more slots than
    fit overlaps them; the selected counter is drawn last of its part."""
    units = ctx.by_loc.get("arriving", [])
    parts: list[list[str]] = [[] for _ in range(TRAY_PARTS)]
    if not units:
        return ["" for _ in parts]
    groups = {(u.get("side"), u.get("arrives")) for u in units}
    cohort = [u.get("id") for u in ctx.view.get("units") or () if (u.get("side"), u.get("arrives")) in groups]
    slots = {uid: i for i, uid in enumerate(cohort)}
    t, size, gap = ctx.st.page.tray, ctx.st.page.counter, 4.0
    area = Rect(t.x + 5, t.y + 20, t.w - 10, size)
    step = size + gap if len(cohort) == 1 else min(size + gap, (area.w - size) / (len(cohort) - 1))
    for u in sorted(units, key=lambda u: (u.get("id") == ctx.selected, slots[u.get("id")])):
        i = slots[u.get("id")]
        at = Point(area.x + size / 2 + i * step, area.y + size / 2)
        parts[i * TRAY_PARTS // len(cohort)].append(_counter(ctx, u, at))
    return ["".join(p) for p in parts]


# --- the public functions ------------------------------------------------------

def _svg_open(p: Page, heading: str, extra: str = "") -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {n(p.width)} {n(p.height)}" '
            f'width="100%" role="group" aria-label="{_q(heading)}"{extra}><title>{text(heading)}</title>')


MAP_TITLE = "Map of Guadalcanal"


@cache
def render_terrain() -> str:
    """The terrain as its own SVG file (published as ``first_blood``, see
    ``app/games/maps.py``): the same for every game and everybody, so it holds nothing
    a view says; its stylesheet inlined, as a picture has no other."""
    st = _static()
    p = st.page
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="fb-map" viewBox="0 0 {n(p.width)} {n(p.height)}" '
            f'width="{n(p.width)}" height="{n(p.height)}" role="img" aria-label="{MAP_TITLE}">'
            f"<title>{MAP_TITLE}</title><style>{_css()}</style>{DEFS}{_terrain_inner(st)}</svg>")


publish("first_blood", render_terrain)


@cache
def grid() -> tuple[float, float, float, float, float, float]:
    """The hex grid in the sheet's pixels: hex (row, col) is centred at (ox + col * sx + (half
    if the row is odd), oy + row * sy), as ``(ox, oy, sx, sy, half, radius)`` (columns grow
    to the west and rows to the north: sx and sy are negative); checked against every
    land hex's centre."""
    st = _static()
    lay = st.page.layout
    o, odd = lay.centre("0000"), lay.centre("0100")
    ox, oy, sx, sy = o.x, o.y, lay.centre("0001").x - o.x, odd.y - o.y
    half = odd.x - ox
    for h in st.board.hexes:
        c, row, col = lay.centre(h), int(h[:2]), int(h[2:])
        assert math.isclose(c.x, ox + col * sx + (half if row % 2 else 0), abs_tol=1e-6), h
        assert math.isclose(c.y, oy + row * sy, abs_tol=1e-6), h
    return ox, oy, sx, sy, half, lay.size


@cache
def render_base() -> str:
    """The map's base layer as an SVG element for the game page (the same every time):
    the terrain's picture, and the grid (``data-grid``, see :func:`grid`) from which the
    page's script tells the hex of a click on it."""
    p = _static().page
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {n(p.width)} {n(p.height)}" width="100%" '
            f'role="img" aria-label="{MAP_TITLE}" class="fb-map map-base" '
            f'data-grid="{" ".join(format(v, ".7g") for v in grid())}"><title>{MAP_TITLE}</title>'
            f'<image class="terrain" href="{map_url("first_blood")}" x="0" y="0" width="{n(p.width)}" '
            f'height="{n(p.height)}"/></svg>')


def _terrain_inner(st: _Static) -> str:
    p, m = st.page, st.page.map
    out = [f'<rect class="paper" width="{n(p.width)}" height="{n(p.height)}"/>',
           f'<rect class="sea" x="{n(m.x)}" y="{n(m.y)}" width="{n(m.w)}" height="{n(m.h)}"/>',
           _south_edge(st), '<g class="hexes">']
    out += [_terrain_hex(st, h) for h in st.order]
    out.append("</g>")
    out.append(st.overlay)
    out.append(f'<rect class="map-frame" x="{n(m.x)}" y="{n(m.y)}" width="{n(m.w)}" height="{n(m.h)}"/>')
    return "".join(out)


def render_layers(view: Mapping[str, Any], **options: Any) -> str:
    """The map's changing layers as an SVG element (``id="map-layers"``) drawn over
    :func:`render_base` on the game page; ``options`` as for :func:`layer_parts`."""
    return layers_svg(*layer_parts(view, **options))


def layer_parts(
    view: Mapping[str, Any],
    *,
    selected: str | None = None,
    highlights: Mapping[str, str] | None = None,
    targets: Iterable[str] = (),
    title: str | None = None,
    refused: Mapping[str, str] | None = None,
    trail: Iterable[str] = (),
    fan: str | None = None,
) -> tuple[str, list[Part]]:
    """The map's changing layers as their heading and their parts, in drawing order.
    Parameters as for :func:`render_map`; ``refused``: hexes the selected unit may not
    move to, with why (a hover says it); ``trail``: the hexes a unit just went through,
    drawn as a line with an arrow; ``fan``: a map hex whose stack is drawn spread out in
    a row over the map."""
    ctx = _make_ctx(view, selected, highlights, targets)
    ctx.refused = dict(refused or {})
    ctx.trail = tuple(h for h in trail if h in ctx.st.board.hexes)
    ctx.fan = fan if fan in ctx.st.board.hexes and len(ctx.by_loc.get(fan, [])) > 1 else None
    heading = title if title is not None else str(view.get("title") or "First Blood")
    return heading, _layer_groups(ctx, heading)


def layers_svg(heading: str, parts: list[Part]) -> str:
    """The whole layers element, as a page draws it."""
    return (_svg_open(_static().page, heading, ' class="fb-map map-layers" id="map-layers"') + hex_shape()
            + "".join(p.svg for p in parts) + "</svg>")


@cache
def _rows() -> dict[str, list[str]]:
    """The map's hexes by row, north to south, in drawing order within each row."""
    rows: dict[str, list[str]] = {}
    for h in _static().order:
        rows.setdefault(h[:2], []).append(h)
    return rows


def _layer_groups(ctx: _Ctx, heading: str) -> list[Part]:
    """The parts: a map row's hex states and a row's counters are parts of their own,
    so a move redraws two or three rows, not the map; so are runs of the tray's slots,
    so a placement redraws a run, not the tray."""
    st, p = ctx.st, ctx.st.page
    rows = _rows()
    out: list[tuple[str, str, str] | Part] = [("layer-header", "header", _header(ctx, heading)),
                                              ("layer-top", "top-boxes", _top_boxes(ctx))]
    busy = ctx.busy()
    out += [(f"layer-states-{r}", "hex-states", "".join(_hex_state(ctx, h) for h in hexes if h in busy))
            for r, hexes in rows.items()]
    out += [("layer-marks", "marks", _marks(ctx)), ("layer-trail", "trail-layer", _trail(ctx)),
            ("layer-entries", "entries", "".join(_entry(ctx, e) for e in st.board.entries.values()))]
    out += [_units_row(ctx, r, hexes) for r, hexes in rows.items()]
    entering = []
    for e in st.board.entries.values():
        units = ctx.by_loc.get(f"entry:{e.id}")
        if units:
            c = p.layout.centre(e.at)
            entering.append(_stack(ctx, units, Point(c.x, c.y + 2), 5.0))
    out += [("layer-entering", "units", "".join(entering)),
            ("layer-fan", "units", _fanned(ctx, ctx.fan) if ctx.fan else ""),
            ("layer-bottom", "bottom", _bottom(ctx))]
    out += [(f"layer-tray-{k}", "units tray-units", inner) for k, inner in enumerate(_tray(ctx))]
    return [g if isinstance(g, Part) else part(*g) for g in out]


# counters drawn once per look.  The engine's view shares a unit's entry among the
# states in which the unit looks the same, so a row of the map or a box that did not
# change is the very same entries again: the key names them by identity (and their
# marks), and each drawing keeps its entries, so no id is reused while the drawing is
# kept.  (Views are read only: an entry changed in place would be drawn as it was.)
_LOOKS: dict[tuple[Any, ...], tuple[tuple[Any, ...], Any]] = {}
_LOOKS_KEPT = 4096


def _once_per_look(ctx: _Ctx, units: list[Mapping[str, Any]], where: tuple[Any, ...], draw: Callable[[], T]) -> T:
    """``draw()`` of ``units`` at ``where`` (all else the drawing depends on), once per look."""
    key = (where, ctx.st.page.counter, *((id(u), _counter_marks(ctx, u)) for u in units))
    hit = _LOOKS.get(key)
    if hit is not None:
        return hit[1]  # type: ignore[no-any-return]
    drawn = draw()
    if len(_LOOKS) >= _LOOKS_KEPT:
        _LOOKS.clear()  # (simpler than least-recently-used, and safe across threads)
    _LOOKS[key] = (tuple(units), drawn)
    return drawn


def _units_row(ctx: _Ctx, r: str, hexes: list[str]) -> Part:
    """A map row's counters, as a part."""
    stacks = [(h, ctx.by_loc[h]) for h in hexes if h in ctx.by_loc and h != ctx.fan]

    def draw() -> Part:
        p, drawn = ctx.st.page, []
        for h, units in stacks:
            c = p.layout.centre(h)
            drawn.append(_stack(ctx, units, Point(c.x, c.y - 1), 4.0, h))
        return part(f"layer-units-{r}", "units", "".join(drawn))

    return _once_per_look(ctx, [u for _, units in stacks for u in units],
                          ("row", r, *((h, len(units)) for h, units in stacks)), draw)


def _layers_inner(ctx: _Ctx, heading: str) -> str:
    return "".join(p.svg for p in _layer_groups(ctx, heading))


def render_map(
    view: Mapping[str, Any],
    *,
    selected: str | None = None,
    highlights: Mapping[str, str] | None = None,
    targets: Iterable[str] = (),
    title: str | None = None,
) -> str:
    """Render a First Blood game view as one standalone SVG document (base and layers,
    its stylesheet inlined).

    :param view: A view dict from ``RULES.view(state, side)`` (``build_view``). Used: ``units``
        (each with ``id``, ``side``, ``name``, ``kind``, ``type``, ``cf``, ``mf``, ``range``, ``loc``,
        ``face_down``, ``moved``, ``fought``, ``stopped``, ...), ``strips``, ``turn``, ``turns``,
        ``turn_name``, ``phase_title``, ``combat`` and ``obligations``. Missing keys are tolerated.
    :param selected: A unit id to draw on top of its stack with a selection ring.
    :param highlights: ``{location: label}``; each location gets class ``reachable`` and the
        label (e.g. the MF cost ``"3"``) printed in it. Locations are map hexes (``"0709"``) or
        any other location id drawn on the sheet (``"entry:us-east-1"``, ``"box:B"``, ``"cap"``,
        ``"strip:0708"``, ``"arriving"``).
    :param targets: Locations marked as attack targets (class ``target``, red outline).
    :param title: Text for the header and the document ``<title>`` (default: the view's title).

    Every hex is ``<g class="hex terrain-..." data-hex="RRCC">`` (the terrain, a picture);
    what the view says of it now is a ``<g class="hex-state ..." data-hex="RRCC">`` above it
    (classes ``reachable``, ``target``, ``must-be-attacked``, ``overstacked``, ``combat-target``),
    a ``role="button"`` named by its terrain when it is reachable or a target; every counter
    ``<g class="counter side-US ..." data-unit="..." data-loc="...">`` (plus ``data-hex`` on the
    map) with classes ``moved``, ``fought``, ``stopped``, ``face-down``, ``must-attack`` (owes an
    attack, from ``view["obligations"]``) and ``selected``; boxes, entry points and air strip
    status boxes are ``role="button"`` groups with ``data-loc``.  Each of these buttons is named
    first by what it reads, its tooltip on a ``<g class="tip">`` around it (``counters.tip``).  Units
    ``eliminated`` or in the ``pool`` are not drawn.

    >>> svg = render_map(view, highlights={"0709": "3"}, targets=["0810"])  # doctest: +SKIP
    """
    ctx = _make_ctx(view, selected, highlights, targets)
    heading = title if title is not None else str(view.get("title") or "First Blood")
    return (_svg_open(ctx.st.page, heading, ' class="fb-map"') + f"<style>{_css()}</style>{DEFS}{hex_shape()}"
            + _terrain_inner(ctx.st) + _layers_inner(ctx, heading) + "</svg>")


def _draw_order(h: str) -> tuple[int, int]:
    """North to south, west to east, so lower stacks overlap the ones behind them naturally."""
    return (-int(h[:2]), -int(h[2:]))


def _south_edge(st: _Static) -> str:
    """Paper under the zigzag of row 00: the land goes on south, off the map (boxes A-D)."""
    lay, m = st.page.layout, st.page.map
    y = lay.centre("0000").y + lay.size / 2
    return f'<rect class="offmap-edge" x="{n(m.x)}" y="{n(y)}" width="{n(m.w)}" height="{n(m.y + m.h - y)}"/>'
