"""LED segments (firmware/maester_fw/leds.py) on the real MicroPython unix port and on CPython.

What a player at the table relies on, and what these tests pin down:
* a tracker shows exactly its value: fill k lights k pixels of its own range, nothing else;
* colours are gamma corrected and the strip never draws more than the power budget;
* blink and pulse run on the device with the right period; an error flash ends in the
  state the segment had before;
* the strip is written only when the picture changes, never faster than the rate limit
  (on rp2 each write masks interrupts for about 30 us per pixel);
* a bad SEGMENT_SET is refused when it arrives, with a message, never later in tick();
* tick() allocates nothing on a 64 KB heap.

Scenarios are scripts that print one JSON line; each runs under both interpreters and the
assertions are made here.  Time is a plain integer passed to tick().
"""
import json
import math
import sys

import pytest

from maester.paths import FIRMWARE
from hypothesis import given, settings, strategies as st

for p in (FIRMWARE, FIRMWARE / "sim"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from maester_fw import leds, wire  # noqa: E402
from maester_fw.leds import BLINK, OFF, PULSE, SOLID, Segments, fill_level  # noqa: E402
from virtual_strip import VirtualStrip  # noqa: E402

INTERPS = ["micropython", "cpython"]

HEADER = '''
import json
from maester_fw.leds import Segments, fill_level, OFF, SOLID, BLINK, PULSE
from virtual_strip import VirtualStrip

N = 60
PROFILE = [
    ("round", 0, 7),                        # fill (fraction)
    ("season", 7, 3, False, "dot"),
    ("first", 10, 8, False, "dot"),
    ("seat0", 18, 6, True),                 # reversed fill
    ("power0", 24, 15, False, "count"),
    {"name": "glow", "start": 39, "length": 4, "mode": "dim"},
    {"name": "rdot", "start": 43, "length": 5, "reversed": True, "mode": "dot"},
]

def make(**kw):
    strip = VirtualStrip(N)
    return strip, Segments(PROFILE, N, strip, **kw)

def out(**kw):
    print(json.dumps(kw))
'''


from conftest import run_cpython as _run_cpython  # noqa: E402


@pytest.fixture
def scenario(run_micropython):
    """scenario(interp, body) -> the JSON object the script printed last."""

    def run(interp, body, heap="8m"):   # room for the JSON; the heap test is separate
        code = HEADER + body
        proc = run_micropython(code, heap=heap) if interp == "micropython" else _run_cpython(code)
        lines = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
        assert lines, proc.stdout
        return lines[-1]

    return run


def gamma28(v):
    x = int(255 * (v / 255) ** 2.8 + 0.5)
    return 1 if v and x < 1 else x


def estimate(frame, pixels, ma_per_channel=20, idle_ma=1):
    """The power model, written again independently of leds.py."""
    return pixels * idle_ma + math.ceil(sum(frame) * ma_per_channel / 255)


# -- the wire and the renderer agree ------------------------------------------------------

def test_pattern_codes_are_the_wire_codes():
    assert (leds.OFF, leds.SOLID, leds.BLINK, leds.PULSE) == (wire.OFF, wire.SOLID, wire.BLINK, wire.PULSE)


# -- what a segment lights -----------------------------------------------------------------

FILL = '''
strip, L = make(gamma=1)
t = 0
def show():
    global t
    t += 100
    L.tick(t)
    return strip.lit()
res = {}
# every level of a 7-pixel fill segment
res["round_levels"] = []
for level in range(256):
    L.set("round", level, 255, 0, 0)
    res["round_levels"].append(show())
# fill_level(k, n) for the round tracker
res["round_k"] = []
for k in range(8):
    L.set("round", fill_level(k, 7), 255, 0, 0)
    res["round_k"].append(show())
L.set("round", 0, 0, 0, 0, OFF)
res["power_k"] = []
for k in range(16):
    L.set("power0", k, 0, 255, 0)
    res["power_k"].append(show())
L.set("power0", 0, 0, 0, 0, OFF)
res["first_k"] = []
for k in range(9):
    L.set("first", k, 0, 0, 255)
    res["first_k"].append(show())
L.set("first", 0, 0, 0, 0, OFF)
res["seat0_k"] = []
for k in range(7):
    L.set("seat0", fill_level(k, 6), 255, 255, 0)
    res["seat0_k"].append(show())
L.set("seat0", 0, 0, 0, 0, OFF)
res["rdot_k"] = []
for k in range(6):
    L.set("rdot", k, 255, 0, 255)
    res["rdot_k"].append(show())
L.set("rdot", 0, 0, 0, 0, OFF)
res["dim"] = []
for level in (0, 64, 255):
    L.set("glow", level, 200, 100, 50)
    L.tick(t + 100); t += 100
    res["dim"].append([strip.lit(), list(strip.pixel(39)), list(strip.pixel(42))])
out(**res)
'''


@pytest.mark.parametrize("interp", INTERPS)
def test_fill_k_lights_exactly_k_pixels_of_its_own_range(scenario, interp):
    r = scenario(interp, FILL)
    for level, lit in enumerate(r["round_levels"]):
        assert lit == list(range(math.ceil(level * 7 / 255))), level   # ceil(level*len/255)
    assert r["round_levels"][1] == [0] and r["round_levels"][255] == list(range(7))
    assert r["round_k"] == [list(range(k)) for k in range(8)]           # round 3 of 7 -> 3 pixels
    assert r["power_k"] == [list(range(24, 24 + k)) for k in range(16)]  # count mode
    assert r["first_k"] == [[]] + [[10 + k - 1] for k in range(1, 9)]   # dot: one pixel
    assert r["seat0_k"] == [list(range(24 - k, 24)) for k in range(7)]  # reversed: grows from 23
    assert r["rdot_k"] == [[]] + [[47 - (k - 1)] for k in range(1, 6)]  # reversed dot
    # dim mode: every pixel lit, level scales the colour (gamma off here)
    assert r["dim"][0][0] == []
    assert r["dim"][1][0] == [39, 40, 41, 42] and r["dim"][1][1] == [200 * 64 // 255, 100 * 64 // 255, 50 * 64 // 255]
    assert r["dim"][2][1] == [200, 100, 50] == r["dim"][2][2]


@pytest.mark.parametrize("n", [1, 2, 3, 6, 7, 15, 60, 255])
def test_fill_level_is_exact_for_every_k(n):
    strip = VirtualStrip(n)
    segs = Segments([("s", 0, n)], n, strip, budget_ma=100_000)
    t = 0
    for k in range(n + 1):
        segs.set("s", fill_level(k, n), 0, 10, 0)
        t += 100
        segs.tick(t)
        assert len(strip.lit()) == k


def test_frame_is_grb_and_gamma_corrected():
    strip = VirtualStrip(4)
    segs = Segments([("a", 0, 2)], 4, strip)
    segs.set("a", 255, 128, 64, 0)
    assert segs.tick(0)
    want = (gamma28(128), gamma28(64), 0)
    assert want == (37, 5, 0)                               # what 2.8 makes of half and quarter
    assert strip.pixel(0) == strip.pixel(1) == want
    assert bytes(strip.frame[:3]) == bytes([want[1], want[0], want[2]])   # G R B on the wire
    assert strip.pixel(2) == strip.pixel(3) == (0, 0, 0)
    # a lit channel never rounds to dark
    segs.set("a", 255, 1, 1, 1)
    segs.tick(100)
    assert strip.pixel(0) == (1, 1, 1)
    # gamma 1 is the identity
    strip2 = VirtualStrip(4)
    lin = Segments([("a", 0, 2)], 4, strip2, gamma=1)
    lin.set("a", 255, 128, 64, 3)
    lin.tick(0)
    assert strip2.pixel(0) == (128, 64, 3)


def test_virtual_strip_text():
    strip = VirtualStrip(8)
    segs = Segments([("a", 0, 2), ("b", 2, 2), ("c", 4, 3)], 8, strip, budget_ma=10_000)
    segs.set("a", 255, 255, 0, 0)
    segs.set("b", 255, 255, 255, 255)
    segs.set("c", fill_level(2, 3), 0, 40, 40)
    segs.tick(0)
    assert strip.text() == "RRWWcc.."
    assert "\x1b[38;2;255;0;0m" in strip.ansi()


# -- the power budget -----------------------------------------------------------------------

POWER = '''
strip, L = make()
one = [("all", 0, N)]
s1 = VirtualStrip(N)
white = Segments(one, N, s1, budget_ma=2000)
white.set("all", 255, 255, 255, 255)
white.tick(0)
s2 = VirtualStrip(N)
dim = Segments(one, N, s2, budget_ma=2000)
dim.set("all", 255, 40, 40, 40)
dim.tick(0)
s3 = VirtualStrip(N)
free = Segments(one, N, s3, budget_ma=100000)
free.set("all", 255, 40, 40, 40)
free.tick(0)
out(white=list(s1.frame), white_ma=white.ma, white_raw=white.ma_uncapped, white_scale=white.scale,
    dim=list(s2.frame), dim_ma=dim.ma, dim_scale=dim.scale, free=list(s3.frame),
    estimate=white.estimate_ma())
'''


@pytest.mark.parametrize("interp", INTERPS)
def test_budget_caps_a_full_white_strip_and_leaves_a_dim_frame_alone(scenario, interp):
    r = scenario(interp, POWER)
    # 60 pixels x 3 channels x 20 mA + 1 mA idle each = 3660 mA uncapped
    assert r["white_raw"] == 3660
    est = estimate(r["white"], 60)
    assert est == r["white_ma"] == r["estimate"]
    assert 1900 <= est <= 2000                       # under the 2 A budget, and not needlessly dark
    assert r["white_scale"] < 256
    assert len(set(r["white"])) == 1 and r["white"][0] > 0   # still white, every pixel lit
    # a dim frame (40 -> gamma 2 per channel) is far under budget: not touched
    assert r["dim_scale"] == 256
    assert r["dim"] == r["free"] and r["dim"][0] == gamma28(40)
    assert r["dim_ma"] == estimate(r["dim"], 60)


seg_state = st.tuples(st.integers(0, 255), st.integers(0, 255), st.integers(0, 255),
                      st.integers(0, 255), st.sampled_from([OFF, SOLID, BLINK, PULSE]),
                      st.integers(40, 3000))


@settings(max_examples=150, deadline=None)
@given(states=st.lists(seg_state, min_size=4, max_size=4), budget=st.integers(40, 4000),
       mpc=st.integers(5, 40), t=st.integers(0, 10_000))
def test_estimate_never_exceeds_the_budget(states, budget, mpc, t):
    profile = [("a", 0, 10), ("b", 10, 10, True, "count"), ("c", 20, 5, False, "dim"), ("d", 25, 5, False, "dot")]
    pixels = 32
    strip = VirtualStrip(pixels)
    capped = Segments(profile, pixels, strip, budget_ma=budget, ma_per_channel=mpc)
    ref_strip = VirtualStrip(pixels)
    ref = Segments(profile, pixels, ref_strip, budget_ma=10**6, ma_per_channel=mpc)
    for i, (level, r, g, b, pat, per) in enumerate(states):
        if i == 1:
            level = level % 11
        if i == 3:
            level = level % 6
        capped.set(i, level, r, g, b, pat, per)
        ref.set(i, level, r, g, b, pat, per)
    capped.tick(0)
    ref.tick(0)
    capped.tick(t)
    ref.tick(t)
    est = estimate(strip.frame, pixels, mpc)
    assert est == capped.ma <= budget
    if estimate(ref_strip.frame, pixels, mpc) <= budget:
        assert strip.frame == ref_strip.frame           # within budget: untouched
    else:
        # dimmed, never brightened, and the picture keeps its shape (no pixel goes dark
        # unless it was at most 1/scale of the brightest)
        assert all(a <= b for a, b in zip(strip.frame, ref_strip.frame))
        assert capped.scale < 256


def test_a_budget_that_cannot_cover_dark_pixels_is_refused():
    with pytest.raises(ValueError, match="budget_ma"):
        Segments([("a", 0, 10)], 600, VirtualStrip(600), budget_ma=500)   # 600 x 1 mA idle


# -- animation --------------------------------------------------------------------------------

BLINK_SCRIPT = '''
strip, L = make()
T0 = {t0}
L.set("seat0", 255, 0, 0, 255, BLINK, 400)
L.set("round", fill_level(3, 7), 255, 0, 0)      # a steady neighbour
samples = []
writes = []
for i in range(0, 1300, 5):
    t = (T0 + i) & 0x3FFFFFFF
    if L.tick(t):
        writes.append(i)
    samples.append([i, len(strip.lit()), strip.lit()[:3]])
out(samples=samples, writes=writes)
'''


@pytest.mark.parametrize("interp", INTERPS)
@pytest.mark.parametrize("t0", [1000, (1 << 30) - 450], ids=["plain", "across-the-ticks-wrap"])
def test_blink_toggles_with_its_period(scenario, interp, t0):
    r = scenario(interp, BLINK_SCRIPT.format(t0=t0))
    for i, n, first in r["samples"]:
        on = (i % 400) < 200
        assert n == (3 + 6 if on else 3), (i, n)   # the round tracker stays lit throughout
        assert first == [0, 1, 2]
    # written once per half period, at the edges (the first tick renders at once)
    assert r["writes"] == list(range(0, 1300, 200))


PULSE_SCRIPT = '''
strip, L = make(gamma={gamma}, budget_ma=5000)
L.set("glow", 255, 255, 255, 255, PULSE, 1000)
vals = []
for t in range(0, 2001, 20):
    L.tick(t)
    vals.append(strip.pixel(39)[0])
out(vals=vals)
'''


@pytest.mark.parametrize("interp", INTERPS)
def test_pulse_varies_smoothly_and_repeats(scenario, interp):
    vals = scenario(interp, PULSE_SCRIPT.format(gamma=1))["vals"]   # one sample per 20 ms
    steps = [abs(a - b) for a, b in zip(vals, vals[1:])]
    assert max(steps) <= 11                       # 510 levels per 1000 ms -> ~10 per frame
    assert vals[0] == 255 and min(vals) <= 5      # full at the start, nearly dark mid-period
    assert vals[25] == min(vals)                  # the bottom is in the middle of the period
    assert vals[:50] == vals[50:100]              # periodic
    assert sum(1 for s in steps if s == 0) <= 2   # it really moves
    g = scenario(interp, PULSE_SCRIPT.format(gamma=2.8))["vals"]
    assert g[0] == 255 and min(g) <= 1
    assert max(abs(a - b) for a, b in zip(g, g[1:])) <= 30   # gamma steepens the top only


STATIC = '''
strip, L = make()
L.set("round", fill_level(3, 7), 255, 0, 0)
L.set("first", 2, 255, 255, 255)
w = []
for t in range(100):
    L.tick(t * 10)
w.append(strip.writes)
for t in range(100, 200):                          # nothing happens
    L.tick(t * 10)
w.append(strip.writes)
L.set("round", fill_level(3, 7), 255, 0, 0)        # the same state again (a resync)
for t in range(200, 210):
    L.tick(t * 10)
w.append(strip.writes)
L.set("round", fill_level(4, 7), 255, 0, 0)        # round 4
for t in range(210, 220):
    L.tick(t * 10)
w.append(strip.writes)
w.append(strip.lit())
L.clear()
for t in range(220, 230):
    L.tick(t * 10)
w.append(strip.writes)
w.append(strip.lit())
out(w=w)
'''


@pytest.mark.parametrize("interp", INTERPS)
def test_static_frame_is_written_once(scenario, interp):
    w = scenario(interp, STATIC)["w"]
    assert w[0] == 1 and w[1] == 1 and w[2] == 1     # 100 + 100 + 10 ticks: one write
    assert w[3] == 2 and w[4] == [0, 1, 2, 3, 11]    # a change: one more write
    assert w[5] == 3 and w[6] == []                  # SEGMENTS_CLEAR: all dark


RATE = '''
strip, L = make(max_hz={hz})
L.set("glow", 255, 255, 0, 0, PULSE, 600)
L.set("seat0", 255, 0, 0, 255, BLINK, 300)
times = []
for t in range(3000):                               # a tick every millisecond
    if L.tick(t):
        times.append(t)
# a change is shown within one frame interval
L.clear()
late = -1
for t in range(3000, 3400):
    if L.tick(t):
        late = t
        break
L.set("round", 255, 0, 255, 0)
shown = -1
for t in range(late + 1, late + 400):
    if L.tick(t) and strip.lit() == [0, 1, 2, 3, 4, 5, 6]:
        shown = t
        break
out(times=times, late=late, shown=shown)
'''


@pytest.mark.parametrize("interp", INTERPS)
@pytest.mark.parametrize("hz", [50, 10])
def test_animation_never_writes_faster_than_the_rate_limit(scenario, interp, hz):
    r = scenario(interp, RATE.format(hz=hz))
    times = r["times"]
    gap = 1000 // hz
    assert min(b - a for a, b in zip(times, times[1:])) >= gap
    assert len(times) >= 3000 // gap * 0.8           # and the animation does run at about that rate
    assert 3000 <= r["late"] < 3000 + gap + 1
    assert r["late"] < r["shown"] <= r["late"] + gap


ERROR = '''
strip, L = make()
L.set("seat0", fill_level(3, 6), 0, 0, 255)
L.set("round", fill_level(5, 7), 0, 255, 0)
L.tick(0)
before = list(strip.frame)
L.error("seat0", flashes=3, period_ms=100)
seen = []
for t in range(20, 460, 5):                 # frames are rendered every 20 ms (50 Hz)
    L.tick(t)
    seen.append([t, strip.text()[:24]])
after = list(strip.frame)
idle = not L.animating
# a set that arrives during a flash is what the segment shows once the flash ends
L.error("seat0")
L.tick(1000)
during = strip.text()[18:24]
L.set("seat0", 255, 255, 255, 0)
L.tick(1100)
mid = strip.text()[18:24]
for t in range(1100, 1800, 20):
    L.tick(t)
final = strip.text()[18:24]
# 2**30 ms later the ms clock has wrapped to the same value: the old flash must not return
L.set("round", fill_level(6, 7), 0, 255, 0)
L.tick((1 << 30) + 1100 + 10)
wrapped = strip.text()[:24]
out(wrapped=wrapped, idle=idle, before=before, after=after, seen=seen, during=during, mid=mid, final=final,
    writes=strip.writes)
'''


@pytest.mark.parametrize("interp", INTERPS)
def test_error_flash_then_back_to_the_previous_state(scenario, interp):
    r = scenario(interp, ERROR)
    seat = [(t, s[18:24]) for t, s in r["seen"]]
    # the flash starts at the first frame after error() (t=20); a frame every 20 ms shows
    # its phase: red for the first half of each 100 ms, dark for the second half
    frames = [(t, s) for t, s in seat if t % 20 == 0 and t < 20 + 300]
    assert all(s == ("RRRRRR" if (t - 20) % 100 < 50 else "......") for t, s in frames), frames
    # between frames the strip holds the last one; three flashes in all
    runs = "".join("R" if s == "RRRRRR" else "-" for t, s in seat if t < 20 + 300)
    assert [len(x) for x in runs.split("-") if x] == [12, 12, 12], runs
    assert all(s[:7] == "GGGGG.." for _, s in r["seen"])          # the neighbour is untouched
    assert all(s == "...BBB" for t, s in seat if t >= 20 + 300)   # back to fill 3, reversed
    assert r["after"] == r["before"]
    assert r["idle"]                                              # the flash is over, not hidden
    assert r["during"] == "RRRRRR" and r["mid"] == "......"       # flash continues over the set
    assert r["final"] == "YYYYYY"
    assert r["wrapped"] == "GGGGGG" + "." * 12 + "YYYYYY"


# -- bad input ---------------------------------------------------------------------------------

BAD = '''
def catch(f):
    try:
        f()
    except ValueError as e:
        return "ValueError: " + str(e)
    except Exception as e:
        return "OTHER %s: %s" % (type(e).__name__, e)
    return "accepted"

strip, L = make()
L.set("round", fill_level(2, 7), 255, 0, 0)
L.tick(0)
frame = list(strip.frame)
errs = {}
errs["unknown_id"] = catch(lambda: L.set(99, 10, 1, 2, 3))
errs["unknown_name"] = catch(lambda: L.set("kingsguard", 10, 1, 2, 3))
errs["level_256"] = catch(lambda: L.set("round", 256, 1, 2, 3))
errs["level_neg"] = catch(lambda: L.set("round", -1, 1, 2, 3))
errs["red_300"] = catch(lambda: L.set("round", 10, 300, 2, 3))
errs["pattern_4"] = catch(lambda: L.set("round", 10, 1, 2, 3, 4, 500))
errs["period_short"] = catch(lambda: L.set("round", 10, 1, 2, 3, BLINK, 30))
errs["count_over"] = catch(lambda: L.set("power0", 16, 1, 2, 3))
errs["dot_over"] = catch(lambda: L.set("season", 4, 1, 2, 3))
errs["error_unknown"] = catch(lambda: L.error(42))
errs["beyond"] = catch(lambda: Segments([("seat7", 56, 8)], 60, VirtualStrip(60)))
errs["overlap"] = catch(lambda: Segments([("a", 0, 8), ("b", 6, 4)], 60, VirtualStrip(60)))
errs["dup"] = catch(lambda: Segments([("a", 0, 8), ("a", 8, 4)], 60, VirtualStrip(60)))
errs["empty"] = catch(lambda: Segments([("a", 0, 0)], 60, VirtualStrip(60)))
errs["mode"] = catch(lambda: Segments([("a", 0, 4, False, "sparkle")], 60, VirtualStrip(60)))
errs["ok_period_0"] = catch(lambda: L.set("glow", 10, 1, 2, 3, PULSE, 0))
L.set("glow", 0, 0, 0, 0, OFF)
wrote = 0
for t in range(10, 2000, 10):
    wrote += L.tick(t)
# tick takes any clock value without complaint
odd = 0
for t in (-5, 0, (1 << 30) - 1, 1 << 30, (1 << 31) + 7, 10**12):
    L.set("seat0", 255, 0, 1, 0, BLINK, 100)
    odd += L.tick(t) is not None
out(errs=errs, frame_same=list(strip.frame) == frame, odd=odd)
'''


@pytest.mark.parametrize("interp", INTERPS)
def test_bad_input_is_refused_at_configuration_time(scenario, interp):
    r = scenario(interp, BAD)
    e = r["errs"]
    for k, v in e.items():
        if k.startswith("ok_"):
            assert v == "accepted", (k, v)
        else:
            assert v.startswith("ValueError: "), (k, v)
    assert "unknown segment id 99" in e["unknown_id"] and "0..6" in e["unknown_id"]
    assert "unknown segment 'kingsguard'" in e["unknown_name"] and "round" in e["unknown_name"]
    assert "level" in e["level_256"] and "256" in e["level_256"]
    assert "level" in e["level_neg"]
    assert "red" in e["red_300"]
    assert "pattern" in e["pattern_4"]
    assert "period_ms 30" in e["period_short"]
    assert "'power0'" in e["count_over"] and "15 pixels" in e["count_over"]
    assert "'season'" in e["dot_over"]
    assert "'seat7' covers pixels 56..63" in e["beyond"] and "60 pixels" in e["beyond"]
    assert "overlaps segment 'a' at pixel 6" in e["overlap"]
    assert "twice" in e["dup"]
    assert "length" in e["empty"]
    assert "sparkle" in e["mode"]
    # the refused commands changed nothing on the strip
    assert r["frame_same"]
    assert r["odd"] == 6


# -- no allocation on a small heap ---------------------------------------------------------------

HEAP = '''
import sys, gc, micropython
sys.path.insert(0, {mpy!r})
from maester_fw.leds import Segments, fill_level, SOLID, BLINK, PULSE
import maester_fw.leds
from virtual_strip import VirtualStrip
print("MODULE", maester_fw.leds.__file__)
N = 96
profile = [("seat%d" % i, 8 * i, 8, i % 2 == 1) for i in range(8)]
profile += [("round", 64, 7), ("season", 71, 3, False, "dot"), ("power0", 74, 15, False, "count"),
            ("order", 89, 7, False, "dim")]
strip = VirtualStrip(N)
L = Segments(profile, N, strip, budget_ma=400)
for i in range(8):
    L.set(i, fill_level(i, 8), 255, 200, 50, (SOLID, BLINK, PULSE)[i % 3], 300 + 100 * i)
L.set("round", fill_level(3, 7), 255, 0, 0, PULSE, 1500)
L.set("season", 2, 0, 255, 0, BLINK, 800)
L.set("power0", 9, 0, 0, 255)
L.set("order", 128, 255, 255, 255, PULSE, 700)
t = 0
for i in range(100):
    L.tick(t)
    t += 7
L.error("seat3", flashes=200, period_ms=100)    # an error flash runs during the measurement
# the instrument works: an allocating loop is seen
gc.collect(); gc.disable()
a0 = gc.mem_alloc()
junk = [bytes(8) for i in range(10)]
print("probe", gc.mem_alloc() - a0)
gc.enable()
gc.collect()
f0 = gc.mem_free()
w0 = strip.writes
for i in range(1000):
    L.tick(t)
    t += 7
gc.collect()
f1 = gc.mem_free()
print("free", f0, f1)
print("writes", strip.writes - w0)
gc.disable()
a0 = gc.mem_alloc()
for i in range(200):
    L.tick(t)
    t += 7
print("alloc", gc.mem_alloc() - a0)
gc.enable()
micropython.heap_lock()
for i in range(200):
    L.tick(t)
    t += 7
micropython.heap_unlock()
print("locked", L.ma, L.ma_uncapped, L.scale)
'''


def test_1000_ticks_do_not_grow_the_heap_at_64k(run_micropython, mpy_dir):
    # leds.py from source does not compile in a 64 KB heap: load the bytecode a board ships
    proc = run_micropython(HEAP.format(mpy=str(mpy_dir)), heap="64k")
    lines = dict(line.split(" ", 1) for line in proc.stdout.splitlines())
    assert lines["MODULE"].endswith("leds.mpy")
    assert int(lines["probe"]) > 0
    f0, f1 = map(int, lines["free"].split())
    assert f0 - f1 <= 64, (f0, f1)
    assert int(lines["writes"]) >= 300          # the loop really animated (7 s at 50 Hz max)
    assert int(lines["alloc"]) == 0             # not a byte per tick, GC off
    ma, raw, scale = map(int, lines["locked"].split())
    assert ma <= 400 < raw and scale < 256      # and it rendered under the cap, heap locked


# -- both interpreters draw the same frames ---------------------------------------------------

SAME = '''
import binascii
strip, L = make(budget_ma=250)
L.set("round", fill_level(5, 7), 255, 128, 0, PULSE, 900)
L.set("seat0", 200, 0, 90, 255, BLINK, 250)
L.set("glow", 77, 255, 255, 255, PULSE, 1300)
L.set("first", 4, 255, 255, 255)
L.set("power0", 12, 255, 0, 0)
crc = 0
for t in range(0, 4000, 3):
    if t == 1500:
        L.error("first")
    if L.tick(t):
        crc = binascii.crc32(strip.frame, crc)
out(crc=crc, writes=strip.writes, ma=L.ma)
'''


def test_micropython_and_cpython_draw_identical_frames(scenario):
    a = scenario("micropython", SAME)
    b = scenario("cpython", SAME)
    assert a == b
    assert a["writes"] > 100


# -- what a frame write costs the board (issue 24, item 6) ---------------------------------------

BIG_TABLE = {"board": "t", "readers": [{"type": "mfrc522", "cs": 17, "name": "seat0"}],
             "leds": {"pin": 22, "pixels": 300, "budget_ma": 20000},
             "segments": {"all": [0, 300]}, "poll": {"interval_ms": 20}}


@pytest.mark.parametrize("port", ["rp2", "esp32"])
def test_a_pulsing_300_pixel_strip_never_masks_interrupts_and_a_pass_stays_short(run_micropython, port):
    """Issue 24, item 6: before the fix every rp2 frame masked interrupts for 9 ms (bitstream)."""
    from test_app import HEADER
    cfg = dict(BIG_TABLE, spi={"id": 1, "sck": 12, "mosi": 11, "miso": 13}, leds=dict(BIG_TABLE["leds"], pin=14))
    cfg["readers"] = [dict(cfg["readers"][0], cs=10)]
    body = HEADER % json.dumps(cfg if port == "esp32" else BIG_TABLE) + r'''
from hal_esp32 import Esp32HalSim
r = Rig(hal=Esp32HalSim if %r == "esp32" else HalSim)
r.handshake()
r.send(wire.SEGMENT_SET, wire.segment_set(0, 255, (0, 80, 255), wire.PULSE, 1000))
longest = 0
for _ in range(1000):
    t0 = r.clock.now
    r.step()
    longest = max(longest, r.clock.now - t0 - 2)
s = r.hal.strip_obj
out(path=s.path, writes=s.writes, masked_us=s.masked_us, longest_block_us=s.longest_block_us, longest_pass=longest)
''' % port
    (r,) = [json.loads(x) for x in run_micropython(body, heap="4m", timeout=300).stdout.splitlines() if x.startswith("{")]
    assert r["writes"] > 50
    assert r["masked_us"] == 0, r  # no USB or timer interrupt waits for the strip
    if port == "rp2":
        assert r["path"] == "pio" and r["longest_block_us"] < 1000 and r["longest_pass"] <= 2, r
    else:
        assert r["path"] == "rmt" and r["longest_block_us"] == 9000  # the esp32 waits the frame, IRQs on


def test_the_pio_program_sends_each_byte_msb_first_with_ws2812_timing(run_micropython):
    # maester_fw/pio_ws2812.py as it is, its program assembled and run cycle by cycle (sim/rp2.py)
    (r,) = [json.loads(x) for x in run_micropython(r'''
import json
from maester_fw.pio_ws2812 import PioStrip
s = PioStrip(object())
frame = bytes([0x00, 0xFF, 0xA5, 0x3C, 0x81, 0x7E])   # two GRB pixels
s.write(frame)
print(json.dumps({"wave": s._sm.wave, "freq": s._sm.freq}))
''').stdout.splitlines() if x.startswith("{")]
    ns = 1e9 / r["freq"]
    wave = r["wave"]
    assert wave[0][0] == 0 and wave[-1][0] == 0  # low before the first bit, low after the last (the latch)
    runs = wave[1:]  # (high, low) per bit; the last low is the line idle after the frame
    bits, times = [], {0: set(), 1: set()}
    for i, ((lv, hi), (lv2, lo)) in enumerate(zip(runs[0::2], runs[1::2])):
        assert lv == 1 and lv2 == 0
        bit = 1 if hi * ns > 550 else 0
        bits.append(bit)
        times[bit].add((hi * ns, lo * ns if 2 * i + 2 < len(runs) else None))
    assert {t for t in times[0] if t[1] is not None} == {(250, 1000)}
    assert {t for t in times[1] if t[1] is not None} == {(875, 375)}
    assert runs[-1][1] * ns >= 6000  # idle low after the frame: the WS2812 latches it
    got = bytes(int("".join(map(str, bits[i:i + 8])), 2) for i in range(0, 48, 8))
    assert got == bytes([0x00, 0xFF, 0xA5, 0x3C, 0x81, 0x7E])
