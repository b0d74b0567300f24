"""The ASGI app of `maester replay`: a page that steps through a game's frames (web/replay.py).

    GET /replay                 the page (static/replay.html: the table page's drawing, and controls)
    GET /replay/info            {"game", "title", "moves", "over", "secrets", "refused"}
    GET /replay/frame/{n}       the public table payload after move n (0: after setup)
    GET /replay/secrets/{n}     each seat's secret blocks after move n; 403 with the reason when the
                                game is still running or the file holds no secrets

Nothing is live: the frames were all read before the server started, and the page fetches the one
it shows. The same security headers as the game's pages (app.py).
"""

import json

from starlette.applications import Starlette
from starlette.responses import FileResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .app import HEADERS, STATIC, _with_headers


def _json(value, status=200):
    return Response(json.dumps(value, sort_keys=True), status_code=status, media_type="application/json",
                    headers=HEADERS)


def build_app(replay):
    """The app serving `replay` (a web.replay.Replay)."""

    def frame_number(request):
        try:
            n = int(request.path_params["n"])
        except ValueError:
            return None
        return n if 0 <= n <= replay.moves else None

    async def page(request):
        return FileResponse(STATIC / "replay.html", media_type="text/html", headers=HEADERS)

    async def info(request):
        return _json(replay.info())

    async def frame(request):
        n = frame_number(request)
        if n is None:
            return _json({"reason": "no such move: 0 to %d" % replay.moves}, 404)
        return _json(replay.frames[n])

    async def secrets(request):
        if replay.secrets is None:
            return _json({"reason": replay.refused}, 403)
        n = frame_number(request)
        if n is None:
            return _json({"reason": "no such move: 0 to %d" % replay.moves}, 404)
        return _json(replay.secrets[n])

    async def home(request):
        return RedirectResponse("/replay")

    routes = [
        Route("/", home),
        Route("/replay", page),
        Route("/replay/info", info),
        Route("/replay/frame/{n}", frame),
        Route("/replay/secrets/{n}", secrets),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = _with_headers(Starlette(routes=routes))
    app.routes = routes
    return app
