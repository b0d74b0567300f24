"""The LCG on the table: a card tapped on a seat's reader is that seat's card; what the LEDs show.

Readers (hardware/profiles/lcg-*p.json): one in front of each seat, none in the middle. Every card
has an owner and lies in front of one seat: in its owner's hand, deck, plot deck and piles, or in
play on the side of the player who controls it (an attachment also lies on its host's side).

Stickers name a physical card, ``"<code>#<copy>"`` (``maester enroll lcg``: "S5#1", a second Core
Set "S5#2"; the sim-board's stickers name the game's own instances, "S5#0"). Only the code counts:
the game's instance is ``"<code>#<owner seat>"`` (model.py), and which seat's copy a tap means is
told by the reader it is laid on. A tap of code C on seat N's reader is the copy of C lying in
front of seat N: "C#N" from N's hand, deck or plots, or any copy N controls in play. A deck of one's
own may hold more copies of C ("C#N~2", ...: model.instance_ids); out of play they are alike, and a
tap means the first of them that fits (the seat's page picks among copies in play).

What a tap means, for the seat whose reader it is (the choices whose card is that copy):

    plot            ["plot", inst]          the plot, chosen face down: the table sees only that
                                            the seat has chosen (the engine's public ask)
    draw            ["drew", inst]          a card drawn from the real, hand-shuffled deck
    setup           ["place", inst]         placed face down at setup
    marshal         ["marshal", inst], ["duplicate", inst], ["attach", inst, host]: with several
                                            hosts (or a card that may be marshalled or put into
                                            play by Ambush) the tap waits, CHOOSE_AFTER_TAP, and
                                            the seat picks on its page
    attackers       ["attacker", inst]      defenders  ["defender", inst]
    claim_kill      ["kill", inst]          deadly     ["kill", inst]
    stealth         ["stealth", inst, t]    the Stealth attacker, its mark picked after the tap; or
                                            the mark tapped on the defender's reader (one tap when
                                            a single Stealth attacker is left to use)
    vigilant, vengeful ["stand", inst]      infamy     ["card", inst]
    action, response, save, cancel  ["action"|"respond"|"save"|"cancel", source, ability]: the
                                            source card (an event from the hand); a card with two
                                            abilities waits for the pick
    save            ["dup", dup]            the duplicate discarded to save its card
    action          ["ambush", inst]        influence  ["kneel_influence", inst]
    target          ["target", inst]        also on the reader of the seat the target lies in front
                                            of: an opponent's character is tapped on its own side
    order           ["next", src, ability]  the card whose effect resolves next (the first player's
                                            pick), also on the reader of the seat it lies in front of
    challenge       ["challenge", type, opp]  a standing character of the seat that could attack: the
                                            challenge its icons allow, then (CARRY) the same tap goes
                                            on to declare it the first attacker; a character fit for
                                            several challenges waits for the pick (issue 28)

Choices that name no card (done, pass, a challenge by the page, the first player, a title, a seat as target,
the Hand of the King's influence, gold given in the Littlefinger variant) are made on the seat's
page. A refused tap names its card only to whom the view shows it (TableRunner.tap_words): the
host display says "a card" unless the card lies face up, a seat's page unless it is that seat's.

LEDs come from the public view alone: the phase, the challenge in progress, each seat's power
toward victory, the first player, and per seat whether it must act, attacks or defends, or won.
"""

from ...table.lights import seat_lights
from . import model as M
from .challenge import can_attack_with
from .text import Names, describe_choice

CHOOSE_AFTER_TAP = True
# The asks whose choices hang on a hidden hand (timing.py asks its windows on public facts alone; every
# seat sets up and marshals, whatever its hand can pay for): at a table each stays open the same time
# for every seat, whatever it holds, then closes with this answer (table/asking.py).
WINDOW_KINDS = {"action": ["pass"], "response": ["pass"], "save": ["pass"], "cancel": ["pass"], "setup": ["done"],
                "marshal": ["done"]}
# The declarations a seat closes by letting a public pause run out after its last tap (pause_end):
# attackers, defenders, Stealth marks. What can still be added is public (characters in play), so
# the pause hangs on no hand; it only spares the "done" press, and --window-ms and hold apply.
PAUSE_KINDS = ("attackers", "defenders", "stealth")
# The asks whose tap goes on to answer the seat's next decision with the same card (table/taps.py
# carried): the character tapped to choose a challenge is declared its first attacker.
CARRY = ("challenge",)
# choices a card answers from another seat's reader: the card lies there (a target; the top card of a
# deck Raff looks at; the card whose passive effect the first player has resolve next)
CROSS = ("target", "top", "next")
# ... and where in the choice that card is named: a Stealth mark is the defender's character, tapped
# on the defender's reader (one tap, where the attacker's own tap leaves the mark to pick on the page)
CROSS_AT = dict({c: 1 for c in CROSS}, stealth=2)
TYPES = ("military", "intrigue", "power")
POWER_PIXELS = 15  # each seat's power bar in the profiles: one pixel per power toward 15

PHASE_RGB = (255, 255, 255)
TYPE_RGB = {"military": (255, 0, 0), "intrigue": (0, 200, 0), "power": (40, 80, 255)}
POWER_RGB = (255, 200, 0)  # gold, and no challenge colour: yellow on the sim-board's strip text
FIRST_RGB = (0, 220, 255)  # cyan


# --- where a card lies, and what a tap of it means --------------------------------------------------

def lies_at(g, inst):
    """The seats in front of whom `inst` lies: its controller's side in play (and its host's, for
    an attachment; its card's, for a duplicate), else its owner's."""
    c = g["cards"][inst]
    if c["zone"] == "play":
        out = {c["ctrl"]}
        if c["on"] is not None:
            out.add(g["cards"][c["on"]]["ctrl"])
        return out
    if c["zone"] == "dup" and c["on"] is not None:
        return {g["cards"][c["on"]]["ctrl"]}
    return {c["owner"]}


def copies_at(state, card, place):
    """The game's copies of the tapped card's code that lie in front of seat `place`."""
    g = state["g"]
    if not isinstance(place, int) or isinstance(place, bool):
        return []
    code = M.code(card)
    out = []
    for seat in range(g["n"]):
        inst, k = "%s#%d" % (code, seat), 1
        while inst in g["cards"]:  # a deck's further copies of the code: "S5#0~2", ... (model.instance_ids)
            if place in lies_at(g, inst):
                out.append(inst)
            k += 1
            inst = "%s#%d~%d" % (code, seat, k)
    return out


def tapped_as(state, card, place):
    """The game's cards a tap of sticker `card` on `place`'s reader stands for: the copies of its
    code lying in front of that seat (a sticker names a code; the reader tells whose copy)."""
    return copies_at(state, card, place)


def crossed(g, c, place):
    """Whether choice `c` names a card lying in front of `place` that a tap there may answer."""
    k = CROSS_AT.get(c[0])
    return k is not None and len(c) > k and isinstance(c[k], str) and c[k] in g["cards"] and place in lies_at(g, c[k])


def asks_at(state, place):
    """The asks a tap at seat `place`'s reader may answer: its own, then another seat's ask that may
    pick a card lying there (a target)."""
    asks = state["asks"]
    own = [a for a in asks if a["seat"] == place]
    if not isinstance(place, int) or isinstance(place, bool):
        return own
    g = state["g"]
    return own + [a for a in asks if a["seat"] != place and any(crossed(g, c, place) for c in a["choices"])]


def tap_choices(state, ask, card, place=None):
    """The choices of `ask` that a tap of `card` on seat `place`'s reader means (see the module's
    table). Never the default reading: a sticker's copy number is not a seat."""
    if place is None:
        place = ask["seat"]
    if ask["kind"] == "challenge":
        return challenge_choices(state, ask, card, place)
    here = copies_at(state, card, place)
    if not here:
        return []
    own = ask["seat"] == place
    found = [c for c in ask["choices"] if len(c) > 1 and c[1] in here and (own or c[0] in CROSS)]
    if not own and ask["kind"] == "stealth":
        found = [c for c in ask["choices"] if c[0] == "stealth" and c[2] in here]
    if len(here) < 2:
        return found
    # A deck's further copies of the code ("S5#0~2") out of play are interchangeable: the tap picks
    # the first copy the seat holds there; copies in play keep their own choices.
    g = state["g"]
    out, seen = [], set()
    for c in found:
        zone = g["cards"][c[1]]["zone"]
        key = None if zone in ("play", "dup") else (c[0], zone, repr(c[2:]))
        if key is None or key not in seen:
            out.append(c)
            seen.add(key)
    return out


def challenge_choices(state, ask, card, place):
    """The challenges a tap of `card` on the challenging seat's own reader means: those whose type
    is an icon of a copy there that could attack in it (challenge.can_attack_with)."""
    if place != ask["seat"]:
        return []
    here = set(copies_at(state, card, place))
    fit = {}
    for c in ask["choices"]:
        if c[0] == "challenge" and c[1] not in fit:
            fit[c[1]] = here.intersection(can_attack_with(state, ask["seat"], c[1]))
    return [c for c in ask["choices"] if c[0] == "challenge" and fit[c[1]]]


def carriers(state, ask, choice):
    """The cards whose tap at `ask` means `choice` alone and goes on to answer the seat's next
    decision (CARRY): for a challenge, the characters that could attack in no other open challenge.
    What `bench inputs` credits; at the table the runner does it (taps.carried)."""
    if ask["kind"] not in CARRY or choice[0] != "challenge":
        return set()
    return {i for i in can_attack_with(state, ask["seat"], choice[1])
            if challenge_choices(state, ask, i, ask["seat"]) == [choice]}


def pause_end(state, ask):
    """The answer that closes a declaration once its seat has tapped a card into it and a public
    pause has run out (PAUSE_KINDS, table/asking.py); None before its first card: to declare no
    defenders at all, or no Stealth, is a choice made on the page."""
    ch = state["g"].get("challenge")
    if ask["kind"] not in PAUSE_KINDS or ch is None or ["done"] not in ask["choices"]:
        return None
    g = state["g"]
    tapped = {"attackers": ch["attackers"], "stealth": ch["stealthed"],
              "defenders": [i for i in ch["defenders"] if g["cards"][i]["ctrl"] == ask["seat"]]}[ask["kind"]]
    return ["done"] if tapped else None


def extra_tags(state):
    """The simulated stickers: one on every physical card of the game, named by its instance."""
    return sorted(state["g"]["cards"])


def needed(state):
    """{code: how many physical copies the game needs}: one per seat whose deck holds the card."""
    out = {}
    for inst in state["g"]["cards"]:
        code = M.code(inst)
        out[code] = out.get(code, 0) + 1
    return out


def missing_stickers(state, tags):
    """The stickers still to enroll, as `maester enroll lcg [--sets N]` names them ("S5#2"): a
    game with the same starter deck at two seats needs two copies of its cards, and any sticker of
    a code serves any seat."""
    have = {}
    for card in set(tags.values()):
        if "#" in card:
            code = M.code(card)
            have[code] = have.get(code, 0) + 1
    out = []
    bound = set(tags.values())
    for code, n in sorted(needed(state).items()):
        short = n - have.get(code, 0)
        free = ["%s#%d" % (code, k) for k in range(1, n + 1) if "%s#%d" % (code, k) not in bound]
        out += free[:max(0, short)]
    return sorted(out)


def enroll_command(missing):
    """The command that enrolls `missing`: a second Core Set's copies come with --sets."""
    sets = max([int(c.rsplit("#", 1)[1]) for c in missing] + [1])
    return "maester enroll lcg" + (" --sets %d" % sets if sets > 1 else "")


# --- words (for the seat's own page: a refused card, the places a tap may mean) -----------------------

def card_words(state, card):
    return Names(state["g"], M.table(state)).card(card)


def choice_words(state, choice):
    text = describe_choice(state, None, choice)
    if choice[0] in ("action", "respond", "save", "cancel") and len(choice) > 2 and isinstance(choice[2], int):
        text += " (ability %d)" % (choice[2] + 1)
    return text


# --- the LEDs -----------------------------------------------------------------------------------------

def power_level(view, seat):
    """The fill level of `seat`'s power bar: its power toward the goal (its team's in two-on-two),
    one pixel per 15th of the goal rounded up, the last pixel only at the goal."""
    seats = view["seats"]
    team = next((t for t in view["teams"] or () if seat in t), [seat])
    power = sum(seats[s]["total_power"] for s in team)
    goal = max(1, view["goal"])
    lit = min(POWER_PIXELS, -(-power * POWER_PIXELS // goal))
    if power < goal:
        lit = min(lit, POWER_PIXELS - 1)
    return lit * 255 // POWER_PIXELS


def segments(view):
    """{segment: (level, rgb, pattern, period_ms)} from the public view (hardware/profiles/lcg-*p)."""
    phase = view["phase"]
    ch = view["challenge"]
    out = {
        "phase": (M.PHASES.index(phase) + 1 if phase in M.PHASES else 0, PHASE_RGB, "solid", 0),
        "challenge": ((TYPES.index(ch["type"]) + 1, TYPE_RGB[ch["type"]], "solid", 0) if ch
                      else (0, PHASE_RGB, "solid", 0)),
    }
    for seat in range(view["players"]):
        out["power%d" % seat] = (power_level(view, seat), POWER_RGB, "solid", 0)
        out["first%d" % seat] = (255 if view["first"] == seat else 0, FIRST_RGB, "solid", 0)

    def state_of(seat):
        if ch and seat == ch["attacker"]:
            return 255, TYPE_RGB[ch["type"]]
        if ch and seat in (ch["defender"], ch.get("supporter")):
            return 110, TYPE_RGB[ch["type"]]
        return None

    out.update(seat_lights(view, state_of))
    return out
