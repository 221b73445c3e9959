"""A site on 127.0.0.1 with a two-step sign-in for tests of the vault: a username and password form, then a TOTP
code (checked with pyotp against the site's secret), then an HttpOnly session cookie and a members page. It keeps
every form value it receives, so a test knows what reached it: served twice, on two ports, the second copy is a
look-alike on another origin that must receive nothing. `/moved` redirects to wherever `moved_to` says, and
`/framed` shows it in a frame."""

from __future__ import annotations

import html
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from urllib.parse import parse_qs, urlsplit

import pyotp

from tests.support.static_server import PageHandler, serve_handler

USERNAME = "ada-4471"
PASSWORD = "vault pw 93f1 plaintext"

# Plain addresses and words: this site is about the vault, not about the safety policy's sensitive pages.
PASSWORD_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>Members</title></head>
<body>
<form method="post" action="/">
  <input name="username" aria-label="Username" autocomplete="username">
  <input name="password" type="password" aria-label="Password" autocomplete="current-password">
  <button type="submit">Continue</button>
</form>
</body></html>"""

CODE_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>Second step</title></head>
<body>
<p>Enter the code from your authenticator app.</p>
<form method="post" action="/second">
  <input name="code" aria-label="Code" inputmode="numeric" autocomplete="one-time-code">
  <button type="submit">Verify</button>
</form>
</body></html>"""

MEMBERS_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>Members area</title></head>
<body><p id="who">{who}</p></body></html>"""


@dataclass
class OtpSite:
    base: str = ""
    totp_secret: str = field(default_factory=pyotp.random_base32)
    moved_to: str = ""
    # Every form value posted to the site, and every request's path: what reached it.
    received: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    codes_accepted: list[str] = field(default_factory=list)
    sessions: dict[str, str] = field(default_factory=dict)  # session cookie → username
    pending: dict[str, str] = field(default_factory=dict)  # password step passed, code still due → username


def _handler(site: OtpSite) -> type[BaseHTTPRequestHandler]:
    class Handler(PageHandler):
        def _cookie(self, name: str) -> str:
            return self._cookies().get(name, "")

        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            site.requests.append(self.path)
            path = urlsplit(self.path).path
            if path == "/":
                self._send(200, PASSWORD_PAGE)
            elif path == "/second":
                self._send(200 if self._cookie("pending") in site.pending else 403, CODE_PAGE)
            elif path == "/members":
                name = site.sessions.get(self._cookie("sid"))
                self._send(200, MEMBERS_PAGE.format(who=f"Signed in as {html.escape(name)}" if name else "Signed out"))
            elif path == "/framed" and site.moved_to:
                self._send(200, f'<!doctype html><title>Members</title><iframe src="{site.moved_to}" width="700" '
                                'height="400"></iframe>')  # fmt: skip
            elif path == "/moved" and site.moved_to:
                self._send(302, headers={"Location": site.moved_to})
            else:
                self._send(404, "not here")

        def do_POST(self) -> None:  # noqa: N802
            site.requests.append(self.path)
            length = int(self.headers.get("Content-Length") or 0)
            form = {
                key: values[0]
                for key, values in parse_qs(self.rfile.read(length).decode(), keep_blank_values=True).items()
            }
            site.received.extend(form.values())
            path = urlsplit(self.path).path
            if path == "/" and form.get("username") == USERNAME and form.get("password") == PASSWORD:
                token = secrets.token_urlsafe(16)
                site.pending[token] = USERNAME
                self._send(303, headers={"Set-Cookie": f"pending={token}; Path=/; HttpOnly", "Location": "/second"})
            elif path == "/second" and self._cookie("pending") in site.pending:
                code = form.get("code", "")
                if not pyotp.TOTP(site.totp_secret).verify(code, valid_window=1):
                    self._send(403, "<p id='who'>Wrong code</p>")
                    return
                site.codes_accepted.append(code)
                token = secrets.token_urlsafe(24)
                site.sessions[token] = site.pending.pop(self._cookie("pending"))
                cookie = f"sid={token}; Path=/; HttpOnly; Max-Age=3600; SameSite=Lax"
                self._send(303, headers={"Set-Cookie": cookie, "Location": "/members"})
            else:
                self._send(403, "<p id='who'>Wrong username or password</p>")

    return Handler


@contextmanager
def serve_otp_site() -> Iterator[OtpSite]:
    site = OtpSite()
    with serve_handler(_handler(site), "otp-site") as base:
        site.base = base
        yield site
