"""Writes the journals of tests/test_old_journals.py: games at the table stopped part-way by the version of
werewolf-narrator before the engine's refactoring (issue 15), commit a6603d3, with what that version knew.

Run with that version's code, from a checkout of it (its tests/keystrokes.py gives the keys the table presses):

    git worktree add /tmp/before a6603d3
    cd /tmp/before && python /path/to/tests/journals/make_journals.py /path/to/tests/journals

Each case is a table, a seed and a place to stop. The game is played ahead with random legal answers (the keys
that give them, as tests/test_resume.py plays its table game), then played through ``narrator.play.play`` with
those keys cut at the stop: the keys run out there, as when the host's terminal closes. For each case it writes

- ``NAME.jsonl``: the journal as the game left it;
- ``NAME.json``: where it stopped (the call it was at, or the deal's progress), where that version's own
  ``resume`` of the journal asks its first key (the call, and the village's state then), the keys the table
  presses from there to the end, and the uninterrupted game's end (its calls, its state).

The village's state is written in a vocabulary of its own (``neutral``), from that version's string-keyed
bags; the test reads the same from the current engine's typed state. Every key of the bags must be known here:
one this script does not know stops it, so that none is left out of the comparison unseen.

This module is imported by pytest's doctest collection: it does nothing on import.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import os
import random
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable

COMMIT = "a6603d3"

DEAL = "deal"
"""A stop in the deal: ``(DEAL, seats seen, extra keys)``."""

# name: (what it covers, the table (YAML), the seed, the stop, a condition the game must meet at the stop)
# A stop: (DEAL, n, extra) — the deal, n cards seen and hidden, then ``extra`` keys of the next seat's turn;
# ("secret", call) — the answer to ``call`` given, its secret result on the screen, not yet acknowledged;
# ("after", call) — the answer to ``call`` given; the game goes on to the next call that needs a key;
# ("in", call) — the answer to ``call`` keyed in but not confirmed (its read-back's Enter missing).
# Each from night 2 or day 2 on, the first where the game meets the condition.
CASES: dict[str, tuple[str, str, tuple[Any, ...], str]] = {
    "deal_starter": (
        "the starter table (Witch, Cupid) stopped mid-deal, the fifth card on the screen",
        """
language: en
seats: 8
deck: [werewolf, werewolf, seer, witch, hunter, cupid, villager, villager]
""", (DEAL, 4, 1), ""),
    "deal_village_zh": (
        "a Village table in Chinese (Raven, Pyromaniac, ten buildings) stopped mid-deal between two players",
        """
language: zh
seats: 10
deck: [werewolf, werewolf, seer, witch, raven, pyromaniac, villager, villager, villager, villager]
sheriff: true
buildings: [farmer, farmer, baker, barber, barkeeper, noble, schoolteacher, bailiff, confessor, vagabond]
""", (DEAL, 6, 0), ""),
    "witch_lovers_night": (
        "the Witch has spent a potion, Cupid's lovers are linked; stopped at night after the Seer's look, "
        "on the screen",
        """
language: en
seats: 8
deck: [werewolf, werewolf, seer, witch, hunter, cupid, villager, villager]
""", ("secret", "seer"), "witch lovers night2"),
    "elder_day_vote": (
        "the Elder bitten once, a Sheriff, the Witch; stopped by day in the vote, its answer keyed in, not confirmed",
        """
language: en
seats: 10
deck: [werewolf, werewolf, seer, witch, elder, hunter, villager, villager, villager, villager]
sheriff: true
""", ("in", "vote"), "elder_bitten eliminated"),
    "wolf_hound_servant_day": (
        "the Wolf Hound has chosen his side, the Devoted Servant took an eliminated player's card, the Knight; "
        "stopped by day after a vote",
        """
language: en
seats: 11
deck: [werewolf, werewolf, wolf_hound, devoted_servant, knight, witch, seer, elder, villager, villager, villager]
sheriff: true
""", ("after", "vote"), "wolf_hound servant"),
    "raven_knight_buildings_night": (
        "the Raven's mark, the Knight, the Village's buildings; stopped at night after the Raven's answer",
        """
language: en
seats: 10
deck: [werewolf, werewolf, seer, witch, raven, knight, villager, villager, villager, villager]
sheriff: true
buildings: [farmer, baker, schoolteacher, barkeeper, barber]
""", ("after", "raven"), "raven"),
    "cult_moonlight_day": (
        "the Cult and Moonlight variants: a player seduced; stopped by day after the vote",
        """
language: en
seats: 10
deck: [werewolf, werewolf, seer, witch, hunter, cupid, elder, villager, villager, villager]
sheriff: true
variants: [cult, moonlight]
""", ("after", "vote"), "seduced"),
    "moonlight_wolves_night": (
        "the Moonlight variant's option (the werewolves blow out the candle), the Guard, the Fox, the Scapegoat; "
        "stopped at night after the Seer's look, on the screen (the variants that draw at random, graffiti, "
        "harvest, not_him, black_death, are left out: the program's draw at the table is not the planned one)",
        """
language: en
seats: 10
deck: [werewolf, werewolf, seer, witch, hunter, guard, scapegoat, fox, villager, villager]
sheriff: true
variants: [moonlight_wolves]
""", ("secret", "seer"), "night2"),
}


# -- the village's state, in a vocabulary of its own ---------------------------------------------------------

TONIGHT = {"pack": "pack", "victim": "victim", "guarded": "protected", "big_bad_wolf": "bitten_by_big_bad_wolf",
           "burnt": "burning", "raven": "raven_suspect", "seance": "seance"}
"""The running night's keys, by the neutral name. ``infected`` (who the Infected Father infected tonight) is
left out: the mark on the player says it, and the current engine keeps nothing else."""

COUNTERS = {"elder.lives", "devoted_servant.day", "schoolteacher.day", "barkeeper.ballot", "scapegoat.day"}
LINKS = {"lovers", "guarded", "rust", "raven", "role_model", "schoolteacher", "scapegoat", "town_crier"}
CHOICES = {"wolf_hound", "black_death"}
USED = {"witch.heal", "witch.poison", "witch.box", "fox", "infected_father", "stuttering_judge", "pyromaniac"}


def seats(value: Any) -> list[int]:
    return [int(s) for s in value or ()]


def neutral(game: Any) -> dict[str, Any]:
    """Returns the state of a game of the version before the refactoring, in the neutral vocabulary."""
    for bag, known in ((game.counters, COUNTERS), (game.links, LINKS), (game.choices, CHOICES)):
        unknown = set(bag) - known
        assert not unknown, f"keys this script does not know: {unknown}"
    unknown = {u for u in game.used if u not in USED and not u.startswith(("gypsy.", "event."))}
    assert not unknown, f"used powers this script does not know: {unknown}"
    unknown = set(game.tonight) - set(TONIGHT) - {"infected"}
    assert not unknown, f"keys of the night this script does not know: {unknown}"
    tonight = {name: game.tonight.get(key) for key, name in TONIGHT.items()}
    for name in ("pack", "bitten_by_big_bad_wolf"):
        tonight[name] = seats(tonight[name])
    tonight["seance"] = list(tonight["seance"]) if tonight["seance"] is not None else None
    crier = game.links.get("town_crier")
    ballot = game.counters.get("barkeeper.ballot")
    kept = {
        "witch": {"heal": "witch.heal" in game.used, "poison": "witch.poison" in game.used,
                  "box": "witch.box" in game.used},
        "lovers": seats(game.links.get("lovers")),
        "elder_lives": game.counters.get("elder.lives", game.rules.elder_lives),
        "wolf_hound": game.choices.get("wolf_hound", ""),
        "guarded_last": (seats(game.links.get("guarded")) or [None])[0],
        "rust": (seats(game.links.get("rust")) or [None])[0],
        "raven_marked": (seats(game.links.get("raven")) or [None])[0],
        "role_model": (seats(game.links.get("role_model")) or [None])[0],
        "servant_took_on": game.counters.get("devoted_servant.day"),
        "fox_lost": "fox" in game.used,
        "infected_father_used": "infected_father" in game.used,
        "judge_used": "stuttering_judge" in game.used,
        "fire_set": "pyromaniac" in game.used,
        "gypsy_seances": sorted(int(u.split(".")[1]) for u in game.used if u.startswith("gypsy.")),
        "events": sorted(int(u.split(".")[1]) for u in game.used if u.startswith("event.")),
        "schoolteacher": [seats(game.links.get("schoolteacher")), game.counters.get("schoolteacher.day")],
        # The Barkeeper's ballot: 0 stands for a ballot for nobody; it is kept until the vote it counts for.
        "barkeeper_ballot": None if ballot is None else ballot,
        "scapegoat": [seats(game.links.get("scapegoat")), game.counters.get("scapegoat.day")],
        "crier": [crier[0], crier[1]] if crier else None,
        "black_death_refused": game.choices.get("black_death") == "declared",
    }
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
        "attacks": [list(a) for a in game.attacks],
        "doomed": sorted(game.doomed),
        "kept": kept,
        "outcome": None if game.outcome is None else [game.outcome.winner, list(game.outcome.winners)],
    }


def where(game: Any) -> list[Any] | None:
    call = game.call
    return None if call is None else [call.id, call.phase.value, call.number]


# -- playing ------------------------------------------------------------------------------------------------

@dataclasses.dataclass
class Planned:
    call: Any
    value: Any
    keys: list[str]
    state: dict[str, Any]  # the state once answered
    shown: bool  # its answer shows a secret result, which the last key (Enter) closes


def plan(config: Any, seed: int, keys_for: Callable[..., list[str]], after: Callable[..., list[str]]
         ) -> tuple[list[Planned], Any]:
    """The game played ahead with random legal answers, as tests/keystrokes.plan_keys plays it."""
    from engine import Game, deal_cards

    game = Game(config.table, deal_cards(config.table, seed))
    rng = random.Random(seed)
    steps = []
    while not game.over:
        call = game.call
        value = rng.choice(game.legal()) if call.needs_answer else None
        closing = after(game.answer(value))
        steps.append(Planned(call, value, keys_for(call, value) + closing, neutral(game), bool(closing)))
    return steps, game


class Snapshot:
    """Keys from a list, which remembers the state of the game being played at the first key read. Not a subclass
    of the tests' ScriptedKeys (tests/keystrokes.py, which imports the engine): this module imports nothing of the
    version it runs against until make() runs (pytest's doctest collection imports it with the current version)."""

    def __init__(self, keys: list[str], games: list[Any]) -> None:
        self.keys = list(keys)
        self.games = games
        self.first: dict[str, Any] | None = None

    def read(self, timeout: float | None = None) -> str | None:
        if self.first is None:
            self.first = neutral(self.games[-1]) if self.games else {"call": None}
        if not self.keys:
            if timeout is not None:
                return None
            raise EOFError("no more keys")
        return self.keys.pop(0)

    def meanwhile(self, seconds: float) -> str | None:
        return None  # a call made for nobody: none of the keys planned is its (older versions never call this)

    def drain(self) -> None:
        pass  # each key is typed as it is read: none waits to be forgotten (older versions never call this)

    def close(self) -> None:
        pass


def stops(steps: list[Planned], stop: tuple[Any, ...]) -> list[int]:
    """Returns the steps the game may stop in, from night 2 or day 2 on: the live answers to ``stop[1]`` (for a
    secret look, those whose result waits for the Enter that closes it)."""
    return [i for i, s in enumerate(steps)
            if s.call.id == stop[1] and s.call.needs_answer and s.call.live and s.call.number >= 2
            and (stop[0] != "secret" or s.shown)]


def meets(condition: str, steps: list[Planned], index: int) -> bool:
    """Whether the game, stopped after ``steps[index]``, shows what the case is meant to cover."""
    state = steps[index].state
    kept = state["kept"]
    for word in condition.split():
        if word == "witch" and not (kept["witch"]["heal"] or kept["witch"]["poison"]):
            return False
        if word == "lovers" and not kept["lovers"]:
            return False
        if word == "night2" and state["night"] < 2:
            return False
        if word == "elder_bitten" and kept["elder_lives"] >= 2:
            return False
        if word == "eliminated" and not state["eliminated"]:
            return False
        if word == "wolf_hound" and not kept["wolf_hound"]:
            return False
        if word == "servant" and kept["servant_took_on"] is None:
            return False
        if word == "raven" and kept["raven_marked"] is None and state["tonight"]["raven_suspect"] is None:
            return False
        if word == "seduced" and not any("seduced" in p[2] for p in state["players"]):
            return False
    return state["outcome"] is None


def make(name: str, out: Path, root: Path) -> None:
    from narrator import play as play_module
    from narrator import supervise
    from narrator.cli import main
    from narrator.config import load_config
    from narrator.journal import read_journal
    from narrator.play import play
    from narrator.table import TableIO
    from narrator.screen import PlainScreen

    sys.path.insert(0, str(root / "tests"))
    from keystrokes import Recorder, after, keys_for

    what, yaml, stop, condition = CASES[name]
    with tempfile.TemporaryDirectory() as folder:
        table_file = Path(folder) / f"{name}.yaml"
        table_file.write_text(yaml.lstrip(), encoding="utf-8")
        config, _ = load_config(str(table_file))
    # No pauses (a resumed game takes them from its journal's config), the keypad alone.
    config = dataclasses.replace(config, pause=(0.0, 0.0), call_floor=0.0, source=f"tests/journals/{name}",
                                 inputs=(("day", ("keypad",)), ("night", ("keypad",))))
    seats_n = config.table.seats
    deal_keys = ["enter"] * 3 * seats_n
    for seed in range(1, 500):
        steps, whole = plan(config, seed, keys_for, after)
        if stop[0] == DEAL:
            fed = deal_keys[: 3 * stop[1] + stop[2]]
            left = deal_keys[3 * stop[1]:] + [k for s in steps for k in s.keys]
            break
        index = next((i for i in stops(steps, stop) if meets(condition, steps, i - (stop[0] == "in"))), None)
        if index is None:
            continue
        step_keys = [k for s in steps[:index] for k in s.keys]
        fed = deal_keys + step_keys + (steps[index].keys if stop[0] == "after" else steps[index].keys[:-1])
        break
    else:
        raise SystemExit(f"{name}: no seed meets {condition!r}")

    games: list[Any] = []
    original = play_module.Game

    class Captured(original):  # type: ignore[misc,valid-type]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            games.append(self)

    play_module.Game = Captured
    try:
        with tempfile.TemporaryDirectory() as folder:
            keys = Snapshot(fed, games)
            try:
                play(config, keys, PlainScreen(io.StringIO()), Recorder(), seed=seed, journal_dir=Path(folder),
                     sleep=lambda s: None, out=io.StringIO())
            except EOFError:
                pass
            else:
                raise SystemExit(f"{name}: the game did not stop")
            journals = list(Path(folder).glob("*.jsonl"))
            assert len(journals) == 1, journals
            header, entries = read_journal(str(journals[0]))
            assert [(e.call, e.number, e.answer) for e in entries] == \
                [(s.call.id, s.call.number, s.value if s.call.needs_answer else None) for s in steps[:len(entries)]]
            if stop[0] == DEAL:
                stopped: dict[str, Any] = {"deal_seen": len(header["progress"])}
                assert stopped["deal_seen"] == stop[1], stopped
            else:
                # The game as it stood when the keys ran out (the Seer's look maybe still on the screen).
                stopped = {"call": where(games[-1]), "answered": len(entries), "state": neutral(games[-1])}
                left = [k for s in steps[len(entries):] for k in s.keys]
            journal = out / f"{name}.jsonl"
            shutil.copy(journals[0], journal)
            os.chmod(journal, 0o600)

        # That version's own resume of the journal, as `werewolf-narrator resume` does it: where it asks its
        # first key, and that it ends as the uninterrupted game.
        with tempfile.TemporaryDirectory() as folder:
            copy = Path(folder) / journal.name
            shutil.copy(journal, copy)
            os.chmod(copy, 0o600)
            lines_before = len(copy.read_text(encoding="utf-8").splitlines())
            games.clear()
            resumed = Snapshot(left, games)
            opened = play_module.open_table
            wanted = supervise.wanted
            play_module.open_table = lambda *a, **k: TableIO(resumed, PlainScreen(io.StringIO()), Recorder())
            supervise.wanted = lambda *a, **k: False
            try:
                with contextlib.redirect_stdout(io.StringIO()):
                    status = main(["resume", str(copy), "--plain"])
            finally:
                play_module.open_table = opened
                supervise.wanted = wanted
            assert status == 0, status
            assert not resumed.keys, f"{name}: keys left over: {resumed.keys}"
            assert resumed.first is not None
            if stop[0] == DEAL:  # no game yet at the first key: the deal goes on, at the seat it journals first
                added = [json.loads(line) for line in copy.read_text(encoding="utf-8").splitlines()[lines_before:]]
                resumed.first = {"deal_seat": next(line["seen"] for line in added if "seen" in line)}
            end = neutral(games[-1])
            assert end == steps[-1].state, f"{name}: the resumed game did not end as the uninterrupted one"
            _, finished = read_journal(str(copy))
    finally:
        play_module.Game = original
    assert [(e.call, e.number, e.answer) for e in finished] == \
        [(s.call.id, s.call.number, s.value if s.call.needs_answer else None) for s in steps]
    record = {
        "made_by": f"werewolf-narrator at commit {COMMIT}, tests/journals/make_journals.py",
        "what": what,
        "seed": seed,
        "stop": list(stop),
        "stopped": stopped,
        "resumes_at": resumed.first,
        "keys_left": left,
        "calls": [[s.call.id, s.call.phase.value, s.call.number, s.value if s.call.needs_answer else None]
                  for s in steps],
        "end": steps[-1].state,
    }
    (out / f"{name}.json").write_text(json.dumps(record, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    at = stopped.get("call") or f"deal, {stopped.get('deal_seen')} seen"
    print(f"{name}: seed {seed}, stopped at {at}, resumes at {resumed.first.get('call')}, "
          f"{len(steps)} calls, winner {whole.outcome.winner}")


def main() -> None:
    import engine

    root = Path(engine.__file__).resolve().parent.parent
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent
    names = sys.argv[2:] or list(CASES)
    print(f"engine from {engine.__file__}")
    for name in names:
        make(name, out, root)


if __name__ == "__main__":
    main()
