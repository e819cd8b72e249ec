"""Counter faces: SVG fragments centred on ``(0, 0)``, one function per part.

A ground unit shows its name on top, a NATO type frame (Table 3) in the middle and
``CF-MF`` (artillery ``CF-R-MF``) below; an air unit shows a plane and F/B/FB; a
destroyer a ship; a USAF unit refuelling on an air strip shows its plain back side.
Colours live in the renderer's CSS (classes ``face``, ``frame``, ``sym`` ...).
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any
from xml.sax.saxutils import escape

AIR_LETTERS = {"fighter": "F", "bomber": "B", "fighter_bomber": "FB"}
CHAR_W = 0.56  # average glyph width of the counter font, in em


@lru_cache(maxsize=16384)
def n(v: float) -> str:
    """A coordinate: at most two decimals, no trailing zeros (stable, compact output).
    (Cached: a map's coordinates are the same few thousand in every answer.)"""
    s = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


# the control characters XML 1.0 forbids (all but tab, newline, carriage return), to drop
_FORBIDDEN = {c: None for c in range(32) if chr(c) not in "\t\n\r"}


def xml_chars(s: object) -> str:
    """``s`` as a string without the characters XML 1.0 forbids."""
    return str(s).translate(_FORBIDDEN)


def text(s: object) -> str:
    """Escape character data; drops control characters XML 1.0 forbids."""
    return escape(xml_chars(s))


_TEXT = re.compile(r"<text[^>]*>([^<]*)</text>")


def reads(drawing: str) -> str:
    """What a drawing reads: its texts in order, a space between them.  A map button's name
    begins with it (WCAG 2.5.3, label in name: "click 1/1 5-6" names the counter)."""
    return " ".join(html.unescape(t) for t in _TEXT.findall(drawing) if t.strip())


def tip(title: str, button: str) -> str:
    """A map button with its tooltip on a group around it, so that the tooltip is not read
    as the button's text (a mouse still gets it: the nearest <title> up from the pointer)."""
    return f'<g class="tip"><title>{text(title)}</title>{button}</g>'


def fitted_text(s: str, x: float, y: float, size: float, max_w: float, cls: str) -> str:
    """A centred ``<text>``, squeezed with ``textLength`` when it would be wider than ``max_w``."""
    fit = ""
    if len(s) * CHAR_W * size > max_w:
        fit = f' textLength="{n(max_w)}" lengthAdjust="spacingAndGlyphs"'
    return f'<text class="{cls}" x="{n(x)}" y="{n(y)}" font-size="{n(size)}"{fit}>{text(s)}</text>'


def factors(unit: Mapping[str, Any]) -> str:
    """The bottom line of a counter: ``CF-MF``, ``CF-R-MF``, ``F``/``B``/``FB`` or ``DD``."""
    kind = unit.get("kind", "ground")
    if kind in AIR_LETTERS:
        return AIR_LETTERS[kind]
    if kind == "destroyer":
        return "DD"
    if unit.get("range"):
        return f"{unit.get('cf', 0)}-{unit['range']}-{unit.get('mf', 0)}"
    return f"{unit.get('cf', 0)}-{unit.get('mf', 0)}"


def type_name(unit: Mapping[str, Any]) -> str:
    return str(unit.get("type") or unit.get("kind") or "unit").replace("_", " ")


# --- NATO type symbols, drawn inside a frame of half-size (a, b) ---------------

def _x(a: float, b: float) -> str:
    return f'<path class="sym" d="M{n(-a)} {n(-b)}L{n(a)} {n(b)}M{n(-a)} {n(b)}L{n(a)} {n(-b)}"/>'


def _letter(ch: str) -> Callable[[float, float], str]:
    def draw(a: float, b: float) -> str:
        return f'<text class="sym-text" x="0" y="{n(b * 0.62)}" font-size="{n(b * 1.75)}">{text(ch)}</text>'
    return draw


def _dot(a: float, b: float) -> str:
    return f'<circle class="sym-fill" r="{n(b * 0.42)}"/>'


def _armour(a: float, b: float) -> str:
    return f'<rect class="sym" x="{n(-a * 0.7)}" y="{n(-b * 0.55)}" width="{n(a * 1.4)}" ' \
           f'height="{n(b * 1.1)}" rx="{n(b * 0.55)}"/>'


def _marines(a: float, b: float) -> str:
    # an anchor (the NATO marine symbol)
    return (f'<circle class="sym" cy="{n(-b * 0.72)}" r="{n(b * 0.2)}"/>'
            f'<path class="sym-bold" d="M0 {n(-b * 0.52)}V{n(b * 0.85)}M{n(-b * 0.45)} {n(-b * 0.3)}H{n(b * 0.45)}'
            f'M{n(-b * 1.0)} {n(b * 0.15)}Q{n(-b * 0.8)} {n(b * 0.85)} 0 {n(b * 0.85)}'
            f'Q{n(b * 0.8)} {n(b * 0.85)} {n(b * 1.0)} {n(b * 0.15)}"/>')


def _airborne(a: float, b: float) -> str:
    w = a * 0.45
    return _x(a, b) + (f'<path class="sym-bold" d="M{n(-w)} {n(b * 0.8)}Q{n(-w / 2)} {n(b * 0.2)} 0 {n(b * 0.8)}'
                       f'Q{n(w / 2)} {n(b * 0.2)} {n(w)} {n(b * 0.8)}"/>')


def _engineer(a: float, b: float) -> str:
    w, h = a * 0.55, b * 0.45
    return f'<path class="sym" d="M{n(-w)} {n(h)}V{n(-h)}H{n(w)}V{n(h)}M0 {n(-h)}V{n(h)}"/>'


def _anti_tank(a: float, b: float) -> str:
    return f'<path class="sym" d="M{n(-a)} {n(b)}L0 {n(-b)}L{n(a)} {n(b)}"/>'


def _anti_air(a: float, b: float) -> str:
    return f'<path class="sym" d="M{n(-a * 0.8)} {n(b)}Q0 {n(-b * 1.3)} {n(a * 0.8)} {n(b)}"/>'


def _defence(a: float, b: float) -> str:
    w, h = a * 0.7, b * 0.35
    d = f"M{n(-w)} {n(h)}" + "".join(
        f"V{n(-h)}H{n(-w + (i + 1) * w / 2.5)}V{n(h)}H{n(-w + (i + 2) * w / 2.5)}" for i in range(0, 4, 2))
    return f'<path class="sym" d="{d}V{n(-h)}"/>'


def _recon(a: float, b: float) -> str:
    return f'<path class="sym" d="M{n(-a)} {n(b)}L{n(a)} {n(-b)}"/>'


def _amphibious(a: float, b: float) -> str:
    w = a * 0.8
    q = w / 4
    d = f"M{n(-w)} 0" + "".join(f"Q{n(-w + q * (2 * i + 1))} {n(-b * 0.6 * (-1) ** i)} {n(-w + q * (2 * i + 2))} 0"
                                for i in range(4))
    return f'<path class="sym" d="{d}"/>'


def _mountain(a: float, b: float) -> str:
    return _dot(a, b * 0.8) + f'<path class="sym-fill" d="M{n(-a * 0.3)} {n(b)}L0 {n(b * 0.45)}L{n(a * 0.3)} {n(b)}Z"/>'


def _motorised(a: float, b: float) -> str:
    return _dot(a, b) + f'<path class="sym" d="M0 {n(-b)}V{n(b)}"/>'


SYMBOLS: dict[str, Callable[[float, float], str]] = {
    "infantry": _x, "marines": _marines, "raiders": _letter("R"), "airborne": _airborne,
    "artillery": _dot, "mountain_artillery": _mountain, "motorised_artillery": _motorised,
    "armoured": _armour, "engineer": _engineer, "anti_tank": _anti_tank, "anti_air": _anti_air,
    "defence": _defence, "reconnaissance": _recon, "amphibious": _amphibious,
    "machine_gun": _letter("MG"), "police": _letter("MP"), "labour": _letter("L"),
}


def nato_frame(unit_type: str, w: float, h: float, y: float = 0.0) -> str:
    """The NATO frame (a ``w`` x ``h`` rectangle centred at ``(0, y)``) with the type symbol."""
    draw = SYMBOLS.get(unit_type, _letter("?"))
    a, b = w / 2, h / 2
    return (f'<g transform="translate(0 {n(y)})"><rect class="frame" x="{n(-a)}" y="{n(-b)}" width="{n(w)}" '
            f'height="{n(h)}"/>{draw(a, b)}</g>')


def plane(size: float, y: float = 0.0) -> str:
    """A top-down aircraft silhouette, nose up, ``size`` px wingspan."""
    k = size / 20
    d = ("M0 -9 C1.2 -9 1.4 -7 1.4 -5 L1.4 -2 L10 1.5 L10 3 L1.4 1.5 L1 6 L4 8 L4 9 L0 8.2 "
         "L-4 9 L-4 8 L-1 6 L-1.4 1.5 L-10 3 L-10 1.5 L-1.4 -2 L-1.4 -5 C-1.4 -7 -1.2 -9 0 -9Z")
    return f'<path class="glyph" transform="translate(0 {n(y)}) scale({n(k)} {n(k * 0.68)})" d="{d}"/>'


def ship(size: float, y: float = 0.0) -> str:
    """A destroyer in profile, ``size`` px long."""
    k = size / 24
    d = "M-12 1 L12 1 L9 5 L-10 5 Z M-6 1 V-2 H-1 V-5 H2 V-2 H6 V1 Z M-1 -5 V-8 H0.5 V-5 Z"
    return f'<path class="glyph" transform="translate(0 {n(y)}) scale({n(k)})" d="{d}"/>'


def star(x: float, y: float, r: float, cls: str = "mark-us") -> str:
    """A five-pointed star, point up, of outer radius ``r``."""
    pts = []
    for i in range(10):
        rr = r if i % 2 == 0 else r * 0.42
        ang = math.radians(-90 + 36 * i)
        pts.append(f"{n(x + rr * math.cos(ang))},{n(y + rr * math.sin(ang))}")
    return f'<polygon class="{cls}" points="{" ".join(pts)}"/>'


def side_mark(side: str, x: float, y: float, r: float) -> str:
    """Nationality badge so the sides differ by more than colour: a star (US), a sun (IJ)."""
    if side == "IJ":
        return f'<circle class="mark-ij" cx="{n(x)}" cy="{n(y)}" r="{n(r)}"/>'
    return star(x, y, r)


# --- air strip chits (§2.2): status Oper/Dam/Dest and the engineering work marker ----

STATUS_TEXT = {"oper": "Oper", "dam": "Dam", "dest": "Dest"}


def status_chit(status: str, x: float, y: float) -> str:
    """An air strip status chit centred on ``(x, y)``; CSS class ``status-<status>`` colours it."""
    label = STATUS_TEXT.get(status, status.title())
    cls = "".join(ch for ch in status if ch.isalnum())
    return (f'<rect class="chip status-{cls}" x="{n(x - 10)}" y="{n(y - 5.5)}" width="20" height="11" rx="2"/>'
            f'<text class="chip-text" x="{n(x)}" y="{n(y + 3)}" font-size="8">{text(label)}</text>')


def work_chit(work: int, x: float, y: float) -> str:
    """The engineering marker: a shovel and the number 1 or 2 (nothing for 0)."""
    if work <= 0:
        return ""
    return (f'<rect class="work" x="{n(x - 10)}" y="{n(y - 6)}" width="20" height="12" rx="2"/>'
            f'<path class="shovel" d="M{n(x - 7)} {n(y + 4)}L{n(x - 2)} {n(y - 3)}M{n(x - 3.5)} {n(y - 4.5)}'
            f'L{n(x - 0.5)} {n(y - 1.5)}"/>'
            f'<text class="work-text" x="{n(x + 4.5)}" y="{n(y + 3.5)}" font-size="9">{work}</text>')


def counter_body(unit: Mapping[str, Any], size: float) -> str:
    """The face of one counter, a ``size`` square centred on ``(0, 0)``."""
    return _counter_body(str(unit.get("side", "")), str(unit.get("name", "")), bool(unit.get("face_down")),
                         str(unit.get("kind", "ground")), str(unit.get("type", "")), factors(unit),
                         bool(unit.get("stopped")), size)


@lru_cache(maxsize=4096)  # a game has some 140 counters, each in a few states
def _counter_body(side: str, name: str, face_down: bool, kind: str, utype: str, facts: str, stopped: bool,
                  size: float) -> str:
    h = size / 2
    parts = [f'<rect class="face" x="{n(-h)}" y="{n(-h)}" width="{n(size)}" height="{n(size)}" rx="2"/>']
    name_size = size * 0.22
    if face_down:
        parts.append(f'<path class="back-stripe" d="M{n(-h)} {n(h * 0.2)}L{n(h * 0.2)} {n(-h)}'
                     f'M{n(-h * 0.2)} {n(h)}L{n(h)} {n(-h * 0.2)}"/>')
        parts.append(fitted_text(name, 0, -h + name_size + 1.5, name_size, size - 4, "name"))
        parts.append(fitted_text("Refuelling", 0, h * 0.18, size * 0.2, size - 5, "back-text"))
        parts.append(fitted_text(AIR_LETTERS.get(kind, ""), 0, h - 3, size * 0.24, size - 6, "factors"))
        return " ".join(parts)  # (a space between the texts: read as words, "1/1 5-6", not "1/15-6")
    parts.append(fitted_text(name, 0, -h + name_size + 1.5, name_size, size - 4, "name"))
    if kind in AIR_LETTERS:
        parts.append(plane(size * 0.62, -h * 0.04))
    elif kind == "destroyer":
        parts.append(ship(size * 0.72, h * 0.05))
    else:
        parts.append(nato_frame(utype, size * 0.58, size * 0.34, -h * 0.02))
    parts.append(fitted_text(facts, 0, h - 2.5, size * 0.27, size * 0.62, "factors"))
    parts.append(side_mark(side, -h + 3.8, -h * 0.02, size * 0.08))
    if stopped:
        parts.append(f'<path class="stop-mark" d="M{n(h)} {n(h - 7)}V{n(h)}H{n(h - 7)}Z"/>')
    return " ".join(parts)
