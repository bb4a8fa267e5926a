"""Turning bench_search's measurements into a side-by-side table with ratios and the project's targets."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

ENGINES = ("whoosh", "fts5", "naive")


@dataclass(frozen=True, slots=True)
class Target:
    """One of the project's performance targets (set for the full ~56k corpus)."""

    key: str
    label: str
    limit: float
    unit: str


TARGETS = (
    Target("build_s", "full build", 90.0, "s"),
    Target("add_s", "add 1k papers", 3.0, "s"),
    Target("open_query_s", "open + 1st query", 0.2, "s"),
    Target("size_mb", "index size", 200.0, "MB"),
    Target("mix_p95_ms", "query mix p95", 50.0, "ms"),
)
TARGET_SCALE = 50_000
"""Runs smaller than this show verdicts in parentheses: passing at 5k says little about 56k."""


@dataclass(slots=True)
class QueryTimes:
    """Latencies (seconds) of one query on one engine, and what it found."""

    seconds: list[float] = field(default_factory=list)
    hits: int | None = None
    note: str | None = None

    def summary(self) -> dict[str, Any]:
        return {
            "p50_ms": percentile(self.seconds, 50) * 1000,
            "p95_ms": percentile(self.seconds, 95) * 1000,
            "hits": self.hits,
            "note": self.note,
        }


def percentile(values: Sequence[float], pct: int) -> float:
    """Inclusive percentile, so 30 samples give a p95 between the two slowest rather than past them."""
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[pct - 1]


def mix_ms(queries: dict[str, QueryTimes], names: Sequence[str], pct: int) -> float | None:
    """The percentile over every timed repetition of the named queries pooled, in ms."""
    pooled = [value for name in names if name in queries for value in queries[name].seconds]
    return percentile(pooled, pct) * 1000 if pooled else None


def _fmt(value: float | None, unit: str) -> str:
    if value is None:
        return "n/a"
    if unit == "ms":
        return f"{value:.1f} ms" if value < 100 else f"{value:.0f} ms"
    if unit == "s":
        if value < 0.1:
            return f"{value * 1000:.1f} ms"
        return f"{value:.3f} s" if value < 1 else f"{value:.2f} s"
    if unit == "MB":
        return f"{value:.1f} MB"
    return f"{value:g}"


def _ratio(ours: float | None, theirs: float | None) -> str:
    if ours is None or theirs is None or theirs <= 0:
        return "-"
    return f"{ours / theirs:.1f}x"


def _verdict(target: Target | None, value: float | None, papers: int) -> str:
    if target is None:
        return ""
    if value is None:
        return "n/a"
    word = "PASS" if value <= target.limit else "MISS"
    return word if papers >= TARGET_SCALE else f"({word})"


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    widths = [max(len(row[col]) for row in [header, *rows]) for col in range(len(header))]
    lines = ["  ".join(cell.ljust(widths[col]) for col, cell in enumerate(header)).rstrip()]
    lines.append("  ".join("-" * width for width in widths))
    for row in rows:
        lines.append("  ".join(cell.ljust(widths[col]) for col, cell in enumerate(row)).rstrip())
    return lines


def _timing(times: QueryTimes | None) -> str:
    if times is None or not times.seconds:
        return "n/a"
    hits = "" if times.hits is None else f" [{times.hits}]"
    return f"{percentile(times.seconds, 50) * 1000:.1f} / {percentile(times.seconds, 95) * 1000:.1f}{hits}"


def render_run(run: dict[str, Any], queries: dict[str, dict[str, QueryTimes]], names: Sequence[str]) -> str:
    """One corpus size: build/size/open figures, then every query, each engine side by side with ratios."""
    papers = int(run["papers"])
    lines = [
        f"== {run['label']}: {papers:,} papers ({run['paths']}) ==",
        f"prep (shared, untimed for engines): load_catalog {run['prep']['catalog_s']:.2f} s, "
        f"render abstracts {run['prep']['render_s']:.2f} s",
        f"added listing: {run['added']} papers: {run['added_origin']}",
        "",
    ]
    figures = {engine: run[engine] for engine in ENGINES}
    by_key = {target.key: target for target in TARGETS}
    rows = []
    for key, label, unit in (
        ("build_s", "full build", "s"),
        ("add_s", f"add {run['added']} papers (update)", "s"),
        ("size_mb", "index size on disk", "MB"),
        ("open_s", "open (fresh process)", "s"),
        ("open_query_s", "open + 1st query", "s"),
        ("mix_p50_ms", "query mix p50 (no fuzzy)", "ms"),
        ("mix_p95_ms_common", "query mix p95 (no fuzzy)", "ms"),
        ("mix_p95_ms", "query mix p95 (all 8)", "ms"),
    ):
        values = [figures[engine].get(key) for engine in ENGINES]
        target = by_key.get(key)
        rows.append(
            [
                label,
                *(_fmt(value, unit) for value in values),
                _ratio(values[0], values[1]),
                _ratio(values[0], values[2]),
                "" if target is None else f"<= {target.limit:g} {target.unit}",
                _verdict(target, values[0], papers),
            ]
        )
    header = ["metric", *ENGINES, "whoosh/fts5", "whoosh/naive", "target", "verdict"]
    lines += _table(header, rows)
    lines += ["", "queries, p50 / p95 ms [hits], searcher reused, top 20 with highlights + snippets:", ""]
    rows = []
    cached: dict[str, float] = run["whoosh"].get("cached_repeat_p50_ms", {})
    for name in names:
        per = {engine: queries[engine].get(name) for engine in ENGINES}
        p95 = {
            engine: percentile(times.seconds, 95) if times is not None and times.seconds else None
            for engine, times in per.items()
        }
        rows.append(
            [
                name,
                *(_timing(per[engine]) for engine in ENGINES),
                _ratio(p95["whoosh"], p95["fts5"]),
                _ratio(p95["whoosh"], p95["naive"]),
                _fmt(cached.get(name), "ms"),
            ]
        )
    lines += _table(["query", *ENGINES, "w/fts5 p95", "w/naive p95", "whoosh repeat p50"], rows)
    lines.append("(whoosh repeat: the same query again, from SearchIndex's result cache, plus highlighting)")
    notes = [
        f"  {name}: {engine}: {times.note}"
        for name in names
        for engine in ENGINES
        if (times := queries[engine].get(name)) is not None and times.note
    ]
    if run["whoosh"].get("add_note"):
        notes.append(f"  add: whoosh: {run['whoosh']['add_note']}")
    if notes:
        lines += ["", "notes:", *notes]
    return "\n".join(lines)


def legend(papers: int) -> str:
    """What the columns mean, printed once under the tables."""
    scale = (
        ""
        if papers >= TARGET_SCALE
        else " (targets are for ~56k papers; verdicts in parentheses are indicative)"
    )
    return (
        "whoosh = index.search.SearchIndex (project); fts5 = SQLite FTS5 porter unicode61, bm25, snippet()+"
        "highlight();\nnaive = Python `in` over lowercased text in RAM, AND of words, no ranking. "
        "Ratios > 1 mean whoosh is slower/larger." + scale
    )
