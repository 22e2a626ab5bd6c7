"""Writes the generated parts of docs/rules.md from the engine's own data, or checks them (``--check``).

The night call order is data (engine/order.py): the page's call-order block is made from it, with each
call's character named as voices/en.yaml names it, and so are the list of house rules (engine.table.Rules) and
the cards whose power the Elder's penalty takes (engine.role.Role.villager_power).
Each generated part sits between two markers in the page:

    <!-- BEGIN generated: NAME (scripts/rules_doc.py) -->
    ...
    <!-- END generated: NAME -->

    python scripts/rules_doc.py           # rewrites the generated parts of docs/rules.md
    python scripts/rules_doc.py --check   # exit 1, naming the part, when the page differs from the engine
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import yaml  # noqa: E402

from engine import Rules, order, village  # noqa: E402
from engine.order import Entry, When  # noqa: E402
from engine.roles import OWNERS, ROLES  # noqa: E402
from engine.table import house_rules  # noqa: E402

PAGE = ROOT / "docs" / "rules.md"

GROUPS = {
    "lovers": "the two lovers, together",
    "sisters": "the Two Sisters, together",
    "brothers": "the Three Brothers, together",
    "werewolves": "every werewolf, together (the Little Girl may spy)",
    "charmed": "every charmed player, together",
}
"""The calls that wake a group rather than one character."""

PROFILE_NAMES = {
    "bestof": "the Best Of rulebook's order, with the expansions' characters slotted in where the Chinese "
              "article's complete order puts them",
    "pact": "the Chinese article's complete order (The Pact), step by step",
}
"""What each call-order profile is; a profile missing here stops the script (and fails the test)."""


def english_names() -> dict[str, str]:
    """Returns the English name of every card and building, as voices/en.yaml has it."""
    with open(ROOT / "voices" / "en.yaml", encoding="utf-8") as f:
        names: dict[str, str] = yaml.safe_load(f)["roles"]
    return names


def who(call: str, names: dict[str, str]) -> str:
    """Returns who wakes at ``call``: a group, a building or a character, with its card id."""
    if call in GROUPS:
        return GROUPS[call]
    if call in village.TOKENS:
        return f"{names[call]} (building token `{call}`)"
    owner = OWNERS.get(call)
    if owner is None:
        raise SystemExit(f"rules_doc.py: the call {call!r} has no character: name it in GROUPS")
    return f"{names[owner]} (`{owner}`)"


def nights(entry: Entry) -> str:
    """Returns on which nights ``entry`` is called, in words, with the rulebook's intervals."""
    if entry.when is When.FIRST:
        return "first night"
    if entry.when is When.EVERY:
        return "every night"
    if entry.when is When.LATER:
        return "every night but the first"
    if entry.when is When.EVEN:
        return "nights 2, 4, 6…"
    if entry.when is When.EVEN_IF_RULE:
        return "nights 2, 4, 6… when `sisters_wake` is on"
    default = order.INTERVALS[entry.every]
    if entry.every == "sisters_interval":
        said = "0: never; `sisters_wake: true` makes it 2" if not default else f"{default}"
        return f"again every N nights, N = `{entry.every}` (default {said})"
    first = "" if entry.when is When.NTH else ", never the first"
    return f"every N nights{first}, N = `{entry.every}` (default {default}: nights {default}, {2 * default}…)"


def order_table(profile: str, names: dict[str, str]) -> list[str]:
    """Returns the Markdown table of a profile: place, call id, who wakes, on which nights."""
    rows = ["| # | call | who wakes | nights |", "|---|---|---|---|"]
    for i, entry in enumerate(order.PROFILES[profile], 1):
        rows.append(f"| {i} | `{entry.call}` | {who(entry.call, names)} | {nights(entry)} |")
    return rows


def _kept(a: list[str], b: list[str]) -> set[int]:
    """Returns the places in ``b`` of a longest common subsequence of ``a`` and ``b``."""
    n, m = len(a), len(b)
    best = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            best[i][j] = best[i + 1][j + 1] + 1 if a[i] == b[j] else max(best[i + 1][j], best[i][j + 1])
    kept, i, j = set(), 0, 0
    while i < n and j < m:
        if a[i] == b[j]:
            kept.add(j)
            i, j = i + 1, j + 1
        elif best[i + 1][j] >= best[i][j + 1]:
            i += 1
        else:
            j += 1
    return kept


def moves(base: str, other: str) -> list[str]:
    """Returns, in words, the calls ``other`` puts elsewhere than ``base`` (each with the call it now follows)."""
    a = [f"{e.call}/{e.when.value}" for e in order.PROFILES[base]]
    b = [f"{e.call}/{e.when.value}" for e in order.PROFILES[other]]
    if sorted(a) != sorted(b):
        raise SystemExit(f"rules_doc.py: the profiles {base} and {other} do not hold the same calls")
    kept = _kept(a, b)
    calls = [e.call for e in order.PROFILES[other]]
    return [f"`{calls[j]}` comes right after `{calls[j - 1]}`" for j in range(len(b)) if j not in kept]


def call_order() -> list[str]:
    """Returns the call-order block: every profile's order, and what each profile changes from the default."""
    names = english_names()
    default = Rules().profile
    lines: list[str] = []
    for profile in order.PROFILES:
        if profile not in PROFILE_NAMES:
            raise SystemExit(f"rules_doc.py: the profile {profile!r} is not described: add it to PROFILE_NAMES")
        lines += [f"**`{profile}`**{' (the default)' if profile == default else ''}: {PROFILE_NAMES[profile]}.", ""]
        if profile != default:
            changed = moves(default, profile)
            lines += [f"What `{profile}` changes from `{default}`: " + "; ".join(changed) + ".", ""]
        lines += order_table(profile, names) + [""]
    return lines[:-1]


def rule_list() -> list[str]:
    """Returns the house rules' names, each with its default, in one paragraph."""
    def shown(value: object) -> str:
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, tuple):
            return ", ".join(map(str, value)) or "none"
        return str(value)
    return [", ".join(f"`{r.name}` ({shown(r.default)})" for r in house_rules()) + "."]


def powers_lost() -> list[str]:
    """Returns the cards whose special power the Elder's penalty takes (Role.villager_power), by English name."""
    names = english_names()
    lost = [f"{names[card]} (`{card}`)" for card, role in ROLES.items() if role.villager_power]
    return ["**Powers lost**: " + ", ".join(lost[:-1]) + " and " + lost[-1] + "."]


PARTS: dict[str, Callable[[], list[str]]] = {"call-order": call_order, "house-rules": rule_list,
                                             "powers-lost": powers_lost}
"""Every generated part of the page, by name."""


def _block(name: str) -> re.Pattern[str]:
    return re.compile(rf"(<!-- BEGIN generated: {re.escape(name)} \(scripts/rules_doc.py\) -->\n)(.*?)"
                      rf"(<!-- END generated: {re.escape(name)} -->)", re.S)


def generated(text: str) -> tuple[str, list[str]]:
    """Returns the page with every generated part made anew, and the names of the parts that differed
    (a part whose markers are missing counts as differing, and is left as it was)."""
    differ: list[str] = []
    for name, make in PARTS.items():
        pattern = _block(name)
        found = pattern.search(text)
        body = "\n".join(make()) + "\n"
        if found is None:
            differ.append(name)
            continue
        if found.group(2) != body:
            differ.append(name)
            text = text[:found.start(2)] + body + text[found.end(2):]
    return text, differ


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check: exit 1 if the page differs")
    parser.add_argument("--page", type=Path, default=PAGE, help="the page (default docs/rules.md)")
    args = parser.parse_args(argv)
    text = args.page.read_text(encoding="utf-8")
    new, differ = generated(text)
    missing = [name for name in differ if _block(name).search(text) is None]
    if missing:
        print(f"{args.page}: no markers for the generated part(s): {', '.join(missing)}", file=sys.stderr)
        return 1
    if args.check:
        if differ:
            print(f"{args.page}: out of date with the engine: {', '.join(differ)}; "
                  "run python scripts/rules_doc.py", file=sys.stderr)
            return 1
        return 0
    if differ:
        args.page.write_text(new, encoding="utf-8")
        print(f"{args.page}: rewrote {', '.join(differ)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
