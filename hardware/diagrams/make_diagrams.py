#!/usr/bin/env python3
"""Draw the wiring diagram of each pin map and the layout of each table profile, as SVG.

    .venv/bin/python hardware/diagrams/make_diagrams.py             # writes into hardware/diagrams/
    .venv/bin/python hardware/diagrams/make_diagrams.py --out DIR   # somewhere else (the tests do)

Inputs: hardware/pins/*.json (through maester.table.hwconfig) and hardware/profiles/*.json. Outputs:
wiring-<board>.svg and table-<profile>.svg. The SVG is written by hand, with no dependency, and
the same data always gives the same bytes, so the committed pictures can be checked against the
data: run this after changing a pin map or a profile, and commit what it writes.
"""

import argparse
import math
import sys
from pathlib import Path
from xml.sax.saxutils import escape

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path[:0] = [str(ROOT / "host"), str(ROOT / "firmware")]

from maester.table import hwconfig  # noqa: E402
from maester.table import profile as profiles  # noqa: E402

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
INK, GREY, PAPER = "#222222", "#888888", "#ffffff"
WIRE = {"sck": "#1f77b4", "mosi": "#2ca02c", "miso": "#d62728", "cs": "#9467bd", "led": "#e377c2",
        "v5": "#d62728", "v33": "#ff7f0e", "gnd": "#222222"}
GAMES = {"btwixt": "B'Twixt", "intrigue": "Westeros Intrigue", "oathbreaker": "Oathbreaker", "lcg": "AGoT: The Card Game"}
SEG_COLOURS = ("#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#9a6324",
               "#469990", "#808000", "#000075", "#bfef45", "#fabed4", "#dcbeff")


def num(v):
    v = round(v, 1)
    return str(int(v)) if v == int(v) else "%.1f" % v


class Svg:
    def __init__(self, width, height, title):
        self.w, self.h = width, height
        self.parts = ["<title>%s</title>" % escape(title)]

    def add(self, tag, **attrs):
        body = attrs.pop("body", None)
        text = " ".join('%s="%s"' % (k.rstrip("_").replace("_", "-"), escape(str(v) if not isinstance(v, float) else num(v)))
                        for k, v in attrs.items() if v is not None)
        self.parts.append("<%s %s/>" % (tag, text) if body is None else "<%s %s>%s</%s>" % (tag, text, body, tag))

    def rect(self, x, y, w, h, fill="none", stroke=INK, rx=0, sw=1.2, dash=None):
        self.add("rect", x=float(x), y=float(y), width=float(w), height=float(h), rx=float(rx), fill=fill,
                 stroke=stroke, stroke_width=float(sw), stroke_dasharray=dash)

    def line(self, points, stroke=INK, sw=1.6, dash=None):
        pts = " ".join("%s,%s" % (num(x), num(y)) for x, y in points)
        self.add("polyline", points=pts, fill="none", stroke=stroke, stroke_width=float(sw), stroke_dasharray=dash,
                 stroke_linejoin="round")

    def circle(self, x, y, r, fill=INK, stroke="none", sw=1.0):
        self.add("circle", cx=float(x), cy=float(y), r=float(r), fill=fill, stroke=stroke, stroke_width=float(sw))

    def ellipse(self, x, y, rx, ry, fill, stroke=INK, sw=1.5):
        self.add("ellipse", cx=float(x), cy=float(y), rx=float(rx), ry=float(ry), fill=fill, stroke=stroke,
                 stroke_width=float(sw))

    def text(self, x, y, s, size=12, anchor="start", weight="normal", fill=INK):
        self.add("text", x=float(x), y=float(y), font_size=size, text_anchor=anchor, font_weight=weight, fill=fill,
                 font_family=FONT, body=escape(s))

    def render(self):
        head = ('<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s">'
                % (num(self.w), num(self.h), num(self.w), num(self.h)))
        paper = '<rect x="0" y="0" width="%s" height="%s" fill="%s"/>' % (num(self.w), num(self.h), PAPER)
        return "\n".join([head, self.parts[0], paper] + self.parts[1:] + ["</svg>"]) + "\n"


# ---------------------------------------------------------------- wiring, one per board

def wiring(pinmap, largest):
    """The board, its reader slots on the SPI bus, the LED chain and the power, from one pin map."""
    lab = lambda pin: hwconfig.label(pinmap, pin)  # noqa: E731
    pads = pinmap.get("pads", {})
    pinname = lambda pin: lab(pin) + (" (pin %d)" % pads[str(pin)] if str(pin) in pads else "")  # noqa: E731
    cs = pinmap["reader_cs"]
    n = len(cs)
    rx0, rw, rgap = 250, 78, 18
    width = rx0 + n * (rw + rgap) + 30
    bus_y = {"sck": 190, "mosi": 205, "miso": 220}
    cs_y = [245 + 16 * k for k in range(n)]
    led_y = cs_y[-1] + 40
    low = led_y + 50  # top of the LED and power section
    reserved = pinmap.get("reserved", [])
    height = low + 250 + 16 * (len(reserved) + 4)
    svg = Svg(width, height, "Maester wiring: %s" % pinmap["title"])
    svg.text(20, 28, "Wiring: %s" % pinmap["title"], 18, weight="bold")
    svg.text(20, 48, "generated from hardware/pins/%s.json by hardware/diagrams/make_diagrams.py" % pinmap["board"],
             11, fill=GREY)

    # power rails over the readers
    svg.line([(rx0 - 20, 70), (width - 20, 70)], WIRE["v33"], 2.2)
    svg.line([(rx0 - 20, 82), (width - 20, 82)], WIRE["gnd"], 2.2)
    svg.text(rx0 - 26, 74, "+3.3 V (readers' regulator)", 11, "end", fill=WIRE["v33"])
    svg.text(rx0 - 26, 88, "GND", 11, "end")
    sig = {"sda": 12, "sck": 30, "mosi": 48, "miso": 66}
    for k in range(n):
        x = rx0 + k * (rw + rgap)
        used = k < largest
        svg.rect(x, 100, rw, 62, "#eef3fb" if used else "#f6f6f6", INK if used else GREY, 4,
                 dash=None if used else "4,3")
        svg.text(x + rw / 2, 122, "reader slot %d" % k, 10.5, "middle", "bold")
        svg.text(x + rw / 2, 135, "CS %s" % lab(cs[k]), 10, "middle", fill=WIRE["cs"])
        for name, dx in sig.items():
            svg.text(x + dx, 157, name.upper(), 6.5, "middle")
        for dx, rail, name in ((14, 70, "3.3V"), (38, 70, "RST"), (62, 82, "GND")):
            svg.line([(x + dx, rail), (x + dx, 100)], WIRE["v33"] if rail == 70 else WIRE["gnd"], 1.4)
            svg.circle(x + dx, rail, 2.6, WIRE["v33"] if rail == 70 else WIRE["gnd"])
            svg.text(x + dx, 111, name, 6.5, "middle")
        for name in ("sck", "mosi", "miso"):
            svg.line([(x + sig[name], 162), (x + sig[name], bus_y[name])], WIRE[name], 1.4)
            svg.circle(x + sig[name], bus_y[name], 2.6, WIRE[name])
        svg.line([(x + sig["sda"], 162), (x + sig["sda"], cs_y[k])], WIRE["cs"], 1.4)
    svg.text(width - 20, 48, "solid slots: the largest profile's %d readers; dashed: spare slots" % largest,
             11, "end", fill=GREY)

    # the board
    bx, bw = 20, 170
    top, bottom = bus_y["sck"] - 30, led_y + 36
    svg.rect(bx, top, bw, bottom - top, "#f3f7ee", INK, 6, 1.6)
    svg.text(bx + 10, top + 18, pinmap["board"], 13, weight="bold")
    spi = pinmap["spi"]
    rows = [(bus_y[k], "%s SPI%d %s" % (pinname(spi[k]), spi["id"], k.upper()), WIRE[k], k) for k in ("sck", "mosi", "miso")]
    rows += [(cs_y[k], "%s CS %d" % (pinname(cs[k]), k), WIRE["cs"], "cs") for k in range(n)]
    rows.append((led_y, "%s LED data" % pinname(pinmap["leds"]["pin"]), WIRE["led"], "led"))
    for y, text, colour, kind in rows:
        svg.text(bx + bw - 6, y + 3.5, text, 9.5, "end", fill=colour)
        if kind in bus_y:
            svg.line([(bx + bw, y), (width - 20, y)], colour, 1.8)
        elif kind == "cs":
            k = cs_y.index(y)
            svg.line([(bx + bw, y), (rx0 + k * (rw + rgap) + sig["sda"], y)], colour, 1.4)
    svg.text(bx + 10, bottom - 8, "USB to the host computer", 9.5, fill=GREY)

    # LED chain: board -> 74AHCT125 -> 330 ohm -> strip
    sx, ry = 290, led_y
    svg.line([(bx + bw, ry), (sx, ry)], WIRE["led"], 1.8)
    svg.rect(sx, ry - 22, 120, 54, "#fff7e6", INK, 4)
    svg.text(sx + 60, ry - 6, "74AHCT125", 11, "middle", "bold")
    svg.text(sx + 60, ry + 8, "1A in, 1Y out", 9, "middle")
    svg.text(sx + 60, ry + 20, "1OE to GND, VCC +5 V", 9, "middle")
    rx = sx + 170
    svg.line([(sx + 120, ry), (rx, ry)], WIRE["led"], 1.8)
    svg.rect(rx, ry - 8, 50, 16, "#ffffff", INK, 2)
    svg.text(rx + 25, ry + 4, "330 ohm", 9, "middle")
    px = rx + 150
    svg.line([(rx + 50, ry), (px, ry)], WIRE["led"], 1.8)
    svg.text(px - 4, ry - 6, "DIN", 9, "end")
    pixels = min(14, (width - px - 40) // 22)
    for i in range(pixels):
        svg.rect(px + i * 22, ry - 9, 18, 18, "#fbfbfb", INK, 3)
        svg.circle(px + i * 22 + 9, ry, 4, SEG_COLOURS[i % len(SEG_COLOURS)])
    svg.text(px + 40, ry - 16, "WS2812B strip, data runs left to right", 9.5)
    cx = px - 30  # bulk capacitor at the strip's input, between +5 V and GND

    # power: adapter -> strip, shifter, regulator; one common ground
    py = low + 34
    svg.rect(20, py - 20, 140, 44, "#fdecea", INK, 4)
    svg.text(90, py - 4, "5 V adapter", 11, "middle", "bold")
    svg.text(90, py + 10, "%.1f A (%s)" % (pinmap["power"]["supply_ma"] / 1000, "barrel jack"), 9, "middle")
    svg.line([(160, py), (width - 20, py)], WIRE["v5"], 2.2)
    svg.text(200, py - 5, "+5 V", 10, fill=WIRE["v5"])
    svg.line([(sx + 60, ry + 32), (sx + 60, py)], WIRE["v5"], 1.4)
    svg.circle(sx + 60, py, 2.6, WIRE["v5"])
    svg.text(sx + 66, py - 5, "VCC", 8.5)
    svg.line([(px + 9, ry + 9), (px + 9, py)], WIRE["v5"], 1.4)
    svg.circle(px + 9, py, 2.6, WIRE["v5"])
    svg.text(px + 13, py - 5, "strip +5 V", 8.5)
    gx = width - 190
    svg.rect(gx, py + 30, 160, 44, "#fff2e0", INK, 4)
    svg.text(gx + 80, py + 48, "3.3 V regulator", 11, "middle", "bold")
    svg.text(gx + 80, py + 62, "%.1f A step-down" % (pinmap["power"]["rail_3v3_ma"] / 1000), 9, "middle")
    svg.line([(gx + 30, py), (gx + 30, py + 30)], WIRE["v5"], 1.4)
    svg.circle(gx + 30, py, 2.6, WIRE["v5"])
    svg.line([(gx + 160, py + 52), (width - 8, py + 52), (width - 8, 70), (width - 20, 70)], WIRE["v33"], 2.2)
    svg.text(gx, py + 88, "+3.3 V out to the readers' rail", 9, fill=WIRE["v33"])
    gy = py + 110
    svg.line([(cx, py), (cx, py + 40)], WIRE["v5"], 1.4)
    svg.circle(cx, py, 2.6, WIRE["v5"])
    svg.rect(cx - 14, py + 40, 28, 4, INK, INK, 0)
    svg.rect(cx - 14, py + 48, 28, 4, "#ffffff", INK, 0)
    svg.line([(cx, py + 52), (cx, gy)], WIRE["gnd"], 1.4)
    svg.text(cx - 18, py + 50, "1000 uF 10 V, + to +5 V", 9, "end")
    svg.line([(20, gy), (width - 20, gy)], WIRE["gnd"], 2.2)
    svg.text(20, gy + 16, "GND: one common ground for the adapter, regulator, board, shifter, strip and every reader",
             10)
    ties = [(90, py + 24, "adapter -"), (178, bottom, "board GND"), (sx + 90, ry + 32, "GND"),
            (px + 30, ry + 9, "strip GND"), (gx + 80, py + 74, "")]
    for x, y0, name in ties:
        svg.line([(x, y0), (x, gy)], WIRE["gnd"], 1.4)
        svg.circle(x, gy, 2.6, WIRE["gnd"])
        if name:
            svg.text(x + 4, gy - 6, name, 8.5)
    svg.circle(cx, gy, 2.6, WIRE["gnd"])

    # notes from the pin map
    y = gy + 44
    svg.text(20, y, "SPI at %d kHz. Each reader: 3.3 V and RST to +3.3 V, GND, IRQ not connected; "
                    "a 47 uF capacitor across its 3.3 V and GND." % (spi["baudrate"] // 1000), 10)
    y += 16
    svg.text(20, y, "Reserved pins, left unwired:", 10, weight="bold")
    for r in reserved:
        y += 16
        svg.text(32, y, "%s: %s" % (lab(r["pin"]), r["why"]), 9.5)
    y += 16
    svg.text(20, y, "Spare: %s" % ", ".join(lab(p) for p in pinmap.get("spare", [])), 9.5)
    svg.h = y + 20
    return svg.render()


# ---------------------------------------------------------------- table layout, one per profile

def table_layout(profile, pinmaps):
    """Where each reader sits and which LEDs are which tracker, for one profile."""
    W, H = 760, 640
    cx, cy, ax, ay = 380, 330, 300, 230
    segs = sorted(profile["segments"], key=lambda s: s["start"])
    colour = {s["name"]: SEG_COLOURS[i % len(SEG_COLOURS)] for i, s in enumerate(segs)}
    readers = profile["readers"]
    legend = len(segs) + len(readers) + len(pinmaps) + 5
    svg = Svg(W, H + 16 * legend, "Maester table layout: %s" % profile["name"])
    game = GAMES.get(profile["game"], profile["game"])
    svg.text(20, 28, "Table %s: %s, %d players" % (profile["name"], game, profile["players"]), 18,
             weight="bold")
    svg.text(20, 46, "generated from hardware/profiles/%s.json by hardware/diagrams/make_diagrams.py"
             % profile["name"], 11, fill=GREY)
    svg.ellipse(cx, cy, ax, ay, "#f4ead8", "#8a6d3b", 3)

    def at(angle, scale):
        return cx + ax * scale * math.cos(angle), cy + ay * scale * math.sin(angle)

    n = profile["players"]
    angle = {s: math.pi / 2 + 2 * math.pi * s / n for s in range(n)}  # seat 0 at the bottom, clockwise
    centres = {}  # pixel index -> (x, y)
    slot = {r["name"]: i for i, r in enumerate(readers)}

    def draw_reader(x, y, r):
        svg.rect(x - 24, y - 24, 48, 48, "#e4ecf7", "#34495e", 5, 1.4)
        for rad in (8, 14):
            svg.circle(x, y, rad, "none", "#34495e", 1)
        svg.text(x, y + 38, r["zone"] if r["role"] == "zone" else r["name"], 11, "middle", "bold")
        svg.text(x, y + 51, "reader %d" % slot[r["name"]], 9.5, "middle", fill=GREY)

    def draw_pixels(seg, x, y, dx, dy):
        k = seg["length"]
        for i in range(k):
            px, py = x + (i - (k - 1) / 2) * dx, y + (i - (k - 1) / 2) * dy
            centres[seg["start"] + i] = (px, py)

    for s in range(n):
        x, y = at(angle[s], 1.13)
        svg.text(x, y + 4, "seat %d" % s, 13, "middle", "bold", "#8a6d3b")
    seat_segs = {}
    for seg in segs:
        if seg["name"].startswith("seat") and seg["name"][4:].isdigit() and int(seg["name"][4:]) < n:
            seat_segs[int(seg["name"][4:])] = seg
    # Other segments of one seat ("power0", "first0" beside "seat0"): drawn with it, at its place.
    seat_runs = {s: [seg] for s, seg in seat_segs.items()}
    for seg in segs:
        base = seg["name"].rstrip("0123456789")
        tail = seg["name"][len(base):]
        if base != "seat" and tail and int(tail) in seat_runs:
            seat_runs[int(tail)].append(seg)
    placed = [seg for run in seat_runs.values() for seg in run]
    zoned = any(r["role"] == "zone" for r in readers)
    out = 0.64 if zoned else 0.58  # seat readers move out to leave the middle to the zone readers
    for r in readers:
        if r["role"] == "seat":
            draw_reader(*at(angle[r["seat"]], out), r)
        elif r.get("seats"):  # a zone reader shared by neighbouring seats sits between them
            a = math.atan2(sum(math.sin(angle[s]) for s in r["seats"]), sum(math.cos(angle[s]) for s in r["seats"]))
            draw_reader(*at(a, out), r)
    for s, seg in seat_segs.items():
        if len(seat_runs[s]) > 1:
            continue
        x, y = at(angle[s], 0.9)
        a = angle[s] + math.pi / 2
        draw_pixels(seg, x, y, 16 * math.cos(a), 16 * math.sin(a) * ay / ax)
    for s, run in seat_runs.items():  # a seat's several segments follow the table's edge, in pixel order
        if len(run) == 1:
            continue
        first = min(seg["start"] for seg in run)
        k = max(seg["start"] + seg["length"] for seg in run) - first
        step = min(16 / (0.9 * ax), 0.92 * 2 * math.pi / n / k)
        for seg in run:
            for p in range(seg["start"], seg["start"] + seg["length"]):
                centres[p] = at(angle[s] + (p - first - (k - 1) / 2) * step, 0.9)
    table_readers = [r for r in readers if r["role"] != "seat" and not r.get("seats")]
    step = 76 if zoned else 90
    for i, r in enumerate(table_readers):
        draw_reader(cx + (i - (len(table_readers) - 1) / 2) * step, cy + 40, r)
    others = [s for s in segs if s not in placed]
    for i, seg in enumerate(others):
        if table_readers:  # above the shared readers
            y = cy - 24 - 26 * (len(others) - 1 - i)
        else:  # centred
            y = cy + 26 * (i - (len(others) - 1) / 2)
        draw_pixels(seg, cx, y, 16, 0)
        first = centres[seg["start"]]
        svg.text(first[0] - 14, first[1] + 4, seg["name"], 10.5, "end", "bold")

    # the data chain, in pixel order, from the board's DIN
    order = [centres[p] for p in sorted(centres)]
    start = (40, 90)
    svg.line([start] + order, "#b0a080", 1.1, "4,3")
    svg.text(20, 80, "data in (DIN) from the board, dashed: the strip's path in pixel order", 9.5, fill=GREY)
    for seg in segs:
        for p in range(seg["start"], seg["start"] + seg["length"]):
            svg.circle(*centres[p], 5.5, colour[seg["name"]], INK, 0.8)
    for seg in placed:
        first = centres[seg["start"]]
        svg.text(first[0], first[1] - 9, str(seg["start"]), 8, "middle", fill=GREY)

    # legend
    y = H + 4
    svg.text(20, y, "LED segments (pixel numbers run along the data chain; cut the strip and join pieces with 3 wires):",
             11, weight="bold")
    for seg in segs:
        y += 16
        svg.circle(30, y - 4, 5, colour[seg["name"]], INK, 0.8)
        svg.text(42, y, "%s: pixels %d-%d (%d, %s%s)" % (seg["name"], seg["start"], seg["start"] + seg["length"] - 1,
                                                          seg["length"], seg.get("mode", "fill"),
                                                          ", reversed" if seg.get("reversed") else ""), 10.5)
    y += 22
    svg.text(20, y, "Readers and their chip-select pins:", 11, weight="bold")
    for i, r in enumerate(readers):
        y += 16
        pins = ", ".join("%s %s" % (pm["board"], hwconfig.label(pm, pm["reader_cs"][i])) for pm in pinmaps)
        if r["role"] == "seat":
            where = "seat %d" % r["seat"]
        elif r.get("seats"):
            where = "zone %s, shared by seats %s" % (r["zone"], " and ".join(str(x) for x in r["seats"]))
        elif r["role"] == "zone":
            where = "zone %s, middle of the table" % r["zone"]
        else:
            where = "shared, middle of the table"
        svg.text(32, y, "reader %d %s (%s): %s" % (i, r["name"], where, pins), 10.5)
    y += 22
    svg.text(20, y, "Power (planning figures, hardware/POWER.md):", 11, weight="bold")
    for pm in pinmaps:
        b = hwconfig.power_budget(profile, pm)
        y += 16
        svg.text(32, y, "%s: readers %d mA on 3.3 V; LEDs capped at %d mA (budget_ma); 5 V adapter %d of %d mA usable; %s"
                 % (pm["board"], b["readers_ma"], b["leds_cap_ma"], b["supply_5v_ma"], b["supply_5v_usable_ma"],
                    "fits" if b["fits"] else "DOES NOT FIT"), 10.5)
    return svg.render()


def pinmap_names():
    names = [p.stem for p in hwconfig.PINS_DIR.glob("*.json")]
    return sorted(names, key=lambda n: (hwconfig.BOARDS.index(n) if n in hwconfig.BOARDS else 99, n))


def profile_names():
    return sorted(p.stem for p in profiles.PROFILE_DIR.glob("*.json"))


def generate(out):
    """Write every diagram into `out`; returns the file names written."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    pinmaps = [hwconfig.load_pinmap(n) for n in pinmap_names()]
    profs = [profiles.load(n) for n in profile_names()]
    largest = max(len(p["readers"]) for p in profs)
    written = {}
    for pm in pinmaps:
        written["wiring-%s.svg" % pm["board"]] = wiring(pm, largest)
    for prof in profs:
        written["table-%s.svg" % prof["name"]] = table_layout(prof, pinmaps)
    for name, text in written.items():
        (out / name).write_text(text, encoding="utf-8")
    return sorted(written)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=HERE, help="output directory (default: next to this script)")
    args = parser.parse_args(argv)
    for name in generate(args.out):
        print(args.out / name)


if __name__ == "__main__":
    main()
