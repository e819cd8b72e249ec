"""The counters of a Pacific Battles view drawn over the map: one's own units (by the
rulebook's convention attack-defence-movement, the HQs' support and radius, supply
points), enemy stacks as unknown stacks that say whether they have a ZOC (18.4) until
examined, fortification markers (18.5).  Only what the view holds is drawn: the view is
already cut down to what the viewer may know."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from app.games.pacific_battles.map_svg import HEX_RADIUS, PX_PER_KM, _corners, _point, map_frame, viewbox
from app.render.counters import n, nato_frame, reads, text, tip
from app.render.parts import Part, part
from engine.games.pacific_battles import queries as q
from engine.games.pacific_battles.board import load_board

SIZE = 16.0  # a counter's side, in map pixels (a hex is about 42 across)
HEX_PX = 3.0 * PX_PER_KM  # from one hex centre to the next (3 km, 26.10)
NATO = {"infantry": "infantry", "aa": "anti_air", "amphibious": "amphibious", "armor": "armoured",
        "engineer": "engineer", "para": "airborne", "raider": "raiders", "recon": "reconnaissance",
        "snlf": "marines"}  # the rulebook's unit kinds -> the NATO type symbols (a naval landing force: an anchor)
COLOURS = {"Allied": ("#b9d98a", "#1d3b12"), "Japanese": ("#d8c28a", "#3d2a0b")}  # by side, for enemy stacks
SERVICE_COLOURS = {  # 2.31: light green USMC, olive green US Army, dark green US supply, khaki Japanese
    ("Allied", "USMC"): ("#b9d98a", "#1d3b12"), ("Allied", "Navy"): ("#b9d98a", "#1d3b12"),
    ("Allied", "Army"): ("#9aa05a", "#1f2408"), ("Allied", "supply"): ("#2f5d2a", "#eef5e6"),
    ("Japanese", "supply"): ("#a08a50", "#1e1405"),
}


@dataclass
class Mark:
    """A hex the map highlights for the player: ``kind`` "reach" (the selected piece may
    go there, ``cost`` its movement points), "target" (a command aims at it) or "owed"
    (14.11: an enemy hex that must still be attacked; drawn over the others, not a
    button of its own: a click there is the hex's)."""

    hex: str
    kind: str
    label: str
    cost: str = ""


def _colours(u: dict[str, Any]) -> tuple[str, str]:
    if u.get("kind") == "supply":
        return SERVICE_COLOURS.get((u["side"], "supply"), COLOURS[u["side"]])
    spec = q.unit_spec(u["unit"])
    return SERVICE_COLOURS.get((u["side"], spec.corps if spec else ""), COLOURS.get(u["side"], ("#ddd", "#222")))


@lru_cache(maxsize=8192)  # a game has some 150 pieces, most drawn the same from one answer to the next
def _counter(x: float, y: float, side: str, top: str, bottom: str, title: str, css: str, hex_id: str,
             unit: str | None = None, face: str = "", colours: tuple[str, str] | None = None) -> str:
    """A counter of side ``SIZE``: ``top`` (name, or the unit size over a NATO ``face``),
    ``bottom`` (the factors)."""
    fill, ink = colours or COLOURS.get(side, ("#ddd", "#222"))
    h = SIZE / 2
    if face:
        middle = (f'<g transform="translate({n(x)} {n(y)}) scale(0.5)">{face}</g> '  # ("HQ", then the name)
                  f'<text x="{n(x)}" y="{n(y - 4.6)}" font-size="3.2" text-anchor="middle" fill="{ink}">'
                  f"{text(top)}</text>")
    else:
        middle = (f'<text x="{n(x)}" y="{n(y - 1.5)}" font-size="5" text-anchor="middle" fill="{ink}">'
                  f"{text(top)}</text>")
    badge = ""
    if "suppressed" in css.split():  # 8.0: a suppressed marker on the counter
        badge = (f'<rect class="suppressed-mark" x="{n(x + h - 5)}" y="{n(y - h)}" width="5" height="5" '
                 'fill="#c0392b"/>'
                 f'<text x="{n(x + h - 2.5)}" y="{n(y - h + 4)}" font-size="4" text-anchor="middle" '
                 'fill="#fff">S</text>')
    inside = (f'<rect x="{n(x - h)}" y="{n(y - h)}" width="{n(SIZE)}" height="{n(SIZE)}" rx="1.5" fill="{fill}" '
              f'stroke="{ink}" stroke-width="0.8"/>{middle} '  # (spaces between the texts: read apart)
              f'<text x="{n(x)}" y="{n(y + 6)}" font-size="4.6" text-anchor="middle" fill="{ink}">{text(bottom)}</text>'
              f"{' ' + badge if badge else ''}")
    if not unit:  # an enemy stack stands for its hex: not a button, its title is its description
        return f'<g class="counter {css}" data-hex="{hex_id}"><title>{text(title)}</title>{inside}</g>'
    # one's own counters are buttons (select, Enter or Space) whose name begins with what the
    # counter reads (WCAG 2.5.3, label in name: "click 81 Inf 1-1-10" names it); the tooltip
    # sits on a group around the button, so that it is not read as the button's text
    return tip(title, f'<g class="counter {css}" data-hex="{hex_id}" data-unit="{text(unit)}" role="button" '
                      f'tabindex="0" aria-label="{text(f"{reads(inside)}: {title}")}">{inside}</g>')


def _face(u: dict[str, Any]) -> str:
    """The NATO frame of a ground unit (HQs: "HQ"; supply points have none), drawn at twice
    the size it is shown."""
    kind = u.get("kind")
    if kind in ("supply", "deception", None):
        return ""
    if kind == "hq":
        return ('<rect class="frame" x="-6" y="-2.5" width="12" height="6"/>'
                '<text class="sym-text" x="0" y="2.4" font-size="5" text-anchor="middle">HQ</text>')
    frame = nato_frame(NATO.get(kind, kind), 12, 7, 0.5)
    if u.get("mechanised") and kind != "armor":  # 2.32: mechanised units carry the armour oval
        frame += '<ellipse class="sym" cx="0" cy="0.5" rx="4.4" ry="2.2"/>'
    if u["unit"] in q.forces().battalion:
        frame = frame.replace('class="frame"', 'class="frame breakdown"', 1)  # (map.css: no inline style)
    return frame


def _factors(u: dict[str, Any]) -> str:
    if u.get("kind") == "supply":
        return "1 SP"
    if u.get("kind") == "hq":
        return f"({u['support']}) r{u['radius']}"
    a, d, m = u["factors"]
    return f"{a}-{d}-{m}"


def _fit(s: str, most: int) -> str:
    return s if len(s) <= most else s[: most - 1] + "."


def _short(name: str) -> str:
    return name if len(name) <= 9 else name[:8] + "."


def _marks(marks: list[Mark]) -> str:
    board = load_board()
    out = []
    for m in sorted(marks, key=lambda m: m.kind == "owed"):  # the owed outlines on top
        if m.hex not in board.km:
            continue
        x, y = _point(board, m.hex)
        label = m.label + (f", {m.cost} movement points" if m.cost else "")
        if m.kind == "owed":
            out.append(f'<polygon class="owed-mark" data-hex="{m.hex}" points="{_corners(x, y, HEX_RADIUS * 0.8)}">'
                       f"<title>{text(label)}</title></polygon>")
            continue
        out.append(f'<polygon class="mark {m.kind}" data-hex="{m.hex}" role="button" tabindex="0" '
                   f'aria-label="{text(label)}" points="{_corners(x, y, HEX_RADIUS * 0.92)}"><title>{text(label)}'
                   "</title></polygon>")
        if m.cost:
            out.append(f'<text class="mark-cost" x="{n(x)}" y="{n(y + HEX_RADIUS * 0.75)}" font-size="8" '
                       f'text-anchor="middle">{text(m.cost)}</text>')
    return "".join(out)


BANDS = 8  # the counters are drawn in bands of the map, north to south: a move redraws one or two


def render_pieces(view: dict[str, Any], selected: str = "", ready: set[str] | frozenset[str] = frozenset(),
                  owing: set[str] | frozenset[str] = frozenset(), fan: str = "") -> str:
    """The counters (:func:`piece_parts`, as one drawing)."""
    return "".join(p.svg for p in piece_parts(view, selected, ready, owing, fan))


def piece_parts(view: dict[str, Any], selected: str = "", ready: set[str] | frozenset[str] = frozenset(),
                owing: set[str] | frozenset[str] = frozenset(), fan: str = "") -> list[Part]:
    """The counters, in parts: the areas under them (fortifications, HQ support radii),
    each band of the map's counters, and a spread-out stack.  ``ready``: one's own pieces
    that have an order to give now (in a follow-on impulse only those that may still act,
    13.0), drawn with a ring; ``owing``: one's own units that must still attack (14.11),
    drawn with a red dashed frame; ``fan``: a hex whose stack of one's own is drawn spread
    out (the hex the player clicked)."""
    board = load_board()
    areas = []
    for h in view.get("fortified", []):
        if h in board.km:
            x, y = _point(board, h)
            areas.append(f'<circle class="fortified" cx="{n(x)}" cy="{n(y)}" r="{n(SIZE)}" fill="none" '
                         f'stroke="#7a2a12" stroke-width="2" stroke-dasharray="3 2"><title>fortified (21.0)</title>'
                         "</circle>")
    for u in view.get("units", []):  # 10.4: the support radius of one's own activated HQs
        if u.get("kind") == "hq" and u.get("active") and u["hex"] in board.km:
            x, y = _point(board, u["hex"])
            r = (u["radius"] + 0.5) * HEX_PX
            areas.append(f'<circle class="hq-radius" cx="{n(x)}" cy="{n(y)}" r="{n(r)}" fill="#f4e27a" '
                         f'fill-opacity="0.12" stroke="#8a6d00" stroke-dasharray="6 4"><title>{text(u["unit"])}: '
                         f'support {u["support"]}, radius {u["radius"]} (10.1, 10.4)</title></circle>')
    bands: list[list[str]] = [[] for _ in range(BANDS)]
    by_hex: dict[str, list[dict[str, Any]]] = {}
    for u in view.get("units", []):
        by_hex.setdefault(u["hex"], []).append(u)
    fanned = ""
    for h, units in sorted(by_hex.items()):
        if h not in board.km:
            continue
        x, y = _point(board, h)
        if h == fan and len(units) > 1:
            fanned = _fanned(h, x, y, [_own(u, h, selected, ready, owing) for u in units])
            continue
        band = bands[_band(y)]
        # the combat units and HQs shown first, drawn last (on top: the counter a click on
        # the stack finds), supply points under them
        shown = sorted(units, key=lambda u: (u.get("kind") == "supply", u["id"]))[:4]
        for i, u in enumerate(reversed(shown)):
            band.append(_own_in_stack(u, h, i, x, y, selected, ready, owing))
        if len(units) > 4:
            band.append(f'<text x="{n(x + SIZE)}" y="{n(y)}" font-size="6">+{len(units) - 4}</text>')
    for st in view.get("stacks", []):
        h = st["hex"]
        if h in board.km:
            x, y = _point(board, h)
            bands[_band(y)].append(_enemy_stack(st, h, x, y))
    return [part("layer-areas", "areas", "".join(areas)),
            *(part(f"layer-pieces-{i}", "pieces", "".join(band)) for i, band in enumerate(bands)),
            part("layer-fan", "fanned", fanned)]  # (the fan last: over its neighbours' counters)


def _band(y: float) -> int:
    """Which band of the map a counter at height ``y`` is drawn in."""
    return min(BANDS - 1, max(0, int(y / _map_height() * BANDS)))


@cache
def _map_height() -> float:
    return float(viewbox().split()[3])


def _own(u: dict[str, Any], h: str, selected: str, ready: set[str] | frozenset[str],
         owing: set[str] | frozenset[str]) -> Callable[[float, float], str]:
    """One's own counter, to be drawn at a point."""
    state = []
    if u.get("suppressed"):
        state.append("suppressed")
    if u.get("kind") == "hq":
        state.append("activated" if u.get("active") else "not activated")
    if u.get("face_up"):
        state.append("face up: the enemy sees it (34.0)")
    if u["id"] in owing:
        state.append("must still attack (14.11)")
    title = f"{u['unit']} ({u['id']}) in {h}: {_factors(u)}" + (f", {', '.join(state)}" if state else "")
    css = ("own" + (" suppressed" if u.get("suppressed") else "") + (" selected" if u["id"] == selected else "")
           + (" ready" if u["id"] in ready else "") + (" owes" if u["id"] in owing else ""))
    face = _face(u)
    size = "*" if u["unit"] in q.forces().battalion else u.get("size", "")  # 2.31: * a breakdown unit
    top = _fit(f"{size} {u['unit']}", 10) if face else _short(u["unit"])
    if u.get("kind") == "hq" and not u.get("active"):
        css += " inactive"  # its non-activated side (2.31)
    return lambda x, y: _counter(x, y, u["side"], top, _factors(u), title, css, h, u["id"], face, _colours(u))


# counters as drawn on the map (one's own in their stacks, enemy stacks), by all that their
# drawing shows: most are drawn as the last answer drew them.  What the view says of one's
# own unit besides what its key holds (its kind, factors, size, support and radius) follows
# from its counter and side (view.py ``_unit``).
_DRAWN: dict[tuple[Any, ...], str] = {}
DRAWN_MOST = 16_384  # some hundred games' counters; past it, all are drawn anew once


def _own_in_stack(u: dict[str, Any], h: str, i: int, x: float, y: float, selected: str,
                  ready: set[str] | frozenset[str], owing: set[str] | frozenset[str]) -> str:
    """One's own counter ``i`` of its stack in ``h`` (at ``x``, ``y``), drawn once for what it shows."""
    uid = u["id"]
    key = (uid, u["unit"], u["side"], h, i, u.get("suppressed"), u.get("active"), u.get("face_up"), uid == selected,
           uid in ready, uid in owing)
    drawn = _DRAWN.get(key)
    if drawn is None:
        drawn = _own(u, h, selected, ready, owing)(x + 2.5 * i, y - 2.5 * i)
        _keep(key, drawn)
    return drawn


ZOC_TOLD = {True: ("ZOC", "ZOC"), False: ("no ZOC", "no ZOC"), None: ("ZOC ?", "ZOC not told")}  # 18.4


def _enemy_stack(st: dict[str, Any], h: str, x: float, y: float) -> str:
    """An enemy stack at ``x``, ``y``: unknown, or the units examined there, and whether it
    has a ZOC as far as the viewer has been told (18.4), drawn once for what it shows."""
    seen = tuple(u["unit"] for u in st["units"]) if st.get("units") else ()
    key = ("enemy", h, st["side"], st["zoc"], seen)
    drawn = _DRAWN.get(key)
    if drawn is None:
        short, told = ZOC_TOLD[st["zoc"]]
        if seen:
            drawn = _counter(x, y, st["side"], _short(seen[0]), f"{len(seen)} seen",
                             f"{st['side']} stack in {h}, examined: {', '.join(seen)} ({told})", "enemy examined", h)
        else:
            drawn = _counter(x, y, st["side"], "?", short, f"{st['side']} stack in {h}: not examined ({told}, 18.4)",
                             "enemy unknown", h)
        _keep(key, drawn)
    return drawn


def _keep(key: tuple[Any, ...], drawn: str) -> None:
    if len(_DRAWN) >= DRAWN_MOST:
        _DRAWN.clear()
    _DRAWN[key] = drawn


def _fanned(h: str, x: float, y: float, counters: list[Callable[[float, float], str]]) -> str:
    """The stack in ``h`` spread out in a row centred on its hex, over its neighbours, on a
    backdrop (a click on which is the hex's): every counter can be read and clicked (as
    First Blood's fan)."""
    gap = 3.0
    width = len(counters) * SIZE + (len(counters) - 1) * gap + 2 * gap
    right, _ = (float(v) for v in viewbox().split()[2:])
    left = min(max(x - width / 2, 2.0), right - width - 2.0)
    out = [f'<g class="fan" data-hex="{h}" aria-label="Stack in {h}, spread out">',
           f'<rect class="fan-bg" x="{n(left)}" y="{n(y - SIZE / 2 - gap)}" width="{n(width)}" '
           f'height="{n(SIZE + 2 * gap)}" rx="3"/>']
    for i, draw in enumerate(counters):
        out.append(draw(left + gap + SIZE / 2 + i * (SIZE + gap), y))
    out.append("</g>")
    return "".join(out)


def layer_parts(view: dict[str, Any], marks: list[Mark] | None = None, selected: str = "",
                ready: set[str] | frozenset[str] = frozenset(), owing: set[str] | frozenset[str] = frozenset(),
                fan: str = "") -> list[Part]:
    """What is drawn over the terrain, in parts: the marks (under the counters, so that
    both stay clickable), then the counters' parts (:func:`piece_parts`)."""
    return [part("layer-marks", "marks", _marks(marks or [])), *piece_parts(view, selected, ready, owing, fan)]


def render_board_svg(view: dict[str, Any], marks: list[Mark] | None = None, selected: str = "",
                     ready: set[str] | frozenset[str] = frozenset()) -> str:
    """The reconstructed map with the view's marks and pieces on it, as one SVG."""
    return map_frame("".join(p.svg for p in layer_parts(view, marks, selected, ready)))


def render_layers_svg(parts: list[Part], oob: bool = False) -> str:
    """The changing layer (marks and counters) as its own SVG over the base map (same
    viewBox): what an answer swaps in whole (``oob``) when the page's parts are not known,
    while the terrain stays."""
    swap = ' hx-swap-oob="true"' if oob else ""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="pb-map map-layers" id="pb-layers"{swap} '
            f'viewBox="{viewbox()}" aria-label="Counters and highlighted hexes">'
            + "".join(p.svg for p in parts) + "</svg>")
