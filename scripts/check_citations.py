"""Looks up every sentence docs/rules.md quotes in the seed it names, and prints what it found.

docs/rules.md cites its sources in brackets: ``[Best Of: "…"]``, ``[Chinese: "…"; narrator: …]``. Each quoted
piece of a bracket is looked for in the rulebook its clause names (the Best Of, the French rules, BGA's guide, the
Chinese article in either script); a quote in Chinese or Japanese outside a bracket is looked for in every seed in
those scripts. A quote is found when each of its pieces (split at "…" and at an editor's "[s]") stands in the seed
in order, whitespace, case and the shape of quotation marks aside.

The seeds are the rulebooks the project comes from; they are not in a user's clone, so this is a check the
engineers run, not a test:

    python scripts/check_citations.py                       # the seeds in the engineers' folder beside the clone
    python scripts/check_citations.py --seeds DIR --all     # every citation, found or not

It exits 1 when a quote is not found in the seed it names (or a bracket names no seed the script knows).
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SEEDS = {"Best Of": ("000",), "French": ("003",), "BGA": ("002",), "Japanese": ("002",),
         "Chinese": ("001", "004")}
"""Each source's name as docs/rules.md's brackets say it, and the seed files (by their number) it names."""

NOT_SEEDS = ("narrator",)
"""Clauses that name no seed: the narrator's own rulings quote nothing."""

QUOTE = re.compile(r'"([^"]+)"|“([^”]+)”|「([^」]+)」')
CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
CUT = re.compile(r"\s*(?:…|\.\.\.|\[[a-z]{1,3}\])\s*")  # an ellipsis, or an editor's "[s]"


@dataclass(frozen=True)
class Citation:
    """One quoted piece of docs/rules.md: its line, the source it is credited to, and the text."""
    line: int
    source: str
    text: str


def normal(text: str) -> str:
    """Returns ``text`` with case, whitespace and the shapes of quotation marks and dashes folded away."""
    folded: dict[str, str | int | None] = {"’": "'", "‘": "'", "“": '"', "”": '"', "–": "-", "—": "-"}
    text = text.lower().translate(str.maketrans(folded))
    text = re.sub(r"\s+", " ", text)
    return re.sub(r"(?<=[\u3000-\u9fff\uff00-\uffef]) | (?=[\u3000-\u9fff\uff00-\uffef])", "", text)


def brackets(page: str) -> list[tuple[int, int]]:
    """Returns the (start, end) of every outer bracket of ``page`` that is not a Markdown link's text."""
    found, depth, start = [], 0, 0
    for at, char in enumerate(page):
        if char == "[":
            depth, start = depth + 1, (at if depth == 0 else start)
        elif char == "]" and depth:
            depth -= 1
            if depth == 0 and page[at + 1:at + 2] != "(" and not page[start + 1:at].startswith("!"):
                found.append((start, at + 1))
    return found


def citations(page: str) -> tuple[list[Citation], list[tuple[int, str]]]:
    """Returns every quoted piece of ``page`` with the source it is credited to, and the brackets that quote
    something but name no source this script knows (line, bracket)."""
    cited: list[Citation] = []
    unknown: list[tuple[int, str]] = []
    inside = brackets(page)

    def line_of(at: int) -> int:
        return page.count("\n", 0, at) + 1

    for start, end in inside:
        source: str | None = None
        for clause in re.split(r";\s*", page[start + 1:end - 1]):
            named = next((name for name in SEEDS if clause.lstrip().startswith(name)), None)
            source = named or (source if QUOTE.match(clause.lstrip()) else None)  # "…"; "…": the same source
            quotes = [next(g for g in match.groups() if g) for match in QUOTE.finditer(clause)]
            if clause.lstrip().startswith(NOT_SEEDS):  # the narrator's own words; a seed it quotes in them, in CJK
                source = None
                quotes = [quote for quote in quotes if CJK.search(quote)]
                cited += [Citation(line_of(start), "Chinese or Japanese", quote) for quote in quotes]
            elif quotes and source is None:
                unknown.append((line_of(start), clause.strip()))
            elif quotes and source is not None:
                cited += [Citation(line_of(start), source, quote) for quote in quotes]
    for match in QUOTE.finditer(page):
        quote = next(g for g in match.groups() if g)
        if CJK.search(quote) and not any(start < match.start() < end for start, end in inside):
            cited.append(Citation(line_of(match.start()), "Chinese or Japanese", quote))
    return cited, unknown


def found_in(quote: str, seed: str) -> bool:
    """Tells whether every piece of ``quote`` stands in ``seed`` (both `normal`), in order."""
    at = 0
    for piece in (p for p in CUT.split(normal(quote)) if len(p.strip(" .,")) > 1):
        at = seed.find(piece.strip(" "), at)
        if at < 0:
            return False
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=Path, default=ROOT.parent / "shared" / "seeds", help="the seeds' folder")
    parser.add_argument("--page", type=Path, default=ROOT / "docs" / "rules.md", help="the page to check")
    parser.add_argument("--all", action="store_true", help="print every citation, not only those not found")
    args = parser.parse_args()
    files = {path.name[:3]: normal(path.read_text(encoding="utf-8")) for path in sorted(args.seeds.glob("0*.txt"))}
    if not files:
        print(f"no seeds in {args.seeds}", file=sys.stderr)
        return 2
    cited, unknown = citations(args.page.read_text(encoding="utf-8"))
    missing = 0
    for citation in cited:
        names = SEEDS.get(citation.source, ("001", "002", "004"))
        where = [name for name in names if name in files and found_in(citation.text, files[name])]
        missing += not where
        if args.all or not where:
            verdict = f"found in {', '.join(where)}" if where else f"NOT FOUND in {citation.source}"
            print(f"{args.page.name}:{citation.line}: {verdict}: \"{' '.join(citation.text.split())}\"")
    for line, clause in unknown:
        print(f"{args.page.name}:{line}: quotes a source this script does not know: [{clause}]")
    print(f"{len(cited)} quotes checked, {len(cited) - missing} found, {missing} not found; "
          f"{len(unknown)} brackets naming no known source")
    return 1 if missing or unknown else 0


if __name__ == "__main__":
    sys.exit(main())
