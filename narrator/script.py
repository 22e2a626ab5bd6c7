"""Practice scripts (dry runs): a whole game decided in advance, in the format of docs/practice-scripts.md."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from engine import MAX_SEATS, ROLES, Advice, Deal, Kind, call_kinds, check_groups
from engine.answers import shown
from engine import check_extras
from engine.village import TOKENS, check_buildings

from .config import Findings, TableConfig, Warned, read_table
from .names import character_id, closest, fold_name, suggest, written_names
from .errors import UserError
from .yamlfile import Document, YamlError, load

TOP_KEYS = ("table", "config", "deal", "answers", "expect")
WINNERS = ("village", "werewolves", "lovers", "white_werewolf", "piper", "angel", "prejudiced_manipulator",
           "nobody")
REASONS = ("no_survivors", "stalemate")
"""Why nobody won (engine.Outcome.reason): nobody left alive, or two players left whom nothing can eliminate."""


@dataclass(frozen=True)
class ScriptAnswer:
    """One answer of a script: the call it is for, its value, and where it stands in the file."""

    call: str
    value: Any
    index: int  # 1-based place in the answers list
    where: str  # file:line


@dataclass(frozen=True)
class Script:
    """A checked practice script."""

    path: str
    config: TableConfig
    deal: Deal
    answers: tuple[ScriptAnswer, ...]
    expect_winner: str | None = None
    expect_eliminated: tuple[int, ...] | None = None
    expect_reason: str | None = None


def _table(doc: Document, found: Findings, seats: int | None) -> TableConfig | None:
    data = doc.data
    if "table" in data and "config" in data:
        found.errors.append(f"{doc.where('config')}: give either table or config, not both")
        return None
    if "config" in data:
        ref = data["config"]
        if not isinstance(ref, str):
            found.errors.append(f"{doc.where('config')}: config: expected the path of a table config file")
            return None
        path = Path(doc.path).parent / ref
        try:
            other = load(path)
        except YamlError as exc:
            found.errors.append(f"{doc.where('config')}: config: {exc}")
            return None
        return read_table(other.data, other, (), found, seats_from_deal=seats, deal_where=doc.where("deal"))
    if "table" not in data:
        found.errors.append(f"{doc.where()}: a script needs 'table' (a table config) or 'config' (its path)")
        return None
    return read_table(data["table"], doc, ("table",), found, seats_from_deal=seats, deal_where=doc.where("deal"))


def _buildings(doc: Document, found: Findings, raw: object) -> dict[int, str] | None:
    """Reads ``deal: buildings: {seat: token}`` (the Village's public tokens)."""
    where = doc.where("deal", "buildings")
    if not isinstance(raw, dict):
        found.errors.append(f"{where}: buildings: expected a mapping of seat number to building token "
                            f"({', '.join(TOKENS)})")
        return None
    given: dict[int, str] = {}
    for seat, token in raw.items():
        if not isinstance(seat, int) or isinstance(seat, bool) or not 1 <= seat <= MAX_SEATS:
            found.errors.append(f"{where}: buildings: {shown(seat)} is not a seat number")
        elif not isinstance(token, str) or token not in TOKENS:
            found.errors.append(f"{where}: buildings: seat {seat}: unknown building {shown(token)}"
                                f"{suggest(token, list(TOKENS))}; buildings: {', '.join(TOKENS)}")
        else:
            given[seat] = token
    return given if len(given) == len(raw) else None


def _deal(doc: Document, found: Findings) -> tuple[dict[int, str], list[str]] | None:
    raw = doc.data.get("deal")
    if not isinstance(raw, dict):
        found.errors.append(f"{doc.where('deal')}: deal: expected a mapping of seat number to character "
                            "(1: werewolf, 2: seer, ...), with centre: [a, b] when the Thief plays")
        return None
    seats: dict[int, str] = {}
    centre: list[str] = []
    ok = True
    for key, role in raw.items():
        where = doc.where("deal", key)
        if key in ("buildings", "events"):
            continue  # read by _buildings, and by read_script (the morning draw's pile)
        if key == "centre":
            if not isinstance(role, list) or len(role) != 2 or not all(isinstance(r, str) for r in role):
                found.errors.append(f"{where}: centre: expected the Thief's two centre cards, [a, b]")
                ok = False
                continue
            centre = list(role)
        elif isinstance(key, int) and not isinstance(key, bool):
            if not 1 <= key <= MAX_SEATS:
                found.errors.append(f"{where}: deal: seat {shown(key)}: seats are numbered 1 to {MAX_SEATS}")
                ok = False
                continue
            if not isinstance(role, str):
                found.errors.append(f"{where}: seat {key}: expected a character id, got {shown(role)}")
                ok = False
                continue
            seats[key] = role
        else:
            found.errors.append(f"{where}: deal: {shown(key)} is not a seat number (or 'centre')")
            ok = False
    # A deal names its characters as a deck may: the id or its name in a voice file (Renard as fox, 女巫 as witch).
    seats = {seat: character_id(role) or role for seat, role in seats.items()}
    centre = [character_id(role) or role for role in centre]
    for role in list(seats.values()) + centre:
        if role not in ROLES:
            hint = closest(role, sorted({*ROLES, *(name for name, _ in written_names())}), fold=fold_name)
            found.errors.append(f"{doc.where('deal')}: deal: unknown character {shown(role)}{hint}")
            ok = False
    numbers = sorted(seats)
    if numbers and numbers != list(range(1, len(numbers) + 1)):
        missing = sorted(set(range(1, max(numbers) + 1)) - set(numbers))
        found.errors.append(f"{doc.where('deal')}: deal: seats are numbered 1..N with none missing; "
                            f"missing: {missing}" if missing else f"{doc.where('deal')}: deal: seats start at 1")
        ok = False
    if ("thief" in seats.values() or "thief" in centre) and not centre:
        found.errors.append(f"{doc.where('deal')}: deal: the Thief plays: give his two centre cards, centre: [a, b]")
        ok = False
    if centre and "thief" not in seats.values() and "thief" not in centre:
        found.errors.append(f"{doc.where('deal', 'centre')}: centre: centre cards are only dealt when the Thief plays")
        ok = False
    return (seats, centre) if ok else None


def _answers(doc: Document, found: Findings) -> list[ScriptAnswer]:
    raw = doc.data.get("answers", [])
    if raw is None:
        raw = []
    if not isinstance(raw, list):
        found.errors.append(f"{doc.where('answers')}: answers: expected a list of {{call: answer}} items")
        return []
    kinds = call_kinds()
    answerable = sorted(c for c, k in kinds.items() if k is not Kind.NONE)
    items: list[ScriptAnswer] = []
    for i, item in enumerate(raw):
        where = doc.where("answers", i)
        if not isinstance(item, dict) or len(item) != 1:
            found.errors.append(f"{where}: answers, item {i + 1}: expected one {{call: answer}}, e.g. '- seer: 3'")
            continue
        (call, value), = item.items()
        if call not in kinds:
            found.errors.append(f"{where}: answers, item {i + 1}: unknown call {shown(call)}{suggest(call, answerable)}; "
                                f"calls: {', '.join(answerable)}")
            continue
        if kinds[call] is Kind.NONE:
            found.errors.append(f"{where}: answers, item {i + 1}: '{call}' needs no answer (the runner confirms it); "
                                "remove this item")
            continue
        items.append(ScriptAnswer(str(call), value, i + 1, where))
    return items


def _expect(doc: Document, found: Findings) -> tuple[str | None, tuple[int, ...] | None, str | None]:
    raw = doc.data.get("expect")
    if raw is None:
        return None, None, None
    if not isinstance(raw, dict):
        found.errors.append(f"{doc.where('expect')}: expect: expected a mapping with winner and/or eliminated")
        return None, None, None
    winner, eliminated, reason = raw.get("winner"), raw.get("eliminated"), raw.get("reason")
    for key in raw:
        if key not in ("winner", "eliminated", "reason"):
            found.errors.append(f"{doc.where('expect', key)}: expect: unknown key {shown(key)}; "
                                "expected winner and/or eliminated (and, when nobody wins, reason)")
    if winner is not None and winner not in WINNERS:
        found.errors.append(f"{doc.where('expect', 'winner')}: expect: winner: expected one of "
                            f"{', '.join(WINNERS)}; got {shown(winner)}")
    if reason is not None and (winner != "nobody" or reason not in REASONS):
        found.errors.append(f"{doc.where('expect', 'reason')}: expect: reason: goes with winner: nobody, and is one "
                            f"of {', '.join(REASONS)}; got {shown(reason)}")
    seats: tuple[int, ...] | None = None
    if eliminated is not None:
        if isinstance(eliminated, list) and all(isinstance(s, int) and not isinstance(s, bool)
                                                for s in eliminated):
            seats = tuple(eliminated)
        else:
            found.errors.append(f"{doc.where('expect', 'eliminated')}: expect: eliminated: expected a list "
                                "of seat numbers, in order of elimination")
    return winner, seats, reason


def _pile(doc: Document, found: Findings, raw_deal: object, cards: tuple[str, ...]) -> tuple[str, ...]:
    """Reads ``deal: events``, the morning draw's pile, top first: the table's event cards in another order. A script
    has no seed: without it the cards are turned in the order the table lists them."""
    if not isinstance(raw_deal, dict) or "events" not in raw_deal:
        return ()
    raw = raw_deal["events"]
    if not isinstance(raw, list) or not all(isinstance(card, str) for card in raw) or sorted(raw) != sorted(cards):
        found.errors.append(f"{doc.where('deal', 'events')}: deal: events: expected the table's event cards "
                            f"({', '.join(cards) or 'none'}) in the order the morning draw turns them; got {shown(raw)}")
        return ()
    return tuple(raw)


def read_script(doc: Document) -> tuple[Script | None, Findings]:
    """Checks a practice script document; returns it (or None) with every problem found."""
    found = Findings()
    if not isinstance(doc.data, dict):
        found.errors.append(f"{doc.where()}: a practice script is a mapping with table (or config), deal, "
                            "answers and, optionally, expect")
        return None, found
    for key in doc.data:
        if key not in TOP_KEYS:
            found.errors.append(f"{doc.where(key)}: unknown key {shown(key)}{suggest(key, list(TOP_KEYS))}; "
                                f"a script has {', '.join(TOP_KEYS)}")
    dealt = _deal(doc, found)
    raw_deal = doc.data.get("deal")
    buildings = (_buildings(doc, found, raw_deal["buildings"])
                 if isinstance(raw_deal, dict) and "buildings" in raw_deal else {})
    config = _table(doc, found, len(dealt[0]) if dealt else None)
    answers = _answers(doc, found)
    winner, eliminated, reason = _expect(doc, found)
    if config is None or dealt is None or found.errors:
        return None, found
    seats, centre = dealt
    roles = tuple(seats[s] for s in sorted(seats))
    table = config.table
    if not table.deck:
        deck = roles + tuple(centre)
        errors, warnings = _check(len(roles), deck, table.rules.variants)
        found.errors += [f"{doc.where('deal')}: deal: {e}" for e in errors]
        found.warnings += [Warned(doc.where('deal'), advice) for advice in warnings]
        table = replace(table, seats=len(roles), deck=deck)
        config = replace(config, table=table)
        if not errors:
            found.errors += [f"{doc.where('table', 'groups')}: table: groups: {e}"
                             for e in check_groups(len(roles), deck, table.groups)]
            # What the deck dealt needs from the table (the Actor's cards, the Crier's Sheriff), as a config's
            # deck is checked in read_table.
            found.errors += [f"{doc.where('table')}: table: {e}" for e in check_extras(table)]
    elif Counter(roles + tuple(centre)) != Counter(table.deck):
        dealt_more = Counter(roles + tuple(centre)) - Counter(table.deck)
        deck_more = Counter(table.deck) - Counter(roles + tuple(centre))
        found.errors.append(f"{doc.where('deal')}: deal: the cards dealt are not the table's deck "
                            f"(dealt but not in the deck: {sorted(dealt_more.elements()) or 'none'}; "
                            f"in the deck but not dealt: {sorted(deck_more.elements()) or 'none'})")
    given = tuple(sorted((buildings or {}).items())) or config.buildings_dealt
    if given and not table.buildings:
        table = replace(table, buildings=tuple(t for _, t in given))
        config = replace(config, table=table)
    if sorted(t for _, t in given) != sorted(table.buildings):
        found.errors.append(f"{doc.where('deal')}: deal: buildings: the tokens dealt are not the table's buildings "
                            f"(dealt: {sorted(t for _, t in given) or 'none'}; "
                            f"the table's: {sorted(table.buildings) or 'none'}); give deal: buildings: {{seat: token}}")
    for seat, _ in given:
        if seat > len(roles):
            found.errors.append(f"{doc.where('deal', 'buildings')}: buildings: there is no seat {seat} "
                                f"at this table of {len(roles)}")
    found.errors += [f"{doc.where('deal', 'buildings')}: buildings: {e}"
                     for e in check_buildings(len(roles), [t for _, t in given])]
    pile = _pile(doc, found, raw_deal, table.rules.events)
    if found.errors:
        return None, found
    script = Script(doc.path, config, Deal(roles, tuple(centre), given, pile), tuple(answers), winner, eliminated,
                    reason)
    return script, found


def _check(seats: int, deck: tuple[str, ...], variants: tuple[str, ...]) -> tuple[list[str], list[Advice]]:
    from engine import check_deck

    return check_deck(seats, deck, variants)


def load_script(path: str) -> tuple[Script, list[str]]:
    """Loads and checks a practice script; returns it with its warnings, or raises a UserError."""
    try:
        doc = load(path)
    except YamlError as exc:
        raise UserError(str(exc)) from None
    script, found = read_script(doc)
    found.fail_if_any()
    assert script is not None
    return script, found.said(script.config.language)
