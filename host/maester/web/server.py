"""Run the web app with uvicorn on a background thread, so the terminal loop keeps the main one.

The socket is bound here, before uvicorn starts, so port 0 gives a free port that is known at once
and there is no window in which another program could take it. Uvicorn skips its signal handlers
off the main thread, so Ctrl-C still reaches `maester` itself. Its access log is off: seat URLs
carry their tokens and must not be printed where others can read them.
"""

import socket
import threading
import time

import uvicorn


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
        except OSError:
            sock.close()
            raise
        self.sock = sock
        self.port = sock.getsockname()[1]
        return self

    def start(self, timeout=10.0):
        if self.sock is None:
            self.bind()
        config = uvicorn.Config(self.app, log_level="warning", access_log=False, lifespan="off",
                                timeout_graceful_shutdown=1)
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
