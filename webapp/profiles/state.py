"""A browser profile's state: what Playwright's storage state carries (cookies, and per origin its local storage and
IndexedDB), read from a file a user imports, summarised by origin, and trimmed by one origin. Plain data in and out.

What is stored is always rebuilt from the validated fields, never the document as it came: a key this module does
not know is left out, so nothing unchecked reaches the browser.
"""

from __future__ import annotations

import csv
import ipaddress
import json
import math
import re
import time
from typing import Any, TypedDict
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from webapp.core import json_input
from webapp.core.types import JsonObject

MAX_COOKIES = 10_000
MAX_ORIGINS = 2_000
COOKIE_MAX_BYTES = 4096  # browsers keep no bigger cookie (name and value together)
LATEST_EXPIRY = 253_402_300_799.0  # the last second of the year 9999
SAME_SITE = {"strict": "Strict", "lax": "Lax", "none": "None"}

_LABEL = r"(?!-)[a-z0-9_-]{1,63}(?<!-)"
_HOSTNAME = re.compile(rf"^{_LABEL}(\.{_LABEL})*$")
# Control characters end a cookie header early, a ';' starts the next attribute: neither can be in a name or value.
_COOKIE_UNSAFE = re.compile(r"[\x00-\x1f\x7f;]")


class ImportRefusedError(ValueError):
    """What is wrong with an imported file, in words its user can act on."""


class OriginSummary(TypedDict):
    """What a profile holds for one origin, counted (never the values)."""

    origin: str
    cookies: int
    local_storage: int
    indexed_db: int


def host_problem(host: str) -> str | None:
    """None for a host name or an IP address a cookie or an origin may name; else what is wrong with it."""
    if not host or len(host) > 253:
        return "is not a host name"
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        pass
    else:
        return None
    try:
        ascii_host = host.encode("idna").decode("ascii")
    except UnicodeError:
        return "is not a host name"
    return None if _HOSTNAME.match(ascii_host.lower()) else "is not a host name"


class _Checked(BaseModel):
    # Strict: "1" is not a number and 1 is not a boolean; unknown keys are dropped (see the module's docstring).
    model_config = ConfigDict(strict=True, extra="ignore")


class CookieIn(_Checked):
    name: str = Field(max_length=COOKIE_MAX_BYTES)
    value: str = Field(max_length=COOKIE_MAX_BYTES)
    domain: str = Field(min_length=1, max_length=254)
    path: str = Field(default="/", max_length=1024)
    expires: float = -1
    httpOnly: bool = False  # noqa: N815 - Playwright's own key
    secure: bool = False
    sameSite: str = "Lax"  # noqa: N815
    partitionKey: str | None = Field(default=None, max_length=300)  # noqa: N815

    @field_validator("name")
    @classmethod
    def _name(cls, name: str) -> str:
        if _COOKIE_UNSAFE.search(name) or "=" in name:
            raise ValueError("a cookie's name has no control characters, ';' or '='")
        return name

    @field_validator("value")
    @classmethod
    def _value(cls, value: str) -> str:
        if _COOKIE_UNSAFE.search(value):
            raise ValueError("a cookie's value has no control characters or ';'")
        return value

    @field_validator("domain")
    @classmethod
    def _domain(cls, domain: str) -> str:
        domain = domain.lower()
        problem = host_problem(domain.removeprefix("."))
        if problem:
            raise ValueError(f"{domain!r} {problem}")
        return domain

    @field_validator("path")
    @classmethod
    def _path(cls, path: str) -> str:
        if not path.startswith("/") or _COOKIE_UNSAFE.search(path):
            raise ValueError("a cookie's path starts with '/' and has no control characters or ';'")
        return path

    @field_validator("expires")
    @classmethod
    def _expires(cls, expires: float) -> float:
        if expires != -1 and not (math.isfinite(expires) and 0 < expires <= LATEST_EXPIRY):
            raise ValueError("expires is -1 (until the browser closes) or a time in seconds since 1970")
        return expires

    @field_validator("sameSite")
    @classmethod
    def _same_site(cls, same_site: str) -> str:
        if same_site.lower() not in SAME_SITE:
            raise ValueError("sameSite is Strict, Lax or None")
        return SAME_SITE[same_site.lower()]

    def as_state(self) -> JsonObject:
        if len(self.name.encode()) + len(self.value.encode()) > COOKIE_MAX_BYTES:
            raise ImportRefusedError(f"The cookie {self.name!r} is larger than {COOKIE_MAX_BYTES} bytes.")
        if self.sameSite == "None" and not self.secure:
            # Browsers drop such a cookie: say so now rather than lose it quietly.
            raise ImportRefusedError(f"The cookie {self.name!r} has sameSite None, which needs secure true.")
        cookie: JsonObject = {
            "name": self.name, "value": self.value, "domain": self.domain, "path": self.path,
            "expires": self.expires, "httpOnly": self.httpOnly, "secure": self.secure, "sameSite": self.sameSite,
        }  # fmt: skip
        if self.partitionKey:
            cookie["partitionKey"] = self.partitionKey
        return cookie


class NameValueIn(_Checked):
    name: str
    value: str


class IndexIn(_Checked):
    name: str
    keyPath: str | None = None  # noqa: N815
    keyPathArray: list[str] | None = None  # noqa: N815
    multiEntry: bool  # noqa: N815
    unique: bool


class RecordIn(_Checked):
    # Keys and values are the page's own data (Playwright's encoding of them); their size counts against the profile.
    key: Any = None
    keyEncoded: Any = None  # noqa: N815
    value: Any = None
    valueEncoded: Any = None  # noqa: N815


class StoreIn(_Checked):
    name: str
    autoIncrement: bool  # noqa: N815
    keyPath: str | None = None  # noqa: N815
    keyPathArray: list[str] | None = None  # noqa: N815
    records: list[RecordIn]
    indexes: list[IndexIn]


class DatabaseIn(_Checked):
    name: str
    version: int = Field(ge=0)
    stores: list[StoreIn]


class OriginIn(_Checked):
    origin: str = Field(max_length=300)
    localStorage: list[NameValueIn] = Field(default_factory=list)  # noqa: N815
    indexedDB: list[DatabaseIn] | None = None  # noqa: N815

    @field_validator("origin")
    @classmethod
    def _origin(cls, origin: str) -> str:
        problem = origin_problem(origin)
        if problem:
            raise ValueError(problem)
        return origin.rstrip("/")


class StorageStateIn(_Checked):
    cookies: list[CookieIn] = Field(default_factory=list, max_length=MAX_COOKIES)
    origins: list[OriginIn] = Field(default_factory=list, max_length=MAX_ORIGINS)


def origin_problem(origin: str) -> str | None:
    parts = urlsplit(origin)
    try:
        port_ok = parts.port is None or parts.port > 0
    except ValueError:
        port_ok = False
    if parts.scheme not in ("http", "https") or not parts.hostname or not port_ok:
        return f"{origin!r} is not an origin like https://example.com"
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username or parts.password:
        return f"{origin!r} is an origin only: scheme, host and port, no path"
    problem = host_problem(parts.hostname)
    return f"{parts.hostname!r} {problem}" if problem else None


def _where(location: tuple[int | str, ...]) -> str:
    where = ""
    for part in location:
        where += f"[{part}]" if isinstance(part, int) else (f".{part}" if where else str(part))
    return where or "the file"


def _refusal(exc: ValidationError) -> ImportRefusedError:
    errors = exc.errors(include_url=False)
    shown = "; ".join(f"{_where(e['loc'])}: {str(e['msg']).removeprefix('Value error, ')}" for e in errors[:5])
    more = f" (and {len(errors) - 5} more)" if len(errors) > 5 else ""
    return ImportRefusedError(f"Not a browser storage state: {shown}{more}.")


def _storage_state(checked: StorageStateIn, now: float) -> tuple[JsonObject, int]:
    """The state to store, and how many cookies had expired already (left out)."""
    cookies = [c.as_state() for c in checked.cookies if c.expires == -1 or c.expires > now]
    origins = []
    for entry in checked.origins:
        origin: JsonObject = {"origin": entry.origin, "localStorage": [s.model_dump() for s in entry.localStorage]}
        if entry.indexedDB:
            origin["indexedDB"] = [db.model_dump(exclude_none=True) for db in entry.indexedDB]
        origins.append(origin)
    return {"cookies": cookies, "origins": origins}, len(checked.cookies) - len(cookies)


def read_storage_state(text: str, *, now: float | None = None) -> tuple[JsonObject, int]:
    """A storage-state JSON file (Playwright's `storage_state()`) checked field by field. Returns the state and how
    many expired cookies were left out; raises ImportRefusedError saying what is wrong."""
    try:
        document = json_input.loads(text)
    except ValueError as exc:
        raise ImportRefusedError(f"The file is not valid JSON: {exc}.") from None
    if not isinstance(document, dict):
        raise ImportRefusedError("A storage state is a JSON object with cookies and origins.")
    if "cookies" not in document and "origins" not in document:
        raise ImportRefusedError("A storage state has cookies, origins or both: this file has neither.")
    try:
        checked = StorageStateIn.model_validate(document)
    except ValidationError as exc:
        raise _refusal(exc) from None
    return _storage_state(checked, time.time() if now is None else now)


NETSCAPE_FIELDS = 7
HTTP_ONLY_PREFIX = "#HttpOnly_"  # how curl and browser exports mark an HttpOnly cookie in cookies.txt


def read_cookies_txt(text: str, *, now: float | None = None) -> tuple[JsonObject, int]:
    """A Netscape cookies.txt file (what curl and browser extensions export): one cookie a line, seven fields
    separated by tabs (domain, subdomains TRUE/FALSE, path, secure TRUE/FALSE, expiry in seconds with 0 for a session
    cookie, name, value). Blank lines and comments are skipped; any other line that does not fit is refused with its
    number."""
    cookies: list[JsonObject] = []
    lines = text.splitlines()
    for number, row in enumerate(csv.reader(lines, delimiter="\t", quoting=csv.QUOTE_NONE), start=1):
        line = lines[number - 1]
        http_only = line.startswith(HTTP_ONLY_PREFIX)
        if not line.strip() or (line.lstrip().startswith("#") and not http_only):
            continue
        if http_only:
            row[0] = row[0].removeprefix(HTTP_ONLY_PREFIX)
        if len(row) != NETSCAPE_FIELDS:
            raise ImportRefusedError(
                f"Line {number}: a cookies.txt line has {NETSCAPE_FIELDS} fields separated by tabs; this one has "
                f"{len(row)}."
            )
        domain, subdomains, path, secure, expiry, name, value = row
        flags = {"TRUE": True, "FALSE": False}
        if subdomains.upper() not in flags or secure.upper() not in flags:
            raise ImportRefusedError(f"Line {number}: the second and fourth fields are TRUE or FALSE.")
        if not expiry.strip().isdigit():
            raise ImportRefusedError(f"Line {number}: the expiry {expiry!r} is not a number of seconds.")
        seconds = int(expiry)
        bare = domain.lower().removeprefix(".")
        cookies.append(
            {
                "name": name, "value": value, "domain": "." + bare if flags[subdomains.upper()] else bare,
                "path": path, "expires": float(seconds) if seconds else -1.0, "httpOnly": http_only,
                "secure": flags[secure.upper()], "sameSite": "Lax",
            }
        )  # fmt: skip
        if len(cookies) > MAX_COOKIES:
            raise ImportRefusedError(f"At most {MAX_COOKIES} cookies in one file.")
    if not cookies:
        raise ImportRefusedError("No cookies in this file: a cookies.txt line is domain, TRUE/FALSE, path, ...")
    try:
        checked = StorageStateIn.model_validate({"cookies": cookies})
    except ValidationError as exc:
        raise _refusal(exc) from None
    return _storage_state(checked, time.time() if now is None else now)


def read_import(text: str, fmt: str = "auto", *, max_bytes: int) -> tuple[JsonObject, int]:
    """An imported file, in either format (`auto`: JSON is a storage state, anything else cookies.txt)."""
    if len(text.encode()) > max_bytes:
        raise ImportRefusedError(f"The file is larger than {max_bytes // 1000} kB.")
    if fmt == "auto":
        fmt = "storage_state" if text.lstrip().startswith(("{", "[")) else "cookies_txt"
    state, expired = read_storage_state(text) if fmt == "storage_state" else read_cookies_txt(text)
    if not state["cookies"] and not state["origins"]:
        raise ImportRefusedError("Nothing to import: every cookie in the file has expired.")
    return state, expired


def _hostname(origin: str) -> str:
    return (urlsplit(origin).hostname or "").lower()


def origins_of(state: JsonObject) -> list[OriginSummary]:
    """What the state holds per origin. Cookies belong to a host: each is counted with the stored origin of its host
    (https first), else under https://its host when any of the host's cookies is secure, else http://its host."""
    summaries: dict[str, OriginSummary] = {}
    by_host: dict[str, str] = {}
    cookies = state.get("cookies") or []
    secure_hosts = {str(c.get("domain", "")).lower().removeprefix(".") for c in cookies if c.get("secure")}
    for entry in state.get("origins") or []:
        origin = str(entry.get("origin", ""))
        summaries[origin] = {
            "origin": origin,
            "cookies": 0,
            "local_storage": len(entry.get("localStorage") or []),
            "indexed_db": len(entry.get("indexedDB") or []),
        }
        host = _hostname(origin)
        if host not in by_host or origin.startswith("https:"):
            by_host[host] = origin
    for cookie in cookies:
        host = str(cookie.get("domain", "")).lower().removeprefix(".")
        origin = by_host.get(host) or ("https://" if host in secure_hosts else "http://") + host
        summary = summaries.setdefault(origin, {"origin": origin, "cookies": 0, "local_storage": 0, "indexed_db": 0})
        summary["cookies"] += 1
    return sorted(summaries.values(), key=lambda s: (_hostname(s["origin"]), s["origin"]))


def without_origin(state: JsonObject, origin: str) -> JsonObject:
    """The state without what it holds for `origin`: its storage, and the cookies of its host (cookies belong to a
    host, not to a scheme or port). Raises KeyError when the state holds nothing for it."""
    if origin not in {s["origin"] for s in origins_of(state)}:
        raise KeyError(origin)
    host = _hostname(origin)
    return {
        **state,
        "cookies": [
            c for c in state.get("cookies") or [] if str(c.get("domain", "")).lower().removeprefix(".") != host
        ],
        "origins": [o for o in state.get("origins") or [] if o.get("origin") != origin],
    }


def state_size(state: JsonObject) -> int:
    return len(json.dumps(state, separators=(",", ":")).encode())
