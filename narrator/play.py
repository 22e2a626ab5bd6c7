"""A game at a real table: the deal, every call said aloud, answers from the keypad, secrets on the screen."""

from __future__ import annotations

import contextlib
import dataclasses
import random
import sys
import time
from pathlib import Path
from typing import Any, Callable, Sequence, TextIO

from engine import Answer, Call, Deal, Game, Phase, Rules, Step, Table, deal_cards, votes
from engine.answers import shown
from engine.table import deal_buildings, deal_events

from .asking import KeypadAnswers
from .table import TableIO, open_table
from .table_narrator import TableHooks, TableNarrator, TableSettings, deal_on_screen, join_on_screen
from .hostmenu import MenuHooks
from .config import TableConfig, config_from_journal, journal_table
from .errors import GameStopped, UserError
from .hearing import BackgroundListener, PushbackKeys, SpokenAnswers, VoiceAnswers
from .hint import resume_hint, typed_path
from .identify import identify, journaled
from .journal import Entry, Journal, default_folder, journal_name
from .keypad import HostStop, Keys, TableGone
from .narration import SCREEN, VOICE, Answers, in_the_dark, run
from .pacing import Pacing
from .recap import build_recap, markdown, who, write_recap
from .replay import Replay
from .voices import Voice, load_voice

STARTER = TableConfig(
    language="en",
    table=Table(8, ("werewolf", "werewolf", "seer", "witch", "hunter", "cupid", "villager", "villager"),
                Rules()),
    source="(the built-in starter table)",
)
"""The table `play` uses with no config: eight players in English, two werewolves, the keypad."""


def journal_header(config: TableConfig, seed: int, deal: Deal, dealing: bool = False,
                   phones: dict[str, Any] | None = None) -> dict[str, Any]:
    """Returns what a journal must hold to rebuild the game: the table, the seed, the buildings and the deal; with
    the players' ``phones``, their server's address, port and links (narrator.phones.table.journaled), served again
    when the game goes on.

    With ``dealing``, the journal begins before the deal: the cards follow it step by step (narrator.journal),
    and ``deal`` holds the buildings and, with deal: app, the cards drawn (with deal: cards, none yet).
    """
    header: dict[str, Any] = {"kind": "play", **journal_table(config), "seed": seed,
                              "buildings": [list(pair) for pair in deal.buildings]}
    if deal.roles:
        header.update(deal=list(deal.roles), centre=list(deal.centre))
    if dealing:
        header["dealing"] = True
    if phones is not None:
        header["phones"] = phones
    return header


@dataclasses.dataclass(frozen=True)
class Timing:
    """What times the calls made with eyes closed (narrator.pacing): a test gives a fake clock and sleep."""

    sleep: Callable[[float], None] = time.sleep
    clock: Callable[[], float] = time.monotonic


@dataclasses.dataclass(frozen=True)
class NewGame:
    """Where a new game's journal is begun: ``path``, or a new file in ``folder`` (without either, in the default
    folder). With a ``deal`` (the cards as a test or a twin fixes them), the table deals nothing. ``phones``: what
    the journal keeps of the players' phones (`journal_header`)."""

    folder: Path | None = None
    path: Path | None = None
    deal: Deal | None = None
    phones: dict[str, Any] | None = None


@dataclasses.dataclass(frozen=True)
class Resumed:
    """What a journaled game brings to go on: its ``journal`` (open to append), its ``deal``, and its answers to
    ``replay`` (read from ``replay_from``), narrated silently before the table goes on from the call where the
    game stopped. Stopped during the deal, its deal's steps so far are the ``progress`` (with deal: app, the cards
    drawn are the ``deal``; with deal: cards, there is none yet): the deal goes on. The ``pace`` is the living calls'
    lengths journaled (narrator.pacing's samples): the empty calls go on at the same pace. With ``new_links``,
    the players' phones join again first.

    A new game, once its journal is begun, is a game resumed with nothing to replay (`begin_journal`).
    """

    journal: Journal
    deal: Deal | None = None
    replay: Sequence[Entry] = ()
    replay_from: str = ""
    progress: Sequence[dict[str, Any]] | None = None
    pace: dict[str, list[float]] = dataclasses.field(default_factory=dict)
    new_links: dict[str, Any] | None = None
    """The players' phones' new links (the host's stop ended the old ones): the seats that had joined scan their
    new QR codes before the game goes on (`joining`), then they are journaled. Journaled only then: a game that
    stops before makes new links again, and calls every seat again, none left with a link that opens nothing."""


class TableSession:
    """One game's narrator and keypad, wired to each other through what links them at the table: a secret result
    waits for Enter, a seat voted out has its last words, the host menu shows a seat its card, and the answers
    may be spoken (with a ``table.listener`` and its vocabulary, in the phases the config gives voice to).

    A BackgroundListener may still be loading its model: the game begins at once, and its failure is told at the
    next call (`settle`). ``journal`` is the game's once begun (a failure that stops the game says how to go on);
    ``deal`` the cards the host menu shows while the program deals them.
    """

    def __init__(self, config: TableConfig, table: TableIO, seed: int, timing: Timing = Timing(),
                 voice_log: TextIO | None = None) -> None:
        self.config = config
        self.table = table
        self.voice = load_voice(config.language)
        self.journal: Journal | None = None
        self.deal: Deal | None = None
        # A key pressed while listening is read again by the keypad.
        self.keys: Keys = PushbackKeys(table.keys) if table.listener is not None else table.keys
        self.background = table.listener if isinstance(table.listener, BackgroundListener) else None
        self.told_failure = False
        hears = table.listener is not None and table.vocabulary is not None and bool(config.voice_phases())
        pacing = Pacing(config.call_floor, config.pause, clock=timing.clock, sleep=timing.sleep,
                        on_sample=self.record_pace)
        settings = TableSettings(rules=config.table.rules, seats=config.table.seats, voice_log=voice_log,
                                 ambience=table.ambience, pacing=pacing, listener=table.listener if hears else None,
                                 phones=table.phones)
        hooks = TableHooks(acknowledge=self.acknowledge, safe_point=self.settle,
                           last_words=self.last_words if config.last_words else None,
                           answered=self.answered,
                           ballots_elsewhere=self.ballots_elsewhere)
        self.narrator = TableNarrator(self.voice, table.screen, table.speaker, config.names, settings, hooks)
        # The microphone, when the table may answer aloud: an answer device like any the table brings.
        self.spoken = SpokenAnswers(self.hearing(), config.voice_phases(), self.microphone_lost) if hears else None
        spoken = (self.spoken,) if self.spoken is not None else ()
        menu = MenuHooks(last_answered=self.last_answered, public_state=self.public_state,
                         card_again=self.card_again, eyes_open=lambda: self.narrator.eyes_open, phones=table.phones)
        self.answers = KeypadAnswers(self.keys, table.screen, self.voice, say=self.say, repeat=self.narrator.repeat,
                                     names=config.names, rng=random.Random(seed), debate_timer=config.debate_timer,
                                     clock=timing.clock, pacing=pacing, menu=menu, devices=(*table.devices, *spoken))
        if config.deal == "app":
            self.narrator.confession = self.confession

    def hearing(self) -> VoiceAnswers:
        """The table's answers said aloud, in the phases the config gives voice to: the keypad stays live."""
        config, screen, voice = self.config, self.table.screen, self.voice
        listener, vocabulary = self.table.listener, self.table.vocabulary
        assert isinstance(self.keys, PushbackKeys) and listener is not None and vocabulary is not None
        return VoiceAnswers(
            listener, vocabulary, self.keys, say=self.say, repeat=self.narrator.repeat,
            seat_words=lambda seat: voice.seat(seat, config.names),
            word=lambda word: voice.text(f"answer.{word}", {}),
            card_words=lambda number: voice.text("answer.card", {"number": number}),
            show=lambda key, values: screen.public(voice.text(key, values)),
            show_awake=lambda key, values: screen.entry(voice.text(key, values, config.names)))

    def answered(self, call: Call, step: Step) -> None:
        """Tells the devices that the engine took ``call``'s answer (`KeypadAnswers.answered`), and the table every
        seat's card as the game has it now: the Thief's as taken goes to his phone."""
        self.answers.answered(call, step)
        self.cards_now()

    def cards_now(self) -> None:
        """Tells the table every seat's card as the game has it now (the players' phones hold their own)."""
        game = self.narrator.game
        if game is not None:
            self.table.cards_known(tuple(game.card(seat) for seat in range(1, len(game.players) + 1)))

    def ballots_elsewhere(self, call: Call) -> bool:
        """Whether some voters cast ``call``'s ballots on a device (their phones), by its voters now."""
        game = self.narrator.game
        return game is not None and any(device.casts(call, votes.voters(game)) for device in self.table.devices)

    def record_pace(self, key: str, took: float) -> None:
        """Journals a living call's length, so that a resumed game keeps the pace of its empty calls."""
        if self.journal is not None:
            self.journal.record_pace(key, took)

    def say(self, key: str, values: dict[str, object]) -> None:
        """Says the line ``key`` aloud (what the keypad and the hearing say: read-backs, refusals)."""
        self.narrator.line(key, VOICE, **values)

    def acknowledge(self) -> None:
        """Waits for Enter while a secret result is on the screen (Ctrl-C and the host menu work here too)."""
        self.table.screen.entry("")
        self.table.screen.prompt(self.voice.text("prompt.done", {}))
        self.answers.acknowledge()  # Enter, or an OK on a phone that shows the result

    def settle(self) -> None:
        """At a safe point, once: a model that failed to load leaves the game to the keypad, saying why; one that
        cannot hear the vocabulary stops the game (its journal kept), as the check before the first line would."""
        failure = self.background.failure if self.background is not None else None
        if failure is None or self.told_failure:
            return
        self.told_failure = True
        self.narrator.listener = None
        if self.spoken is not None:
            self.spoken.drop()
        if failure.fatal:
            kept = "" if self.journal is None else \
                f"\n{self.voice.text('screen.stopped', {})}\n  {resume_hint(self.journal.path)}"
            raise UserError(f"{failure}{kept}")
        self.table.screen.public(str(failure))
        self.table.screen.notice(str(failure))  # kept in the status line: the keypad answers from now on

    def microphone_lost(self) -> None:
        """The keypad answers from now on: says why (the model never came, or the microphone is gone)."""
        self.narrator.listener = None
        if self.background is not None and self.background.failure is not None:
            self.settle()  # the model never came: the warning says why
            self.say("voice.keypad", {})
            return
        self.say("voice.mic_lost", {})

    def last_words(self, seat: int) -> None:
        """Gives ``seat``, voted out, its last words: the table's seconds, counted down on the screen, in a panel of
        their own (under the vote's question, it seemed the vote's countdown)."""
        self.narrator.moment(self.narrator.shown_title)
        self.narrator.line("last_words.call", VOICE, seat=seat)
        self.answers.countdown(self.config.last_words, "screen.last_words_left")

    def confession(self, seat: int) -> None:
        """The Confessor hears ``seat`` (deal: app): nobody holds a card to show him, so the table closes its eyes and
        the screen shows him that seat's card as the game has it now, until Enter; then the eyes open again."""
        game, screen, narrator = self.narrator.game, self.table.screen, self.narrator
        assert game is not None
        narrator.line("confessor.to_screen", VOICE, seat=seat)
        screen.prompt(self.voice.text("prompt.see_card", {}))
        self.answers.enter()
        screen.prompt("")
        narrator.line("confessor.sees", SCREEN, seat=seat, role=game.card(seat))
        screen.prompt(self.voice.text("prompt.hide_card", {}))
        self.answers.enter()
        screen.clear()
        narrator.line("confessor.from_screen", VOICE)

    def card_again(self, seat: int) -> bool:
        """The host menu shows ``seat`` its card: as the game has it now (the Thief's as taken), or as drawn while
        the program deals; with real cards, none before they are identified. Nothing of it is journaled."""
        game = self.narrator.game
        cards = [game.card(s) for s in range(1, len(game.players) + 1)] if game is not None else \
            list(self.deal.roles) if self.deal is not None else []
        if not 1 <= seat <= len(cards):
            return False
        self.narrator.show_card(seat, cards[seat - 1], self.answers.enter)
        return True

    def last_answered(self) -> str | None:
        """The call whose answer the host menu may take back, by name (None: nothing it may take back)."""
        call = takeback(self.narrator.game) if self.narrator.game is not None else None
        return None if call is None else who(self.voice, call) or self.voice.role(call.id)

    def public_state(self) -> str:
        """What the host menu shows of the game: "Night 2 · alive: …" ("" before the first call)."""
        game = self.narrator.game
        if game is None or game.call is None:
            return ""
        return f"{self.narrator.title(game.call)} · {self.narrator.status(game.call)}"

    def close(self) -> None:
        """Closes the journal, if begun, and the table's devices."""
        if self.journal is not None:
            self.journal.close()
        self.table.screen.close()
        self.keys.close()
        self.table.speaker.close()
        self.narrator.ambience.close()
        if self.table.listener is not None:
            self.table.listener.close()


def takeback(game: Game) -> Call | None:
    """Returns the call whose answer the host menu may take back: the call just before the running one, if it was
    answered with eyes open this very day; else None, whatever the game holds. A night's answer (or the Judge's,
    given with eyes closed) is never taken back from the menu: asking "take back the Witch's answer?" would tell the
    table that her call was live, and taking it back would run the night again in front of everyone. The running
    call's own answer is taken back at its read-back (U)."""
    running = game.call
    if running is None or running.phase is not Phase.DAY or len(game.calls) < 2:
        return None
    before = game.calls[-2]
    if (before is not game.last_answered() or before.phase is not Phase.DAY or before.number != running.number
            or in_the_dark(before)):
        return None
    return before


def begin_journal(config: TableConfig, seed: int, new: NewGame, buildings: tuple[tuple[int, str], ...]) -> Resumed:
    """Begins a new game's journal (``new.path``, or a new file in ``new.folder``) before anything is said, the
    deal in it, so that a deal stopped part-way goes on with the same cards; returns the game as if resumed from
    it. Unless ``new`` gives the cards, the deal is to come: drawn from ``seed`` (deal: app) or none yet (deal:
    cards), with the public ``buildings``."""
    deal = new.deal
    progress: list[dict[str, Any]] | None = None
    if deal is None:
        progress = []
        drawn = deal_cards(config.table, seed) if config.deal == "app" else Deal((), ())
        deal = dataclasses.replace(drawn, buildings=buildings)
    path = new.path or (new.folder or default_folder()) / journal_name()
    journal = Journal(path, journal_header(config, seed, deal, dealing=progress is not None, phones=new.phones))
    return Resumed(journal, deal, progress=progress)


def deal_at_table(session: TableSession, game: Resumed, seed: int, buildings: tuple[tuple[int, str], ...]) -> Deal:
    """Deals the cards from the ``game.progress`` made so far: the program shows each seat its card (deal: app,
    drawn from ``seed``), or the characters identify their seats (deal: cards); each step journaled as taken,
    then the whole deal, with the public ``buildings``. Returns the deal."""
    config, narrator, journal = session.config, session.narrator, game.journal
    progress = game.progress or []
    narrator.moment(session.voice.text("recap.deal_title", {}))  # a title in the table's language from the start
    if progress:
        narrator.line("notice.resumed", VOICE)
    if config.deal == "cards":
        deal = identify(config.table, narrator, session.answers, progress, record=journal.record_deal)
        session.table.cards_known(deal.roles)
    else:
        deal = session.deal = game.deal if game.deal is not None else deal_cards(config.table, seed)  # the seed's
        deal_on_screen(narrator, session.answers, deal, lambda seat: journal.record_deal({"seen": seat}),
                       first=len(progress) + 1, shown=session.table.card_shown)
    deal = dataclasses.replace(deal, buildings=buildings)
    journal.record_dealt(deal)
    return deal


def joining(config: TableConfig, game: Resumed) -> tuple[tuple[int, ...], str]:
    """Returns the seats whose phones join at the screen before the game goes on, and the line that says why: with
    the players' own cards (deal: cards) every seat before the characters identify themselves, since no card is
    shown on the screen, whose QR code would go with it; and in a game going on whose links the host's stop ended
    (``new_links``), the seats that had theirs (deal: app: those whose turn at the screen is past)."""
    seats = config.table.seats
    if config.deal == "cards" and game.progress is not None and not game.progress:
        return tuple(range(1, seats + 1)), "deal.phones_again" if game.new_links else "deal.phones_intro"
    if not game.new_links:
        return (), ""
    seen = seats if game.progress is None else len(game.progress) if config.deal == "app" else seats
    return tuple(range(1, seen + 1)), "deal.phones_again"


def with_events(deal: Deal, table: Table, seed: int) -> Deal:
    """Returns ``deal`` with the morning draw's pile, from the seed (its own stream): the journal keeps the seed,
    not the pile, and a game going on turns the same cards."""
    return deal if deal.events else dataclasses.replace(deal, events=deal_events(table, seed))


def join_phones(session: TableSession, game: Resumed, seed: int) -> None:
    """The players' phones join at the screen (`joining`), when the table has phones; new links are journaled
    once the seats have scanned them. A game going on shows its seating circle as the journal left it meanwhile
    (its dead, its Sheriff: public), not as dealt."""
    code_shown = session.table.code_shown
    seats, intro = joining(session.config, game)
    if code_shown is not None and seats:
        if game.deal is not None and game.replay:
            table = session.config.table
            session.narrator.game = Game(table, with_events(game.deal, table, seed), [e.answer for e in game.replay])
            session.narrator.show_table()
        join_on_screen(session.narrator, session.answers, seats, intro, code_shown)
    if game.new_links:
        game.journal.record_phones(game.new_links)


def replayed(session: TableSession, game: Resumed) -> Answers:
    """Returns where the answers come from: the journal's first, narrated silently, until the table goes on live
    at the call where the game stopped (TableNarrator.go_live); the keypad's alone with nothing to replay."""
    if not game.replay:
        return session.answers
    session.narrator.replaying = True

    def live(call: Call) -> None:
        session.cards_now()  # the phones of a game going on hold the cards as they are now, not as dealt
        session.narrator.go_live(call)

    return Replay(game.replay_from, list(game.replay), session.answers, on_live=live)


def play_calls(session: TableSession, deal: Deal, game: Resumed) -> Game:
    """Plays the game dealt ``deal`` from its first call to its winner, the answers from `replayed`; journals each
    live answer (not those replayed), each one taken back, and the winner. Returns the finished game."""
    played = Game(session.config.table, deal)
    session.narrator.game = played
    source = replayed(session, game)
    journal = game.journal

    def record(call: Call, value: Answer) -> None:
        if not (isinstance(source, Replay) and source.replaying):
            journal.record(call, value)

    run(played, session.narrator, source, record=record, undone=journal.record_undo)
    if played.outcome is not None:
        journal.record_over(played.outcome.winner)
    return played


def show_recap(game: Game, voice: Voice, names: Sequence[str | None], journal: Path, out: TextIO | None) -> None:
    """The end: the recap, built from the deal and the answers, on ``out`` (the terminal, once the full screen is
    gone) and in a Markdown file beside the ``journal``, to share; then the winner again last, where a terminal
    shows it once the long recap has scrolled by."""
    recap = build_recap(game, voice, names)
    written = write_recap(journal, recap)
    stream = out or sys.stdout
    text = markdown(recap)
    # Named as the host would type them (~/...): the full path of a journal folder is wider than 80 columns, and a
    # terminal cuts it mid-word.
    paths = "\n".join(voice.text(key, {"path": typed_path(str(path))})
                      for key, path in (("screen.recap_file", written), ("screen.journal_file", journal)))
    if stream.isatty():
        from rich.console import Console
        from rich.markdown import Markdown
        from rich.text import Text

        console = Console(file=stream)
        console.print(Markdown(text))
        for line in recap.result:  # wrapped between words, never mid-word by the terminal (the winners' names)
            console.print(Text(line))
        print(paths, file=stream)  # whole, to be copied
    else:
        print("\n".join([text, *recap.result, paths]), file=stream)


def play(config: TableConfig, table: TableIO, *, seed: int | None = None, start: NewGame | Resumed = NewGame(),
         timing: Timing = Timing(), out: TextIO | None = None, voice_log: TextIO | None = None) -> Game:
    """Plays one game at the ``table`` from the deal to the winner; returns the finished game.

    ``start`` is a new game (where its journal goes: `begin_journal`) or a journaled one going on (`Resumed`).
    ``timing`` times the calls made with eyes closed. Every line said aloud (not the silent replay) is appended to
    ``voice_log`` as a JSON line ``{"key", "text", "at", "heard", "voice"}``: when it was asked for and began to
    play (epoch seconds), and the voice that said it. The recap goes to ``out`` (`show_recap`). The devices are closed at the end, the ``table.ambience`` with
    the speaker; Ctrl-C stops the game, its journal kept (GameStopped says how to go on).
    """
    seed = random.SystemRandom().randrange(2**63) if seed is None else seed  # the OS's randomness, 63 bits
    session = TableSession(config, table, seed, timing, voice_log)
    session.narrator.show_eyes()
    session.narrator.show_table()  # the seats and their names, from the deal on
    session.narrator.plan_ahead(config.table.seats, config.table.deck)
    session.journal = start.journal if isinstance(start, Resumed) else None
    if isinstance(start, Resumed):
        session.narrator.pacing.samples = {key: list(pool) for key, pool in start.pace.items()}
    try:
        # The building tokens are public: dealt by the program (or as the host gave them), then announced.
        buildings = config.buildings_dealt or deal_buildings(config.table, seed)
        begun = start if isinstance(start, Resumed) else begin_journal(config, seed, start, buildings)
        session.journal, session.deal = begun.journal, begun.deal
        join_phones(session, begun, seed)
        deal = begun.deal if begun.progress is None else deal_at_table(session, begun, seed, buildings)
        assert deal is not None, "a game going on from its journal gives its deal, or the deal's progress"
        deal = with_events(deal, config.table, seed)
        game = play_calls(session, deal, begun)
    except KeyboardInterrupt as stop:
        table.screen.close()
        # The host's own stop (not a signal, nor a terminal gone) ends the phones' links: a game that goes on
        # gives new ones (docs/phones.md).
        by_host = isinstance(stop, HostStop) and not isinstance(stop, TableGone)
        if session.journal is None:
            raise GameStopped(session.voice.text("screen.stopped_unbegun", {}), by_host) from None
        if by_host and table.phones:
            with contextlib.suppress(UserError):  # a full disk: the stop goes on, the links are kept
                session.journal.record_stopped()
        raise GameStopped(f"{session.voice.text('screen.stopped', {})}\n  {resume_hint(session.journal.path)}",
                          by_host) from None
    finally:
        session.close()
    show_recap(game, session.voice, config.names, begun.journal.path, out)
    # Told on the status line, gone with the full screen; the next game is when it helps.
    if table.speaker.not_ready_told:
        print(table.speaker.not_ready_told, file=out or sys.stdout)
    return game


@dataclasses.dataclass(frozen=True)
class ResumeOptions:
    """What `resume` is told besides the journal's own table: the ``journal``'s path, a ``speaker`` that overrides
    the table's, the ``plain`` screen, the speech ``model`` folder, where to write the players' phones' links
    (``phone_links``: new ones after the host's stop, else the same again). Typed options, not the command line's
    Namespace: below the command line, nothing reads argparse."""

    journal: str
    speaker: str | None = None
    plain: bool = False
    model: str | None = None
    phone_links: str | None = None


def resume_play(args: ResumeOptions, header: dict[str, Any], entries: Sequence[Entry], warn: Callable[[str], None],
                voice_log: TextIO | None = None, journal: Journal | None = None) -> Game:
    """Goes on with a journaled game at the table, from the call where it stopped; ``journal`` is its journal
    already open (and locked), or None to open it here."""
    where = f"{args.journal}:1"
    config = config_from_journal(header, where)
    if args.speaker:
        config = dataclasses.replace(config, speaker=args.speaker)
    seed = header.get("seed")
    if type(seed) is not int or not 0 <= seed < 2**63:
        raise UserError(f"{where}: the journal's seed is damaged (a whole number from 0 to 2**63-1; got {shown(seed)})")
    try:
        deal, progress = journaled_deal(config, header)
    except (KeyError, TypeError, ValueError):
        raise UserError(f"{where}: the journal's deal is damaged") from None
    drawn = deal_cards(config.table, seed) if config.deal == "app" and deal is not None else deal
    if deal is not None and drawn is not None and (deal.roles, deal.centre) != (drawn.roles, drawn.centre):
        raise UserError(f"{where}: the journal's deal is not the one its seed deals: the journal was changed")
    journal = journal or Journal(Path(args.journal))
    try:
        io = open_table(config, plain=args.plain, model=args.model, warn=warn)
    except BaseException:
        journal.close()
        raise
    start = Resumed(journal, deal, entries, replay_from=str(args.journal), progress=progress,
                    pace=header.get("pace") or {})
    if header.get("phones") is None:
        return play(config, io, seed=seed, voice_log=voice_log, start=start)
    # The players' phones: the same port and, after a crash, the same links: each phone comes back by itself
    # without a new QR. After the host's stop, new links: the phones join again (`join_phones`).
    from .phones.table import cards_seen, from_journal, journaled, phones_at

    try:
        options, tokens = from_journal(header["phones"], config.table.seats, where)
    except UserError:
        journal.close()
        io.keys.close()
        io.speaker.close()
        raise
    options = dataclasses.replace(options, links=Path(args.phone_links) if args.phone_links else None)
    cards = cards_seen(deal.roles, progress if config.deal == "app" else None) if deal is not None else {}
    try:
        with phones_at(io, config.language, config.table.seats, config.names, options, tokens, cards) as (io, server):
            if tokens is None:
                start = dataclasses.replace(start, new_links=journaled(server))
            return play(config, io, seed=seed, voice_log=voice_log, start=start)
    except BaseException:
        journal.close()  # play closes it once begun; a server that could not start leaves it to be closed here
        raise


def journaled_deal(config: TableConfig, header: dict[str, Any]) -> tuple[Deal | None, list[dict[str, Any]] | None]:
    """Returns a journal's deal (as read_journal gives its header) and, if the game stopped during the deal, the
    deal's steps so far; raises KeyError, TypeError or ValueError when they do not fit the table."""
    buildings = tuple((int(s), str(t)) for s, t in header.get("buildings") or ())
    progress = header.get("progress")
    deal = None
    if "deal" in header:
        deal = Deal(tuple(header["deal"]), tuple(header.get("centre") or ()), buildings)
        Game(config.table, deal)  # a deal that does not fit the table (its cards, its buildings) is damaged
    if progress is None:
        if deal is None:
            raise KeyError("deal")
    elif config.deal == "cards":
        journaled(config.table, progress)
    elif (deal is None or len(progress) > len(deal.roles)
          or [step.get("seen") for step in progress] != list(range(1, len(progress) + 1))):
        raise ValueError("the cards seen are not the seats in turn")
    return deal, progress
