"""Text that the database can hold. Pages and models produce characters that PostgreSQL refuses (NUL anywhere, a lone
UTF-16 surrogate in JSON) and that SQLite cannot take as text (a lone surrogate is not UTF-8): a page's script may
write "\\0" or "\\ud800" into the text the agent reads. Clients' own JSON is refused with a 400 before it gets here
(webapp.core.json_input); what comes from pages and models is stored with each such character replaced by U+FFFD,
as a browser shows it, instead of losing the step or the run. Hive's database backends (webapp.core.postgresql,
webapp.core.sqlite) apply this to every value they write."""

from __future__ import annotations

from typing import Any

REPLACEMENT = "\ufffd"


def without_lone_surrogates(text: str) -> str:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        # Pairs of surrogates become the character they stand for; a lone one becomes U+FFFD.
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text


def storable_text(text: str) -> str:
    """For PostgreSQL: no lone surrogates, no NUL."""
    text = without_lone_surrogates(text)
    return text.replace("\x00", REPLACEMENT) if "\x00" in text else text


def storable_json(value: Any) -> Any:
    """A JSON value with storable_text applied to every string in it, keys included."""
    if isinstance(value, str):
        return storable_text(value)
    if isinstance(value, dict):
        return {storable_json(key): storable_json(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [storable_json(item) for item in value]
    return value
