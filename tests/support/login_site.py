"""A members' site on 127.0.0.1 for tests of signing in: a login form that sets an HttpOnly session cookie, and a
members page that says who is signed in. On the first visit after signing in the page also keeps a badge in
IndexedDB and a greeting in local storage, and shows what it finds in both, so a test sees every kind of storage a
browser profile carries. `/remember?color=…` sets one more cookie (a change a session saves back)."""

from __future__ import annotations

import html
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from urllib.parse import parse_qs, urlsplit

from tests.support.static_server import PageHandler, serve_handler

PASSWORD = "correct horse battery staple"

# Fixed places on a 1280x800 viewport, so a person's clicks on the live view can aim at them.
LOGIN_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>Members sign in</title>
<style>
  body { margin: 0; font: 20px sans-serif; }
  input, button { position: fixed; left: 40px; width: 400px; height: 60px; font-size: 24px; }
  #user { top: 40px; } #pw { top: 140px; } button { top: 240px; }
</style></head>
<body>
<form method="post" action="/login">
  <input id="user" name="username" aria-label="Username" autocomplete="username">
  <input id="pw" name="password" type="password" aria-label="Password" autocomplete="current-password">
  <button type="submit">Sign in</button>
</form>
</body></html>"""

MEMBERS_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>Members</title></head>
<body>
<p id="who">{who}</p>
<p id="color">color: {color}</p>
<p id="greeting"></p>
<p id="badge"></p>
<script>
  const welcome = new URLSearchParams(location.search).has("welcome");
  if (welcome) localStorage.setItem("greeting", "hello {name}");
  document.getElementById("greeting").textContent = "greeting: " + (localStorage.getItem("greeting") || "none");
  const opening = indexedDB.open("members", 1);
  opening.onupgradeneeded = () => opening.result.createObjectStore("kv");
  opening.onsuccess = () => {{
    const store = opening.result.transaction("kv", "readwrite").objectStore("kv");
    if (welcome) store.put("gold", "badge");
    const read = store.get("badge");
    read.onsuccess = () => {{
      document.getElementById("badge").textContent = "badge: " + (read.result || "none");
    }};
  }};
</script>
</body></html>"""


@dataclass
class LoginSite:
    base: str = ""
    sessions: dict[str, str] = field(default_factory=dict)  # session cookie value → username

    def sign_in(self, username: str) -> str:
        """A session as the form would make it: the value of its `sid` cookie."""
        token = secrets.token_urlsafe(24)
        self.sessions[token] = username
        return token


def _handler(site: LoginSite) -> type[BaseHTTPRequestHandler]:
    class Handler(PageHandler):
        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            url = urlsplit(self.path)
            query = parse_qs(url.query)
            cookies = self._cookies()
            if url.path == "/login":
                self._send(200, LOGIN_PAGE)
            elif url.path == "/members":
                name = site.sessions.get(cookies.get("sid", ""))
                page = MEMBERS_PAGE.format(
                    who=f"Signed in as {html.escape(name)}" if name else "Signed out",
                    color=html.escape(cookies.get("color", "none")),
                    name=html.escape(name or ""),
                )
                self._send(200, page)
            elif url.path == "/remember":
                color = (query.get("color") or ["none"])[0]
                self._send(302, headers={"Set-Cookie": f"color={color}; Path=/; Max-Age=3600; SameSite=Lax",
                                         "Location": "/members"})  # fmt: skip
            else:
                self._send(404, "not here")

        def do_POST(self) -> None:  # noqa: N802
            length = int(self.headers.get("Content-Length") or 0)
            form = parse_qs(self.rfile.read(length).decode())
            username = (form.get("username") or [""])[0]
            if urlsplit(self.path).path != "/login" or (form.get("password") or [""])[0] != PASSWORD or not username:
                self._send(403, "<p id='who'>Wrong password</p>")
                return
            token = site.sign_in(username)
            cookie = f"sid={token}; Path=/; HttpOnly; Max-Age=3600; SameSite=Lax"
            self._send(303, headers={"Set-Cookie": cookie, "Location": "/members?welcome=1"})

    return Handler


@contextmanager
def serve_login_site() -> Iterator[LoginSite]:
    site = LoginSite()
    with serve_handler(_handler(site), "login-site") as base:
        site.base = base
        yield site
