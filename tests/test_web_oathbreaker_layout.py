"""Oathbreaker's own seat and table pages (games/oathbreaker/web.py), as the blocks the pages draw.

Pure Python: tables rigged with the Oathbreaker harness or played at random, then the layout
functions read as a person would read the pages: the table never changes with a hidden card, a
loyalty or an ambition; a seat's hand and secrets are behind its own tab; the missions of the
round lie side by side with their counts, sigils and results; the choice of a Character Board
names the side, and so does Daenerys's sideways decree; the result comes first at the end; no
engine word or card id reaches a page at any decision of a whole game. In Chromium, on a phone: a
noble taps a card, then one of the missions lit for it, and the card is played there.
"""

import copy
import json
import random

import pytest

from maester.engine import PUBLIC, cardtables, core
from maester.engine.session import Session
from maester.games.oathbreaker import web
from maester.games.oathbreaker.text import describe_choice
from maester.web.payload import Words
from oathbreaker_harness import Table
from layout_blocks import card_names, chips, seat, table, texts
from page_checks import word_problems
from test_web import open_page, phone, seat_url, served, wait_until  # noqa: F401 — phone: a fixture

pytestmark = pytest.mark.usefixtures("shipped_data")  # conftest.py







def block(blocks, title):
    return next(b for b in blocks if (b.get("title") or "").startswith(title))


def name(t, inst):
    return Words(t.state, t.view(PUBLIC), PUBLIC).card(inst)


def mid_round():
    """Seats 1 and 2 have played their cards this Mission Round (seat 1 two to mission 1, seat 2
    one to each); seat 3 is to play."""
    t = Table(6, seed=4)
    t.mission_deck_top("feed-flea-bottom#1", "hire-the-faceless-men#1")
    t.hand(1, "crown#1", "crown#2", "sabotage#1")
    t.hand(2, "sword#1", "raven#1", "double-crown#1")
    t.start(1)
    t.play(1, ("crown#1", 0), ("crown#2", 0))
    if t.ask()["kind"] == "ability":
        t.choose(1, "pass")
    t.play(2, ("sword#1", 0), ("raven#1", 1))
    t.auto(lambda t: t.ask()["kind"] == "play" and t.ask()["seat"] == 3)
    return t


def hidden_differently(t):
    """The same table as everyone but seats 1 and 2 (and the King's hand) may know it: seat 1's hand
    card swapped with one of the deck, the loyalties and ambitions of seats 1 and 2 swapped, the
    King's decrees swapped with the decree deck's, the face-down cards of the two missions swapped."""
    state = copy.deepcopy(t.state)
    g = state["g"]
    hand, deck = g["hands"][1], g["deck"]
    i = next(i for i, c in enumerate(deck) if c.split("#")[0] != hand[0].split("#")[0])
    hand[0], deck[i] = deck[i], hand[0]
    g["loyalty"][1], g["loyalty"][2] = "conspirator", "loyalist"
    g["ambition"][1], g["ambition"][2] = g["ambition"][2], g["ambition"][1]
    g["decree_hands"][0][0], g["decree_deck"][0] = g["decree_deck"][0], g["decree_hands"][0][0]
    a, b = g["missions"][0]["cards"], g["missions"][1]["cards"]
    a[0], b[0] = b[0], a[0]
    return state


def test_the_table_and_the_other_seats_show_nothing_hidden():
    t = mid_round()
    t.loyalties(s1="loyalist", s2="conspirator")
    other = hidden_differently(t)
    assert seat(other, 1)["secret"] != seat(t.state, 1)["secret"]  # seat 1 itself sees the change
    assert json.dumps(table(other)) == json.dumps(table(t.state))
    for s in (3, 4, 5):
        assert json.dumps(seat(other, s)) == json.dumps(seat(t.state, s))


def test_a_nobles_tab_holds_its_loyalty_ambition_hand_and_cards_on_the_missions():
    t = mid_round()
    t.loyalties(s1="conspirator")
    mine = seat(t.state, 1)
    g = t.g
    names = card_names(mine["secret"])
    for inst in g["hands"][1]:
        assert name(t, inst) in names
    assert dict(block(mine["secret"], "Only you know")["items"]) == {"Your loyalty": "Conspirator"}
    ambition = block(mine["secret"], "Your ambition")["cards"]
    assert [c["id"] for c in ambition] == [g["ambition"][1]]
    need = {r: cardtables.get(g["table"])["info"][g["ambition"][1].split("#")[0]][r] for r in ("coin", "honor", "power")}
    assert ambition[0]["note"] == "still to gain: " + ", ".join("%d %s" % (k, r) for r, k in need.items() if k)
    plays = block(mine["secret"], "Your cards on the missions")["cards"]
    assert [(c["name"], c["note"]) for c in plays] == [("Crown", "mission 1"), ("Crown", "mission 1")]
    assert mine["hand_count"] == len(g["hands"][1])
    # Nobody else's page names those cards, nor the loyalty.
    for other in (table(t.state), seat(t.state, 2), seat(t.state, 0)):
        assert "Conspirator" not in texts(other)
        assert not {"crown#1", "crown#2"} & {c["id"] for c in chips(other)}


def test_the_kings_tab_holds_his_decrees():
    t = mid_round()
    king = seat(t.state, 0)
    assert sorted(c["name"] for c in block(king["secret"], "Your decrees")["cards"]) == sorted(
        name(t, c) for c in t.g["decree_hands"][0])
    assert king["hand_count"] == len(t.g["decree_hands"][0])


def test_the_missions_lie_side_by_side_with_the_cards_each_seat_put_there():
    t = mid_round()
    words = Words(t.state, t.view(PUBLIC), PUBLIC)
    short = {s: words.seat(s).split(" ")[0] for s in (1, 2)}
    missions = block(table(t.state), "Missions of this round")
    first, second = missions["items"]
    assert first["title"] == "1. Feed Flea Bottom" and second["title"] == "2. Hire the Faceless Men"
    assert first["lines"][0] == "Crown · 3 cards: %s 2, %s 1" % (short[1], short[2])
    assert second["lines"][0] == "Sword · 1 card: %s 1" % short[2]
    assert "Sigils: %s, %s" % (short[1], short[2]) in first["lines"]  # in the order they were placed
    # On seat 1's page, by its buttons: the same missions, with its own cards named.
    about = block(seat(t.state, 1)["about"], "Missions of this round")
    assert "Yours: Crown, Crown" in about["items"][0]["lines"]
    assert not any(line.startswith("Yours") for line in missions["items"][0]["lines"])


def test_between_mission_rounds_the_last_rounds_missions_show_their_results():
    t = mid_round()
    t.to_decree_round()
    missions = block(table(t.state), "Missions of round 1")
    history = [h for h in t.g["history"] if h["space"] == 0]
    by_number = {int(item["title"].split(".")[0]) - 1: item for item in missions["items"]}
    for h in history:
        item = by_number[h["mission"]]
        assert item["tags"] == ["won" if h["success"] else "lost"]
        gain = "Order +%d" % h["order"] if h["success"] else "Chaos +%d" % h["chaos"]
        assert item["lines"][-1] == "%d helping, %d sabotage: %s" % (h["match"], h["sabotage"], gain)


def test_the_round_track_lights_the_round_markers_space_and_shows_the_results_played():
    t = mid_round()
    t.to_decree_round()
    track = block(table(t.state), "Rounds")
    states = [c["state"] for c in track["cells"]]
    assert states[:2] == ["done", "now"] and set(states[2:]) == {"todo"}
    marks = "".join("✓" if h["success"] else "✗" for h in t.g["history"])
    assert track["cells"][0]["label"] == "2 missions " + marks
    assert track["caption"].startswith("Round 2 of 7: a Decree Round")


def test_the_court_shows_cubes_decrees_in_front_and_the_hand_of_the_king():
    t = mid_round()
    t.cubes(2, coin=1, power=2)
    court = block(table(t.state), "The court")
    assert court["columns"][:3] == ["Coin", "Honor", "Power"]
    row = court["rows"][2]
    assert row["cells"][:3] == ["1", "0", "2"]
    assert "hand" in court["rows"][1]["tags"]  # the first Hand of the King
    assert "turn" in court["rows"][3]["tags"]
    phone = block(seat(t.state, 3)["board"], "The court")
    assert phone["rows"][2]["cells"][0] == "1 coin, 2 power"


def test_the_kings_decree_is_a_decree_then_a_noble_lit_in_the_court_by_his_buttons():
    t = mid_round()
    t.to_decree_round()
    ask = t.ask(0)
    view = core.view(t.state, 0)
    marks = [web.option_mark(view, ask, c) for c in ask["choices"]]
    court = block(seat(t.state, 0)["about"], "The court")
    places = {r["target"]: r["seat"] for r in court["rows"]}
    assert len({c[1] for c in ask["choices"] if len(c) == 3}) > 1
    for choice, mark in zip(ask["choices"], marks):
        if len(choice) == 3:  # a Favor or Suspicion on a noble
            assert mark["pick"] == choice[1] and places[mark["at"]] == choice[2]
        else:  # a Proclamation, or a decree the nobles vote on: a button of its own
            assert mark is None


def test_a_single_card_is_played_with_buttons_that_say_where():
    t = mid_round()
    t.hand(3, "raven#2")
    ask = t.ask(3)
    view = core.view(t.state, 3)
    assert [web.option_mark(view, ask, c) for c in ask["choices"]] == [None] * len(ask["choices"])
    labels = [describe_choice(t.state, ask, c, 3) for c in ask["choices"] if c[0] == "play"]
    assert labels == ["play Raven face down to mission %d (%s)" % (i + 1, n) for i, n in
                      enumerate(["Feed Flea Bottom", "Hire the Faceless Men"])]


def test_choosing_a_character_board_names_the_board_and_side_of_every_choice():
    t = Table(6, seed=2, characters=None)
    ask = t.ask()
    assert ask["kind"] == "character" and "side" in ask["prompt"]
    labels = [describe_choice(t.state, ask, c, ask["seat"]) for c in ask["choices"]]
    assert "Ned Stark (Stark board, diamond side)" in labels
    assert "Arya Stark (Stark board, other side)" in labels
    assert all(label.endswith(("diamond side)", "other side)")) for label in labels)
    boards = block(seat(t.state, ask["seat"])["about"], "The Character Boards")
    stark = next(r for r in boards["rows"] if r["name"] == "Stark board")
    assert stark["cells"] == ["Ned Stark", "Arya Stark", "free"]


def test_daenerys_plays_her_decree_sideways_and_her_buttons_say_so():
    t = Table(6, seed=4)  # seat 3 is Daenerys Targaryen
    t.start(1)
    t.auto(lambda t: t.g["phase"] == "decree")
    t.cubes(3, coin=3, honor=3, power=3)
    t.auto(lambda t: t.ask()["kind"] == "ability" and t.ask()["seat"] == 3)
    t.choose(3, *t.choices(3)[0])
    t.auto(lambda t: t.ask()["seat"] == 3 and t.ask()["kind"] == "decree")
    ask = t.ask(3)
    labels = [describe_choice(t.state, ask, c, 3) for c in ask["choices"]]
    assert all(" sideways" in label for label in labels)
    turned = block(seat(t.state, 3)["about"], "The decree being played")
    assert [c["name"] for c in turned["cards"]] == [name(t, t.g["resolving"][0])]
    # The King's own decrees are played upright: no "sideways" on his buttons.
    king = {"seat": 0, "kind": "decree"}
    assert "sideways" not in describe_choice(t.state, king, ["decree", t.g["resolving"][0], 1], 0)


def until_asked(players, seed, kind):
    """A game of random choices (characters chosen at the table) up to the first `kind` decision."""
    t = Table(players, seed=seed, characters=None)
    rng = random.Random(seed)
    while t.ask()["kind"] != kind:
        ask = t.ask()
        t.choose(ask["seat"], *rng.choice(ask["choices"]))
    return t


def test_melisandre_takes_a_card_with_the_cards_she_saw_beside_the_buttons():
    t = until_asked(5, 14, "melisandre_take")
    s = t.ask()["seat"]
    i = t.g["notes"][s][-1]["mission"]
    seen = block(seat(t.state, s)["about"], "The cards of mission %d" % (i + 1))
    assert sorted(c["id"] for c in seen["cards"]) == sorted(t.g["missions"][i]["cards"])
    assert not {c["id"] for c in seen["cards"]} & {c["id"] for c in chips(table(t.state))}


def test_the_king_judging_sees_the_noble_he_judges_and_the_guesses_so_far():
    t = until_asked(5, 14, "guess")
    t.choose(0, "loyalist")
    ask = t.ask()
    about = seat(t.state, 0)["about"]
    judged = block(about, "The noble you judge")
    assert [r["seat"] for r in judged["rows"]] == [ask["data"]["target"]]
    court = block(about, "The court")
    first = next(s for s, x in enumerate(t.g["guesses"]) if x)
    assert court["rows"][first]["cells"][court["columns"].index("Judged as")] == "loyalist"


def finished(players, seed):
    t = Table(players, seed=seed)
    t.start(1)
    t.auto()
    return t


def test_at_the_end_both_pages_show_the_result_first():
    t = finished(6, 3)
    res = t.state["result"]
    realm = "Order" if res["realm"] == "order" else "Chaos"
    for blocks in (table(t.state), seat(t.state, 0)["about"], seat(t.state, 2)["about"]):
        assert blocks[0]["type"] == "text"
        assert blocks[0]["text"].startswith("%s wins the realm, Order %d to Chaos %d" % (realm, res["order"],
                                                                                        res["chaos"]))
        final = block(blocks, "Final Judgment")
        assert [r["seat"] for r in final["rows"] if "winner" in r["tags"]] == res["winners"]
        loyalty = final["columns"].index("Loyalty")
        assert [r["cells"][loyalty] for r in final["rows"]] == [x or "monarch" for x in res["loyalty"]]


# Three games that, between them, ask every kind of decision the game has (observed tables aside).
WHOLE_GAMES = [(5, 14, {"ability", "confess", "confess_look", "discard", "melisandre_look", "melisandre_take", "vote"}),
               (6, 11, {"ability", "arya", "cornered", "cube", "discard", "melisandre_take"}),
               (8, 11, {"arya", "cube", "tie_break", "trade_accept", "trade_offer", "vote"})]


@pytest.mark.parametrize("players,seed,met", WHOLE_GAMES)
def test_no_engine_word_or_card_id_at_any_decision_of_a_whole_game(players, seed, met):
    """A whole game at random: at every decision the table and the deciding seat's page are in the
    game's words."""
    t = Table(players, seed=seed, characters=None)
    rng = random.Random(seed)
    kinds = set()
    while not t.state["over"]:
        ask = t.ask()
        s = ask["seat"]
        if isinstance(s, int):
            kinds.add(ask["kind"])
            shown = texts(table(t.state)) + texts(seat(t.state, s))
            view = core.view(t.state, s)
            labels = [Words(t.state, view, s).choice(ask, c) for c in ask["choices"]]
            problems = word_problems("\n".join(shown + labels), view)
            assert not problems, (ask["kind"], problems)
            assert not [w for w in shown + labels if "#" in w], ask["kind"]
        t.choose(s, *rng.choice(ask["choices"]))
    assert {"character", "first_hand", "play", "sigil", "resolve", "decree", "guess"} | met <= kinds
    shown = texts(table(t.state)) + [w for s in range(players) for w in texts(seat(t.state, s))]
    assert not word_problems("\n".join(shown), core.view(t.state, 0))


# --- the phone: tap a card, then a lit mission --------------------------------------------------------

def test_on_a_phone_a_noble_taps_a_card_then_a_lit_mission_and_the_card_is_played_there(phone):  # noqa: F811 (the fixture from test_web)
    session = Session.new("oathbreaker", {"players": 6, "owner_cards": False}, 5)
    rng = random.Random(5)
    while True:  # on to a noble's turn with cards to choose from and missions to choose between
        ask = session.state["asks"][0]
        plays = [c for c in ask["choices"] if c[0] == "play"]
        if ask["kind"] == "play" and len({c[1] for c in plays}) > 1 and len({c[2] for c in plays}) > 1:
            break
        assert session.submit({"seat": ask["seat"], "ask": ask["id"], "choice": rng.choice(ask["choices"])}).ok
    seat = ask["seat"]
    _, card, mission = plays[-1]
    before = session.state["g"]["missions"][mission]["counts"][seat]
    with served(session) as (w, base):
        open_page(phone, seat_url(w, base, seat))
        buttons = phone.locator('button[data-ask="%d"]:not([data-pick])' % ask["id"])
        assert buttons.count() == len(ask["choices"]) - len(plays)  # done, the ability: no long list
        assert phone.locator(".panel.legal").count() == 0  # nothing lit before a card is picked
        phone.locator('button[data-pick="%s"]' % card).click()
        lit = phone.locator(".panel.legal")
        lit.first.wait_for()
        assert sorted(lit.evaluate_all("els => els.map(e => e.dataset.target)")) == sorted(
            "mission-%d" % c[2] for c in plays if c[1] == card)
        spot = phone.locator('.panel.legal[data-target="mission-%d"]' % mission)
        box = spot.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390  # on the screen, no sideways scroll
        spot.click()
        wait_until(lambda: session.state["g"]["missions"][mission]["counts"][seat] == before + 1)
    assert card not in session.state["g"]["hands"][seat]
