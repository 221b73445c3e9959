"""Properties of the length limit and of the text, over generated inputs (hypothesis)."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from browser_pool.extract import extract_content, truncation_mark
from browser_pool.extract.limit import apply_limit

words = st.text(alphabet="abcdefghijklmnopqrstuvwxyzéçß0123456789", min_size=1, max_size=12)
separators = st.sampled_from([" ", "  ", "\n", "\n\n", ", ", ". ", " - ", "\t"])


@st.composite
def prose(draw: st.DrawFn, max_words: int = 300) -> str:
    items = draw(st.lists(st.tuples(words, separators), min_size=1, max_size=max_words))
    return "".join(word + sep for word, sep in items).strip()


@given(text=prose(), limit=st.integers(min_value=1, max_value=3_000))
def test_output_never_exceeds_the_limit_plus_the_mark(text: str, limit: int) -> None:
    cut, truncated = apply_limit(text, limit)

    assert truncated == (len(text) > limit)
    if truncated:
        assert len(cut) <= limit + len(truncation_mark(limit, len(text)))
    else:
        assert cut == text


@given(text=prose(), limit=st.integers(min_value=13, max_value=3_000))
def test_truncation_never_cuts_a_word(text: str, limit: int) -> None:
    # Words are at most 12 characters, so a boundary always exists within the limit.
    cut, truncated = apply_limit(text, limit)
    if not truncated:
        return
    kept = cut.split("\n\n[… truncated, ")[0]

    assert text.startswith(kept)
    assert kept
    assert len(kept) <= limit
    next_char = text[len(kept)]
    assert not re.match(r"\w", next_char) or not re.match(r"\w", kept[-1])
    assert re.findall(r"\w+", kept) == re.findall(r"\w+", text)[: len(re.findall(r"\w+", kept))]


@settings(max_examples=60, deadline=None)
@given(
    paragraphs=st.lists(prose(max_words=60), min_size=1, max_size=12),
    script=st.text(alphabet="abcdefghij<>/=\"' ;(){}", max_size=40),
    limit=st.integers(min_value=40, max_value=5_000),
)
def test_extracted_text_is_clean_and_bounded(paragraphs: list[str], script: str, limit: int) -> None:
    body = "".join(f"<p>{paragraph}</p>" for paragraph in paragraphs)
    html = (
        f"<html><head><title>T</title><script>var secret = 'SCRIPTSECRET{script}';</script></head>"
        f"<body><article>{body}<script>document.write('SCRIPTSECRET')</script>"
        f"<style>.x{{content:'STYLESECRET'}}</style></article></body></html>"
    )

    result = extract_content(html, "https://example.com/p", limit=limit)

    assert "SCRIPTSECRET" not in result.text
    assert "STYLESECRET" not in result.text
    assert "<script" not in result.text
    assert len(result.text) <= limit + len(truncation_mark(limit, max(result.length, 1)))
    assert "  " not in result.text.replace("\n", "")
    assert "\n\n\n" not in result.text
    assert result.text == result.text.strip()


tags = st.sampled_from(["p", "div", "span", "a", "li", "ul", "table", "td", "tr", "pre", "br", "h1", "h2", "script",
                        "style", "nav", "article", "main", "blockquote", "aside", "form", "iframe", "em"])  # fmt: skip
attributes = st.sampled_from(["", ' class="share"', ' class="content"', ' id="main"', " hidden", ' role="main"',
                              ' style="display:none"', ' href="#x"', ' href="/y"', ' class="ad card"'])  # fmt: skip
fragments = st.one_of(
    prose(max_words=20),
    st.builds(lambda tag, attr: f"<{tag}{attr}>", tags, attributes),
    st.builds(lambda tag: f"</{tag}>", tags),
    st.text(alphabet="<>/&;#=\"' \n\tabc€中", max_size=10),
)


@settings(max_examples=150, deadline=None)
@given(parts=st.lists(fragments, max_size=60), limit=st.integers(min_value=1, max_value=2_000))
def test_any_markup_gives_a_result_never_an_exception(parts: list[str], limit: int) -> None:
    result = extract_content("".join(parts), "https://example.com/fuzz", limit=limit)

    assert result.method in ("readability", "semantic", "body", "empty")
    assert (result.text == "") == (result.method == "empty")
    assert len(result.text) <= limit + len(truncation_mark(limit, max(result.length, 1)))
