"""The issue's whole game with phones (issue 26): the real program in tmux (`play --phones`, the console speaker, the
test's own XDG folders), ten players, ten headless chromium phone pages (one browser, a window each, 127.0.0.1 only).
Every night call the phones take is answered on the awake player's page; the keypad answers the rest and is the
host's. At night one page is reloaded mid-call and another drops (closed) and comes back: the host is told by day,
never at night. In the second night the game's process is killed (kill -9) mid-call and the supervisor resumes it:
every page reconnects by itself, with no new link. At the end every page says the game is over, and no frame any
page received held another seat's card. Marked browser and terminal: out of the fast lane; waits on conditions."""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

pytest.importorskip("websockets", reason="the [phones] extra (scripts/setup.sh installs it)")
pytest.importorskip("selenium", reason="the test extra (scripts/setup.sh --test installs it)")

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

from engine import Call, Kind, Phase  # noqa: E402
from keystrokes import after  # noqa: E402
from narrator.config import load_config  # noqa: E402
from narrator.journal import read_journal  # noqa: E402
from narrator.narration import wakes  # noqa: E402
from narrator.voices import load_voice  # noqa: E402
from test_kill_trials import ASK, Turn, plan  # noqa: E402
from tmux import PATIENCE, Tmux  # noqa: E402

CHROMIUM, CHROMEDRIVER = shutil.which("chromium"), shutil.which("chromedriver")
pytestmark = [pytest.mark.browser, pytest.mark.terminal,
              pytest.mark.skipif(not (CHROMIUM and CHROMEDRIVER and shutil.which("tmux")),
                                 reason="scripts/setup.sh --test installs chromium and tmux")]

SEATS = 10
CONFIG = """\
language: en
seats: 10
deck: [werewolf, werewolf, werewolf, seer, guard, witch, hunter, villager, villager, villager]
deal: app
sheriff: false
speaker: console
pause: [0, 0]
call_floor: 0
"""
SEED = 6
EN = load_voice("en")
PHONE_KINDS = (Kind.SEAT, Kind.YES_NO, Kind.NONE)
"""The kinds of night call this test answers on a phone (narrator.phones.device answers these at least)."""


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

    def answer(self, seat: int, call: Call, choice: str) -> None:
        """The player at ``seat`` answers ``call`` on their page: taps ``choice``, reads it back, confirms."""
        wake = f"{call.id}.wake"
        prompt = EN.text(wake, {}) if wake in EN.lines else ""

        def asked() -> bool:
            if self.kind(seat) != "ask":
                return False
            titles = self.driver.find_elements(By.TAG_NAME, "h1")
            return bool(titles) and prompt in titles[0].text

        try:
            wait_for(asked, f"seat {seat}'s page to ask {call.id}")
        except AssertionError as failure:
            raise AssertionError(f"{failure}; the page shows {self.kind(seat)}: "
                                 f"{self.driver.find_element(By.TAG_NAME, 'body').text!r}") from None
        buttons = [b for b in self.driver.find_elements(By.CSS_SELECTOR, "button.choice") if b.text == choice]
        assert buttons, (call.id, choice, [b.text for b in self.driver.find_elements(By.CSS_SELECTOR, "button")])
        buttons[0].click()
        assert self.kind(seat) == "confirm" and choice in self.driver.find_element(By.ID, "view").text
        self.driver.find_element(By.ID, "confirm").click()


def choice_name(call: Call, value: object) -> str:
    """The name a page gives the answer ``value`` (narrator.phones.device.PhoneAnswers.offer)."""
    if call.kind is Kind.SEAT:
        return EN.text("phone.none", {}) if value is None else EN.seat_word.format(number=value)
    if call.kind is Kind.YES_NO:
        return EN.text("phone.yes" if value else "phone.no", {})
    return EN.text("phone.done", {})


def on_a_phone(call: Call, connected: set[int]) -> list[int]:
    """The seats whose page answers ``call``: its awake characters with a page connected, at night."""
    if not (call.live and wakes(call) and call.kind in PHONE_KINDS):
        return []
    return [seat for seat in call.actors if seat in connected]


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
        assert [entry.answer for entry in read_journal(str(journal))[1]] == ahead.journal
        assert played.by_phone >= 4 and played.reloaded and played.told and played.killed, vars(played)
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
        self.by_phone = 0
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
        self.phones.answer(seats[0], call, choice_name(call, turn.value))
        self.by_phone += 1
        wait_for(lambda: self.answered() >= number + 1, f"{call.id}'s answer from the phone to be journaled")
        self.tmux.send(after(turn.step))  # what the answer revealed is read on the host's screen (Enter)
        if self.by_phone == 1:  # a player's phone drops at night (closed); the host is not told now
            self.phones.on(self.dropper).get("about:blank")
            self.connected.discard(self.dropper)
            assert self.dropped_line not in self.tmux.screen()

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
