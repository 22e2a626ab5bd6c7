"""Twins on the wire (issue 34): two games that differ only in a secret, played with a socket phone on every seat,
send every seat that does not hold the secret the same frames, byte for byte, asleep and awake; the seats that hold
it get the same asked views but for what their own secret moves. A view carries nothing but its own seat's public
and private history: its call numbers count that seat's own questions and results, never another seat's calls."""

from __future__ import annotations

import contextlib
import io
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping

import pytest

pytest.importorskip("websockets", reason="the [phones] extra (scripts/setup.sh installs it)")

from engine import Answer, Call, Deal, Game, Phase, Rules, Table, votes  # noqa: E402
from keystrokes import Recorder, ScriptedKeys, after_on_phones, keys_for, legal_in  # noqa: E402
from narrator.config import TableConfig  # noqa: E402
from narrator.hearing import PushbackKeys  # noqa: E402
from narrator.narration import wakes  # noqa: E402
from narrator.phones.device import BALLOTS, KINDS, PhoneAnswers  # noqa: E402
from narrator.phones.server import PhoneServer  # noqa: E402
from narrator.play import NewGame, Timing, play  # noqa: E402
from narrator.screen import PlainScreen  # noqa: E402
from narrator.table import TableIO  # noqa: E402
from test_phones_game import TEXTS, TICK, VOICE, GatedKeys, SocketPhone, _Connected, same_bytes, until  # noqa: E402
from twins import HARMLESS  # noqa: E402

NAMES = ("Ann", "Bob", "Ben", "Cat", "Dan", "Eve", "Jack", "Liz")
"""Ben is seat 3, Jack seat 7 (the issue's Witch pair)."""

TABLE = Table(8, ("werewolf", "werewolf", "seer", "witch", "villager", "villager", "villager", "villager"),
              Rules(sheriff=False, reveal_roles=False))
"""Cards not revealed: who died stays a secret (revealed, it would be public, not a leak)."""

CONFIG = TableConfig("en", TABLE, names=NAMES, pause=(0.0, 0.0), call_floor=0.0)

WITCH_DEAL = ("werewolf", "werewolf", "villager", "witch", "seer", "villager", "villager", "villager")
SEER_AT_1 = ("seer", "werewolf", "werewolf", "witch", "villager", "villager", "villager", "villager")
SEER_AT_8 = ("villager", "werewolf", "werewolf", "witch", "villager", "villager", "villager", "seer")


@dataclass(frozen=True)
class WireTwin:
    """One game of a pair: the deal (``roles``), the night answers by (call id, number) (the others harmless),
    the day's ballots by day and voter (the others nobody), the day whose vote's tally it stops at (the host's
    Enter that confirms it: the keys run out), and the call taken over on the keypad (its phones never answer)."""

    roles: tuple[str, ...]
    answers: Mapping[tuple[str, int], Answer] = field(default_factory=dict)
    ballots: Mapping[int, Mapping[int, int | None]] = field(default_factory=dict)
    horizon: int = 1
    keypad: tuple[str, int] | None = None

    def answer(self, call: Call, game: Game) -> Answer:
        if call.kind in BALLOTS:
            day = self.ballots.get(call.number, {})
            return {"ballots": {voter: day.get(voter) for voter in votes.voters(game)}}
        if not call.needs_answer:
            return None
        if (call.id, call.number) in self.answers:
            return self.answers[call.id, call.number]
        if call.id in HARMLESS:
            return HARMLESS[call.id]
        return None if call.optional else game.legal()[0]


def plan(twin: WireTwin) -> tuple[list[str], dict[tuple[str, int], Answer]]:
    """Plays ``twin`` ahead with the engine: the keys the host presses (the calls the phones do not answer, the
    take-over's, the tallies confirmed) and every call's answer."""
    game = Game(TABLE, Deal(twin.roles))
    every = frozenset(range(1, TABLE.seats + 1))
    device = PhoneAnswers(_Connected(set(every)), PushbackKeys(ScriptedKeys([])), VOICE, NAMES)
    keys: list[str] = []
    answered: dict[tuple[str, int], Answer] = {}
    while True:
        call = game.call
        assert call is not None, "the game ended before its horizon"
        if call.phase is Phase.DAY and call.kind in BALLOTS and call.number == twin.horizon:
            return keys, answered
        value = twin.answer(call, game)
        answered[call.id, call.number] = value
        woken = call.live and wakes(call) and bool(call.actors) and call.kind in KINDS
        on_phone = woken and device.build(call, legal_in(game)) is not None
        if call.live and call.kind in BALLOTS:
            keys.append("enter")  # the host confirms the tally of the ballots cast on the phones
        elif not on_phone or (call.id, call.number) == twin.keypad:
            keys += keys_for(call, value)
        keys += after_on_phones(game.answer(value), on_phone)


class Steered(PhoneAnswers):
    """The table's phones' device, remembering the call it opened (for the test's phones to answer it)."""

    current: Call | None = None

    def opened(self, call: Call, legal: Callable[[Answer], bool]) -> None:
        self.current = call
        super().opened(call, legal)

    def ballots(self, call: Call, voters: Any, legal: Callable[[Answer], bool],
                waiting: Callable[[], None] = lambda: None) -> dict[int, int | None]:
        self.current = call
        return super().ballots(call, voters, legal, waiting)


@pytest.fixture
def opened() -> Iterator[contextlib.ExitStack]:
    with contextlib.ExitStack() as stack:
        yield stack


def run(tmp_path: Path, opened: contextlib.ExitStack, twin: WireTwin) -> dict[int, SocketPhone]:
    """Plays ``twin`` with a socket phone on every seat until its horizon; returns the phones."""
    keys_planned, answered = plan(twin)
    server = PhoneServer(TABLE.seats, TEXTS, bind="127.0.0.1", tick=TICK).start()
    device: Steered | None = None

    def pick(seat: int) -> Callable[[dict[str, object]], int]:
        def chosen(view: dict[str, object]) -> int:
            call = device.current if device is not None else None
            if call is None or (call.id, call.number) == twin.keypad:
                return -1  # no answer: the keypad takes the call over
            choices, form = view["choices"], device.form
            assert isinstance(choices, list)
            try:
                if call.kind in BALLOTS:
                    ballot = twin.ballots.get(call.number, {}).get(seat)
                    return choices.index(device.seat(ballot) if ballot else device.text("phone.none"))
                return form.values.index(answered[call.id, call.number]) if form is not None else -1
            except (KeyError, ValueError):
                return -1  # the game moved on meanwhile (a pack-mate answered): this view is gone
        return chosen

    try:
        phones = {seat: SocketPhone(server, seat, opened, pick(seat)) for seat in range(1, TABLE.seats + 1)}
        until(lambda: server.connected() == set(phones), "every phone connected")

        def taking_over() -> bool:
            """The call the keypad takes over, once it is shown on its awake phones."""
            call = device.current if device is not None else None
            return call is not None and (call.id, call.number) == twin.keypad and all(
                phones[seat].now().get("kind") == "ask" for seat in call.actors)

        keys = PushbackKeys(GatedKeys(keys_planned, lambda: device is not None and device.waiting
                                      and not taking_over()))
        device = Steered(server, keys, VOICE, NAMES)
        table = TableIO(keys, PlainScreen(io.StringIO()), Recorder(), devices=(device,), phones=True,
                        cards_known=lambda roles: [server.show_card(seat, VOICE.role(role))
                                                   for seat, role in enumerate(roles, start=1)])
        with pytest.raises(EOFError):  # the keys run out at the horizon's tally
            play(CONFIG, table, start=NewGame(tmp_path, deal=Deal(twin.roles)), timing=Timing(sleep=lambda s: None),
                 out=io.StringIO())
    finally:
        server.stop()
    for phone in phones.values():
        phone.thread.join(timeout=5)
    return phones


def played(tmp_path: Path, opened: contextlib.ExitStack, *pair: WireTwin) -> list[dict[int, SocketPhone]]:
    twins = []
    for number, twin in enumerate(pair):
        where = tmp_path / str(number)
        where.mkdir()
        twins.append(run(where, opened, twin))
    return twins


def asked(phone: SocketPhone) -> list[dict[str, Any]]:
    """Returns the questions a phone was shown, in order, each once."""
    return [json.loads(frame)["view"] for frame in phone.shown() if json.loads(frame)["view"]["kind"] == "ask"]


def compared(twins: list[dict[int, SocketPhone]], seats: range | list[int]) -> int:
    """Asserts that ``seats``' phones were sent the same frames in both twins; returns how many were compared."""
    for seat in seats:
        one, other = twins[0][seat].versions(), twins[1][seat].versions()
        assert same_bytes(one, other), (seat, first_apart(one, other))
    return sum(len(twin[seat].frames) for twin in twins for seat in seats)


def first_apart(one: dict[int, str], other: dict[int, str]) -> dict[str, object]:
    """Returns what differs in the first version two twins' phones were sent apart: each field, and the seq."""
    for version in sorted(set(one) & set(other)):
        if one[version] != other[version]:
            a, b = (json.loads(frames[version]) for frames in (one, other))
            return {"seq": version, **{key: (a["view"].get(key), b["view"].get(key)) for key in {*a["view"], *b["view"]}
                                       if a["view"].get(key) != b["view"].get(key)}}
    return {"last versions": (max(one), max(other))}


def test_twins_a_witch_who_saves_jack_and_poisons_ben_or_does_nothing_send_every_voter_the_same_day_2_ballot(
        tmp_path: Path, opened: contextlib.ExitStack) -> None:
    """The Witch heals the pack's victim Jack (seat 7) and poisons Ben (seat 3), or does nothing and the pack
    devours Ben: the same death, her potions spent or not. Every seat but hers and the pack's is sent the same
    frames; the pack (who chose Jack or Ben) and every voter get the same day-2 ballot, byte for byte, and hers
    differs in nothing but her own call count (she was not woken on night 2 without potions)."""
    shared = {("seer", 1): 6, ("seer", 2): 8, ("werewolves", 2): 8}
    spent = WireTwin(WITCH_DEAL, {**shared, ("werewolves", 1): 7, ("witch", 1): {"heal": True, "poison": 3}},
                     horizon=2)
    kept = WireTwin(WITCH_DEAL, {**shared, ("werewolves", 1): 3}, horizon=2)
    twins = played(tmp_path, opened, spent, kept)
    wolves, witch = [1, 2], 4
    others = [seat for seat in range(1, 9) if seat not in (*wolves, witch)]
    frames = compared(twins, others)
    voters = [1, 2, 4, 5, 6, 7]  # Ben died on night 1, Liz on night 2
    ballots = [[asked(twin[seat])[-1] for seat in voters] for twin in twins]
    assert all(b["title"] == VOICE.text("phone.ballot", {}) for b in ballots[0] + ballots[1])
    living = ballots[0][0]["choices"]
    assert VOICE.seat_named.format(name="Jack", number=7) in living  # saved
    assert VOICE.seat_named.format(name="Ben", number=3) not in living  # poisoned, or devoured
    for seat in wolves:
        assert twins[0][seat].shown()[-2:] == twins[1][seat].shown()[-2:], seat  # the ballot, then the dark page
    mine = voters.index(witch)
    hers = [{k: v for k, v in twin[mine].items() if k != "call"} for twin in ballots]
    assert hers[0] == hers[1] and ballots[0][mine]["call"] != ballots[1][mine]["call"]  # she counts her own calls
    assert [b for v, b in zip(voters, ballots[0]) if v != witch] == [b for v, b in zip(voters, ballots[1]) if v != witch]
    assert not same_bytes(twins[0][witch].versions(), twins[1][witch].versions())  # the secret is hers
    print(f"frames compared: {frames}")


def test_twins_a_fortune_teller_at_seat_1_voted_out_or_at_seat_8_send_the_pack_the_same_night_2_question(
        tmp_path: Path, opened: contextlib.ExitStack) -> None:
    """Cards not revealed: the Fortune Teller is seat 1 or seat 8, seat 1 voted out on day 1. On night 2 her call
    is made for the dead or for the living: every seat but 1 and 8 is sent the same frames, the werewolves' own
    night-2 question among them, byte for byte."""
    answers = {("seer", 1): 5, ("seer", 2): 7, ("werewolves", 1): 6, ("werewolves", 2): 5}
    day_1 = {voter: 1 for voter in range(2, 9)}
    twins = played(tmp_path, opened, *(WireTwin(roles, answers, {1: day_1}, horizon=2)
                                       for roles in (SEER_AT_1, SEER_AT_8)))
    frames = compared(twins, range(2, 8))
    pack = [asked(twin[2]) for twin in twins]
    title = VOICE.text("werewolves.wake", {})
    assert [v for v in pack[0] if v["title"] == title][-1] == [v for v in pack[1] if v["title"] == title][-1]
    assert len([v for v in pack[0] if v["title"] == title]) == 2  # night 1 and night 2
    looks = [[v for v in asked(twin[8]) if v["title"] != VOICE.text("phone.ballot", {})] for twin in twins]
    assert not looks[0] and looks[1]  # the secret: seat 8's phone was woken on the night the other slept
    print(f"frames compared: {frames}")


def test_twins_a_packs_call_taken_over_on_the_keypad_or_answered_on_a_phone_send_every_other_seat_the_same_frames(
        tmp_path: Path, opened: contextlib.ExitStack) -> None:
    """The werewolves' night-1 call, asked on their phones, answered there or taken over on the keypad (the pack's
    phones say so): the Witch, woken next, and every seat but the pack's are sent the same frames."""
    answers = {("seer", 1): 6, ("werewolves", 1): 3}
    on_phone = WireTwin(WITCH_DEAL, answers)
    on_keypad = WireTwin(WITCH_DEAL, answers, keypad=("werewolves", 1))
    twins = played(tmp_path, opened, on_phone, on_keypad)
    frames = compared(twins, range(3, 9))
    # The pack's phones were asked, then said the keypad answers: one view more (the keypad's answer came at once,
    # before a tick could send that view).
    assert all(asked(twin[1])[0]["title"] == VOICE.text("werewolves.wake", {}) for twin in twins)
    assert max(twins[1][1].versions()) == max(twins[0][1].versions()) + 1
    assert any(v["steps"] for v in asked(twins[0][4]) if "steps" in v)  # the Witch was woken after the pack
    print(f"frames compared: {frames}")
