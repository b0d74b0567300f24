"""Run the web app with uvicorn on a background thread, so the terminal loop keeps the main one.

The socket is bound here, before uvicorn starts, so port 0 gives a free port that is known at once
and there is no window in which another program could take it. Uvicorn skips its signal handlers
off the main thread, so Ctrl-C still reaches `maester` itself. Its access log is off: seat URLs
carry their tokens and must not be printed where others can read them.

Its connections are guarded (issue 16, 25): a request, its headers and its body, must arrive whole
within REQUEST_TIMEOUT seconds or the connection is closed (uvicorn's own keep-alive timeout starts
only after a first response, so a half-sent request line, or a body dripped a byte at a time after
valid headers, stayed open for ever), and every accepted socket gets TCP_NODELAY, so a keep-alive
response is not held back ~40 ms by Nagle's algorithm waiting for the client's delayed ACK (asyncio
sets it only on sockets made with IPPROTO_TCP).

The terminal is the table's shared screen: the server prints nothing there. Its own log (a client
gone mid-request, a websocket dropped in its handshake, an error) goes nowhere, or, for someone
debugging, to the file named by MAESTER_WEB_LOG.
"""

import os
import socket
import threading
import time

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

REQUEST_TIMEOUT = 5.0  # seconds for a request, headers and body, whole; a page's requests take milliseconds
KEEP_ALIVE = 5  # seconds an idle keep-alive connection is kept (uvicorn's default, said here)
MAX_HEADERS = 16 * 1024  # bytes of a request's line and headers (h11's default, said here)
UVICORN_LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access", "uvicorn.asgi")


def log_config():
    """uvicorn's logging: to MAESTER_WEB_LOG when it names a file, else nowhere (never the terminal)."""
    path = os.environ.get("MAESTER_WEB_LOG")
    handler = ({"class": "logging.FileHandler", "filename": path, "formatter": "plain"} if path
               else {"class": "logging.NullHandler"})
    return {"version": 1, "disable_existing_loggers": False,
            "formatters": {"plain": {"format": "%(asctime)s %(name)s %(levelname)s %(message)s"}},
            "handlers": {"web": handler},
            "loggers": {name: {"handlers": ["web"], "level": "INFO", "propagate": False} for name in UVICORN_LOGGERS}}


class GuardedH11(H11Protocol):
    """uvicorn's h11 protocol with TCP_NODELAY and a deadline for each request, body included."""

    header_timer = None

    def connection_made(self, transport):
        sock = transport.get_extra_info("socket")
        if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        super().connection_made(transport)
        self._watch_request()

    def data_received(self, data):
        super().data_received(data)
        self._watch_request()

    def connection_lost(self, exc):
        self._stop_header_timer()
        super().connection_lost(exc)

    def _waiting_for_request(self):
        # Upgraded to a websocket: no longer ours. No cycle, or its response sent: waiting for the
        # next request's headers. A cycle whose body has not all come: waiting for the body.
        if self.transport.is_closing() or self.transport.get_protocol() is not self:
            return False
        cycle = self.cycle
        return cycle is None or cycle.response_complete or cycle.more_body

    def _watch_request(self):
        if not self._waiting_for_request():
            self._stop_header_timer()
        elif self.header_timer is None:  # the deadline runs from the request's first byte, not its last
            self.header_timer = self.loop.call_later(REQUEST_TIMEOUT, self._request_too_slow)

    def _stop_header_timer(self):
        if self.header_timer is not None:
            self.header_timer.cancel()
            self.header_timer = None

    def _request_too_slow(self):
        self.header_timer = None
        if self._waiting_for_request():
            self.transport.close()


class WebServer:
    def __init__(self, app, host="127.0.0.1", port=0):
        self.app = app
        self.host = host
        self.port = port
        self.server = None
        self.thread = None
        self.sock = None

    def bind(self):
        """Take the port now (the app may be given later). Raises OSError when it is taken."""
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((self.host, self.port))
            # Listening at once: a page opened from a link printed before the server has started (the
            # links are saved first, so a file that cannot be written stops the command before any page
            # is up) waits in the backlog instead of being refused.
            sock.listen(128)
        except OSError:
            sock.close()
            raise
        self.sock = sock
        self.port = sock.getsockname()[1]
        return self

    def start(self, timeout=10.0):
        if self.sock is None:
            self.bind()
        config = uvicorn.Config(self.app, log_config=log_config(), log_level="warning", access_log=False,
                                lifespan="off", timeout_graceful_shutdown=1, http=GuardedH11,
                                timeout_keep_alive=KEEP_ALIVE, h11_max_incomplete_event_size=MAX_HEADERS)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]},
                                       name="maester-web", daemon=True)
        self.thread.start()
        deadline = time.monotonic() + timeout
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the web server did not start on %s:%d" % (self.host, self.port))
            time.sleep(0.01)
        return self

    def stop(self, timeout=5.0):
        if self.server is not None:
            self.server.should_exit = True
        if self.thread is not None:
            self.thread.join(timeout)
        elif self.sock is not None:  # bound, never started
            self.sock.close()

    @property
    def base(self):
        return "http://%s:%d" % (self.host, self.port)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
