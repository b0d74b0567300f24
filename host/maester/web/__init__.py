"""Seat pages and the table page in the browser.

    payload.py  what each viewer's page receives, built from view(state, viewer) alone
    leds.py     the LED strip as the table shows it, from the game's table.segments(public view)
    hints.py    optional per-game hints for the generic renderer
    app.py      the ASGI app (starlette): token-checked routes, websockets, choices → submit
    server.py   uvicorn on a background thread, on a free port
    launch.py   the pages of a game served: `maester serve`, and `--web`/`--lan` on play, resume and demo
    browser.py  headless Debian Chromium under Playwright (tests, docs/make_screenshots.py)
    static/     the pages: plain HTML, CSS and JS, nothing loaded from elsewhere
"""
