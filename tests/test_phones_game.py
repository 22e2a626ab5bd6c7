"""Whole games with the players' phones, without a browser (narrator/phones): every night call and the day's ballots
answered on socket phones, the results shown and acknowledged on them; twins (two games that differ only in a
secret) send every sleeping phone the same bytes; no phone ever receives another seat's card. Everything on
127.0.0.1, with the frames' clock fast (the rule is the same)."""

from __future__ import annotations

import contextlib
import io
import json
import random
import threading
import time
from pathlib import Path
from typing import Callable, Iterator, Sequence

import pytest

pytest.importorskip("websockets", reason="the [phones] extra (scripts/setup.sh installs it)")

from websockets.sync.client import ClientConnection, connect  # noqa: E402

from engine import Call, Game, Kind, Rules, Table, deal_cards, votes  # noqa: E402
from keystrokes import Recorder, ScriptedKeys, after_on_phones, keys_for, legal_in  # noqa: E402
from narrator.config import TableConfig  # noqa: E402
from narrator.hearing import PushbackKeys  # noqa: E402
from narrator.narration import wakes  # noqa: E402
from narrator.phones import views  # noqa: E402
from narrator.phones.device import BALLOTS, KINDS, PhoneAnswers  # noqa: E402
from narrator.phones.server import PhoneServer  # noqa: E402
from narrator.phones.sizes import frame_size  # noqa: E402
from narrator.play import STARTER, NewGame, Timing, play  # noqa: E402
from narrator.screen import PlainScreen  # noqa: E402
from narrator.table import TableIO  # noqa: E402
from narrator.voices import load_voice  # noqa: E402

TICK = 0.05
VOICE = load_voice("en")
TEXTS = {key: text for key, text in VOICE.lines.items() if key.startswith("phone.")}


@pytest.fixture
def opened() -> Iterator[contextlib.ExitStack]:
    with contextlib.ExitStack() as stack:
        yield stack


def tick(socket: ClientConnection, said: dict[str, object]) -> None:
    text = json.dumps(said)
    socket.send(text + " " * (views.UP_FRAME - len(text)))


class SocketPhone:
    """A player's phone without a browser: answers each new question with the choice ``pick`` gives (the first by
    default: the first legal answer), gives its OK to each result that asks for one (not with ``ok`` False: the
    keypad's Enter is left to give it), and keeps every frame."""

    def __init__(self, server: PhoneServer, seat: int, opened: contextlib.ExitStack,
                 pick: Callable[[dict[str, object]], int] = lambda view: 0, ok: bool = True) -> None:
        url = server.link(seat).replace("http://", "ws://").replace("/p/", "/ws/")
        self.socket = opened.enter_context(connect(url, open_timeout=5))
        self.pick = pick
        self.ok = ok
        self.frames: list[str] = []
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        last: object = None
        try:
            for frame in self.socket:
                assert isinstance(frame, str)
                self.frames.append(frame)
                shown = json.loads(frame)["view"]
                if shown == last:
                    continue  # the clock's frame: its view again
                last = shown
                if shown["kind"] == "ask":
                    tick(self.socket, {"call": shown["call"], "choice": self.pick(shown)})
                elif shown["kind"] == "told" and shown["ok"] and self.ok:
                    tick(self.socket, {"call": shown["ok"], "ok": 1})
        except Exception:  # closed at the end of the test
            pass

    def now(self) -> dict[str, object]:
        """Returns the view the phone was sent last ({} before its first frame)."""
        last: dict[str, object] = json.loads(self.frames[-1])["view"] if self.frames else {}
        return last

    def versions(self) -> dict[int, str]:
        """Returns each version of the phone's view it was sent, by number (the clock samples the views: a game
        played without pauses may change a view twice between two frames, so a version may be missing)."""
        return {json.loads(frame)["seq"]: frame for frame in self.frames}

    def shown(self) -> list[str]:
        """Returns the frames whose view changed, each once (the clock's repeats left out)."""
        seen: list[str] = []
        for frame in self.frames:
            if not seen or seen[-1] != frame:
                seen.append(frame)
        return seen


class GatedKeys(ScriptedKeys):
    """The host's keys, not touched while a phone is awaited."""

    def __init__(self, keys: list[str], waiting: Callable[[], bool]) -> None:
        super().__init__(keys)
        self.waiting = waiting

    def read(self, timeout: float | None = None) -> str | None:
        if self.waiting():
            time.sleep(timeout or 0)
            return None
        return super().read(timeout)


def until(condition: Callable[[], bool], what: str, shown: Callable[[], str] = lambda: "",
          seconds: float = 5) -> None:
    """Waits for ``condition``, looked at every 20 ms: a bound for a hang, never a pace."""
    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end, f"waited too long for {what} {shown()}"
        time.sleep(0.02)


def plan(config: TableConfig, seed: int, phones: set[int], seer_picks: Callable[[Game, Call], int] | None = None,
         ) -> tuple[list[str], Game, list[int]]:
    """Plays the game ahead as the table will: the phones answer what they take (their first legal answer, the
    Seer's as ``seer_picks`` says), the keypad the rest (random legal answers) and the roll call's voters without a
    phone (nobody). Returns the keys, the game, and the Seer's picks in order."""
    game = Game(config.table, deal_cards(config.table, seed))
    device = PhoneAnswers(_Connected(phones), PushbackKeys(ScriptedKeys([])), VOICE)
    keys = ["enter"] * 3 * config.table.seats
    rng = random.Random(seed)
    picks: list[int] = []
    while not game.over:
        call = game.call
        assert call is not None
        legal = legal_in(game)
        woken = call.live and wakes(call) and bool(set(call.actors) & phones)
        form = device.build(call, legal) if woken and call.kind in KINDS else None
        if form is not None:
            value = form.values[0]
            if call.id == "seer" and seer_picks is not None:
                value = seer_picks(game, call)
            if call.id == "seer":
                assert isinstance(value, int)
                picks.append(value)
        elif call.live and call.kind in BALLOTS and set(votes.voters(game)) & phones:
            cast: dict[int, int | None] = {}
            for voter in votes.voters(game):
                if voter in phones:
                    cast[voter] = next(s for s in (*call.seats, None) if legal({"ballots": {voter: s}}))
                else:
                    cast[voter] = None
                    keys += ["0", "enter"]
            value = {"ballots": cast}
            keys.append("enter")  # the host confirms the tally
        else:
            value = rng.choice(game.legal()) if call.needs_answer else None
            keys += keys_for(call, value)
        keys += after_on_phones(game.answer(value), woken)
    return keys, game, picks


class _Connected:
    """The phones as the planner sees them: connected, asked nothing."""

    def __init__(self, seats: set[int]) -> None:
        self.seats = frozenset(seats)

    def connected(self) -> frozenset[int]:
        return self.seats

    def reachable(self) -> frozenset[int]:
        return self.seats


def run(tmp_path: Path, opened: contextlib.ExitStack, config: TableConfig, seed: int, seats: Sequence[int],
        seer_picks: Callable[[Game, Call], int] | None = None, speaker: Recorder | None = None,
        ) -> tuple[Game, Game, dict[int, SocketPhone]]:
    """Plays the game with phones for ``seats``; returns it, the game planned ahead, and the phones (the lines
    said go to ``speaker``)."""
    keys_planned, ahead, picks = plan(config, seed, set(seats), seer_picks)
    roles = deal_cards(config.table, seed).roles
    seer = roles.index("seer") + 1
    server = PhoneServer(config.table.seats, TEXTS, bind="127.0.0.1", tick=TICK).start()
    try:
        ahead_picks = list(picks)

        def seer_pick(view: dict[str, object]) -> int:
            """Her look as planned, at her own calls (a ballot, the lovers' call: the first choice)."""
            choices = view["choices"]
            assert isinstance(choices, list)
            if view["title"] != VOICE.text("seer.wake", {}) or not ahead_picks:
                return 0
            return choices.index(VOICE.seat_word.format(number=ahead_picks.pop(0)))

        phones = {seat: SocketPhone(server, seat, opened, seer_pick if seat == seer else (lambda view: 0))
                  for seat in seats}
        end = time.monotonic() + 10
        while server.connected() != set(seats):
            assert time.monotonic() < end
            time.sleep(0.02)
        device: PhoneAnswers | None = None
        keys = PushbackKeys(GatedKeys(keys_planned, lambda: device is not None and device.waiting))
        device = PhoneAnswers(server, keys, VOICE)
        table = TableIO(keys, PlainScreen(io.StringIO()), speaker or Recorder(), devices=(device,), phones=True,
                        card_shown=lambda seat, role: server.show_card(seat, VOICE.role(role)),
                        cards_known=lambda roles: [server.show_card(seat, VOICE.role(role))
                                                   for seat, role in enumerate(roles, start=1)])
        game = play(config, table, seed=seed, start=NewGame(tmp_path), timing=Timing(sleep=lambda s: None),
                    out=io.StringIO())
    finally:
        server.stop()
    for held in phones.values():
        held.thread.join(timeout=5)
    return game, ahead, phones


SEED = 11


def same_bytes(one: dict[int, str], other: dict[int, str]) -> bool:
    """Returns whether two twins' phones were sent the same frames: every version both saw is the same bytes, and
    both ended at the same version (a frame's bytes are its view's version and its view)."""
    common = set(one) & set(other)
    return bool(common) and max(one) == max(other) and all(one[v] == other[v] for v in common)


def test_a_whole_game_answered_on_every_seats_phone_and_no_phone_gets_another_seats_card(
        tmp_path: Path, opened: contextlib.ExitStack) -> None:
    """Eight phones: every night call the phones take (the pack, the Seer, the Witch's potions, Cupid's lovers, the
    lovers) and every day's ballots are answered on them; the game ends as planned. Every frame is of the table's size, and
    no phone ever receives another seat's card (but the Seer's look at it)."""
    config = STARTER
    game, ahead, phones = run(tmp_path, opened, config, SEED, range(1, config.table.seats + 1))
    assert game.outcome == ahead.outcome and game.eliminated == ahead.eliminated
    roles = deal_cards(config.table, SEED).roles
    kinds = set()
    for seat, held in phones.items():
        assert {len(frame.encode()) for frame in held.frames} == {frame_size(config.table.seats, VOICE)}
        own = VOICE.role(roles[seat - 1])
        others = {VOICE.role(role) for s, role in enumerate(roles, 1) if s != seat} - {own}
        for frame in held.shown():
            shown = json.loads(frame)["view"]
            kinds.add((shown["kind"], "steps" in shown, bool(shown.get("ok"))))
            looked = roles[seat - 1] == "seer" and shown["kind"] == "told"
            assert looked or not any(name in frame for name in others), (seat, shown)
    assert {("ask", True, False), ("ask", False, False), ("told", False, True)} <= kinds  # steps, OKs given
    witch = roles.index("witch") + 1
    asked = [json.loads(f)["view"] for f in phones[witch].shown() if '"kind":"ask"' in f]
    assert any("steps" in view and view["shown"] for view in asked)  # her potions in steps, under her victim


@pytest.mark.parametrize("phones", [True, False])
def test_with_ballots_on_the_phones_nobody_is_told_to_point_on_a_signal(
        tmp_path: Path, opened: contextlib.ExitStack, phones: bool) -> None:
    """The vote with the voters' phones connected asks for secret ballots on them, without the signal everyone
    points at ("Three, two, one: point!"); the election, after its own line, says how to vote. Without a phone
    connected, the vote is called as at any table."""
    speaker = Recorder()
    seats = range(1, STARTER.table.seats + 1) if phones else ()
    game, ahead, _ = run(tmp_path, opened, STARTER, 38, seats, speaker=speaker)  # two days' votes
    assert game.outcome == ahead.outcome
    said = [line for line in speaker.said]
    ballots = [VOICE.spoken(VOICE.text(key, {})) for key in ("vote.call_ballots", "notice.ballots")]
    pointing = [VOICE.spoken(VOICE.text(key, {})) for key in ("vote.call", "vote.signal")]
    assert said.count(ballots[0]) == (2 if phones else 0) and said.count(ballots[1]) == (1 if phones else 0)
    assert said.count(pointing[0]) == said.count(pointing[1]) == (0 if phones else 2)
    election = VOICE.spoken(VOICE.text("sheriff_election.call", {}))
    assert not phones or said[said.index(election) + 1] == ballots[1]
    # At a table with phones, whoever holds one: the lovers come to the screen or look at their phone.
    lovers = [VOICE.spoken(VOICE.text(key, {})) for key in ("lovers.wake_phones", "lovers.wake")]
    assert (said.count(lovers[0]), said.count(lovers[1])) == (1, 0)
    journal, = tmp_path.glob("*.jsonl")
    cast = [json.loads(line)["answer"] for line in journal.read_text(encoding="utf-8").splitlines()
            if json.loads(line).get("call") in ("vote", "sheriff_election")]
    assert len(cast) == 3 and all(isinstance(answer, dict) == phones for answer in cast)  # else: the result typed
    assert not phones or all(answer["secret"] == sorted(int(voter) for voter in answer["ballots"]) for answer in cast)


def test_twins_a_seer_who_looks_at_a_werewolf_or_not_send_every_sleeping_phone_the_same_bytes(
        tmp_path: Path, opened: contextlib.ExitStack) -> None:
    """Two games that differ only in whom the Seer's phone looks at on the first night (a werewolf, or not): every
    frame of every phone is of the table's size on the clock, and the other phones (asleep at her call) are shown the same
    frames, byte for byte, in both."""
    config = STARTER
    roles = deal_cards(config.table, SEED).roles
    seer = roles.index("seer") + 1
    sleepers = [seat for seat, role in enumerate(roles, 1) if role in ("villager", "hunter")]

    def looks_at(wolf: bool) -> Callable[[Game, Call], int]:
        def pick(game: Game, call: Call) -> int:
            if call.number > 1:
                return next(s for s in call.seats if legal_in(game)(s))
            return next(s for s in call.seats if (roles[s - 1] == "werewolf") == wolf and legal_in(game)(s))
        return pick

    twins = []
    for wolf in (True, False):
        where = tmp_path / str(wolf)
        where.mkdir()
        game, ahead, phones = run(where, opened, config, SEED, [seer, *sleepers], looks_at(wolf))
        assert game.eliminated == ahead.eliminated
        twins.append(phones)
    looked = [[json.loads(f)["view"] for f in twin[seer].shown() if '"ok":' in f and '"kind":"told"' in f]
              for twin in twins]
    assert looked[0] and looked[1] and looked[0][0] != looked[1][0]  # the secret differs on her phone alone
    for seat in sleepers:
        assert same_bytes(twins[0][seat].versions(), twins[1][seat].versions()), seat
        assert {len(f.encode()) for twin in twins for f in twin[seat].frames} == {frame_size(8, VOICE)}


def test_a_phone_is_offered_exactly_the_answers_the_engine_takes_at_every_call_it_answers() -> None:
    """At each call of a game played ahead that the phones answer, what a phone offers (its paths, its sets of
    seats) is the engine's legal answers, no more and no fewer: the check before the read-back, as the keypad's."""
    config = STARTER
    game = Game(config.table, deal_cards(config.table, SEED))
    device = PhoneAnswers(_Connected(set(range(1, 9))), PushbackKeys(ScriptedKeys([])), VOICE)
    rng = random.Random(SEED)
    seen = set()
    while not game.over:
        call = game.call
        assert call is not None
        if call.live and wakes(call) and call.kind in KINDS:
            form = device.build(call, legal_in(game))
            assert form is not None, call.id
            offered = sorted(json.dumps(v, sort_keys=True) for v in form.values)
            assert offered == sorted(json.dumps(v, sort_keys=True) for v in game.legal()), call.id
            assert len(form.said) == len(form.values) and all(form.said)
            seen.add(call.kind)
        game.answer(rng.choice(game.legal()) if call.needs_answer else None)
    assert {"seat", "seats", "witch", "none"} <= seen


class FakePhones:
    """The phones' server as the device sees it: what it was told to show, and answers put in its queue."""

    def __init__(self, seats: set[int]) -> None:
        import queue

        self.seats = frozenset(seats)
        self.answers: queue.Queue[tuple[int, object]] = queue.Queue()
        self.told: list[tuple[str, tuple[object, ...]]] = []
        self.pending: list[tuple[int, object]] = []  # answered once asked

    def connected(self) -> frozenset[int]:
        return self.seats

    def reachable(self) -> frozenset[int]:
        return self.seats

    def wake(self, seats: Sequence[int], prompt: str, choices: Sequence[tuple[object, str]],
             shown: Sequence[str] = ()) -> int:
        self.told.append(("wake", (tuple(seats), prompt)))
        return 1

    def ask(self, asked: dict[int, tuple[Callable[[int], dict[str, object]], Sequence[object]]]) -> int:
        self.told.append(("ask", tuple((seat, make(1), tuple(values)) for seat, (make, values) in asked.items())))
        for said in self.pending:
            self.answers.put(said)
        return 1

    def result(self, seats: Sequence[int], title: str, text: str = "", shown: Sequence[str] = (),
               ok: bool = False) -> int:
        self.told.append(("result", (tuple(seats), title, text, tuple(shown), ok)))
        return 1

    def sleep(self) -> None:
        self.told.append(("sleep", ()))


def test_a_key_hands_a_call_a_result_and_the_ballots_left_to_the_keypad() -> None:
    """A key pressed while a phone is awaited is pushed back for the keypad: the awake phones say to answer on the
    keypad; a secret result's OK on a phone stands for Enter, a key for none; the ballots cast before a key are kept."""
    from narrator.phones.server import OK

    game = Game(STARTER.table, deal_cards(STARTER.table, SEED))
    while game.call is not None and game.call.id != "seer":
        game.answer(random.Random(1).choice(game.legal()) if game.call.needs_answer else None)
    call = game.call
    assert call is not None
    phones = FakePhones({call.actors[0]})
    keys = PushbackKeys(ScriptedKeys(["5"]))
    device = PhoneAnswers(phones, keys, VOICE)
    device.opened(call, legal_in(game))
    assert device.takes(call) and phones.told[-1][0] == "ask"
    from narrator.asking import KEYPAD

    assert device.answer(call, legal_in(game)) is KEYPAD and keys.read(timeout=1) == "5"
    assert phones.told[-1][0] == "result" and VOICE.text("phone.keypad", {}) in phones.told[-1][1]
    step = game.answer(next(s for s in call.seats if legal_in(game)(s)))
    device.answered(call, step)
    assert phones.told[-1][1][4] is True  # the look waits for an OK
    phones.answers.put((call.actors[0], OK))
    assert device.acknowledged() and phones.told[-1][0] == "sleep"
    device.answered(call, step)
    keys.unread("enter")
    assert not device.acknowledged() and keys.read(timeout=1) == "enter"  # the keypad's Enter acknowledges it
    rng = random.Random(2)
    while game.call is not None and game.call.kind is not Kind.VOTE:
        game.answer(rng.choice(game.legal()) if game.call.needs_answer else None)
    vote = game.call
    assert vote is not None
    voters = votes.voters(game)
    phones = FakePhones(set(voters[:2]))
    keys = PushbackKeys(ScriptedKeys(["rollcall"]))
    device = PhoneAnswers(phones, keys, VOICE)
    told: list[bool] = []
    phones.pending.append((voters[0], None))  # cast once asked; the other phone's voter has not voted yet
    assert device.ballots(vote, voters, legal_in(game), lambda: told.append(True)) == {voters[0]: None}
    assert told and keys.read(timeout=1) == "rollcall" and phones.told[-1][0] == "sleep"
    asked = dict((seat, values) for seat, _, values in phones.told[0][1])  # type: ignore[misc]
    assert set(asked) == set(voters) and all(None in values for values in asked.values())


def test_the_keypads_enter_takes_a_secret_result_off_the_awake_phone_as_its_ok_does(
        opened: contextlib.ExitStack) -> None:
    """The Seer's look waits on her phone with an OK; the host's Enter on the keypad acknowledges it instead: her
    phone goes back to its dark page at once, as after her OK, not at the next call (its OK would stand meanwhile)."""
    from narrator.asking import KeypadAnswers

    game = Game(STARTER.table, deal_cards(STARTER.table, SEED))
    rng = random.Random(1)
    while game.call is not None and game.call.id != "seer":
        game.answer(rng.choice(game.legal()) if game.call.needs_answer else None)
    call = game.call
    assert call is not None
    seer = call.actors[0]
    server = PhoneServer(STARTER.table.seats, TEXTS, bind="127.0.0.1", tick=TICK).start()
    try:
        held = SocketPhone(server, seer, opened, ok=False)
        until(lambda: held.now().get("kind") == "sleep", "her phone's dark page")
        keys = PushbackKeys(ScriptedKeys(["enter"]))
        device = PhoneAnswers(server, keys, VOICE)
        answers = KeypadAnswers(keys, PlainScreen(io.StringIO()), VOICE, lambda key, values: None, lambda: None,
                                devices=(device,))
        device.answered(call, game.answer(next(s for s in call.seats if legal_in(game)(s))))
        until(lambda: held.now().get("kind") == "told" and bool(held.now().get("ok")), "her look with its OK")
        answers.acknowledge()  # the keypad's Enter, her OK not given
        assert keys.read(timeout=0) is None  # the Enter was the acknowledgment's
        until(lambda: held.now().get("kind") == "sleep", "her phone's dark page again",
              lambda: f"(it shows {held.now()})")
    finally:
        server.stop()


def test_the_thiefs_phone_holds_the_card_he_took_and_so_does_it_when_the_game_goes_on(
        tmp_path: Path, opened: contextlib.ExitStack) -> None:
    """The card button shows the card as the game has it now: the Thief who took a centre card holds it on his
    phone from the end of his call (the dark page of every other phone unchanged by it)."""
    table = Table(8, ("thief", "werewolf", "werewolf", "seer", "witch", "villager", "villager", "villager",
                      "villager", "villager"), Rules(sheriff=False))
    config = TableConfig("en", table, pause=(0.0, 0.0), call_floor=0.0)
    for seed in range(40):
        deal = deal_cards(table, seed)
        if {"thief", "seer"} <= set(deal.roles) and "werewolf" not in deal.centre and set(deal.centre) != {"villager"}:
            break  # he takes the first centre card offered: one other than a villager's (seen on his phone)
    game, _, phones = run(tmp_path, opened, config, seed, range(1, 9))
    thief = deal.roles.index("thief") + 1
    journal, = tmp_path.glob("*.jsonl")
    taken = next(json.loads(line)["answer"] for line in journal.read_text(encoding="utf-8").splitlines()
                 if json.loads(line).get("call") == "thief")
    assert taken in (1, 2)
    held = [json.loads(frame)["view"].get("card") for frame in phones[thief].shown()
            if json.loads(frame)["view"]["kind"] == "sleep"]
    assert held[-1] == VOICE.role(deal.centre[taken - 1]) != VOICE.role("thief")
