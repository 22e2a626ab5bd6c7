"""Kill trials in a real terminal (tmux): the game's process killed with SIGKILL during the deal and in the middle
of a night, as a crash or a pulled plug would; the terminal must come back clean (no secret on it nor in its
scrollback, echo back), and Enter must resume the game, which then plays on to its end.

Each trial is one seeded game of a small table; the moment of the kill is drawn from the trial's number, so a
failure can be played again. Several tmux servers run side by side to keep the trials fast.
"""

from __future__ import annotations

import contextlib
import os
import random
import re
import shutil
import signal
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator, Sequence

import pytest

from engine import Answer, Call, Fact, Game, Kind, Phase, Step, deal_cards
from keystrokes import after, answered_ahead, keys_for
from narrator.config import TableConfig, load_config
from narrator.journal import read_journal
from narrator.narration import SCREEN, VOICE, Line, Narrator
from narrator.voices import load_voice
from tmux import PATIENCE, Tmux, children

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is installed by scripts/setup.sh --test")

CONFIG = """\
language: en
seats: 6
deck: [werewolf, werewolf, seer, witch, villager, villager]
deal: app
sheriff: false
speaker: console
pause: [0, 0]
call_floor: 0
"""
SEATS = 6
NIGHT_TRIALS = 50
DEAL_TRIALS = 20
SIDE_BY_SIDE = 4
EN = load_voice("en")
STOPPED = "The game stopped unexpectedly (its process was killed by SIGKILL)."
ASK = "Press Enter to go on with the game now, or any other key to quit."


@dataclass
class Moment:
    """Where a trial kills the game: the keys pressed before, the secret then on the screen, and the keys that
    play the game on to its end once resumed (from the first answer the journal does not hold)."""

    what: str
    before: list[str]
    secret: str
    rest: list[str]
    title: str  # the panel's title and the start of its first line: the same secret may come twice
    opening: str = ""

    def shown(self, screen: str) -> bool:
        """Whether the screen shows this moment (its secret in its call's panel)."""
        lines = screen.splitlines()
        # The panel's top border, under the eyes banner: its title, then the call's first line.
        top = next((i for i, line in enumerate(lines) if "╭" in line and f" {self.title} " in line), len(lines))
        return top + 1 < len(lines) and self.opening in lines[top + 1] and self.secret in screen


def secret_lines(facts: Sequence[Fact]) -> list[str]:
    """The lines a narrator shows on the screen for the secrets among ``facts``."""
    lines: list[Line] = []
    narrator = Narrator(EN, lines.append)
    for fact in facts:
        if fact.secret:
            narrator.fact(fact)
    return [line.text for line in lines if line.channel == SCREEN]


def opening(call: Call) -> str:
    """The first line said when ``call`` opens."""
    lines: list[Line] = []
    Narrator(EN, lines.append).begin(call)
    return next(line.text for line in lines if line.channel == VOICE)


@dataclass
class Turn:
    """One call of the game played ahead: its answer, the keys that give it, and what it revealed."""

    call: Call
    value: Answer
    keys: list[str]
    step: Step


def plan(config: TableConfig, seed: int) -> tuple[list[Turn], Game]:
    """Plays the seeded game ahead with random legal answers; returns every call's turn (the keys: its answer,
    then the Enter after a secret it revealed) and the finished game."""
    game = Game(config.table, deal_cards(config.table, seed))
    turns = [Turn(call, value, keys_for(call, value) + after(step), step)
             for call, value, step in answered_ahead(game, random.Random(seed))]
    return turns, game


def keys_of(turns: list[Turn]) -> list[str]:
    return [k for turn in turns for k in turn.keys]


def night_moments(config: TableConfig, seed: int) -> list[Moment]:
    """Every moment of the game's nights when a secret is on the screen: a call's secret as it opens (the pack,
    the Werewolves' victim), an answer read back before it is confirmed, what an answer revealed (the Seer's
    look) before those awake press Enter."""
    turns, _ = plan(config, seed)
    deal = ["enter"] * 3 * SEATS
    moments = []
    for i, turn in enumerate(turns):
        call, step = turn.call, turn.step
        if call.phase is not Phase.NIGHT or not call.live:
            continue
        done, rest = deal + keys_of(turns[:i]), keys_of(turns[i:])
        panel = {"title": EN.text("summary.night", {"number": call.number}),
                 "opening": opening(call)[:40]}
        opened = secret_lines(call.facts)
        if opened and turn.keys:  # a call that waits for a key (a Witch with no potion left does not)
            moments.append(Moment(f"{call.id} opens", done, opened[0], rest, **panel))
        if call.kind is Kind.SEAT:
            assert turn.value is None or isinstance(turn.value, int)
            answer = EN.text("answer.none", {}) if turn.value is None else EN.seat(turn.value, ())
            typed = [*str(turn.value or 0), "enter"]  # read back, not yet confirmed
            moments.append(Moment(f"{call.id} read back", done + typed,
                                  EN.text("answer.heard", {"answer": answer}), rest, **panel))
        revealed = secret_lines(step.facts)
        if revealed and after(step):  # confirmed and journaled: the game goes on from the next call
            moments.append(Moment(f"{call.id} revealed", done + turn.keys[:-1], revealed[0],
                                  keys_of(turns[i + 1:]), **panel))
    return moments


def deal_moment(config: TableConfig, seed: int, seat: int) -> Moment:
    """Seat ``seat`` looks at their card on the screen. The keys after a resume depend on the seat the deal
    goes on from; ``rest`` holds the game's keys after the deal."""
    turns, game = plan(config, seed)
    card = EN.text("deal.app_show", {"role": game.deal.roles[seat - 1]})
    return Moment(f"seat {seat}'s card", ["enter"] * (3 * (seat - 1) + 1), card, keys_of(turns),
                  EN.seat(seat, ()))


def ended(shown: str) -> bool:
    """Whether the program ended and the pane printed the terminal's settings after it."""
    return "exit=" in shown and "icanon" in shown[shown.index("exit="):]


def terminal_settings(shown: str) -> set[str]:
    """The words of `stty -a` the pane printed after the program ended (echo, icanon, or -echo...)."""
    after_exit = shown[shown.index("exit="):]
    return {word for word in re.split(r"[\s;]+", after_exit) if word.lstrip("-") in ("echo", "icanon")}


def game_command(folder: Path, *args: str) -> str:
    # The screen is as wide as the pane (a COLUMNS inherited from the tests' own terminal would narrow it).
    return (f"unset COLUMNS LINES; cd {folder} && {sys.executable} -m narrator {' '.join(args)}; echo exit=$?; "
            "stty -a; sleep 600")


def assert_clean(tmux: Tmux, secret: str) -> None:
    """After the kill: the supervisor's words alone on the screen and in the scrollback, no secret."""
    tmux.wait_for(lambda shown: ASK in shown or "exit=" in shown)
    everything = tmux.everything()
    assert secret not in everything
    said = [line for line in everything.splitlines() if line.strip()]
    assert said[0] == STOPPED and said[-1] == ASK and len(said) == 4, everything
    assert said[2].startswith("  ") and said[2].endswith(".jsonl"), everything  # the journal, on a line of its own


def play_on(tmux: Tmux, rest: list[str], folder: Path, ahead: Game) -> None:
    """The resumed game goes on to its winner; its journal holds every answer of the game played ahead."""
    tmux.wait_for(EN.text("notice.resumed", {}))
    tmux.send(rest)
    final = tmux.wait_for(ended, seconds=2 * PATIENCE)
    assert "exit=0" in final, final
    assert terminal_settings(final) == {"echo", "icanon"}, final
    outcome = ahead.outcome
    assert outcome is not None and EN.text(f"end.{outcome.winner}", {})[:15] in final
    journals = list((folder / "j").glob("*.jsonl"))
    assert len(journals) == 1
    _, entries = read_journal(str(journals[0]))
    assert [entry.answer for entry in entries] == ahead.journal


def night_trial(number: int, root: Path) -> str:
    """Trial ``number``: a game killed at a moment of its nights drawn from the number, then resumed with Enter
    (every fifth: quit, then resumed with the command the supervisor printed)."""
    seed = 100 + number
    folder, config, tmux = started(root, "night", number, seed)
    moment = random.Random(number).choice(night_moments(config, seed))
    _, ahead = plan(config, seed)
    try:
        killed_at(tmux, moment)
        if number % 5 == 4:
            tmux.send(["q"])
            quit_ = tmux.wait_for(ended)
            assert "exit=137" in quit_ and terminal_settings(quit_) == {"echo", "icanon"}, quit_  # echo is back
            resume_as_told(tmux, folder, quit_, "To go on later:")
        else:
            tmux.send(["enter"])
        play_on(tmux, moment.rest, folder, ahead)
    except Exception as failure:  # told with the others' failures, by trial
        return f"trial {number} (seed {seed}, {moment.what}): {failure!r}"
    finally:
        tmux.close()
    return ""


def stopped_trial(number: int, root: Path, stops: Sequence[int]) -> str:
    """Trial ``number``: the game's process sent ``stops``, one right after the other, while a night secret drawn
    from the number shows. Stopped (SIGTERM, SIGHUP: exit 130, the resume command said) or killed first (SIGKILL:
    the offer to go on), the terminal is clean and the game, resumed, plays on to its end (scripts/kill_trials.py)."""
    seed = 300 + number
    folder, config, tmux = started(root, "stop", number, seed)
    moment = random.Random(number).choice(night_moments(config, seed))
    _, ahead = plan(config, seed)
    try:
        tmux.wait_for(EN.text("deal.app_turn", {"seat": 1}))
        tmux.send(moment.before)
        tmux.wait_for(moment.shown)
        game = tmux.game_process()
        for stop in stops:  # at once: a second signal may find the game gone (its pid is not reused so soon)
            with contextlib.suppress(ProcessLookupError):
                os.kill(game, stop)
        shown = tmux.wait_for(lambda text: ASK in text or ended(text))
        assert moment.secret not in tmux.everything()
        if ASK in shown:
            tmux.send(["enter"])
        else:
            assert "exit=130" in shown and terminal_settings(shown) == {"echo", "icanon"}, shown
            resume_as_told(tmux, folder, shown, "To go on:")
        play_on(tmux, moment.rest, folder, ahead)
    except Exception as failure:  # told with the others' failures, by trial
        return f"trial {number} (seed {seed}, {moment.what}): {failure!r}"
    finally:
        tmux.close()
    return ""


def resume_as_told(tmux: Tmux, folder: Path, shown: str, told: str) -> None:
    """Runs, in the same pane, the resume command the stopped game printed after ``told``."""
    command = re.search(rf"{re.escape(told)}\s+(werewolf-narrator resume \S+)", shown)
    assert command is not None, shown
    tmux.respawn(game_command(folder, *command.group(1).split()[1:]))


def started(root: Path, kind: str, number: int, seed: int) -> tuple[Path, TableConfig, Tmux]:
    """Starts trial ``number``'s game (the trials' table, dealt by ``seed``) in a terminal of its own."""
    folder = root / f"{kind}-{number}"
    folder.mkdir(exist_ok=True)
    (folder / "table.yaml").write_text(CONFIG, encoding="utf-8")
    config, _ = load_config(str(folder / "table.yaml"))
    tmux = Tmux(f"wn-{kind}-{number}-{root.name}", joined=True)
    tmux.start(game_command(folder, "play", "table.yaml", "--seed", str(seed), "--journal-dir", "j"))
    return folder, config, tmux


def killed_at(tmux: Tmux, moment: Moment) -> None:
    """Plays up to ``moment``, kills the game's process while its secret shows, and checks the terminal is clean."""
    tmux.wait_for(EN.text("deal.app_turn", {"seat": 1}))
    tmux.send(moment.before)
    tmux.wait_for(moment.shown)
    signal_game(tmux, signal.SIGKILL)
    assert_clean(tmux, moment.secret)


def signal_game(tmux: Tmux, number: int) -> None:
    os.kill(tmux.game_process(), number)


def deal_trial(number: int, root: Path) -> str:
    """Trial ``number``: a game killed while a seat drawn from the number looks at their card; Enter resumes the
    deal where it stopped, with the same cards, and the game goes on to its end."""
    seed = 200 + number
    folder, config, tmux = started(root, "deal", number, seed)
    moment = deal_moment(config, seed, random.Random(number).randint(1, SEATS))
    _, ahead = plan(config, seed)
    try:
        killed_at(tmux, moment)
        tmux.send(["enter"])
        turns = [EN.text("deal.app_turn", {"seat": seat}) for seat in range(1, SEATS + 1)]
        shown = tmux.wait_for(lambda text: any(turn in text for turn in turns) or "exit=" in text)
        assert "exit=" not in shown, shown
        seat = max(s for s, turn in enumerate(turns, start=1) if turn in shown)  # where the deal goes on
        tmux.send(["enter"] * 3 * (SEATS - seat + 1) + moment.rest)
        final = tmux.wait_for(ended, seconds=2 * PATIENCE)
        assert "exit=0" in final, final
        outcome = ahead.outcome
        assert outcome is not None and EN.text(f"end.{outcome.winner}", {})[:15] in final
    except Exception as failure:  # told with the others' failures, by trial
        return f"trial {number} (seed {seed}, {moment.what}): {failure!r}"
    finally:
        tmux.close()
    return ""


def trials(run: Callable[[int, Path], str], count: int, root: Path) -> list[str]:
    with ThreadPoolExecutor(SIDE_BY_SIDE) as pool:
        return [failure for failure in pool.map(lambda n: run(n, root), range(count)) if failure]


def test_a_game_killed_in_the_middle_of_a_night_comes_back_clean_and_resumes_with_enter(tmp_path: Path) -> None:
    """50 SIGKILLs of the game's process while a night secret is on the screen: the pack, the Werewolves'
    victim, a read-back, the Seer's look. The terminal is clean, echo is back, the game plays on to its end."""
    failures = trials(night_trial, NIGHT_TRIALS, tmp_path)
    assert not failures, f"{len(failures)} of {NIGHT_TRIALS} trials failed:\n" + "\n\n".join(failures)


def test_a_game_killed_during_the_deal_comes_back_clean_and_resumes_at_the_same_seat(tmp_path: Path) -> None:
    """SIGKILLs of the game's process while a player looks at their card: the card is gone from the terminal,
    and Enter resumes the deal at the same seat with the same cards."""
    failures = trials(deal_trial, DEAL_TRIALS, tmp_path)
    assert not failures, f"{len(failures)} of {DEAL_TRIALS} trials failed:\n" + "\n\n".join(failures)


@dataclass
class AtTheMoment:
    """A game at the table in a terminal of its own, played up to a night's moment (the Witch's call: her victim
    on the screen)."""

    tmux: Tmux
    moment: Moment
    ahead: Game

    def supervisor(self) -> int:
        pane = int(self.tmux.run("display-message", "-p", "-t", self.tmux.target, "#{pane_pid}"))
        return children(pane)[0]


@contextlib.contextmanager
def at_the_moment(folder: Path, name: str, what: str = "witch opens", table: str = CONFIG) -> Iterator[AtTheMoment]:
    (folder / "table.yaml").write_text(table, encoding="utf-8")
    config, _ = load_config(str(folder / "table.yaml"))
    seed = 7
    moment = next(m for m in night_moments(config, seed) if m.what == what)
    _, ahead = plan(config, seed)
    tmux = Tmux(f"wn-{name}-{folder.name}", joined=True)
    tmux.start(game_command(folder, "play", "table.yaml", "--seed", str(seed), "--journal-dir", "j"))
    try:
        tmux.wait_for(EN.text("deal.app_turn", {"seat": 1}))
        tmux.send(moment.before)
        tmux.wait_for(moment.shown)
        yield AtTheMoment(tmux, moment, ahead)
    finally:
        tmux.close()


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGHUP])
@pytest.mark.parametrize("to", ["supervisor", "game"])
def test_sigterm_and_sighup_stop_the_game_like_a_confirmed_ctrl_c_with_its_journal_kept(
        tmp_path: Path, stop: int, to: str) -> None:
    """A shutdown or a closed window: the game stops as on the host's confirmed Ctrl-C, wherever the signal
    comes to: the secret gone, the terminal given back, the resume command said; the journal goes on."""
    with at_the_moment(tmp_path, "stop") as game:
        tmux = game.tmux
        os.kill(game.supervisor() if to == "supervisor" else tmux.game_process(), stop)
        final = tmux.wait_for(ended)
        assert "exit=130" in final and terminal_settings(final) == {"echo", "icanon"}, final
        assert game.moment.secret not in tmux.everything()
        command = re.search(r"To go on:\s+(werewolf-narrator resume \S+)", final)
        assert command is not None, final
        assert "unexpectedly" not in final and ASK not in final  # the stop was wanted: no offer to go on
        tmux.respawn(game_command(tmp_path, *command.group(1).split()[1:]))
        play_on(tmux, game.moment.rest, tmp_path, game.ahead)


def test_ctrl_z_and_ctrl_backslash_never_suspend_nor_kill_a_game_with_a_secret_on_the_screen(tmp_path: Path) -> None:
    """Ctrl-Z, one key on the table's keyboard, suspended the game with the Witch's victim on the screen and gave
    the keyboard to the shell; Ctrl-\\ killed it. Now Ctrl-Z does nothing and Ctrl-\\ asks as Ctrl-C does (any key
    but Enter goes on): the game plays on to its end, and ends as the game played ahead."""
    with at_the_moment(tmp_path, "suspend") as game:
        tmux = game.tmux
        tmux.send(["C-z"])
        tmux.send(["C-\\"])
        asked = tmux.wait_for(EN.text("menu.stop_confirm", {})[:14])  # "Stop the game?"
        assert "exit=" not in asked and "Stopped" not in asked, asked
        tmux.send(["back", *game.moment.rest])
        final = tmux.wait_for(ended, seconds=2 * PATIENCE)
        assert "exit=0" in final, final
        outcome = game.ahead.outcome
        assert outcome is not None and EN.text(f"end.{outcome.winner}", {})[:15] in final


def test_a_game_whose_supervisor_is_killed_stops_clean_and_lets_go_of_its_journal(tmp_path: Path) -> None:
    """The supervisor killed (kill -9) at a night secret: the game ran on alone, its secret under the shell's
    prompt, its journal locked, and died later of an internal error. Now it stops as on SIGHUP: the secret gone
    from the terminal, the game's process gone, and `resume --last` goes on to the winner of the game played ahead."""
    with at_the_moment(tmp_path, "orphan") as game:
        tmux = game.tmux
        process = tmux.game_process()
        os.kill(game.supervisor(), signal.SIGKILL)
        end = time.monotonic() + PATIENCE
        while Path(f"/proc/{process}").exists() and time.monotonic() < end:
            time.sleep(0.05)
        assert not Path(f"/proc/{process}").exists(), "the game outlived its supervisor"
        tmux.wait_for(lambda shown: game.moment.secret not in tmux.everything())
        tmux.respawn(game_command(tmp_path, "resume", "--last", "--journal-dir", "j"))
        play_on(tmux, game.moment.rest, tmp_path, game.ahead)


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGHUP])
def test_a_stop_by_signal_at_the_table_does_not_wait_out_the_call_s_floor(tmp_path: Path, stop: int) -> None:
    """A call made with eyes closed lasts a floor (here 20 s) however quick its answer: SIGTERM then waited it out
    (33 s measured at a table). The answer confirmed and journaled, the floor under way, the game stops within a
    second of the signal (STOP_GRACE; test_supervise.py times it alone): here, its exit and the terminal's redraw
    included, within five, on a busy machine too."""
    # The pack's answer reveals nothing to read: once confirmed, the call waits out its floor.
    table = CONFIG.replace("call_floor: 0", "call_floor: 20")
    with at_the_moment(tmp_path, "floor", "werewolves read back", table) as game:
        tmux = game.tmux
        journal = next((tmp_path / "j").glob("*.jsonl"))
        answered = len(read_journal(str(journal))[1])
        tmux.send(["enter"])  # confirmed: journaled, then the floor is waited out before the call's sleep line
        end = time.monotonic() + PATIENCE
        while len(read_journal(str(journal))[1]) == answered and time.monotonic() < end:
            time.sleep(0.05)
        assert len(read_journal(str(journal))[1]) > answered, "the answer was never journaled"
        began = time.monotonic()
        os.kill(tmux.game_process(), stop)
        final = tmux.wait_for(ended)
        assert time.monotonic() - began < 5, f"stopped {time.monotonic() - began:.1f} s after the signal"
        assert "exit=130" in final and game.moment.secret not in tmux.everything(), final
