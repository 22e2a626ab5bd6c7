"""The phones' server without a browser (narrator/phones): links, refusals, take-over, one view a seat, frames of one
size for every phone on the clock, answers only to the running call. Everything on 127.0.0.1."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import re
import stat
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Callable, Iterator

import pytest

pytest.importorskip("websockets", reason="the [phones] extra (scripts/setup.sh installs it)")

from rawphones import serving  # noqa: E402
from websockets.sync.client import ClientConnection, connect  # noqa: E402

from narrator.phones import views  # noqa: E402
from narrator.phones.server import PhoneServer  # noqa: E402
from narrator.voices import load_voice  # noqa: E402

TICK = 0.05
"""The tests' clock of frames: fast, the rule the same."""

TEXTS = {key: text for key, text in load_voice("en").lines.items() if key.startswith("phone.")}


@pytest.fixture
def server() -> Iterator[PhoneServer]:
    with serving(5, TICK) as phones:
        yield phones


@pytest.fixture
def opened() -> Iterator[contextlib.ExitStack]:
    """Where the tests open phones' sockets: all closed at the end."""
    with contextlib.ExitStack() as stack:
        yield stack


def get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def phone(server: PhoneServer, seat: int, opened: contextlib.ExitStack) -> ClientConnection:
    """Opens ``seat``'s socket as its page does."""
    url = server.link(seat).replace("http://", "ws://").replace("/p/", "/ws/")
    return opened.enter_context(connect(url, open_timeout=5))


def view(socket: ClientConnection) -> tuple[int, dict[str, object], int]:
    """Returns the next frame's version, view and size in bytes."""
    frame = socket.recv(timeout=5)
    assert isinstance(frame, str)
    read = json.loads(frame)
    return read["seq"], read["view"], len(frame.encode())


def until(socket: ClientConnection, kind: str) -> dict[str, object]:
    """Returns the first view of ``kind`` the phone is sent (the frames before it are its view again)."""
    while True:
        shown = view(socket)[1]
        if shown["kind"] == kind:
            return shown


def wait_until(condition: Callable[[], bool], seconds: float = 10) -> None:
    """Waits for ``condition``, checking it every 50 ms: never a fixed sleep."""
    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end, "waited too long"
        time.sleep(0.05)


def tick(socket: ClientConnection, said: dict[str, object]) -> None:
    text = json.dumps(said)
    socket.send(text + " " * (views.UP_FRAME - len(text)))


def test_each_seat_has_a_link_of_its_own_with_at_least_128_random_bits(server: PhoneServer) -> None:
    tokens = [server.link(seat).rsplit("/", 1)[1] for seat in range(1, 6)]
    assert len(set(tokens)) == 5
    assert all(len(token) * 6 >= 128 and server.link(1).startswith("http://127.0.0.1:") for token in tokens)
    status, page = get(server.link(3))
    assert status == 200 and b'lang="en"' in page and b"/phone.js" in page and tokens[2].encode() not in page


def test_every_wrong_token_gets_the_same_plain_refusal(server: PhoneServer) -> None:
    good = server.link(2)
    altered = good[:-1] + ("A" if good[-1] != "A" else "B")
    refusals = {get(url) for url in (altered, good.rsplit("/", 1)[0] + "/x", good + "x",
                                     good.replace("/p/", "/ws/")[:-3], good.rsplit("/", 2)[0] + "/nothing")}
    assert refusals == {(404, b"This link opens nothing.\n")}


def test_the_page_and_its_assets_are_served_by_us_alone(server: PhoneServer) -> None:
    elsewhere = re.compile(rb"https?://|(src|href)=\"?//|url\(|@import|@font-face")
    _, page = get(server.link(1))
    assert not elsewhere.search(page)
    for asset in ("/phone.js", "/phone.css"):
        status, body = get(f"http://127.0.0.1:{server.port}{asset}")
        assert status == 200 and not elsewhere.search(body)
    assert b"vibrate" not in get(f"http://127.0.0.1:{server.port}/phone.js")[1]


def test_phone_links_are_written_for_the_owner_alone(server: PhoneServer, tmp_path: Path) -> None:
    path = tmp_path / "links.yaml"
    path.write_text("old")
    os.chmod(path, 0o644)
    server.write_links(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert path.read_text().splitlines() == [f"{seat}: {server.link(seat)}" for seat in range(1, 6)]


def test_a_second_device_takes_the_seat_over_and_the_first_is_told(server: PhoneServer, opened: contextlib.ExitStack) -> None:
    first = phone(server, 4, opened)
    assert view(first)[1]["kind"] == "sleep"
    second = phone(server, 4, opened)
    assert until(first, "taken") == {"kind": "taken"} and view(second)[1]["kind"] == "sleep"
    server.wake([4], "Choose", [(1, "Seat 1")])
    assert until(second, "ask")["choices"] == ["Seat 1"]


def test_during_the_deal_every_phone_says_whether_its_card_came_and_sleeps_from_the_first_call(
        server: PhoneServer, opened: contextlib.ExitStack) -> None:
    """Before the first call nobody's eyes are closed: each phone's view is the deal's (its card come or to come),
    the same for every seat in the same state but for its card; the first call turns every one at once into the
    night's dark page, its card kept."""
    phones = {seat: phone(server, seat, opened) for seat in (1, 2, 3)}
    assert {seat: view(socket)[1] for seat, socket in phones.items()} == {seat: views.dealing() for seat in phones}
    server.show_card(1, "Seer")
    server.show_card(2, "Werewolf")
    dealt = {seat: until_view(socket, lambda shown: shown.get("card") != "") for seat, socket in phones.items()
             if seat != 3}
    assert dealt == {1: views.dealing("Seer"), 2: views.dealing("Werewolf")}
    assert {k: v for k, v in dealt[1].items() if k != "card"} == {k: v for k, v in dealt[2].items() if k != "card"}
    server.sleep()  # the first call: nobody awake at it
    night = {seat: until_view(socket, lambda shown: "deal" not in shown) for seat, socket in phones.items()}
    assert night == {1: views.sleeping("Seer"), 2: views.sleeping("Werewolf"), 3: views.sleeping()}


def until_view(socket: ClientConnection, condition: Callable[[dict[str, object]], bool]) -> dict[str, object]:
    """Returns the first view the phone is sent that meets ``condition`` (the frames before it are its view again)."""
    while True:
        shown = view(socket)[1]
        if condition(shown):
            return shown


def changes(frames: list[tuple[int, dict[str, object], int]]) -> list[dict[str, object]]:
    """Returns the views a phone was shown, each once (the clock sends a view again until it changes)."""
    shown: list[dict[str, object]] = []
    for _, seen, _ in frames:
        if not shown or shown[-1] != seen:
            shown.append(seen)
    return shown


def test_every_phone_gets_a_frame_of_one_size_on_the_clock_and_only_its_own_view(server: PhoneServer, opened: contextlib.ExitStack) -> None:
    phones = {seat: phone(server, seat, opened) for seat in (1, 2, 3)}
    for socket in phones.values():
        view(socket)
    server.show_card(1, "Seer")
    server.show_card(2, "Werewolf")
    server.sleep()  # the night falls: every phone's deal page turns into the night's, once
    night = until_view(phones[3], lambda shown: "deal" not in shown)
    server.wake([2], "Werewolves, choose your victim", [(1, "Seat 1"), (3, "Seat 3"), (None, "Nobody")])
    until(phones[2], "ask")
    server.result([2], "Answer confirmed")
    until(phones[2], "told")
    server.sleep()
    seen = {seat: [view(socket) for _ in range(8)] for seat, socket in phones.items()}
    assert {size for frames in seen.values() for _, _, size in frames} == {server.frame}
    assert changes(seen[2])[-1]["kind"] == "sleep"
    # Changed once, from the deal's page to the night's at the first call, as every phone; never since.
    assert changes(seen[3]) == [night] == [views.sleeping()] and {v for v, _, _ in seen[3]} == {1}
    assert all("Werewolf" not in json.dumps(v) for _, v, _ in seen[1] + seen[3])
    assert all("Seer" not in json.dumps(v) for _, v, _ in seen[2] + seen[3])


def test_an_answer_is_taken_once_and_only_for_the_running_call_of_its_own_seat(server: PhoneServer, opened: contextlib.ExitStack) -> None:
    wolf, other = phone(server, 2, opened), phone(server, 3, opened)
    view(wolf), view(other)
    older = server.wake([2], "Choose", [(1, "Seat 1")])[2]
    call = server.wake([2], "Choose", [(1, "Seat 1"), (3, "Seat 3")])[2]
    until_view(wolf, lambda shown: shown.get("choices") == ["Seat 1", "Seat 3"])
    tick(other, {"call": call, "choice": 0})  # not asked
    tick(wolf, {"call": older, "choice": 0})  # an older call
    tick(wolf, {"call": call, "choice": 9})  # no such choice
    wolf.send(json.dumps({"call": call, "choice": 0}))  # not a tick's size
    tick(wolf, {"call": call, "choice": 1})
    tick(wolf, {"call": call, "choice": 1})  # replayed
    assert server.answers.get(timeout=5) == (2, 3)
    tick(wolf, {})
    with pytest.raises(queue.Empty):
        server.answers.get(timeout=0.5)


def test_a_calls_number_on_a_phone_counts_its_own_seats_questions_and_results_alone(
        server: PhoneServer, opened: contextlib.ExitStack) -> None:
    """However many calls woke the other seats, a seat's next question is numbered by its own: the number tells it
    nothing of how many calls the others were woken for (a Witch's potions, a dead Fortune Teller's call); a result
    waiting for its OK takes its seat's next number, and an OK is taken for that number only."""
    from narrator.phones.server import OK

    sleeper = phone(server, 3, opened)
    assert server.wake([2], "Choose", [(1, "Seat 1")]) == {2: 1}
    assert server.result([2], "Answer confirmed") == {2: 2}
    assert server.wake([2, 4], "Choose", [(1, "Seat 1")]) == {2: 3, 4: 1}
    assert server.wake([3], "Choose", [(1, "Seat 1")]) == {3: 1}
    assert until_view(sleeper, lambda shown: shown["kind"] == "ask")["call"] == 1
    assert server.result([3, 2], "Seat 1 is a Villager.", ok=True) == {2: 4, 3: 2}
    assert until_view(sleeper, lambda shown: shown["kind"] == "told")["ok"] == 2
    tick(sleeper, {"call": 4, "ok": 1})  # seat 2's number: not this seat's result
    tick(sleeper, {"call": 2, "ok": 1})
    assert server.answers.get(timeout=5) == (3, OK)
    with pytest.raises(queue.Empty):
        server.answers.get(timeout=0.3)


def test_a_phone_back_gets_its_view_again_and_a_stopped_game_opens_nothing(opened: contextlib.ExitStack) -> None:
    server = PhoneServer(3, TEXTS, bind="127.0.0.1", tick=TICK).start()
    server.wake([1], "Choose", [(2, "Seat 2")])
    again = phone(server, 1, opened)
    assert view(again)[1]["kind"] == "ask" and server.connected() == {1}
    link = server.link(1)
    server.stop()
    assert until(again, "stopped") == {"kind": "stopped"}
    with pytest.raises(OSError):
        urllib.request.urlopen(link, timeout=2)


def test_the_qr_code_carries_the_seats_link(server: PhoneServer) -> None:
    assert server.qr_svg(1).startswith("<svg") and "█" in server.qr_text(1)
    lines = server.qr_text(1).splitlines()
    assert len({len(line) for line in lines}) == 1 and len(lines) >= 15


def test_without_the_extra_the_message_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    from narrator.errors import UserError
    from narrator.phones import require

    found = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None if name == "segno" else found(name))
    with pytest.raises(UserError, match=r"need segno: install the \[phones\] extra"):
        require()


def test_a_game_going_on_serves_the_same_links_on_the_same_port_with_each_seats_card(
        opened: contextlib.ExitStack) -> None:
    """What the journal keeps of the phones (narrator.phones.table.journaled) brings the same server back: a page's
    socket opens again with its old link, gets its card, and its seat's calls are shown to it while it is away."""
    from narrator.phones.table import from_journal, journaled

    first = PhoneServer(3, TEXTS, bind="127.0.0.1").start()
    kept = json.loads(json.dumps(journaled(first)))  # as the journal's header holds it
    links = {seat: first.link(seat) for seat in (1, 2, 3)}
    first.stop()  # the port free again, as when the game's process died
    options, tokens = from_journal(kept, 3, "j.jsonl:1")
    again = PhoneServer(3, TEXTS, bind=options.bind, port=options.port, tokens=tokens).start()
    try:
        assert {seat: again.link(seat) for seat in (1, 2, 3)} == links
        assert again.reachable() == {1, 2, 3} and again.connected() == frozenset()
        again.show_card(2, "Seer")
        assert view(phone(again, 2, opened))[1] == views.dealing("Seer")  # the deal's page until the first call
    finally:
        again.stop(views.over())


@pytest.mark.parametrize("kept", [None, [], {"bind": "127.0.0.1", "port": 0, "tokens": {}},
                                  {"bind": "127.0.0.1", "port": 8086, "tokens": {"1": "short"}},
                                  {"bind": "127.0.0.1", "port": 8086, "tokens": {"1": "x" * 31 + "?"}},
                                  {"bind": "127.0.0.1", "port": 8086, "tokens": {"1": "x" * 32, "x": "y" * 32}}])
def test_damaged_phones_in_a_journal_are_a_clear_message(kept: object) -> None:
    from narrator.errors import UserError
    from narrator.phones.table import from_journal

    with pytest.raises(UserError, match=r"^j.jsonl:1: the journal's phones are damaged"):
        from_journal(kept, 1, "j.jsonl:1")


def test_the_phones_of_a_resumed_deal_hold_the_cards_seen_so_far() -> None:
    from narrator.phones.table import cards_seen

    deal = ("seer", "werewolf", "villager")
    assert cards_seen(deal, None) == {1: "seer", 2: "werewolf", 3: "villager"}
    assert cards_seen(deal, [{"seen": 1}, {"seen": 2}]) == {1: "seer", 2: "werewolf"}


def test_the_host_is_told_by_day_only_which_phones_dropped(opened: contextlib.ExitStack) -> None:
    from engine import Call, Kind, Phase

    from narrator.phones.table import DroppedPhones

    server = PhoneServer(3, TEXTS, bind="127.0.0.1").start()
    told: list[list[int]] = []
    watch = DroppedPhones(server, told.append)
    try:
        phone(server, 1, opened)
        with connect(server.link(2).replace("http://", "ws://").replace("/p/", "/ws/"), open_timeout=5):
            wait_until(lambda: server.connected() == {1, 2})
        wait_until(lambda: server.dropped() == {2})
        night, day = (Call("seer", Phase.NIGHT, 1, Kind.SEAT), Call("vote", Phase.DAY, 1, Kind.VOTE))
        watch.opened(night, lambda answer: True)
        assert told == [] and not watch.takes(night)  # never at night: the narrator waits for nobody
        watch.opened(day, lambda answer: True)
        watch.opened(day, lambda answer: True)  # once a day
        assert told == [[2]]
        phone(server, 2, opened)
        wait_until(lambda: server.dropped() == frozenset())
        watch.opened(Call("vote", Phase.DAY, 2, Kind.VOTE), lambda answer: True)
        assert told == [[2], []]  # all back: the line goes
    finally:
        server.stop()


def test_phone_links_to_print_are_a_private_sheet_of_qr_codes_with_no_link_in_words(tmp_path: Path) -> None:
    from narrator.phones.table import write_sheet

    server = PhoneServer(4, TEXTS, bind="127.0.0.1").start()
    try:
        sheet = tmp_path / "links.html"
        write_sheet(server, sheet, load_voice("en"), ("Ann", None, None, None))
        text = sheet.read_text()
        assert stat.S_IMODE(sheet.stat().st_mode) == 0o600
        assert text.count("<svg") == 4 and "Ann, seat number 1" in text and "seat number 4" in text
        assert not any(server.tokens()[seat] in text for seat in range(1, 5)) and "http" not in text
    finally:
        server.stop()


def test_a_game_over_tells_every_phone_so(opened: contextlib.ExitStack) -> None:
    server = PhoneServer(2, TEXTS, bind="127.0.0.1").start()
    socket = phone(server, 1, opened)
    view(socket)
    server.stop(views.over())
    assert view(socket)[1] == {"kind": "over"}


def test_the_supervisor_hands_the_phone_options_on_when_the_table_config_asks_for_the_phones() -> None:
    """`phones: true` in the table config, no --phones: the supervisor, which never reads the config, still hands the
    game's process where the page listens and where the links go (they were dropped, and the links never written)."""
    from narrator.cli import build_parser
    from narrator.commands.game import TableOptions, _phone_options

    given = build_parser().parse_args(["play", "table.yaml", "--phone-bind", "127.0.0.1", "--phone-port", "8765",
                                       "--phone-links", "links.txt"])
    assert _phone_options(given) == ["--phone-bind", "127.0.0.1", "--phone-port", "8765"]
    # Where the links go is handed on to the game and to every `resume` after a crash alike (the same links
    # written again; after the host's stop, the new ones).
    kept = TableOptions.given(given)
    assert kept.argv() == ["--phone-links", "links.txt"]
    assert kept.resume("g.jsonl") == ["resume", "--phone-links", "links.txt", "--", "g.jsonl"]
    assert build_parser().parse_args(kept.resume("g.jsonl")).phone_links == "links.txt"
    asked = build_parser().parse_args(["play", "table.yaml", "--phones"])
    assert _phone_options(asked) == ["--phones"]  # the defaults need no handing on
