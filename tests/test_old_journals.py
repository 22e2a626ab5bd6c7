"""Journals from before the engine's refactoring resume.

tests/journals/ holds games at the table that the version before it (commit a6603d3) stopped part-way — in
the deal, at night with a secret look on the screen, by day in or after a vote — with a Witch, Cupid's lovers,
the Elder, the Wolf Hound, a Devoted Servant, the Raven, the Knight, the Village's buildings, the Cult and
Moonlight variants; each with what that version knew (tests/journals/make_journals.py wrote them). Each is
resumed here by the current code as `werewolf-narrator resume JOURNAL` resumes it, the table's keys given
instead of a terminal's: it must ask its first key at the call where that version's own resume asked it, with
the same village (eliminations, Sheriff, cards, marks, sides, potions, lovers, lives, the night so far...), and
end as the uninterrupted game ended, call for call.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

import narrator.play
import narrator.supervise
from engine import Game
from engine.crier import Announced, InOffice
from engine.roles.cupid import Lovers
from engine.roles.devoted_servant import TakenOn
from engine.roles.elder import Bites
from engine.roles.fox import Scent
from engine.roles.guard import LastNight
from engine.roles.gypsy import Chosen, Seances
from engine.roles.infected_father import Infection
from engine.roles.knight import Rust
from engine.roles.pyromaniac import Burning, Fire
from engine.roles.raven import Marked, Suspect
from engine.roles.scapegoat import Voters
from engine.roles.stuttering_judge import Sign
from engine.roles.wild_child import RoleModel
from engine.roles.witch import Potions
from engine.roles.wolf_hound import Side
from engine.variants import Box, Refused
from engine.village import Ballot, Barred
from keystrokes import Recorder, ScriptedKeys
from narrator.cli import main
from narrator.journal import read_journal
from narrator.table import TableIO
from narrator.screen import PlainScreen

JOURNALS = Path(__file__).resolve().parent / "journals"
CASES = sorted(path.stem for path in JOURNALS.glob("*.json"))


def where(game: Game) -> list[Any] | None:
    call = game.call
    return None if call is None else [call.id, call.phase.value, call.number]


def optional_list(value: Any) -> list[Any] | None:
    return None if value is None else list(value)


def neutral(game: Game) -> dict[str, Any]:
    """The current game's state in the vocabulary make_journals.py wrote the old version's in."""
    night = game.tonight
    ballot = game.kept(Ballot)
    crier = game.kept(InOffice)
    kept = {
        "witch": {"heal": game.kept(Potions).heal, "poison": game.kept(Potions).poison, "box": game.kept(Box).spent},
        "lovers": list(game.kept(Lovers).seats),
        "elder_lives": game.rules.elder_lives - game.kept(Bites).survived,
        "wolf_hound": game.kept(Side).side,
        "guarded_last": game.kept(LastNight).seat,
        "rust": game.kept(Rust).seat,
        "raven_marked": game.kept(Marked).seat,
        "role_model": game.kept(RoleModel).seat,
        "servant_took_on": game.kept(TakenOn).day,
        "fox_lost": game.kept(Scent).lost,
        "infected_father_used": game.kept(Infection).used,
        "judge_used": game.kept(Sign).used,
        "fire_set": game.kept(Fire).set,
        "gypsy_seances": sorted(game.kept(Seances).used),
        "events": sorted(game.kept(Announced).cards),
        "schoolteacher": [list(game.kept(Barred).seats), game.kept(Barred).day],
        # The old version kept 0 for a ballot for nobody, and nothing before a ballot.
        "barkeeper_ballot": (0 if ballot.seat is None else ballot.seat) if game.keeps(Ballot) else None,
        "scapegoat": [list(game.kept(Voters).seats), game.kept(Voters).day],
        "crier": [crier.seat, crier.named_by] if crier.seat is not None else None,
        "black_death_refused": game.kept(Refused).refused,
    }
    tonight = {"pack": list(night.pack), "victim": night.victim, "protected": night.protected,
               "bitten_by_big_bad_wolf": list(night.devourers("big_bad_wolf")), "burning": game.kept(Burning).seat,
               "raven_suspect": game.kept(Suspect).seat, "seance": optional_list(game.kept(Chosen).seance)}
    return {
        "call": where(game),
        "answered": len(game.journal),
        "phase": game.phase.value, "number": game.number, "night": game.night,
        "sheriff": game.sheriff, "penalty": game.penalty,
        "players": [[p.card, p.alive, sorted(p.marks)] for p in game.players],
        "sides": [game.side(s).value for s in range(1, len(game.players) + 1)],
        "living": list(game.living()),
        "eliminated": [[e.seat, e.role, e.phase.value, e.number, e.cause] for e in game.eliminated],
        "centre": list(game.centre),
        "tokens": sorted([s, t] for s, t in game.tokens.items()),
        "spent": sorted(game.spent),
        "tonight": tonight,
        "attacks": [list(a) for a in night.attacks],
        "doomed": sorted(night.doomed),
        "kept": kept,
        "outcome": None if game.outcome is None else [game.outcome.winner, list(game.outcome.winners)],
    }


class TableKeys(ScriptedKeys):
    """The table's keys from a list; remembers the game's state when the first key is read (the deal's: None)."""

    def __init__(self, keys: list[str], games: list[Game]) -> None:
        super().__init__(keys)
        self.games = games
        self.first: dict[str, Any] | None = None

    def read(self, timeout: float | None = None) -> str | None:
        if self.first is None:
            self.first = neutral(self.games[-1]) if self.games else {}
        return super().read(timeout)


def resume(journal: Path, keys: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[TableKeys, list[Game]]:
    """Runs `werewolf-narrator resume JOURNAL --plain` with ``keys`` for the table's keypad."""
    games: list[Game] = []

    class Captured(Game):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            games.append(self)

    keypad = TableKeys(keys, games)
    monkeypatch.setattr(narrator.play, "Game", Captured)
    monkeypatch.setattr(narrator.play, "open_table",
                        lambda *a, **k: TableIO(keypad, PlainScreen(io.StringIO()), Recorder()))
    monkeypatch.setattr(narrator.supervise, "wanted", lambda *a, **k: False)
    with contextlib.redirect_stdout(io.StringIO()):
        status = main(["resume", str(journal), "--plain"])
    assert status == 0
    return keypad, games


def test_the_old_journals_cover_what_the_issue_asks() -> None:
    """The set: at least six journals, stopped in the deal, at night on a secret look and by day, covering the
    characters, buildings and variants named."""
    assert len(CASES) >= 6, CASES
    records = [json.loads((JOURNALS / f"{name}.json").read_text(encoding="utf-8")) for name in CASES]
    assert {r["stop"][0] for r in records} >= {"deal", "secret", "after", "in"}
    decks = [json.loads((JOURNALS / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()[0])["config"]
             for name in CASES]
    cards = {card for config in decks for card in config["deck"]}
    assert cards >= {"witch", "cupid", "elder", "wolf_hound", "devoted_servant", "raven", "knight"}, cards
    assert any(config["buildings"] for config in decks)
    assert {v for config in decks for v in config["rules"]["variants"]} >= {"cult", "moonlight"}
    ends = [r["end"]["kept"] for r in records] + [r["resumes_at"].get("kept", {}) for r in records]
    assert any(k.get("lovers") for k in ends) and any(k.get("servant_took_on") for k in ends)
    assert any(k.get("witch", {}).get("heal") or k.get("witch", {}).get("poison") for k in ends)
    assert any(k.get("elder_lives", 2) < 2 for k in ends) and any(k.get("wolf_hound") for k in ends)


RULED_SINCE: dict[str, list[tuple[list[Any], list[Any], list[str], list[str]]]] = {
    # The Vagabond may refuse the Bailiff's house (docs/rules.md, the Village; ruled after that version): the
    # Vagabond the Bailiff names is asked, and here accepts, so the game goes on as that version's did.
    "deal_village_zh": [(["bailiff", "day", 2, 6], ["vagabond", "day", 2, True],
                         ["enter", "5", "enter", "enter", "6", "enter", "enter"], ["1", "enter", "enter"])],
}
"""Answers the rules ask for since the old version played a journal's game: after the call ``after`` (its keys
ending with ``keys``), the call ``added`` answered with ``more`` keys."""


def ruled_since(name: str, record: dict[str, Any]) -> dict[str, Any]:
    """Returns ``record`` with the answers the rulings made since add to its game (RULED_SINCE)."""
    for after, added, keys, more in RULED_SINCE.get(name, []):
        calls, left = record["calls"], record["keys_left"]
        at = calls.index(after) + 1
        record["calls"] = calls[:at] + [added] + calls[at:]
        ends = [i + len(keys) for i in range(len(left)) if left[i:i + len(keys)] == keys]
        assert len(ends) == 1, (name, keys)
        record["keys_left"] = left[:ends[0]] + more + left[ends[0]:]
        record["end"]["answered"] += 1
    return record


@pytest.mark.parametrize("name", CASES)
def test_a_journal_of_the_old_version_resumes_where_it_stopped_and_ends_the_same(
        name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An old journal, resumed by the current code, asks its first key where the old version's resume
    asked it (the deal's seat, or the call and the whole village then) and ends as the uninterrupted game."""
    record = ruled_since(name, json.loads((JOURNALS / f"{name}.json").read_text(encoding="utf-8")))
    journal = tmp_path / f"{name}.jsonl"  # a copy: resuming writes to it (and locks it)
    shutil.copy(JOURNALS / f"{name}.jsonl", journal)
    os.chmod(journal, 0o600)
    lines = len(journal.read_text(encoding="utf-8").splitlines())
    keypad, games = resume(journal, record["keys_left"], monkeypatch)
    assert keypad.keys == [], "the game ended before the table's keys did"
    want = record["resumes_at"]
    if "deal_seat" in want:  # stopped in the deal: it goes on at the seat whose card was on the screen
        added = [json.loads(line) for line in journal.read_text(encoding="utf-8").splitlines()[lines:]]
        assert next(line["seen"] for line in added if "seen" in line) == want["deal_seat"]
    else:
        assert keypad.first is not None
        assert keypad.first["call"] == want["call"]  # the call (id, phase, number) it asks its first key at
        assert keypad.first == want  # and the village then, all of it
        # Where the old version stopped: its resume asks at that call, or after calls that need no key.
        stopped = record["stopped"]
        assert record["calls"][stopped["answered"]][:3] == stopped["call"]
        assert want["answered"] >= stopped["answered"]
    assert neutral(games[-1]) == record["end"]
    header, entries = read_journal(str(journal))
    assert [[e.call, e.phase, e.number, e.answer] for e in entries] == record["calls"]
    assert header["over"] == record["end"]["outcome"][0]
