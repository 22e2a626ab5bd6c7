"""The phones' HTTP side: one parser for every request's path, the checks a seat's socket passes before its
handshake, and the responses, every one with the same headers.

A request names a seat's page (``/p/TOKEN``), its socket (``/ws/TOKEN``) or one of the page's assets, exactly: no
query, no second slash, nothing after the token. The server reads the route once, and the seat it checks is the
seat it binds. Everything else, whatever it is (a wrong token, a method but GET and HEAD, a socket opened from
another site's page, a seat's socket asked without its upgrade), gets the same refusal: the same status, headers
and body, so that no answer tells a valid token from any other string.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

ASSETS = {"/phone.js": ("phone.js", "text/javascript; charset=utf-8"),
          "/phone.css": ("phone.css", "text/css; charset=utf-8")}
"""The page's assets, all served by us: no CDN, no external font."""

HEADERS = (("Cache-Control", "no-store"), ("Referrer-Policy", "no-referrer"), ("X-Content-Type-Options", "nosniff"),
           ("Content-Security-Policy",
            "default-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'"),
           ("X-Frame-Options", "DENY"))
"""Every response: nothing kept in a cache, no link sent on as a referrer, nothing but our own page runs, and no
other site frames it (a page that framed a seat's link could overlay it and have its owner tap)."""

TOKEN = r"[A-Za-z0-9_-]{22,128}"
"""A seat's token: at least 128 bits in base64url (secrets.token_urlsafe's alphabet); a journal's are checked so."""

PATH = re.compile(rf"/(p|ws)/({TOKEN})")
"""A seat's page or socket: its token, nothing before or after."""

METHODS = ("GET", "HEAD")


@dataclasses.dataclass(frozen=True)
class Route:
    """What a request's path names: an asset (``where`` "asset", ``name`` its path), or a seat's page ("p") or
    socket ("ws") with the token given (``name``), not yet checked."""

    where: str
    name: str


def route(method: str, path: str) -> Route | None:
    """Returns what a request names, the one reading of its path that every check and the seat's binding use; None
    for anything that is not exactly a page, a socket or an asset fetched with GET or HEAD.

    >>> seat = "A" * 32
    >>> route("GET", f"/ws/{seat}"), route("GET", f"/ws/{seat}?/{seat}"), route("POST", f"/p/{seat}")
    (Route(where='ws', name='AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'), None, None)
    >>> route("GET", "/ws/abc")  # too short to be a token

    """
    if method not in METHODS:
        return None
    if path in ASSETS:
        return Route("asset", path)
    found = PATH.fullmatch(path)
    return Route(found[1], found[2]) if found else None


def origin(host: str, port: int) -> str:
    """Returns the page's own origin, as a browser that opened a seat's link names it (port 80 left out)."""
    return f"http://{host}" if port == 80 else f"http://{host}:{port}"


def same_origin(headers: Any, host: str, port: int) -> bool:
    """Tells whether a socket's handshake comes from the seat's own page: the ``Host`` its link names, and no
    ``Origin`` (a client that is no browser's page) or the page's own. A page of another site holding a token
    (a link sent to a player, a frame) cannot open the seat's socket: its browser names that site as the Origin."""
    own = origin(host, port).lower()
    origins, hosts = headers.get_all("Origin"), headers.get_all("Host")
    return (len(origins) <= 1 and all(given.lower() == own for given in origins)
            and len(hosts) == 1 and "http://" + hosts[0].lower() == own)


def respond(status: int, reason: str, kind: str, body: bytes, head: bool = False) -> Any:
    """Returns a response with every response's headers; to a HEAD request the same headers without the body."""
    from websockets.datastructures import Headers
    from websockets.http11 import Response

    headers = Headers([("Content-Type", kind), ("Content-Length", str(len(body))), ("Connection", "close"),
                       *HEADERS])
    return Response(status, reason, headers, b"" if head else body)


def upgraded(response: Any) -> Any:
    """Returns a seat's socket's handshake response (101) with every response's headers added."""
    for name, value in HEADERS:
        response.headers[name] = value
    return response
