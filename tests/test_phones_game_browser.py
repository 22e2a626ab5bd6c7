"""The issue's whole game with phones (issue 26): the real program in tmux (`play --phones`, the console speaker, the
test's own XDG folders), ten players, ten headless chromium phone pages (one browser, a window each, 127.0.0.1 only).
Before the deal every page says the card comes at the deal.
Every night call the phones take is answered on the awake player's page (the Seer's, the Guard's and the pack's
seat, Cupid's two lovers one at a time, the Witch's potions in two steps, the Infected Father's yes or no, the
lovers' waking), each secret result acknowledged with the page's OK but the first, acknowledged with the keypad's
Enter, which takes it off the page; the day's votes are secret ballots cast on the living players' pages, the host
confirming the engine's tally on the keypad, which answers the rest (the debate, a shot by day). At night one page
is reloaded mid-call and another drops (closed) and comes back: the host is told by day, never at night. In the
second night the game's process is killed (kill -9) mid-call and the supervisor resumes it: every page reconnects by
itself, with no new link. At the end every page says the game is over, and no frame any page received held another
seat's card. Marked browser and terminal: out of the fast lane; waits on conditions."""

from __future__ import annotations

import json
import os
import random
import shutil
import sys
import time
from pathlib import Path
from typing import Any, Callable, Iterator, cast

import pytest

pytest.importorskip("websockets", reason="the [phones] extra (scripts/setup.sh installs it)")
pytest.importorskip("selenium", reason="the test extra (scripts/setup.sh --test installs it)")

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

from engine import Answer, Call, Game, IllegalAnswer, Kind, Phase, deal_cards, votes  # noqa: E402
from keystrokes import after, answered_ahead, keys_for, random_legal  # noqa: E402
from narrator.config import TableConfig, load_config  # noqa: E402
from narrator.journal import read_journal  # noqa: E402
from narrator.narration import wakes  # noqa: E402
from narrator.phones.device import BALLOTS, KINDS, PhoneAnswers, called  # noqa: E402
from narrator.voices import load_voice  # noqa: E402
from test_kill_trials import ASK, Turn  # noqa: E402
from tmux import PATIENCE, Tmux  # noqa: E402

CHROMIUM, CHROMEDRIVER = shutil.which("chromium"), shutil.which("chromedriver")
pytestmark = [pytest.mark.browser, pytest.mark.terminal,
              pytest.mark.skipif(not (CHROMIUM and CHROMEDRIVER and shutil.which("tmux")),
                                 reason="scripts/setup.sh --test installs chromium and tmux")]

SEATS = 10
CONFIG = """\
language: en
seats: 10
deck: [werewolf, werewolf, infected_father, seer, guard, witch, hunter, cupid, villager, villager]
deal: app
sheriff: false
speaker: console
pause: [0, 0]
call_floor: 0
"""
SEED = 2
"""A game of three nights in which the Infected Father infects on the first (the planner's yes)."""
EN = load_voice("en")
WORDS = PhoneAnswers(cast(Any, None), cast(Any, None), EN)
"""The phones' device, here only to word what a page offers (its names for each answer, its results' lines)."""


def browser() -> Any:
    """One headless chromium for the ten phones (a window each), reaching 127.0.0.1 alone, logging the sockets'
    frames; no window's timers slowed (each stands for a phone held in its owner's hand)."""
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-pings",
                 "--disable-default-apps", "--disable-domain-reliability", "--mute-audio",
                 "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
                 "--disable-backgrounding-occluded-windows", "--window-size=360,740",
                 "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    return webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)


def wait_for(condition: Callable[[], object], what: str, seconds: float = PATIENCE) -> Any:
    """Returns ``condition()`` once true, checked every 50 ms: a bound for a hang, never a pace."""
    end = time.monotonic() + seconds
    while True:
        got = condition()
        if got:
            return got
        assert time.monotonic() < end, f"waited too long for {what}"
        time.sleep(0.05)


class Phones:
    """The ten players' pages, a window each in one browser; every frame each received, by seat."""

    def __init__(self, driver: Any, links: dict[int, str]) -> None:
        self.driver = driver
        self.links = links
        self.windows: dict[int, str] = {}
        self.sockets: dict[tuple[str, str], int] = {}  # (window, request) → seat
        self.frames: dict[int, list[str]] = {seat: [] for seat in links}
        tokens = {link.rsplit("/", 1)[1]: seat for seat, link in links.items()}
        self.seat_of = lambda url: tokens.get(url.rsplit("/", 1)[1])
        first = True
        for seat, link in sorted(links.items()):
            if not first:
                driver.switch_to.new_window("window")
            first = False
            driver.get(link)
            self.windows[seat] = driver.current_window_handle

    def on(self, seat: int) -> Any:
        self.driver.switch_to.window(self.windows[seat])
        return self.driver

    def kind(self, seat: int) -> str:
        try:
            return str(self.on(seat).find_element(By.ID, "view").get_attribute("data-kind"))
        except Exception:  # the page is being (re)loaded
            return ""

    def online(self, seat: int) -> bool:
        try:
            return self.on(seat).find_element(By.ID, "link").get_attribute("data-online") == "yes"
        except Exception:
            return False

    def all_online(self, seats: set[int] | None = None) -> bool:
        return all(self.online(seat) for seat in (seats or set(self.links)))

    def collect(self) -> None:
        """Reads the browser's log of the sockets' frames (all windows), each frame to its seat."""
        for entry in self.driver.get_log("performance"):
            message = json.loads(entry["message"])
            method, params = message["message"]["method"], message["message"]["params"]
            key = (str(message.get("webview")), str(params.get("requestId")))
            if method == "Network.webSocketCreated":
                seat = self.seat_of(params["url"])
                if seat is not None:
                    self.sockets[key] = seat
            elif method == "Network.webSocketFrameReceived" and key in self.sockets:
                self.frames[self.sockets[key]].append(params["response"]["payloadData"])

    def note(self, seat: int) -> str:
        """The dim line of a page with no call: what it says of the moment (the deal, the night)."""
        try:
            return str(self.on(seat).find_element(By.CSS_SELECTOR, "#view p.dim").text)
        except Exception:  # redrawn between two looks
            return ""

    def buttons(self, seat: int, selector: str, text: str | None = None) -> list[Any]:
        """The page's buttons (``text``: only those saying it); none while the page is redrawn."""
        try:
            found = self.on(seat).find_elements(By.CSS_SELECTOR, selector)
            return [b for b in found if text is None or b.text == text]
        except Exception:  # the page redrawn between two looks: look again
            return []

    def answer(self, seat: int, title: str, names: list[str]) -> None:
        """The player at ``seat`` answers the question titled ``title`` on their page: taps each of ``names`` in
        turn (one per step: the Witch's potions, Cupid's seats), reads the whole answer back, confirms."""

        def asked() -> bool:
            if self.kind(seat) != "ask":
                return False
            titles = self.driver.find_elements(By.TAG_NAME, "h1")
            return bool(titles) and title in titles[0].text

        try:
            wait_for(asked, f"seat {seat}'s page to ask {title!r}")
        except AssertionError as failure:
            raise AssertionError(f"{failure}; the page shows {self.kind(seat)}: "
                                 f"{self.driver.find_element(By.TAG_NAME, 'body').text!r}") from None
        for name in names:
            try:
                wait_for(lambda: self.buttons(seat, "button.choice", name), f"seat {seat}'s page to offer {name!r}")
            except AssertionError as failure:
                raise AssertionError(f"{failure}: {[b.text for b in self.buttons(seat, 'button')]}") from None
            self.buttons(seat, "button.choice", name)[0].click()
        wait_for(lambda: self.kind(seat) == "confirm", f"seat {seat}'s page to read {names} back")
        shown = self.driver.find_element(By.ID, "view").text
        assert all(name in shown for name in names), (names, shown)
        self.driver.find_element(By.ID, "confirm").click()

    def acknowledge(self, seat: int, lines: list[str]) -> None:
        """The player at ``seat`` reads what their answer revealed (``lines``) on their page and taps its OK."""
        wait_for(lambda: self.buttons(seat, "#ok"), f"seat {seat}'s page to show its result with an OK")
        shown = self.driver.find_element(By.ID, "view").text
        assert all(line in shown for line in lines), (lines, shown)
        self.buttons(seat, "#ok")[0].click()


def said(call: Call, value: Answer) -> list[str]:
    """The names a page gives the answer ``value`` to the night call ``call``, one per step
    (narrator.phones.device.PhoneAnswers.build)."""
    form = WORDS.build(call, lambda _: True)
    assert form is not None and value in form.values, (call.id, value)
    return form.said[form.values.index(value)]


def prompt(call: Call) -> str:
    """The title a page gives the night call ``call``: its wake line (PhoneAnswers.prompt)."""
    return called(EN, call.id)


def ballot_name(target: int | None) -> str:
    """The name a ballot page gives ``target`` (a seat, or nobody)."""
    return EN.text("phone.none", {}) if target is None else WORDS.seat(target)


def on_a_phone(call: Call, connected: set[int]) -> list[int]:
    """The seats whose page answers the night call ``call``: its awake characters with a page connected."""
    if not (call.live and wakes(call) and call.kind in KINDS and WORDS.build(call, lambda _: True)):
        return []
    return [seat for seat in call.actors if seat in connected]


def ballots(game: Game, rng: random.Random) -> Answer:
    """A vote's secret ballots: every voter names one seat drawn among the legal ones, or nobody where the
    engine refuses it that seat."""
    targets = [value for value in game.legal() if isinstance(value, int)]
    target = rng.choice(targets) if targets else None
    cast_: dict[int, int | None] = {}
    for voter in votes.voters(game):
        for choice in (target, None):
            try:
                game.check({"ballots": {voter: choice}})
            except IllegalAnswer:
                continue
            cast_[voter] = choice
            break
    return {"ballots": cast_}


def plan(config: TableConfig, seed: int) -> tuple[list[Turn], Game]:
    """Plays the seeded game ahead with random legal answers, the day's votes as ballots cast on the voters'
    phones; returns every call's turn (the keys for a call no phone takes) and the finished game."""
    def choose(game: Game, call: Call, rng: random.Random) -> Answer:
        if call.live and call.kind in BALLOTS:
            return ballots(game, rng)
        value = random_legal(game, call, rng)
        if call.id == "infected_father" and call.live and True in game.legal():
            value = True  # he infects the pack's victim (once a game): his yes/no answer shows in the game
        return value

    game = Game(config.table, deal_cards(config.table, seed))
    turns = [Turn(call, value, ["enter"] if call.live and call.kind in BALLOTS  # the host confirms the tally
                  else keys_for(call, value) + after(step), step)
             for call, value, step in answered_ahead(game, random.Random(seed), choose)]
    return turns, game


def normal(answers: list[Answer]) -> object:
    """Answers as a journal keeps them (JSON: a ballot's voter a string)."""
    return json.loads(json.dumps(answers))


@pytest.fixture
def folder(tmp_path: Path) -> Iterator[Path]:
    """The game's folder, with fresh XDG folders of its own (its journals, its settings, its cache)."""
    for name in ("data", "config", "cache"):
        (tmp_path / name).mkdir()
    (tmp_path / "table.yaml").write_text(CONFIG, encoding="utf-8")
    yield tmp_path


def command(folder: Path) -> str:
    xdg = " ".join(f"XDG_{name.upper()}_HOME={folder / name}" for name in ("data", "config", "cache"))
    return (f"unset COLUMNS LINES; cd {folder} && env {xdg} WEREWOLF_NARRATOR_TYPE_AHEAD=1 {sys.executable} "
            "-m narrator play table.yaml --seed " + str(SEED) + " --journal j.jsonl --phones --phone-bind 127.0.0.1 "
            "--phone-port 0 --phone-links links.yaml; echo exit=$?; sleep 600")


def test_ten_phones_play_a_whole_game_through_a_reload_a_drop_and_a_kill(folder: Path) -> None:
    config, _ = load_config(str(folder / "table.yaml"))
    turns, ahead = plan(config, SEED)
    roles = ahead.deal.roles
    villager = roles.index("villager") + 1
    journal = folder / "j.jsonl"
    tmux = Tmux(f"wn-phones-{folder.name}", joined=True)
    tmux.start(command(folder), width=160, height=40)
    driver = None
    try:
        tmux.wait_for(EN.text("deal.app_turn", {"seat": 1}))
        links = dict(line.split(": ", 1) for line in (folder / "links.yaml").read_text().splitlines())
        assert os.stat(folder / "links.yaml").st_mode & 0o777 == 0o600
        driver = browser()
        phones = Phones(driver, {int(seat): link for seat, link in links.items()})
        wait_for(phones.all_online, "every page to connect")
        coming = EN.text("phone.no_card", {})  # the deal: nobody's eyes closed yet, no card on any page
        assert [phones.note(seat) for seat in phones.links] == [coming] * SEATS
        tmux.send(["enter"] * 3 * SEATS)  # the deal: each seat's card on the screen, with its QR code
        played = Played(tmux, phones, journal, villager)
        for number, turn in enumerate(turns):
            try:
                played.turn(number, turn)
            except AssertionError as failure:
                raise AssertionError(f"turn {number} ({turn.call.id}): {failure}\n{tmux.screen()}") from None
            phones.collect()
        final = tmux.wait_for(lambda shown: "exit=" in shown, seconds=2 * PATIENCE)
        assert "exit=0" in final, final
        assert ahead.outcome is not None and EN.text(f"end.{ahead.outcome.winner}", {})[:15] in final
        kept = [entry.answer for entry in read_journal(str(journal))[1]]
        # The ballots cast on the pages are secret for good (the recap never tells them one by one).
        secret = [answer.pop("secret") for answer in kept if isinstance(answer, dict) and "ballots" in answer]
        assert secret and all(secret), secret
        assert normal(kept) == normal(ahead.journal)
        assert played.by_phone >= 4 and played.ballots and played.acknowledged and played.entered, vars(played)
        assert {Kind.SEAT, Kind.SEATS, Kind.WITCH, Kind.YES_NO, Kind.NONE} <= played.kinds, played.kinds
        # The Infected Father's yes, given on his page among its two choices, is the game's: journaled, and the
        # pack's victim he was shown infected instead of devoured (the game played ahead, answer for answer the same).
        infect = next(turn for turn in turns if turn.call.id == "infected_father" and turn.call.live)
        assert played.offered == {"infected_father": said(infect.call, True) + said(infect.call, False)}
        journaled = [entry for entry in read_journal(str(journal))[1] if entry.call == "infected_father"]
        assert [entry.answer for entry in journaled if entry.needs][:1] == [True], journaled
        victim = next(f.values["seat"] for f in infect.call.facts if f.key == "victim_shown")
        assert isinstance(victim, int) and "infected" in ahead.players[victim - 1].marks
        assert played.reloaded and played.told and played.killed, vars(played)
        wait_for(lambda: all(phones.kind(seat) == "over" for seat in phones.links), "every page to say it is over")
        phones.collect()
    finally:
        if driver is not None:
            driver.quit()
        tmux.close()
    for seat, frames in phones.frames.items():
        assert frames, seat
        own = EN.role(roles[seat - 1])
        others = {EN.role(role) for role in roles} - {own}
        for frame in frames:
            shown = json.loads(frame)["view"]
            assert shown.get("card", "") in ("", own), (seat, shown)
            if shown["kind"] in ("sleep", "ask"):
                assert not [name for name in others if name in json.dumps(shown.get("choices", []))
                            or name in shown.get("card", "")], (seat, shown)
        assert f'"card":"{own}"' in "".join(frames)


class Played:
    """The table: each turn of the game played ahead, answered on a phone or on the keypad, in step with the
    game's journal; the night's reload, drop and kill on their turns."""

    def __init__(self, tmux: Tmux, phones: Phones, journal: Path, dropper: int) -> None:
        self.tmux, self.phones, self.journal, self.dropper = tmux, phones, journal, dropper
        self.connected = set(phones.links)
        self.by_phone = self.ballots = self.acknowledged = 0  # night answers, ballots, OKs given on the pages
        self.entered = 0  # secret results acknowledged with the keypad's Enter instead of the page's OK
        self.offered: dict[str, list[str]] = {}  # a yes/no call's choices, as its page offered them
        self.kinds: set[Kind] = set()  # the kinds of night call answered on the pages
        self.reloaded = self.told = self.killed = False
        self.dropped_line = EN.text("screen.phones_dropped", {"seats": [dropper]})[:40]

    def answered(self) -> int:
        if not self.journal.exists():
            return 0
        try:
            return len(read_journal(str(self.journal))[1])
        except Exception:  # the header not yet whole
            return 0

    def turn(self, number: int, turn: Turn) -> None:
        call = turn.call
        # At least: a call nobody answers (the dawn, the nightfall) may be journaled between two looks.
        wait_for(lambda: self.answered() >= number, f"the journal to hold {number} answers (before {call.id})")
        if call.phase is Phase.DAY and not self.told and self.dropper not in self.connected:
            # Dawn: the host is told which phone dropped, and only now; then its owner opens the page again.
            self.tmux.wait_for(self.dropped_line)
            self.told = True
            self.phones.on(self.dropper).get(self.phones.links[self.dropper])
            wait_for(lambda: self.phones.online(self.dropper), "the dropped page to come back")
            self.connected.add(self.dropper)
        if call.phase is Phase.NIGHT and self.dropper not in self.connected:
            assert self.dropped_line not in self.tmux.screen()  # never at night
        if call.live and call.kind in BALLOTS:
            self.vote(number, turn)
            return
        seats = on_a_phone(call, self.connected)
        if not seats:
            if turn.keys:
                self.tmux.send(turn.keys)
            return
        if call.number == 2 and not self.killed:
            self.kill_and_resume(seats[0])
        if not self.reloaded:  # a phone reloaded mid-call: the call again on it
            wait_for(lambda: self.phones.kind(seats[0]) == "ask", "the call on the page")
            self.phones.on(seats[0]).refresh()
            self.reloaded = True
        if call.kind is Kind.YES_NO:
            wait_for(lambda: self.phones.kind(seats[0]) == "ask", "the yes/no call on the page")
            self.offered[call.id] = wait_for(lambda: [b.text for b in self.phones.buttons(seats[0], "button.choice")],
                                             "the page's two choices")
        self.phones.answer(seats[0], prompt(call), said(call, turn.value))
        self.by_phone += 1
        self.kinds.add(call.kind)
        wait_for(lambda: self.answered() >= number + 1, f"{call.id}'s answer from the phone to be journaled")
        lines = WORDS.secret(turn.step.facts)
        if lines and not self.entered:  # the host's Enter acknowledges the first: the page's OK goes with it
            wait_for(lambda: self.phones.buttons(seats[0], "#ok"), "the page's result with its OK")
            self.tmux.send(["enter"])
            wait_for(lambda: self.phones.kind(seats[0]) not in ("told", ""), "the page to leave its result")
            self.entered += 1
        elif lines:  # what the answer revealed is read on the awake player's page, and acknowledged there (OK)
            self.phones.acknowledge(seats[0], lines)
            self.acknowledged += 1
        else:
            self.tmux.send(after(turn.step))
        if self.by_phone == 1:  # a player's phone drops at night (closed); the host is not told now
            self.phones.on(self.dropper).get("about:blank")
            self.connected.discard(self.dropper)
            assert self.dropped_line not in self.tmux.screen()

    def vote(self, number: int, turn: Turn) -> None:
        """The day's vote: each living voter casts a secret ballot on their page; the host confirms the engine's
        tally on the keypad (Enter), as read back on the host's screen."""
        assert isinstance(turn.value, dict)
        cast: dict[int, int | None] = turn.value["ballots"]
        title = EN.text("phone.ballot", {})
        for voter, target in cast.items():
            assert voter in self.connected, (voter, self.connected)
            self.phones.answer(voter, title, [ballot_name(target)])
            self.ballots += 1
        confirm = EN.text("screen.keys_confirm", {})
        self.tmux.wait_for(lambda shown: confirm in shown and EN.text("prompt.ballots", {}) not in shown)
        self.tmux.send(turn.keys)
        wait_for(lambda: self.answered() >= number + 1, f"{turn.call.id}'s ballots to be journaled")

    def kill_and_resume(self, seat: int) -> None:
        """kill -9 of the game's process mid-call; the supervisor's resume (Enter); every page comes back alone."""
        wait_for(lambda: self.phones.kind(seat) == "ask", "the call on the page before the kill")
        os.kill(self.tmux.game_process(), 9)
        wait_for(lambda: not any(self.phones.online(s) for s in self.connected), "every page to lose its game")
        self.tmux.wait_for(ASK)
        self.tmux.send(["enter"])
        self.tmux.wait_for(EN.text("notice.resumed", {}))
        wait_for(lambda: self.phones.all_online(self.connected), "every page to reconnect by itself")
        self.killed = True
