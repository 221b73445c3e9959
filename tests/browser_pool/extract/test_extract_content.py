"""extract_content on small pages: what a user sharing a tab expects the model to read."""

from __future__ import annotations

import json
import re
from datetime import UTC

import pytest

from browser_pool.extract import SAFETY_LIMIT, extract_content

STORY = [
    "The harbour of Saint-Malo reopened on Monday after three weeks of repairs to the old sea wall, which "
    "storms had breached in two places during the winter.",
    "Fishermen, who had been landing their catch in Cancale, said the detour had cost them two hours a day "
    "and a good part of their income, and welcomed the news with relief.",
    "The town council said the repairs cost 2.4 million euros, shared between the region and the state, "
    "and that a second phase would strengthen the northern jetty next year.",
    "Engineers will monitor the wall with sensors through the next storm season, the harbour master added, "
    "so that any new damage is found before it becomes dangerous.",
]


def article_page(*, extra_body: str = "", head: str = "") -> str:
    paragraphs = "".join(f"<p>{text}</p>" for text in STORY)
    return f"""<!doctype html>
<html><head><title>Saint-Malo harbour reopens | The Coast Gazette</title>
<style>.ad {{ color: red }} body::before {{ content: "STYLE-LEAK" }}</style>
<script>var tracking = "SCRIPT-LEAK";</script>{head}</head>
<body>
  <header class="site-header"><a href="/">The Coast Gazette</a>
    <nav><a href="/news">News</a> <a href="/sport">Sport</a> <a href="/weather">Weather</a></nav></header>
  <div id="cookie-consent" class="cookie-banner">We use cookies to improve your experience. Accept all cookies?
    <button>Accept</button></div>
  <main>
    <article>
      <h1>Saint-Malo harbour reopens</h1>
      <div class="byline">By Anne Le Goff, 3 March 2025</div>
      <div class="share-buttons"><a href="#">Share on Facebook</a> <a href="#">Share on X</a></div>
      <div class="article-body">
        {paragraphs}
        <div class="ad-slot"><span>Advertisement</span> Buy the new Breizh phone today, now with 40% off!</div>
        <figure><img src="wall.jpg" alt=""><figcaption>The repaired sea wall, photographed at low tide.</figcaption>
        </figure>
        <script>document.write("INLINE-SCRIPT-LEAK")</script>
        <noscript>NOSCRIPT-LEAK please enable JavaScript</noscript>
      </div>
      <aside class="related"><h2>Related stories</h2><ul><li><a href="/a">Storm damage in Brittany</a></li>
        <li><a href="/b">Fishing quotas cut again</a></li></ul></aside>
      <section id="comments"><h2>3 comments</h2><p>First! This comment should never reach the model.</p></section>
      <form class="newsletter"><label>Get our newsletter</label><input type="email"><button>Sign up</button></form>
    </article>
  </main>
  {extra_body}
  <footer><p>© 2025 The Coast Gazette. All rights reserved. Contact us, privacy policy, terms of use.</p></footer>
</body></html>"""


def test_article_keeps_the_story_and_drops_the_page_around_it() -> None:
    result = extract_content(article_page(), "https://gazette.example/harbour")

    assert result.method == "readability"
    assert result.ok
    assert result.title == "Saint-Malo harbour reopens | The Coast Gazette"
    assert result.url == "https://gazette.example/harbour"
    for paragraph in STORY:
        assert paragraph in result.text
    for noise in (
        "News",
        "Weather",
        "cookies",
        "Share on",
        "Advertisement",
        "Breizh phone",
        "Related stories",
        "Fishing quotas",
        "This comment",
        "newsletter",
        "All rights reserved",
        "By Anne Le Goff",
        "photographed at low tide",
    ):
        assert noise not in result.text, noise
    # The headline is the title, not a paragraph of the text.
    assert not result.text.startswith("Saint-Malo harbour reopens")
    assert result.truncated is False
    assert result.length == len(result.text)
    assert result.reason == ""
    assert result.extracted_at.tzinfo is UTC
    stored = result.as_dict()
    assert stored["method"] == "readability"
    assert stored["extracted_at"] == result.extracted_at.isoformat()


def test_paragraphs_become_lines_and_spaces_collapse() -> None:
    html = """<html><head><title>Spacing</title></head><body><article>
      <p>First   paragraph\twith\u00a0\u00a0odd
         spacing, long enough to be read as a paragraph of the article body.</p>
      <p>Second paragraph<br>with a line break, and some more words so that it reads like prose.</p>
      <p>  Third paragraph, indented in the source, also long enough to count as article text.  </p>
      <ul><li>first item</li><li>second item</li></ul>
    </article></body></html>"""

    text = extract_content(html, "https://example.com/spacing").text

    assert text.split("\n\n")[:3] == [
        "First paragraph with odd spacing, long enough to be read as a paragraph of the article body.",
        "Second paragraph\nwith a line break, and some more words so that it reads like prose.",
        "Third paragraph, indented in the source, also long enough to count as article text.",
    ]
    assert "- first item\n- second item" in text
    assert "  " not in text
    assert "\n\n\n" not in text
    assert all(line == line.strip() for line in text.splitlines())


def test_scripts_styles_and_hidden_elements_never_reach_the_text() -> None:
    hidden = """<div style="display: none">HIDDEN-LEAK</div><div hidden>ATTR-HIDDEN-LEAK</div>
      <span class="sr-only">SCREEN-READER-LEAK</span><template><p>TEMPLATE-LEAK</p></template>
      <svg><text>SVG-LEAK</text></svg>"""
    ld = json.dumps({"@type": "NewsArticle", "headline": "JSON-LD-LEAK"})
    head = f'<script type="application/ld+json">{ld}</script>'

    text = extract_content(article_page(extra_body=hidden, head=head), "https://gazette.example/h").text

    assert STORY[0] in text
    assert not re.search(r"[A-Z-]+-LEAK", text)
    assert "<script" not in text
    assert "tracking" not in text


def test_page_readability_cannot_parse_falls_back_to_main() -> None:
    # No paragraphs at all, only a list: readability scores nothing, the <main> element holds the text.
    items = "".join(
        f"<li>Version 2.{n}: fixed the crash when importing calendars with more than {n * 100} events</li>"
        for n in range(1, 9)
    )
    html = f"""<html><head><title>Release notes</title></head><body>
      <nav><a href="/">Home</a> <a href="/docs">Docs</a></nav>
      <main><h2>Changes</h2><ul>{items}</ul></main>
      <footer>Made with care by the calendar team, 2025</footer></body></html>"""

    result = extract_content(html, "https://calendar.example/releases")

    assert result.method == "semantic"
    assert "Version 2.1: fixed the crash" in result.text
    assert "Version 2.8: fixed the crash" in result.text
    assert "Home" not in result.text
    assert "calendar team" not in result.text


def test_page_with_only_body_text_uses_the_body() -> None:
    html = """<html><head><title>Plain</title></head><body>
      Server maintenance tonight.<br>The service will be down from 22:00 to 23:00 UTC.<br>Sorry!
    </body></html>"""

    result = extract_content(html, "https://status.example/")

    assert result.method == "body"
    assert result.text == "Server maintenance tonight.\nThe service will be down from 22:00 to 23:00 UTC.\nSorry!"


@pytest.mark.parametrize(
    "html",
    [
        "",
        "   \n ",
        "<html><head><title>Nothing</title></head><body></body></html>",
        "<html><body><script>var onlyScript = 1;</script><style>p{}</style><div>  </div></body></html>",
    ],
)
def test_empty_page_says_so(html: str) -> None:
    result = extract_content(html, "https://example.com/empty")

    assert result.method == "empty"
    assert not result.ok
    assert result.text == ""
    assert result.length == 0
    assert result.reason


def test_long_text_is_cut_at_a_word_boundary_with_a_visible_mark() -> None:
    body = "".join(f"<p>{text}</p>" for text in STORY * 10)
    html = f"<html><head><title>Long</title></head><body><article>{body}</article></body></html>"
    full = extract_content(html, "https://example.com/long").text

    result = extract_content(html, "https://example.com/long", limit=500)

    assert result.truncated is True
    assert result.length == len(full)
    kept, mark = result.text.split("\n\n[… truncated, ")
    assert mark == f"{len(kept)} of {len(full)} characters]"
    assert len(kept) <= 500
    assert full.startswith(kept)
    # The cut falls between words: the next character of the full text is not a letter.
    assert not full[len(kept)].isalnum()
    assert kept[-1].isalnum() or kept[-1] in ".,;:!?"


def test_a_long_article_is_kept_whole_unless_a_limit_is_asked_for() -> None:
    body = "".join(f"<p>{text}</p>" for text in STORY * 40)
    html = f"<html><head><title>Long</title></head><body><article>{body}</article></body></html>"

    default = extract_content(html, "https://example.com/long")
    short = extract_content(html, "https://example.com/long", limit=1_000)

    assert default.length > 20_000
    assert not default.truncated
    assert len(default.text) == default.length
    assert default.text.count(STORY[-1]) == 40
    assert SAFETY_LIMIT >= 1_000_000
    assert short.truncated
    assert len(short.text.split("\n\n[…")[0]) <= 1_000
    with pytest.raises(ValueError, match="limit"):
        extract_content(html, "https://example.com/long", limit=0)


def test_embedded_posts_and_quotes_inside_the_article_are_kept() -> None:
    tweet = (
        '<div class="embed-widget social-embed"><blockquote class="twitter-tweet"><p>We are proud to welcome the '
        "new harbour master, who starts on Monday and has thirty years of experience at sea.</p>&mdash; Port of "
        "Saint-Malo (@port_sm) March 3, 2025</blockquote></div>"
    )
    paragraphs = "".join(f"<p>{text}</p>" for text in STORY)
    html = f"<html><head><title>Harbour</title></head><body><article>{paragraphs}{tweet}</article></body></html>"

    text = extract_content(html, "https://example.com/harbour").text

    assert "We are proud to welcome the new harbour master" in text
    assert STORY[-1] in text


def test_structured_article_body_recovers_a_split_article() -> None:
    first = " ".join(
        f"First part sentence number {n} tells about the harbour, the boats and the weather." for n in range(12)
    )
    second = " ".join(
        f"Second part sentence {n} continues with the market, the fish and the prices." for n in range(12)
    )
    ld = json.dumps({"@context": "https://schema.org", "@type": "NewsArticle", "articleBody": f"{first} {second}"})
    html = f"""<html><head><title>Harbour news</title><script type="application/ld+json">{ld}</script></head><body>
      <div class="story"><div class="part-one"><p>{first}</p><p>{first[:300]}</p></div>
      <div class="gallery"><a href="/1">One photo link</a> <a href="/2">Another photo</a> <a href="/3">Third one</a></div>
      <div class="part-two-wrap"><div class="inner"><div class="x"><p>{second}</p></div></div></div></div>
    </body></html>"""

    result = extract_content(html, "https://example.com/split")

    assert "First part sentence number 11" in result.text
    assert "Second part sentence 11" in result.text


def test_tables_keep_their_cells_on_one_line() -> None:
    rows = "".join(f"<tr><td>Saint-Malo</td><td>{n}:00</td><td>{n + 6}:15</td></tr>" for n in range(1, 4))
    intro = "<p>" + STORY[0] + "</p><p>" + STORY[1] + "</p>"
    html = f"<html><head><title>Tides</title></head><body><article>{intro}<table>{rows}</table></article></body></html>"

    text = extract_content(html, "https://example.com/tides").text

    assert "Saint-Malo | 1:00 | 7:15\nSaint-Malo | 2:00 | 8:15" in text


def test_the_callers_tab_title_wins_over_the_document_title() -> None:
    result = extract_content(article_page(), "https://gazette.example/harbour", title="Harbour (live)")

    assert result.title == "Harbour (live)"


def test_documents_with_an_xml_declaration_and_odd_markup_still_parse() -> None:
    html = '<?xml version="1.0" encoding="iso-8859-1"?>\n<html><body><article><p>' + STORY[0] + "</p><p>" + STORY[1]
    result = extract_content(html, "https://example.com/x")

    assert STORY[0] in result.text
    assert STORY[1] in result.text


def test_section_headings_that_are_anchor_links_are_kept() -> None:
    # Documentation sites make each heading a link to itself; those are headings, not link lists.
    sections = "".join(
        f'<h2 id="s{n}"><a class="header" href="#s{n}">{name}</a></h2><p>{STORY[n]}</p>'
        for n, name in enumerate(["Overview", "Installation", "Configuration", "Troubleshooting"])
    )
    html = f"<html><head><title>Manual</title></head><body><main><h1>Manual</h1>{sections}</main></body></html>"

    text = extract_content(html, "https://docs.example/manual").text

    assert text.split("\n\n")[:4] == ["Overview", STORY[0], "Installation", STORY[1]]
    assert "Troubleshooting" in text


def test_links_to_other_stories_inside_the_article_are_dropped() -> None:
    teasers = (
        "<p><strong>DON'T MISS</strong></p>"
        '<p><a href="/other-1">Storm warning issued for the whole coast tonight</a> [VIDEO]</p>'
        '<p><a href="/other-2">Ferry timetable changes from next week</a></p>'
    )
    card = (
        '<div class="kartochka"><a href="/d{n}"><img src="d{n}.jpg" alt=""></a>'
        '<div class="zag"><a href="/d{n}">Popular diet number {n} explained</a></div>'
        "<div>Lose weight quickly with menu {n}.</div></div>"
    )
    grid = '<div class="blok"><h2>Most popular</h2>' + "".join(card.format(n=n) for n in range(5)) + "</div>"
    html = (
        "<html><head><title>Harbour</title></head><body><div class='page'><div class='story'>"
        f"<p>{STORY[0]}</p><p>{STORY[1]}</p>{teasers}<p>{STORY[2]}</p><p>{STORY[3]}</p></div>{grid}</div></body></html>"
    )

    text = extract_content(html, "https://example.com/harbour").text

    assert all(paragraph in text for paragraph in STORY)
    for teaser in ("DON'T MISS", "Storm warning", "Ferry timetable", "Popular diet", "Lose weight", "Most popular"):
        assert teaser not in text, teaser
