"""The ASGI app: a page per seat behind a secret link, a public table page, live over websockets.

    GET  /table                         the table page (public)
    GET  /table/state   WS /table/ws    the public payload, once or on every change
    GET  /seat/{seat}/{token}           a seat's page
    GET  .../state      WS .../ws       that seat's payload, once or on every change
    POST .../choose                     {"ask": id, "choice": [...]} or {"ask": id, "pending": i}
    GET  /hands/{seat}/{token}          a bot-hands seat's hands page (hands.py), .../state, WS .../ws

A seat's URL carries its token; a missing or wrong token, or another seat's, gets a bare 403 and no
game data, the page itself included. Only a seat decided on its page has a token: a bot's seat
has no page at all. Tokens are drawn once per game (secrets.token_urlsafe) and, for a logged
game, kept beside its log (keys.py) so its links last; they are compared in constant time. A
choice from a page is a command with the ask id, exactly like a tap, and goes through TableRunner.submit when there is a table (so it is logged and the LEDs follow
the same way) or Session.submit otherwise. Every accepted command, whatever sent it, reaches the
pages through Session.watchers; each connection then sends its new payload if it changed.

Limits (issue 16): at most TABLE_CAP table watchers and SEAT_CAP sockets per seat are open at once;
one over the cap is refused in the handshake with a 503 ("try again later"), so a crowd of watchers
cannot slow the game for its players. Every response, /static, 404s and the / redirect included,
carries the security headers (a middleware around the whole app).
"""

import asyncio
import hmac
import json
import threading
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import MutableHeaders
from starlette.requests import ClientDisconnect
from starlette.responses import FileResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocketDisconnect

from ..engine import core
from ..table import asking
from . import keys, payload
from . import undo as web_undo
from .hands import hands_payload, hands_token, table_plans

STATIC = Path(__file__).resolve().parent / "static"
# No referrer (a token must not travel to another site), no caching of private pages, and only
# this server's own scripts: the pages load nothing from elsewhere.
HEADERS = {"Referrer-Policy": "no-referrer", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff",
           "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'"}
# The scripts and styles hold no secret: a browser may keep them but asks whether they changed.
STATIC_HEADERS = dict(HEADERS, **{"Cache-Control": "no-cache"})
TABLE_CAP = 64  # table pages open at once: a room's screens and phones, with room to spare
SEAT_CAP = 4  # sockets per seat: a phone and a laptop, each reloaded once


class WebGame:
    """A game as the pages see it: the session (or table runner), the seat tokens, the broadcast."""

    def __init__(self, session, runner=None, answerable=None, tokens=None, pacer=None, hands=None):
        """`answerable`: the seats decided on their pages (default all); `tokens`: seat -> token,
        as kept beside the game's log (default: fresh ones, kept in memory only); `pacer`: the table's
        answers and windows (table/asking.py), whose countdowns the pages show and a seat may hold;
        `hands`: the bot-hands seats (table/bothands.py), each with a hands page of its own."""
        self.session = session
        self.runner = runner
        self.pacer = pacer
        state = session.state
        self.players = core.get_game(state["game"]).seat_count(state)
        self.answerable = set(range(self.players)) if answerable is None else set(answerable)
        # A seat its page cannot decide for (a bot's) gets no token, so no page: its URL gets the
        # same bare 403 as a wrong token, and nobody reads a bot's hand from it.
        tokens = keys.draw(self.players) if tokens is None else tokens
        self.tokens = {s: t for s, t in tokens.items() if s in self.answerable}
        self.hands = hands
        self.hand_tokens = {s: hands_token(tokens[s]) for s in (hands.seats if hands is not None else ())}
        self.listeners = set()  # one per open websocket; added and removed on the server's thread
        self.listeners_lock = threading.Lock()  # ...and read on whichever thread accepted a command
        self.undoing = None  # table/undo.py's Undo asked from a page (web/undo.py)
        self.notices = {}  # seat -> its last refused tap, named for it alone; gone with its next command
        session.watchers.append(self.changed)
        if runner is not None:
            self._listen_for_pending(runner)
            self._listen_for_private(runner)

    def _listen_for_pending(self, runner):
        # A tap that fits several places waits for the seat to pick one: tell its page. Without a
        # private channel the runner would say so on the host display; keep that line.
        before = runner.on_pending

        def on_pending(place, card, labels):
            if before is not None:
                before(place, card, labels)
            else:
                runner.report("seat %s: the tapped card fits in %d places; choose one on your page"
                              % (place, len(labels)))
            self.changed()
        runner.on_pending = on_pending
        self._runner_before = before

    def _listen_for_private(self, runner):
        # A refused tap is reported on the host display as "a card on seatN"; the card's name is
        # for that seat's page alone (design principle 4).
        def on_private(seat, text):
            with self.session.lock:
                self.notices[seat] = text
            self.changed()
        self._private_before = runner.on_private
        runner.on_private = on_private

    def changed(self, command=None):
        # Runs inside Session.submit (given the command), after the command is logged: a page's
        # trouble must never turn an accepted command into an error for whoever sent it (a tap,
        # the terminal). A seat's accepted command clears its last refusal.
        if command is not None:
            self.notices.pop(command.get("seat"), None)
        with self.listeners_lock:
            listeners = list(self.listeners)
        for tell in listeners:
            try:
                tell()
            except Exception:  # noqa: BLE001 — e.g. the server's loop closed while stopping
                self.listen(tell, False)

    def listen(self, tell, on=True):
        with self.listeners_lock:
            if on:
                self.listeners.add(tell)
            else:
                self.listeners.discard(tell)

    def close(self):
        if self.changed in self.session.watchers:
            self.session.watchers.remove(self.changed)
        if self.runner is not None:
            self.runner.on_pending = self._runner_before
            self.runner.on_private = self._private_before

    def seat_ok(self, seat, token, tokens=None):
        """The seat number when `token` is that seat's (in `tokens`: default the seat pages'), else None."""
        try:
            seat = int(seat)
        except (TypeError, ValueError):
            return None
        want = (self.tokens if tokens is None else tokens).get(seat)
        if want is None or not isinstance(token, str):
            return None
        return seat if hmac.compare_digest(want.encode(), token.encode()) else None

    # --- payloads (under the session lock, so a command is never seen half applied) -----------

    def seat_json(self, seat):
        with self.session.lock:
            held = self._pending(seat)
            data = payload.seat_payload(self.session.state, self.session.events, seat, held,
                                        seat in self.answerable, self.notices.get(seat))
            data["undo"] = web_undo.part(self, seat)
            self._paced(data)
            return json.dumps(data, sort_keys=True)

    def table_json(self):
        with self.session.lock:
            faces = self.pacer.clocks.public() if self.pacer is not None and self.pacer.clocks is not None else None
            data = payload.table_payload(self.session.state, self.session.events, faces,
                                         self.hands.seats if self.hands is not None else ())
            data["undo"] = web_undo.part(self, core.PUBLIC)
            self._paced(data)
            if self.hands is not None:
                data["bot_hands"] = table_plans(self.hands, data["view"])
            return json.dumps(data, sort_keys=True)

    def hands_json(self, seat):
        with self.session.lock:
            return json.dumps(hands_payload(self.session.state, self.session.events, seat, self.hands),
                              sort_keys=True)

    def _paced(self, data):
        """The open windows' countdowns (the same on every page), and no button for a decision the
        table answers itself (a lone answer that moves no card, a window with nothing but pass)."""
        if self.pacer is None:
            return
        data["windows"] = self.pacer.countdown()
        if self.pacer.clocks is not None and "clocks" not in data:  # public, the same on every page
            data["clocks"] = self.pacer.clocks.public()
        state = self.session.state
        if data.get("decisions"):
            data["decisions"] = [d for d in data["decisions"]
                                 if asking.put_to_person(state, core.find_ask(state, d["ask"]))]

    def _pending(self, seat):
        if self.runner is None:
            return None
        held = dict(self.runner.pending).get(seat)  # a copy: the link thread may change it meanwhile
        if held is None:
            return None
        ask = core.find_ask(self.session.state, held["ask"])
        labels = [self.runner.choice_words(ask, c) for c in held["choices"]] if ask else []
        return {"ask": held["ask"], "card": held["card"], "labels": labels}

    # --- commands ----------------------------------------------------------------------------

    def choose(self, seat, body):
        """A command from seat `seat`'s page. Returns (status, {"ok", "reason"})."""
        if seat not in self.answerable:
            return 409, {"ok": False, "reason": "this seat is played from the terminal or by a bot"}
        if isinstance(body, dict) and "undo" in body:
            return web_undo.choose(self, seat, body["undo"])
        # JSON types count: true is not decision 1, nor 2.0 decision 2 (the engine matches the same way).
        if not isinstance(body, dict) or type(body.get("ask")) is not int:
            return 400, {"ok": False, "reason": "send {\"ask\": id, \"choice\": [...]}"}
        if body.get("hold") is True:  # stop the clock of this seat's window: it answers in its own time
            if self.pacer is None:
                return 409, {"ok": False, "reason": "no window is timed here"}
            reason = self.pacer.hold(seat, body["ask"])
            return (200, {"ok": True, "reason": None}) if reason is None else (409, {"ok": False, "reason": reason})
        if "pending" in body:
            if self.runner is None or type(body["pending"]) is not int:
                return 400, {"ok": False, "reason": "no tapped card is waiting for a position"}
            held = self.runner.pending.get(seat)
            if held is None or held["ask"] != body["ask"]:
                return 409, {"ok": False, "reason": "no tapped card is waiting for a position here"}
            result = self.runner.choose_pending(seat, body["pending"])
            self.changed()  # the held tap is gone even when the choice was refused
        else:
            # The table's own asks (an ally off the deck) may be answered from any seat's page.
            ask = core.find_ask(self.session.state, body["ask"])
            who = core.TABLE if ask is not None and ask["seat"] == core.TABLE else seat
            command = {"seat": who, "ask": body["ask"], "choice": body.get("choice")}
            submit = self.runner.submit if self.runner is not None else self.session.submit
            result = submit(command)
        if result.ok:
            return 200, {"ok": True, "reason": None}
        return 409, {"ok": False, "reason": result.reason}  # the reason is written for this seat


def build_app(web, table_cap=TABLE_CAP, seat_cap=SEAT_CAP):
    """The ASGI app serving `web` (a WebGame): at most `table_cap` table websockets and `seat_cap`
    per seat."""
    open_sockets = {}  # "table" or a seat -> its open websockets; only the server's loop counts

    async def capped(websocket, key, cap, make):
        if open_sockets.get(key, 0) >= cap:
            await _refuse(websocket)
            return
        open_sockets[key] = open_sockets.get(key, 0) + 1
        try:
            await _stream(websocket, web, make)
        finally:
            open_sockets[key] -= 1

    def forbidden():
        return PlainTextResponse("forbidden", status_code=403, headers=HEADERS)

    def page(name):
        return FileResponse(STATIC / name, media_type="text/html", headers=HEADERS)

    async def table_page(request):
        return page("table.html")

    async def table_state(request):
        body = await run_in_threadpool(web.table_json)
        return Response(body, media_type="application/json", headers=HEADERS)

    async def seat_page(request):
        if web.seat_ok(request.path_params["seat"], request.path_params["token"]) is None:
            return forbidden()
        return page("seat.html")

    async def seat_state(request):
        seat = web.seat_ok(request.path_params["seat"], request.path_params["token"])
        if seat is None:
            return forbidden()
        body = await run_in_threadpool(web.seat_json, seat)
        return Response(body, media_type="application/json", headers=HEADERS)

    async def seat_choose(request):
        seat = web.seat_ok(request.path_params["seat"], request.path_params["token"])
        if seat is None:
            return forbidden()
        try:
            body = await request.json()
        except (ValueError, RecursionError):  # not JSON, or nested deeper than the parser goes
            body = None
        except ClientDisconnect:  # gone mid-body (or cut off by the server's deadline): no one to answer
            return Response(status_code=400, headers=HEADERS)
        status, out = await run_in_threadpool(web.choose, seat, body)
        # ASCII JSON: whatever a reason holds, the response can be encoded (a lone surrogate included).
        return Response(json.dumps(out), status_code=status, media_type="application/json", headers=HEADERS)

    async def table_ws(websocket):
        await capped(websocket, "table", table_cap, web.table_json)

    async def seat_ws(websocket):
        seat = web.seat_ok(websocket.path_params["seat"], websocket.path_params["token"])
        if seat is None:
            await websocket.close(code=1008)  # before accept: the handshake is answered with 403
            return
        await capped(websocket, seat, seat_cap, lambda: web.seat_json(seat))

    def hands_seat(params):
        return web.seat_ok(params["seat"], params["token"], web.hand_tokens)

    async def hands_page(request):
        return forbidden() if hands_seat(request.path_params) is None else page("seat.html")  # page.js: by its path

    async def hands_state(request):
        seat = hands_seat(request.path_params)
        if seat is None:
            return forbidden()
        body = await run_in_threadpool(web.hands_json, seat)
        return Response(body, media_type="application/json", headers=HEADERS)

    async def hands_ws(websocket):
        seat = hands_seat(websocket.path_params)
        if seat is None:
            await websocket.close(code=1008)
            return
        await capped(websocket, ("hands", seat), seat_cap, lambda: web.hands_json(seat))

    async def nothing(request):
        return forbidden()  # a seat URL without its token, or any other shape: no page, no hint

    async def home(request):
        return RedirectResponse("/table")

    routes = [
        Route("/", home),
        Route("/table", table_page),
        Route("/table/state", table_state),
        WebSocketRoute("/table/ws", table_ws),
        Route("/seat/{seat}/{token}", seat_page),
        Route("/seat/{seat}/{token}/state", seat_state),
        Route("/seat/{seat}/{token}/choose", seat_choose, methods=["POST"]),
        WebSocketRoute("/seat/{seat}/{token}/ws", seat_ws),
        Route("/seat{rest:path}", nothing, methods=["GET", "POST", "PUT", "DELETE", "PATCH"]),
        Route("/hands/{seat}/{token}", hands_page),
        Route("/hands/{seat}/{token}/state", hands_state),
        WebSocketRoute("/hands/{seat}/{token}/ws", hands_ws),
        Route("/hands{rest:path}", nothing, methods=["GET", "POST", "PUT", "DELETE", "PATCH"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = _with_headers(Starlette(routes=routes))
    app.routes = routes  # what it serves, listed (tests/test_hostile.py sweeps every one)
    return app


def _with_headers(app):
    """`app` with the security headers on every HTTP response its routes did not set them on."""

    async def with_headers(scope, receive, send):
        if scope["type"] != "http":
            return await app(scope, receive, send)
        wanted = STATIC_HEADERS if scope["path"].startswith("/static/") else HEADERS

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", []))
                headers = MutableHeaders(raw=message["headers"])
                for name, value in wanted.items():
                    headers.setdefault(name, value)
            await send(message)
        await app(scope, receive, send_with_headers)
    return with_headers


async def _refuse(websocket):
    """Turn a websocket away in its handshake: 503, try again later (a page reconnects by itself)."""
    busy = PlainTextResponse("too many pages open; try again later", status_code=503, headers=HEADERS)
    try:
        await websocket.send_denial_response(busy)
    except RuntimeError:  # a server without the denial extension: close before accepting (403)
        await websocket.close(code=1013)


async def _stream(websocket, web, make):
    """Send `make()` now and again after every change, skipping repeats, until the page goes."""
    await websocket.accept()
    loop = asyncio.get_running_loop()
    wake = asyncio.Event()

    def tell():  # called on whichever thread accepted the command
        loop.call_soon_threadsafe(wake.set)

    web.listen(tell)
    closed = asyncio.ensure_future(_until_closed(websocket))
    try:
        last = None
        while not closed.done():
            wake.clear()
            body = await run_in_threadpool(make)
            if body != last:
                await websocket.send_text(body)
                last = body
            waiter = asyncio.ensure_future(wake.wait())
            await asyncio.wait({waiter, closed}, return_when=asyncio.FIRST_COMPLETED)
            waiter.cancel()
    except (WebSocketDisconnect, RuntimeError):
        pass  # the page went away mid-send
    finally:
        web.listen(tell, False)
        closed.cancel()


async def _until_closed(websocket):
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
    except (WebSocketDisconnect, RuntimeError):
        return
