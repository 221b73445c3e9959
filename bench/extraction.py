"""Main-content extraction benchmark: Hive's extractor against readability-lxml and trafilatura.

Run by hand from the repository root:

    .venv/bin/python bench/extraction.py [--data PATH] [--worst N] [--limit CHARS]

It reads the development split of the Article Extraction Benchmark (gzipped HTML pages and their
human-checked article text, by default in ../shared/data/article-extraction-dev), extracts every page
with each extractor and scores the text as that split's README.md defines: lower-case, `\\w+` words,
sets of 4-word shingles, precision/recall/F1 per page (an empty pair scores 1, empty against non-empty
0), averaged over pages. trafilatura is a dev dependency, so all three run in the same run.

Each extractor is scored twice from the same extraction: on its whole text, and on the first `--limit`
characters of it (10,000 by default: what a shared tab used to hold and the model used to get, before
long articles were kept whole and paged; the cut falls on a word boundary, as Hive's did).
"""

from __future__ import annotations

import argparse
import gzip
import importlib
import importlib.metadata
import json
import re
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
_SPLIT = Path("shared", "data", "article-extraction-dev")
# Beside the repository (<repo>/../shared), or beside the folder that holds its worktrees.
DEFAULT_DATA = next((up / _SPLIT for up in REPO_ROOT.parents if (up / _SPLIT).is_dir()), REPO_ROOT.parent / _SPLIT)
# Local pages with a trap each (a related grid, hover cards, a slideshow, a 60,000-character article).
DEFAULT_CASES = REPO_ROOT / "bench" / "pages" / "extraction"
# The length setting Hive used to apply by default (HIVE_CONTENT_LIMIT cut the text there).
OLD_DEFAULT_LIMIT = 10_000
WORSE_BY = 0.05
_WORD = re.compile(r"\w+")

Extractor = Callable[[str, str], str]


@dataclass(frozen=True, slots=True)
class Page:
    key: str
    url: str
    html: str
    truth: str


@dataclass(slots=True)
class Run:
    name: str
    setting: str
    f1: dict[str, float] = field(default_factory=dict)
    precision: dict[str, float] = field(default_factory=dict)
    recall: dict[str, float] = field(default_factory=dict)
    seconds: list[float] = field(default_factory=list)
    cut: int = 0


def shingle_scores(predicted: str, truth: str) -> tuple[float, float, float]:
    """Precision, recall and F1 of the predicted text's 4-word shingles against the truth's."""
    got, want = _shingles(predicted), _shingles(truth)
    if not got and not want:
        return 1.0, 1.0, 1.0
    if not got or not want:
        return 0.0, 0.0, 0.0
    common = len(got & want)
    precision, recall = common / len(got), common / len(want)
    f1 = 2 * precision * recall / (precision + recall) if common else 0.0
    return precision, recall, f1


def _shingles(text: str) -> set[tuple[str, ...]]:
    words = _WORD.findall(text.lower())
    return {tuple(words[i : i + 4]) for i in range(len(words) - 3)}


def load_pages(data: Path) -> list[Page]:
    """The split's pages (`html/<id>.html.gz`), or local pages beside their ground truth (`<id>.html`)."""
    truth = json.loads((data / "ground-truth.json").read_text(encoding="utf-8"))
    pages = []
    for key, item in sorted(truth.items()):
        packed = data / "html" / f"{key}.html.gz"
        raw = gzip.decompress(packed.read_bytes()) if packed.is_file() else (data / f"{key}.html").read_bytes()
        pages.append(Page(key=key, url=item["url"], html=raw.decode("utf-8", "replace"), truth=item["articleBody"]))
    return pages


def hive_extractor() -> Extractor:
    sys.path.insert(0, str(REPO_ROOT))
    extract = importlib.import_module("browser_pool.extract")

    def run(html: str, url: str) -> str:
        return str(extract.extract_content(html, url).text)

    return run


def first_chars(text: str, limit: int) -> tuple[str, bool]:
    """The first `limit` characters at a word boundary, as Hive's limit cut them (without its mark), and whether
    anything was cut."""
    sys.path.insert(0, str(REPO_ROOT))
    limit_module = importlib.import_module("browser_pool.extract.limit")
    kept, cut = limit_module.apply_limit(text, limit)
    return (str(kept).rsplit("\n\n[… truncated", 1)[0], True) if cut else (text, False)


def readability_extractors() -> dict[str, Extractor]:
    """readability-lxml's summary as plain text, two ways of flattening its HTML.

    `text_content()` glues the words of adjacent blocks together ("end.Next"), which costs shingles;
    joining text nodes with spaces shows what readability's choice of content alone scores.
    """
    import lxml.html
    from readability import Document

    def text_content(html: str, _url: str) -> str:
        return str(lxml.html.fromstring(Document(html).summary()).text_content())

    def spaced(html: str, _url: str) -> str:
        return " ".join(lxml.html.fromstring(Document(html).summary()).itertext())

    version = _version("readability-lxml")
    return {f"readability-lxml {version}": text_content, f"readability-lxml {version}, text nodes spaced": spaced}


def trafilatura_extractor() -> Extractor:
    trafilatura = importlib.import_module("trafilatura")

    def run(html: str, _url: str) -> str:
        return str(trafilatura.extract(html) or "")

    return run


def _version(distribution: str) -> str:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "?"


def measure(extractors: dict[str, Extractor], pages: list[Page], limit: int) -> list[Run]:
    """Score every extractor on every page, on its whole text and on its first `limit` characters (one extraction
    serves both); extractors take turns on each page so that a busy machine slows them all alike."""
    cut_setting = f"first {limit:,} chars"
    runs = {(name, setting): Run(name, setting) for name in extractors for setting in ("whole", cut_setting)}
    for page in pages:
        for name, extractor in extractors.items():
            started = time.perf_counter()
            text = extractor(page.html, page.url)
            elapsed = time.perf_counter() - started
            first, cut = first_chars(text, limit)
            for setting, scored in (("whole", text), (cut_setting, first)):
                run = runs[(name, setting)]
                run.seconds.append(elapsed)
                run.precision[page.key], run.recall[page.key], run.f1[page.key] = shingle_scores(scored, page.truth)
                run.cut += cut and setting != "whole"
    return list(runs.values())


def report(title: str, runs: list[Run], pages: list[Page], worst: int, limit: int) -> None:
    longer = sum(1 for page in pages if len(page.truth) > limit)
    print(f"{title}: {len(pages)} pages; {longer} with an article longer than {limit:,} characters\n")
    print(
        f"{'extractor':<40} {'text':<20} {'F1':>6} {'prec.':>6} {'recall':>6} {'ms/page':>8} {'median':>7} {'cut':>4}"
    )
    for run in runs:
        print(
            f"{run.name:<40} {run.setting:<20} {statistics.mean(run.f1.values()):>6.3f}"
            f" {statistics.mean(run.precision.values()):>6.3f} {statistics.mean(run.recall.values()):>6.3f}"
            f" {1000 * statistics.mean(run.seconds):>8.1f} {1000 * statistics.median(run.seconds):>7.1f} {run.cut:>4}"
        )
    print("(ms/page is one extraction, shared by both rows of an extractor; cut: pages whose text the limit cut)")
    whole = [run for run in runs if run.setting == "whole"]
    hive, baselines = whole[0], [run for run in whole[1:] if run.name.startswith("readability")]
    urls = {page.key: page.url for page in pages}
    for baseline in baselines:
        deltas = sorted((hive.f1[key] - baseline.f1[key], key) for key in hive.f1)
        print(f"\nWorst pages, {hive.name} against {baseline.name}, whole texts (F1 delta, Hive, baseline, page):")
        for delta, key in deltas[:worst]:
            print(f"  {delta:+.3f}  {hive.f1[key]:.3f}  {baseline.f1[key]:.3f}  {key[:12]}  {urls[key][:70]}")
        worse = sum(1 for delta, _ in deltas if delta < -WORSE_BY)
        better = sum(1 for delta, _ in deltas if delta > WORSE_BY)
        print(f"  pages where Hive is worse by more than {WORSE_BY}: {worse}; better by more than {WORSE_BY}: {better}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the benchmark split's directory")
    parser.add_argument("--cases", type=Path, default=DEFAULT_CASES, help="local pages scored on their own")
    parser.add_argument("--worst", type=int, default=8, help="how many of the worst pages to list")
    parser.add_argument(
        "--limit", type=int, default=OLD_DEFAULT_LIMIT, help="the length setting scored beside the whole texts"
    )
    parser.add_argument("--smoke", action="store_true", help="tiny sizes: check that the benchmark still runs")
    args = parser.parse_args(argv)
    if not (args.data / "ground-truth.json").is_file():
        print(f"no benchmark data in {args.data}", file=sys.stderr)
        return 2
    pages = load_pages(args.data)[:3] if args.smoke else load_pages(args.data)
    extractors = {
        "hive (browser_pool.extract)": hive_extractor(),
        **readability_extractors(),
        f"trafilatura {_version('trafilatura')}": trafilatura_extractor(),
    }
    report("Dev split", measure(extractors, pages, args.limit), pages, args.worst, args.limit)
    cases = load_pages(args.cases)
    print()
    report(f"Local cases ({args.cases.name})", measure(extractors, cases, args.limit), cases, args.worst, args.limit)
    return 0


if __name__ == "__main__":
    sys.exit(main())
