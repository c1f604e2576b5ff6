"""The HTTP server of ``alhambra-referee serve`` (standard library only).

Why the standard library: the routes are five fixed paths (the page, its three assets, the
catalogue, two JSON answers), there is no session, no template and no upload beyond one small
JSON body, and :class:`http.server.ThreadingHTTPServer` serves exactly that. A web framework would
add a run-time dependency (the project has three: click, lark, pyyaml) for nothing the page uses.

Limits (the input is untrusted even on one's own machine: a page of another site may try to post
to it):

- bound to ``127.0.0.1`` unless told otherwise; requests whose ``Host`` is not the address served
  are refused (a site reaching the port through a rebound DNS name gets 403);
- a body of at most :data:`MAX_BODY` bytes, with ``Content-Length``, as JSON
  (``Content-Type: application/json``); a socket that sends nothing for :data:`READ_SECONDS` is
  dropped;
- one engine answer at a time (:data:`WORK_SECONDS` at most; after that the request is answered
  503 and the late result dropped);
- every refusal and every failure is a JSON ``{"error": ...}`` in English or German, never a
  traceback; answers carry ``nosniff``, ``no-store`` and a content security policy that lets the
  page load nothing from anywhere else.
"""

from __future__ import annotations

import contextlib
import json
import sys
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from referee.serve import api

MAX_BODY = 128 * 1024
READ_SECONDS = 10.0
WORK_SECONDS = 20.0

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'none'"
)

_WORK_LOCK = threading.Lock()


class TooLong(Exception):
    """The engine did not answer within :data:`WORK_SECONDS`."""


def run_limited(func: Any, data: dict[str, Any], seconds: float = WORK_SECONDS) -> Any:
    """``func(data)`` in a worker thread, one at a time (the engine is not re-entered);
    :class:`TooLong` after ``seconds`` (the worker then finishes on its own and frees the
    lock; its result is dropped)."""
    if not _WORK_LOCK.acquire(timeout=seconds):
        raise TooLong
    result: dict[str, Any] = {}

    def work() -> None:
        try:
            result["value"] = func(data)
        except BaseException as exc:  # handed to the request's thread
            result["error"] = exc
        finally:
            _WORK_LOCK.release()

    worker = threading.Thread(target=work, daemon=True, name="serve-engine")
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        raise TooLong
    if "error" in result:
        raise result["error"]
    return result["value"]


class Handler(BaseHTTPRequestHandler):
    """The routes: ``/`` (the page), ``/assets/...``, ``/api/catalogue``, ``/api/score``,
    ``/api/fit``."""

    server_version = "alhambra-referee"
    sys_version = ""
    timeout = READ_SECONDS
    protocol_version = "HTTP/1.1"
    server: Server

    # -------------------------------------------------------------- answers

    def _send(self, status: int, body: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("Content-Security-Policy", CSP)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: int, data: Any) -> None:
        body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        self._send(status, body, "application/json; charset=utf-8")

    def _error(self, status: int, en: str, de: str, lang: str = "en") -> None:
        self._json(status, api.ApiError(status, en, de).to_dict(lang))
        self.close_connection = True

    def log_message(self, format: str, *args: Any) -> None:
        if not self.server.quiet:
            sys.stderr.write(f"{self.address_string()} {format % args}\n")

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """The base class's malformed-request answers (bad request line, headers too long...)
        as JSON like every other refusal."""
        text = message or HTTPStatus(code).phrase
        with contextlib.suppress(OSError):  # the client has gone
            self._error(code, text, text)

    # -------------------------------------------------------------- checks

    def _host_ok(self) -> bool:
        host = (self.headers.get("Host") or "").strip().lower()
        return not self.server.allowed_hosts or host in self.server.allowed_hosts

    def _lang(self) -> str:
        query = parse_qs(urlsplit(self.path).query)
        return "de" if query.get("lang", ["en"])[0] == "de" else "en"

    # -------------------------------------------------------------- methods

    def do_HEAD(self) -> None:
        self.do_GET()

    def do_GET(self) -> None:
        if not self._host_ok():
            self._error(403, "unknown host name", "unbekannter Rechnername")
            return
        path = urlsplit(self.path).path
        from referee.serve import page

        if path in ("/", "/index.html"):
            self._send(
                200, page.page_html(self._lang()).encode("utf-8"), "text/html; charset=utf-8"
            )
        elif path in page.ASSETS:
            body, kind = page.asset(path)
            self._send(200, body, kind)
        elif path == "/favicon.ico":  # no icon: say so without a 404 in the browser's log
            self.send_response(204)
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif path == "/api/catalogue":
            self._json(200, self.server.catalogue())
        else:
            self._error(404, f"no such page: {path[:80]}", f"keine solche Seite: {path[:80]}")

    def do_POST(self) -> None:
        lang = self._lang()
        if not self._host_ok():
            self._error(403, "unknown host name", "unbekannter Rechnername", lang)
            return
        path = urlsplit(self.path).path
        route = {"/api/score": api.score_answer, "/api/fit": api.fit_answer}.get(path)
        if route is None:
            self._error(404, f"no such address: {path[:80]}", f"keine solche Adresse: {path[:80]}")
            return
        kind = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if kind != "application/json":
            self._error(
                415,
                "the request must be JSON (Content-Type: application/json)",
                "die Anfrage muss JSON sein (Content-Type: application/json)",
                lang,
            )
            return
        length_text = self.headers.get("Content-Length")
        if length_text is None or not length_text.strip().isdigit():
            self._error(411, "Content-Length is missing", "Content-Length fehlt", lang)
            return
        length = int(length_text)
        if length > MAX_BODY:
            self._error(
                413,
                f"the request is too large ({length} bytes; at most {MAX_BODY})",
                f"die Anfrage ist zu groß ({length} Bytes; höchstens {MAX_BODY})",
                lang,
            )
            return
        try:
            raw = self.rfile.read(length)
        except OSError:  # timed out or gone: nobody to answer
            self.close_connection = True
            return
        if len(raw) < length:
            self._error(400, "the request ended early", "die Anfrage endet zu früh", lang)
            return
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            self._error(
                400,
                "the request is not JSON text in UTF-8",
                "die Anfrage ist kein JSON-Text in UTF-8",
                lang,
            )
            return
        if not isinstance(data, dict):
            self._error(
                400,
                "the request must be a JSON object",
                "die Anfrage muss ein JSON-Objekt sein",
                lang,
            )
            return
        lang = api._lang(data.get("lang"))
        try:
            answer = run_limited(route, data, self.server.work_seconds)
        except api.ApiError as exc:
            self._json(exc.status, exc.to_dict(lang))
            return
        except TooLong:
            self._error(
                503,
                f"the referee needed more than {self.server.work_seconds:g} s for this position; "
                "it was stopped",
                f"der Schiedsrichter brauchte für diese Stellung länger als "
                f"{self.server.work_seconds:g} s; abgebrochen",
                lang,
            )
            return
        except Exception as exc:  # a bug: reported in one line, never a traceback
            if not self.server.quiet:
                sys.stderr.write(f"serve: internal error: {exc!r}\n")
            self._error(
                500,
                f"internal error of the referee ({type(exc).__name__}); please report it with "
                "the position text",
                f"interner Fehler des Schiedsrichters ({type(exc).__name__}); bitte mit dem "
                "Stellungstext melden",
                lang,
            )
            return
        self._json(200, answer)


class Server(ThreadingHTTPServer):
    """The server with its settings: the host names it answers to, the work time limit."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        quiet: bool = False,
        work_seconds: float = WORK_SECONDS,
        check_host: bool = True,
    ) -> None:
        self.quiet = quiet
        self.work_seconds = work_seconds
        self._catalogue: dict[str, Any] | None = None
        super().__init__((host, port), Handler)
        port = self.server_address[1]
        names = {"127.0.0.1", "localhost", "[::1]", host.lower()}
        self.allowed_hosts: frozenset[str] = (
            frozenset(f"{n}:{port}" for n in names) if check_host else frozenset()
        )

    def catalogue(self) -> dict[str, Any]:
        if self._catalogue is None:
            self._catalogue = api.catalogue_answer()
        return self._catalogue

    @property
    def url(self) -> str:
        host, port = str(self.server_address[0]), int(self.server_address[1])
        shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
        return f"http://{shown}:{port}/"


def is_loopback(host: str) -> bool:
    """Whether ``host`` names this machine only (no other computer can connect)."""
    import ipaddress

    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False
