"""Twin games: two games that differ only in a secret, played at the keypad through ``narrator.play.play``.

Fair play (docs/rules.md, "Nothing is given away") means that twins cannot be told apart by anyone who does not
hold their secret. What the harness compares, and why:

- **The voice**: every line said aloud, key and text, in order, from the first line to the horizon (the
  call where the twins' keys run out and the games stop: the same public moment in both). Twins are built
  so that their *public* course is the same — the same seats eliminated at the same moments, cards not
  revealed (``reveal_roles: false``) — because a secret that became public is no longer a secret: twins
  whose public facts differ are a badly built pair, not a leak. The voice then has no excuse to differ.
- **The screen, whenever nobody holding the secret can see it**: while every eye is closed, and by day
  when every eye is open (the screen is then public). Eyes close at the end of nightfall, of "everyone
  close your eyes" and of a character's sleep line; they open at the end of a wake line (for the woken,
  unless the call is made for a dead or powerless character: then every eye stays closed) and by day. A
  moment is a time the narrator spends: saying a line (the screen as the line begins), waiting for a key,
  pausing. The screens of each stretch between two lines said are compared as a sequence of distinct
  states. Not compared: moments when a character is awake (the Seer sees her look, the Witch the victim,
  the werewolves whom they chose), and the deal (each player sees their own card).
- **The night ambience**: when it starts, stops, ducks and comes back, counted in lines said (it follows
  the lines, so twins that sound alike must steer it alike).
- **The lines rendered ahead**: what the speaker is asked to render first, in order, and after which line
  said: a line not rendered in time is said in another voice (espeak-ng for Piper), so the order must not
  depend on a secret either.
- **Not compared**: how long anything takes (pauses and answer times are narrator/pacing's tests).
"""

from __future__ import annotations

import dataclasses
import io
import itertools
import json
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

import pytest

from engine import Answer, Call, Deal, Game, Phase, deal_cards
from keystrokes import ScriptedKeys, after, keys_for
from narrator.circle import SeatView
from narrator.config import TableConfig
from narrator.journal import Journal, read_journal
from narrator.narration import eyes_closed, wakes
from narrator.play import NewGame, Resumed, Timing, play
from narrator.table import TableIO
from narrator.screen import ScreenState, TableState, shown_instead
from narrator.voices import load_voice

CLOSED, OPEN, AWAKE = "closed", "open", "awake"
"""Every eye closed; every eye open (by day); someone awake (a character woken, a player seeing a card)."""

COMPARED = frozenset({CLOSED, OPEN})
"""The moments twins must show alike: nobody who holds the secret is looking alone."""

HARMLESS: dict[str, Answer] = {"infected_father": False, "wolf_hound": "village",
                               "witch": {"heal": False, "poison": None}, "stuttering_judge": False}
"""Answers that change nothing, for the calls that cannot pass."""


@dataclass(frozen=True)
class Twin:
    """One game of a pair: the table, its cards (a deal, or the seed of the app's deal on the screen), how
    the table answers, and where the game stops.

    ``answers`` are by call id, or by (call id, number) for one night or day; the calls not named are
    answered harmlessly (a pass, nobody, no). ``typed`` are keys typed at a call before its answer (answers
    the narrator must refuse). ``stray`` are keys pressed at every wait of a call made with eyes closed (a floor
    waited out, a call made for the dead), when the narrator reads none: no answer's. The game stops at ``horizon``,
    the (call id, day) it does not answer. With ``resume_at`` (a call id and its night, live in both twins), the game
    stops as that call waits for its first key, and goes on from its journal as `resume` does. ``typed_ahead`` are keys
    pressed while each of the deal's lines is said (the player before pressing Enter again): no screen's answer.
    """

    config: TableConfig
    deal: Deal | None = None
    seed: int = 1
    answers: Mapping[Any, Answer] = field(default_factory=dict)
    typed: Mapping[Any, Sequence[str]] = field(default_factory=dict)
    horizon: tuple[str, int] = ("vote", 1)
    stray: Sequence[str] = ()
    resume_at: tuple[str, int] | None = None
    typed_ahead: Sequence[str] = ()

    def cards(self) -> Deal:
        return self.deal if self.deal is not None else deal_cards(self.config.table, self.seed)

    def answer(self, call: Call, game: Game) -> Answer:
        """Returns the table's answer to ``call``."""
        if not call.needs_answer:
            return None
        for key in ((call.id, call.number), call.id):
            if key in self.answers:
                return self.answers[key]
        if call.id in HARMLESS:
            return HARMLESS[call.id]
        if call.optional:
            return None
        return game.legal()[0]

    def mistakes(self, call: Call) -> list[str]:
        """Returns the keys typed at ``call`` before its answer (none at a call made for the dead)."""
        if not call.live:
            return []
        for key in ((call.id, call.number), call.id):
            if key in self.typed:
                return list(self.typed[key])
        return []

    def at_horizon(self, call: Call) -> bool:
        return call.phase is Phase.DAY and (call.id, call.number) == self.horizon


@dataclass(frozen=True)
class Planned:
    """A twin played ahead by the engine: every key the table presses, the game at the horizon, and for each
    call said with a wake line (or the Stuttering Judge's eyes-closed call), whether it is live."""

    keys: list[str]
    game: Game
    live: list[bool]
    stop: int | None = None  # with resume_at: the keys typed before the game stops, and its live calls said by then
    said_live: int = 0


def plan(twin: Twin) -> Planned:
    """Plays ``twin`` ahead with the engine: its keys, from the deal (on the screen, without a deal given)."""
    game = Game(twin.config.table, twin.cards())
    keys = [] if twin.deal is not None else ["enter"] * 3 * twin.config.table.seats
    stop, said_live = None, 0
    while True:
        call = game.call
        assert call is not None, f"the game ended ({game.outcome}) before its horizon {twin.horizon}"
        if twin.at_horizon(call):
            break
        if twin.resume_at == (call.id, call.number) and stop is None:
            assert call.live, f"the game is resumed at {twin.resume_at}, which must read keys"
            stop, said_live = len(keys), sum(1 for c in game.calls if wakes(c) or eyes_closed(c))
        value = twin.answer(call, game)
        keys += twin.mistakes(call)
        keys += keys_for(call, value)
        keys += after(game.answer(value))
    live = [c.live for c in game.calls if wakes(c) or eyes_closed(c)]
    assert twin.resume_at is None or stop is not None, f"no call {twin.resume_at} before the horizon"
    return Planned(keys, game, live, stop, said_live)


@dataclass(frozen=True)
class Moment:
    """A time the narrator spends (``kind``: a line "said", a "key" awaited, a "pause"): how many lines were
    said before, whose eyes were open, how many keys were read, and what the screen showed."""

    said: int
    eyes: str
    keys: int
    view: tuple[Any, ...]
    kind: str = "said"


def eyes_after(key: str, eyes: str, live: Callable[[], bool]) -> str:
    """Returns whose eyes are open once the line ``key`` has been said (see the module's rule)."""
    key = key.removesuffix("_phones")  # a line's wording at a table with the players' phones (lovers.wake_phones)
    if key in ("nightfall.call", "notice.close_eyes") or key.endswith(".sleep"):
        return CLOSED
    if key.endswith((".wake", ".wake_drawn", ".wake_harvest")) and key != "identify.wake" \
            or key == "stuttering_judge.call":
        return AWAKE if live() else CLOSED
    if key in ("deal.app_turn", "identify.wake", "card_again.call", "confessor.to_screen"):
        return AWAKE  # a player at the screen: their card, the card the Confessor is shown
    if key == "card_again.done":
        return CLOSED
    if key in ("dawn.call", "notice.open_eyes", "confessor.from_screen") or key.endswith((".open", ".call")):
        return OPEN
    return eyes


class Timeline:
    """What a game said and showed, moment by moment: the voice log ``play`` writes, its speaker, its
    screen's state, its keys, its pauses and its night ambience all report here."""

    name = "timeline"
    renders_ahead = True  # what is asked to render first must not depend on a secret either
    not_ready_told = ""

    def __init__(self, live: Sequence[bool], spoken: Callable[[str], str]) -> None:
        self.voice: list[tuple[str, str]] = []
        self.ahead: list[tuple[int, list[str]]] = []  # (lines said so far, the lines asked to render first)
        self.moments: list[Moment] = []
        self.eyes = OPEN
        self.view: tuple[Any, ...] = ()
        self.keys = 0
        self.ambience: list[tuple[str, int]] = []  # (start, stop, duck or unduck; lines said before it)
        self._live = iter(live)
        self._said: list[str] = []  # said, not in the voice log yet
        self._spoken = spoken
        self.on_said: Callable[[str], None] = lambda key: None  # after each line said, by its key

    # the voice log (play's voice_log): each line as soon as it was heard
    def write(self, text: str) -> int:
        for line in text.splitlines():
            entry = json.loads(line)
            assert self._said, f"in the voice log but not said aloud: {entry['text']!r}"
            said = self._said.pop(0)
            assert self._spoken(entry["text"]) == said, (entry["text"], said)
            key = entry["key"]
            self.moment("said")
            self.voice.append((key, entry["text"]))
            self.eyes = eyes_after(key, self.eyes, lambda: next(self._live, True))
            self.on_said(key)
        return len(text)

    def flush(self) -> None:
        pass

    # the speaker
    def say(self, text: str) -> None:
        assert not self._said, f"said aloud but not in the voice log: {self._said[0]!r}"
        self._said.append(text)

    def prepare(self, texts: Iterable[str]) -> int:
        self.ahead.append((len(self.voice), list(texts)))
        return len(self.ahead[-1][1])

    def close(self) -> None:
        pass

    def again(self, live: bool) -> None:
        """The call whose wake line was said last is said again (a game resumed at it): ``live`` as it was."""
        self._live = itertools.chain([live], self._live)

    def moment(self, kind: str) -> None:
        self.moments.append(Moment(len(self.voice), self.eyes, self.keys, self.view, kind))

    def pause(self, seconds: float) -> None:
        self.moment("pause")

    # the night ambience (play's ambience)
    def start(self) -> None:
        self.ambience.append(("start", len(self.voice)))

    def stop(self) -> None:
        self.ambience.append(("stop", len(self.voice)))

    def duck(self) -> None:
        self.ambience.append(("duck", len(self.voice)))

    def unduck(self) -> None:
        self.ambience.append(("unduck", len(self.voice)))


SEATS, EYES, REFUSAL = 7, 9, 14
"""Where a screen's view (WatchedScreen) holds the seating circle, the eyes banner's text and the refusal's line."""


class WatchedScreen:
    """A screen that keeps what a full screen (RichScreen) would show, and reports each change."""

    def __init__(self, timeline: Timeline) -> None:
        self.timeline = timeline
        self.state = ScreenState()
        self.table = TableState()

    def _changed(self) -> None:
        s, t = self.state, self.table
        # The seating circle, the banners, the timer and the host's lines are compared with the rest; the lines said as
        # many as a 60-row screen shows.
        self.timeline.view = (s.title, s.spoken, tuple(s.secrets), s.prompt, s.entry, s.status, tuple(s.log[-60:]),
                              t.seats, t.eyes_open, t.eyes, t.paused, t.countdown, t.notice, t.flash, s.refusal,
                              s.keys)

    def show_call(self, title: str, spoken: str) -> None:
        self.state = ScreenState(title=title, spoken=spoken, status=self.state.status, log=self.state.log)
        self.table.flash = ""
        self._changed()

    def secret(self, text: str, instead: str = "") -> None:
        shown_instead(self.state.secrets, text, instead)
        self._changed()

    def refusal(self, text: str) -> None:
        self.state.refusal = text
        self._changed()

    def public(self, text: str) -> None:
        self.state.log.append(text)
        if not self.state.spoken:
            self.state.spoken = text
        self._changed()

    def prompt(self, text: str) -> None:
        self.state.prompt = text
        self._changed()

    def entry(self, text: str) -> None:
        self.state.entry = text
        self._changed()

    def status(self, text: str) -> None:
        self.state.status = text
        self._changed()

    def clear(self) -> None:
        self.state.secrets.clear()
        self.state.prompt = self.state.entry = self.state.keys = self.state.refusal = ""
        self.table.flash = ""
        self._changed()

    def seating(self, seats: Sequence[SeatView]) -> None:
        self.table.seats = tuple(seats)
        self._changed()

    def eyes(self, open_: bool, text: str) -> None:
        self.table.eyes_open, self.table.eyes = open_, text
        self._changed()

    def paused(self, text: str) -> None:
        self.table.paused = text
        self._changed()

    def countdown(self, text: str, left: int) -> None:
        self.table.countdown = text
        self._changed()

    def notice(self, text: str, flash: bool = False) -> None:
        if flash:
            self.table.flash = text
        else:
            self.table.notice = text
        self._changed()

    def keys(self, text: str) -> None:
        self.state.keys = text
        self._changed()

    def close(self) -> None:
        pass


class WatchedKeys(ScriptedKeys):
    """The planned keys; each wait for a key is a moment."""

    def __init__(self, keys: Sequence[str], timeline: Timeline) -> None:
        super().__init__(keys)
        self.timeline = timeline

    def read(self, timeout: float | None = None) -> str | None:
        self.timeline.moment("key")
        self.timeline.keys += 1
        return super().read(timeout)

    def meanwhile(self, seconds: float) -> str | None:
        self.timeline.moment("key")  # a call made for nobody waits for keys too, as its living call does
        return super().meanwhile(seconds)


@dataclass(frozen=True)
class Played:
    """A twin played at the keypad: its voice (key and text of every line said), its moments, and how it steered
    the night ambience."""

    voice: list[tuple[str, str]]
    moments: list[Moment]
    keys: list[str]
    ahead: list[tuple[int, list[str]]] = field(default_factory=list)
    ambience: list[tuple[str, int]] = field(default_factory=list)


def play_twin(twin: Twin, language: str | None = None) -> Played:
    """Plays ``twin`` through ``play`` at the keypad (in ``language``, else the config's) until its keys run
    out at the horizon."""
    config = twin.config if language is None else dataclasses.replace(twin.config, language=language)
    planned = plan(twin)
    timeline = Timeline(planned.live, load_voice(config.language).spoken)
    keys = WatchedKeys(planned.keys, timeline)

    def wait(seconds: float) -> None:
        timeline.pause(seconds)
        keys.stray(*twin.stray)

    def said(key: str) -> None:
        if key in ("deal.app_intro", "deal.app_turn"):
            keys.stray(*twin.typed_ahead)

    timeline.on_said = said

    screen = WatchedScreen(timeline)
    stopped = planned.stop is not None
    with tempfile.TemporaryDirectory() as folder:
        if planned.stop is not None:
            keys = WatchedKeys(planned.keys[:planned.stop], timeline)
            with pytest.raises(EOFError):  # the keys run out at the call resumed
                play(config, TableIO(keys, screen, timeline, ambience=timeline), seed=twin.seed,
                     start=NewGame(folder=Path(folder), deal=twin.deal), timing=Timing(sleep=wait), out=io.StringIO(),
                     voice_log=timeline)  # type: ignore[arg-type]
            # Its wake line is said again as the game goes on: whether it wakes someone is the same as before.
            timeline.again(planned.live[planned.said_live - 1])
            keys = WatchedKeys(planned.keys[planned.stop:], timeline)
        try:
            play(config, TableIO(keys, screen, timeline, ambience=timeline), seed=twin.seed,
                 start=resumed(Path(folder)) if stopped else NewGame(folder=Path(folder), deal=twin.deal),
                 timing=Timing(sleep=wait), out=io.StringIO(), voice_log=timeline)  # type: ignore[arg-type]
        except EOFError:
            pass  # the keys ran out: the game waits at its horizon
        else:
            raise AssertionError("the game ended before its horizon, keys left over")
    assert timeline.keys == len(planned.keys) + 1 + stopped, "the game stopped before its horizon"
    return Played(timeline.voice, timeline.moments, planned.keys, ahead=timeline.ahead, ambience=timeline.ambience)


def resumed(folder: Path) -> Resumed:
    """The game journaled in ``folder``, going on as `resume` has it go on."""
    journal, = folder.glob("*.jsonl")
    header, entries = read_journal(str(journal))
    return Resumed(Journal(journal), Deal(tuple(header["deal"]), tuple(header["centre"])), entries,
                   replay_from=str(journal), pace=header.get("pace") or {})


def wakes_someone(key: str) -> bool:
    """Returns whether the line ``key`` wakes a character, or would had it lived (`eyes_after`'s wake lines)."""
    key = key.removesuffix("_phones")
    return key.endswith((".wake", ".wake_drawn", ".wake_harvest")) and key != "identify.wake" \
        or key == "stuttering_judge.call"


def panels(played: Played, questions: bool = True) -> list[tuple[str, tuple[Any, ...] | None]]:
    """Returns the host's panel as each call said with a wake line first waits for a key (its answer, or, made for
    nobody, a key pressed while it waits), by the wake line's key: what a glance at the screen tells whether or
    not the character called lives. Its secrets are left out (those awake read them); without ``questions``, its
    question is told only as there or not (the Witch is asked her heal or her poison, as her potions are). The rest
    is the panel's every line — the title, the line said, what is typed, the refusal, the keys line, the timer, the
    host's hints (None: the call waited for no key before the next wake line)."""
    wakes = [i for i, (key, _) in enumerate(played.voice) if wakes_someone(key)]
    found: list[tuple[str, tuple[Any, ...] | None]] = []
    for at, until in zip(wakes, [*wakes[1:], len(played.voice)]):
        first = next((m for m in played.moments if at < m.said <= until and m.kind == "key"), None)
        view: list[Any] | None = None if first is None else list(first.view)
        if view is not None:
            view[2], view[3] = (), view[3] if questions else bool(view[3])  # the secrets, the question
        found.append((played.voice[at][0], None if view is None else tuple(view)))
    return found


def first_difference(a: Sequence[Any], b: Sequence[Any]) -> int | None:
    """Returns the first index where ``a`` and ``b`` differ (one ending first counts), or None."""
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i
    return None if len(a) == len(b) else min(len(a), len(b))


def voice_difference(a: Played, b: Played) -> str:
    """Returns where the twins' voices part, with the lines around it, or "" when they say the same."""
    i = first_difference(a.voice, b.voice)
    if i is None:
        return ""

    def around(voice: list[tuple[str, str]]) -> str:
        return "\n".join(f"    {n}: {key}: {text}" for n, (key, text) in enumerate(voice[max(0, i - 2):i + 3],
                                                                                   start=max(0, i - 2)))
    return f"the voices part at line {i}:\n  one twin says\n{around(a.voice)}\n  the other\n{around(b.voice)}"


def stretches(played: Played) -> dict[int, tuple[str, list[tuple[Any, ...]]]]:
    """Returns, for each stretch between two lines said, whose eyes were open and the screen's distinct
    states in order."""
    found: dict[int, tuple[str, list[tuple[Any, ...]]]] = {}
    for m in played.moments:
        eyes, views = found.setdefault(m.said, (m.eyes, []))
        if not views or views[-1] != m.view:
            views.append(m.view)
    return found


def comparable(a: Played, b: Played) -> list[int]:
    """Returns the stretches (by lines said before them) whose screens the twins must show alike, up to where
    their voices part."""
    parted = first_difference(a.voice, b.voice)
    last = len(a.voice) if parted is None else parted - 1
    one, other = stretches(a), stretches(b)
    return [said for said in sorted(set(one) & set(other))
            if said <= last and one[said][0] in COMPARED and other[said][0] in COMPARED]


def screen_differences(a: Played, b: Played) -> list[str]:
    """Returns every stretch (up to where the voices part) where nobody holds the secret and the twins'
    screens differ; and checks some stretch was compared."""
    one, other = stretches(a), stretches(b)
    differences = []
    compared = comparable(a, b)
    for said in compared:
        (eyes, views), (eyes_b, views_b) = one[said], other[said]
        if views != views_b:
            heard = a.voice[said - 1][0] if said else "(nothing yet)"
            differences.append(f"after {said} lines (the last {heard!r}), eyes {eyes}/{eyes_b}, the screens differ:"
                               f"\n  {views}\n  {views_b}")
    assert compared, "no moment of these twins could be compared"
    return differences
