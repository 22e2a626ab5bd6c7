"""The recap of a finished game, shared once it is over: the deal, every call's answer and what it brought (the
lovers, the potions, the Seer's looks), the Sheriff's history and every elimination with its cause.

Built after the game's end from its deal and its answers alone, by playing them again through the engine: what the
answers brought is put in the narrator's own lines (the table's language), as the screen or the voice gave it.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from engine import Answer, Call, Game, Phase, revealed

from .errors import UserError
from .journal import PRIVATE_FILE
from .narration import FACTS, Line, Narrator, end_key
from .voices import Voice

WHO = {"vote": "recap.vote", "revote": "recap.vote", "sheriff_election": "recap.election",
       "sheriff_runoff": "recap.election", "sheriff_tiebreak": "recap.tiebreak"}
"""The recap's name of a call that wakes no character (a character's call is named by the character)."""

LEFT_OUT = frozenset(line for spec in FACTS.values() for line in spec.unrecapped)
"""What the screen told those awake that the recap says otherwise, as each fact declares (the Thief's card in the
deal; the potions used)."""


@dataclass
class Turn:
    """One call of the game in the recap: when, whose, the answer, and the lines of what it brought."""

    call: Call
    when: str
    who: str
    answer: str
    brought: list[str] = field(default_factory=list)


@dataclass
class Recap:
    """The finished game's recap, every text in the table's language."""

    title: str
    result: list[str]
    deal: list[str]
    revealed: list[str]  # the characters' secrets told at the end (the lovers)
    turns: list[Turn]
    sheriff: list[str]
    eliminated: list[str]
    headings: dict[str, str]
    looks: dict[str, list[str]] = field(default_factory=dict)  # the Seer's looks, the Witch's potions: night by night


def build_recap(game: Game, voice: Voice, names: Sequence[str | None] = ()) -> Recap:
    """Returns the recap of ``game``, which must be over."""
    assert game.outcome is not None, "a recap is shared only once the game is over"
    lines: list[Line] = []
    narrator = Narrator(voice, lines.append, names, game.rules)
    again = Game(game.table, game.deal)
    turns: list[Turn] = []
    sheriff: list[tuple[str, int | None]] = []  # (when, the new Sheriff or None)
    for value in game.journal:
        call = again.call
        assert call is not None
        del lines[:]
        for fact in call.facts:
            narrator.fact(fact)
        before = again.sheriff
        step = again.answer(value)
        for fact in step.facts:
            narrator.fact(fact)
        when = _when(voice, call.phase, call.number)
        if again.sheriff != before:
            if sheriff and sheriff[-1] == (when, None):
                sheriff.pop()  # the Sheriff died and his successor took the badge: one line, the successor's
            sheriff.append((when, again.sheriff))
        brought = [line.text for line in lines if line.key not in LEFT_OUT]
        answered = _answer(voice, names, call, value) if call.needs_answer else ""
        if answered or brought:
            turns.append(Turn(call, when, who(voice, call), answered, brought))
    narrator.line(end_key(game.outcome), "voice")
    if game.outcome.winners:
        narrator.line("end.winners", "voice", seats=list(game.outcome.winners))
    deal = []
    for seat, card in enumerate(game.deal.roles, start=1):
        now = game.card(seat)
        role = voice.role(card) if now == card else f"{voice.role(card)} → {voice.role(now)}"
        deal.append(voice.text("summary.deal", {"seat": seat, "role": role}, names))
    if game.deal.centre:
        deal.append(voice.text("recap.centre", {"cards": voice.join([voice.role(c) for c in game.deal.centre])}))
    told: list[str] = []
    teller = Narrator(voice, lambda line: told.append(line.text), names)
    for fact in revealed(game):
        teller.fact(fact)
    looks = {key: [voice.text("recap.at", {"when": turn.when, "text": " · ".join([turn.answer, *turn.brought])})
                   for turn in turns if turn.call.id == call_id and turn.answer]
             for key, call_id in (("seer_title", "seer"), ("witch_title", "witch"))}
    return Recap(
        title=voice.text("recap.title", {}),
        result=[line.text for line in lines[-2 if game.outcome.winners else -1:]],
        deal=deal,
        revealed=told,
        turns=turns,
        sheriff=[voice.text("recap.sheriff", {"when": when, "seat": seat}, names) if seat else
                 voice.text("recap.no_sheriff", {"when": when}) for when, seat in sheriff],
        eliminated=[voice.text("summary.eliminated", {"when": _when(voice, e.phase, e.number), "seat": e.seat,
                                                      "role": e.role, "cause": e.cause}, names)
                    for e in game.eliminated],
        headings={key: voice.text(f"recap.{key}", {}) for key in
                  ("deal_title", "turns_title", "seer_title", "witch_title", "sheriff_title", "eliminated_title")},
        looks=looks)


def who(voice: Voice, call: Call) -> str:
    """Returns the name of whoever answered ``call`` ("The vote", "Sheriff", "Hunter"), or "" for a call no name fits."""
    if call.id in WHO:
        return voice.text(WHO[call.id], {})
    if call.id == "sheriff_successor":
        return voice.role("sheriff")
    if call.id in voice.roles:
        return voice.role(call.id)
    if call.id in voice.causes:  # the Werewolves' call: named as their victims' cause is
        cause = voice.causes[call.id]
        return cause[:1].upper() + cause[1:]
    return ""


def _when(voice: Voice, phase: Phase, number: int) -> str:
    if phase is Phase.DAY and number == 0:
        return voice.text("screen.day_zero", {})
    return voice.text(f"summary.{phase.value}", {"number": number})


def _answer(voice: Voice, names: Sequence[str | None], call: Call, value: Answer) -> str:
    """Returns an answer as the recap says it: seats by number (and name), yes or no, the Witch's potions."""
    def seats(value: object) -> str:
        if isinstance(value, list):
            return voice.join([voice.seat(int(s), names) for s in value])
        return voice.seat(value, names) if isinstance(value, int) else voice.text("answer.none", {})

    if call.id == "witch" and isinstance(value, dict):
        used = ([voice.text("recap.healed", {})] if value.get("heal") else []) + \
               ([voice.text("recap.poisoned", {"seat": value["poison"]}, names)] if value.get("poison") else [])
        # Each part as the middle of a sentence: the voice capitalises a line's first letter.
        return voice.join([part[:1].lower() + part[1:] for part in used]) if used else \
            voice.text("recap.no_potion", {})
    if isinstance(value, bool):
        return voice.text("answer.yes" if value else "answer.no", {})
    if isinstance(value, dict) and value.get("secret"):  # ballots cast on the phones: secret, for good
        return voice.text("recap.secret_ballots", {})
    if isinstance(value, dict) and isinstance(value.get("ballots"), dict):  # a roll call: each voter's choice
        return voice.join([f"{seats(int(voter))} → {seats(target)}" for voter, target in value["ballots"].items()])
    if isinstance(value, dict) and "tie" in value:
        return voice.text("answer.tie", {"seats": list(value["tie"])}, names)
    if isinstance(value, str):
        return voice.text(f"answer.{value}", {}) if f"answer.{value}" in voice.lines else value
    if isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in value.items())
    if call.id == "thief":
        # "Keep your card" is the read-back to the Thief; the recap tells the table what he did.
        return voice.text("answer.card", {"number": value}) if value else voice.text("recap.kept", {})
    return seats(value)


MARKDOWN = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", **{c: "\\" + c for c in "\\`*_[]|#~"}})
"""What a text escapes in the recap's Markdown: HTML's own characters as entities (a name "<img ...>" is no tag), and
Markdown's with a backslash (a name "**Ann**" is no emphasis, "[a](b)" no link, "|" no table)."""

LINE_START = re.compile(r"^(\d+)([.)])|^([-+=>])")
"""What Markdown reads as a list, a heading's underline or a quote at a line's start ("1. Ann", "- Ann")."""


def escaped(text: str) -> str:
    """Returns ``text`` as Markdown shows it, letter for letter: nothing in it is HTML or Markdown."""
    return LINE_START.sub(lambda m: f"{m[1]}\\{m[2]}" if m[1] else f"\\{m[3]}", text.translate(MARKDOWN))


def markdown(recap: Recap) -> str:
    """Returns the recap as a Markdown document, every text in it escaped: the names are the players', whatever
    they wrote (a Markdown viewer, a chat or a forum shows it as text, never as HTML or formatting)."""
    h = {key: escaped(text) for key, text in recap.headings.items()}
    out = [f"# {escaped(recap.title)}", "", *map(escaped, recap.result), "", f"## {h['deal_title']}", ""]
    out += [f"- {escaped(line)}" for line in recap.deal]
    if recap.revealed:
        out += ["", *map(escaped, recap.revealed)]
    out += ["", f"## {h['turns_title']}"]
    when = ""
    for turn in recap.turns:
        if turn.when != when:
            when = turn.when
            out += ["", f"### {escaped(when[:1].upper() + when[1:])}", ""]
        head = " · ".join(part for part in (turn.who, turn.answer) if part)
        if head:
            out += [f"- {escaped(head)}", *[f"  - {escaped(line)}" for line in turn.brought]]
        else:  # what nobody answered (the dawn's victims): each on its own, none under another
            out += [f"- {escaped(line)}" for line in turn.brought]
    for key, lines in recap.looks.items():
        if lines:
            out += ["", f"## {h[key]}", "", *[f"- {escaped(line)}" for line in lines]]
    if recap.sheriff:
        out += ["", f"## {h['sheriff_title']}", "", *[f"- {escaped(line)}" for line in recap.sheriff]]
    out += ["", f"## {h['eliminated_title']}", "", *[f"- {escaped(line)}" for line in recap.eliminated]]
    return "\n".join(out) + "\n"


def write_recap(journal: Path, recap: Recap) -> Path:
    """Writes the recap's Markdown beside the game's journal (game-….md); returns its path."""
    path = journal.with_suffix(".md")
    try:
        # As private as the journal (it holds the whole deal): the players share it themselves once it is over.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC, PRIVATE_FILE)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            os.fchmod(out.fileno(), PRIVATE_FILE)  # whatever the umask
            out.write(markdown(recap))
    except OSError as exc:
        raise UserError(f"{path}: cannot write the game's recap ({exc.strerror or exc})") from None
    return path
