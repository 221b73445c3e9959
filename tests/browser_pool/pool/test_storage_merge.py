"""What a restored session saves back for the saved origins whose items no page of theirs has asked for yet."""

from __future__ import annotations

from browser_pool.storage import LazyStorage, split_origins

SIGNED_IN = {
    "origin": "https://mail.example",
    "localStorage": [{"name": "token", "value": "t1"}, {"name": "x", "value": "1"}],
}
WITH_DB = {
    "origin": "https://docs.example",
    "localStorage": [],
    "indexedDB": [{"name": "auth", "version": 1, "stores": []}],
}


def test_origins_with_indexed_db_or_an_unusual_spelling_are_restored_before_the_start_and_the_rest_lazily() -> None:
    odd = {"origin": "https://Mail.example:443", "localStorage": [{"name": "a", "value": "b"}]}
    empty = {"origin": "https://empty.example", "localStorage": []}
    eager, lazy = split_origins({"cookies": [], "origins": [SIGNED_IN, WITH_DB, odd, empty]})
    assert eager == [WITH_DB, odd]
    assert lazy == [SIGNED_IN]


def test_a_saved_origin_never_asked_for_is_saved_back_as_it_was_with_what_its_pages_wrote_laid_over_it() -> None:
    storage = LazyStorage([SIGNED_IN])
    state: dict[str, list[object]] = {"cookies": [], "origins": []}
    assert storage.merged(state)["origins"] == [SIGNED_IN]

    # A page of the origin that refused the restore (its policy forbids the request) wrote an item of its own.
    written = {"origin": "https://mail.example", "localStorage": [{"name": "x", "value": "2"}]}
    merged = storage.merged({"cookies": [], "origins": [written]})
    assert merged["origins"] == [
        {
            "origin": "https://mail.example",
            "localStorage": [{"name": "token", "value": "t1"}, {"name": "x", "value": "2"}],
        }
    ]


def test_an_origins_items_are_handed_out_once_and_then_saved_from_the_page() -> None:
    storage = LazyStorage([SIGNED_IN])
    assert storage.hand_out("https://other.example") is None
    assert storage.hand_out("https://mail.example") == [["token", "t1"], ["x", "1"]]
    assert storage.hand_out("https://mail.example") is None
    assert storage.merged({"cookies": [], "origins": []})["origins"] == [], "signed out on the page: saved as it is now"
