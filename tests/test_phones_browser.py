"""The phones' page in a real browser: Debian's chromium, headless, driven by selenium through Debian's chromedriver,
against the phones' server on 127.0.0.1 (every other host name is made unresolvable for the browser). What a phone
receives is read from the browser's own log of the socket's frames. Marked browser (tests/conftest.py): out of the
fast lane; scripts/setup.sh --test installs chromium, chromium-driver and selenium."""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

pytest.importorskip("websockets", reason="the [phones] extra (scripts/setup.sh installs it)")
pytest.importorskip("selenium", reason="the test extra (scripts/setup.sh --test installs it)")

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

from engine import Call, Game, Kind, Phase, deal_cards  # noqa: E402
from narrator.phones import views  # noqa: E402
from narrator.play import STARTER  # noqa: E402
from narrator.phones.server import PhoneServer  # noqa: E402
from narrator.phones.sizes import frame_size  # noqa: E402
from narrator.voices import load_voice  # noqa: E402

CHROMIUM, CHROMEDRIVER = shutil.which("chromium"), shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(not (CHROMIUM and CHROMEDRIVER), reason="scripts/setup.sh --test installs chromium")

SEED = 11
TEXTS = {key: text for key, text in load_voice("en").lines.items() if key.startswith("phone.")}
TICK = 0.1
"""The tests' clock of frames: fast, the rule the same."""
SHOTS = Path(os.environ.get("WEREWOLF_PHONE_SHOTS", tempfile.gettempdir())) / "werewolf-phone-shots"


def browser(width: int = 360, height: int = 740) -> Any:
    """A headless chromium that reaches 127.0.0.1 alone, logging its network events (the socket's frames)."""
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-pings",
                 "--disable-default-apps", "--disable-domain-reliability", "--mute-audio",
                 "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1", f"--window-size={width},{height}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    # A window is never narrower than the browser's own minimum: the phone's screen is emulated.
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
    return driver


@pytest.fixture
def drivers() -> Iterator[Callable[..., Any]]:
    """Opens browsers for a test; all quit at the end."""
    opened: list[Any] = []

    def open_one(width: int = 360, height: int = 740) -> Any:
        opened.append(browser(width, height))
        return opened[-1]

    try:
        yield open_one
    finally:
        for driver in opened:
            driver.quit()


@pytest.fixture
def server() -> Iterator[PhoneServer]:
    phones = PhoneServer(6, TEXTS, bind="127.0.0.1", tick=TICK).start()
    try:
        yield phones
    finally:
        phones.stop()


def wait_for(condition: Callable[[], object], seconds: float = 15) -> Any:
    """Returns ``condition()`` once it is true, checked every 50 ms: never a fixed sleep."""
    end = time.monotonic() + seconds
    while True:
        got = condition()
        if got:
            return got
        assert time.monotonic() < end, "waited too long"
        time.sleep(0.05)


def kind(driver: Any) -> str:
    return str(driver.find_element(By.ID, "view").get_attribute("data-kind"))


def received(driver: Any) -> list[str]:
    """Returns the socket frames the page received since last asked, as the browser logged them."""
    frames = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.webSocketFrameReceived":
            frames.append(message["params"]["response"]["payloadData"])
    return frames


def collect(driver: Any, frames: list[str], count: int) -> list[str]:
    """Adds the frames the page received since last asked to ``frames``; returns them once there are ``count``."""
    frames.extend(received(driver))
    return frames if len(frames) >= count else []


def note(driver: Any) -> str:
    """The dim line of a page with no call: what it says of the moment (the deal, the night)."""
    try:
        return str(driver.find_element(By.CSS_SELECTOR, "#view p.dim").text)
    except Exception:  # redrawn between two looks, or no such line
        return ""


def test_a_phone_joins_by_its_link_and_holds_its_card(server: PhoneServer, drivers: Callable[..., Any]) -> None:
    """At the deal the page says the card comes, then that it came (no eyes closed yet); the card is read while the
    button is held; from the first call on, the night's dark page, the card still there."""
    phone = drivers()
    phone.get(server.link(2))
    wait_for(lambda: kind(phone) == "sleep" and server.connected() == {2})
    assert note(phone) == TEXTS["phone.no_card"] and not phone.find_elements(By.ID, "hold")
    server.show_card(2, "Fortune Teller")
    hold = wait_for(lambda: phone.find_elements(By.ID, "hold"))[0]
    assert note(phone) == TEXTS["phone.dealt"] and phone.find_element(By.ID, "card").text == ""
    ActionChains(phone).click_and_hold(hold).perform()
    assert wait_for(lambda: phone.find_element(By.ID, "card").text) == "Fortune Teller"
    ActionChains(phone).release(hold).perform()
    wait_for(lambda: phone.find_element(By.ID, "card").text == "")
    server.sleep()  # the first call: the night falls
    wait_for(lambda: note(phone) == TEXTS["phone.sleep"])
    assert phone.find_elements(By.ID, "hold")


def test_wrong_tokens_are_refused_alike(server: PhoneServer, drivers: Callable[..., Any]) -> None:
    phone = drivers()
    good = server.link(1)
    pages = []
    for wrong in (good[:-2] + ("xy" if not good.endswith("xy") else "zz"), good + "0", good.rsplit("/", 1)[0] + "/"):
        phone.get(wrong)
        pages.append(phone.find_element(By.TAG_NAME, "body").text)
    assert pages == [TEXTS["phone.refused"]] * 3 and server.connected() == frozenset()


def test_a_second_device_takes_the_seat_over(server: PhoneServer, drivers: Callable[..., Any]) -> None:
    first, second = drivers(), drivers()
    first.get(server.link(3))
    wait_for(lambda: kind(first) == "sleep")
    second.get(server.link(3))
    wait_for(lambda: kind(first) == "taken" and kind(second) == "sleep")
    assert first.find_element(By.ID, "view").text == TEXTS["phone.taken"]
    server.wake([3], "Seer, choose", [(1, "seat number 1")])
    wait_for(lambda: kind(second) == "ask")
    assert kind(first) == "taken"  # it does not come back by itself
    wait_for(lambda: first.find_element(By.ID, "link").get_attribute("data-online") == "no")
    assert first.find_element(By.ID, "link").text == ""  # nor says it is on its way back


def test_a_phone_reloaded_mid_call_shows_the_call_again_and_answers_it(server: PhoneServer,
                                                                        drivers: Callable[..., Any]) -> None:
    phone = drivers()
    phone.get(server.link(4))
    wait_for(lambda: kind(phone) == "sleep")
    server.wake([4], "Fortune Teller, wake up.", [(1, "seat number 1"), (5, "seat number 5")])
    wait_for(lambda: kind(phone) == "ask")
    phone.refresh()
    wait_for(lambda: kind(phone) == "ask")
    assert phone.find_element(By.TAG_NAME, "h1").text == "Fortune Teller, wake up."
    phone.find_elements(By.CSS_SELECTOR, "button.choice")[1].click()
    assert kind(phone) == "confirm" and "seat number 5" in phone.find_element(By.ID, "view").text
    phone.find_element(By.ID, "change").click()
    assert kind(phone) == "ask"
    phone.find_elements(By.CSS_SELECTOR, "button.choice")[1].click()
    phone.find_element(By.ID, "confirm").click()
    assert server.answers.get(timeout=10) == (4, 5)


def test_an_awake_and_a_sleeping_phone_receive_frames_of_one_size_on_one_clock(server: PhoneServer,
                                                                               drivers: Callable[..., Any]) -> None:
    awake, asleep = drivers(), drivers()
    awake.get(server.link(1))
    asleep.get(server.link(2))
    wait_for(lambda: server.connected() == {1, 2})
    server.sleep()  # the first call: the deal's page turns into the night's on every phone at once, then no more
    wait_for(lambda: note(awake) == note(asleep) == TEXTS["phone.sleep"])
    received(awake), received(asleep)
    server.wake([1], "Werewolves, wake up.", [(3, "seat number 3"), (4, "seat number 4")])
    wait_for(lambda: kind(awake) == "ask")
    server.sleep()
    wait_for(lambda: kind(awake) == "sleep")
    server.wake([1], "Seer, wake up.", [(None, "Nobody")])
    wait_for(lambda: kind(awake) == "ask")
    got: dict[str, list[str]] = {"awake": [], "asleep": []}
    for name, driver in (("awake", awake), ("asleep", asleep)):
        wait_for(lambda: collect(driver, got[name], 10))
    assert {len(f.encode()) for f in got["awake"] + got["asleep"]} == {server.frame}
    assert abs(len(received(awake)) + len(got["awake"]) - len(received(asleep)) - len(got["asleep"])) <= 3
    assert len({f for f in got["asleep"]}) == 1 and kind(asleep) == "sleep"  # the same bytes, again and again


def test_a_result_waits_for_the_phones_ok_and_an_answer_in_steps_is_read_back_whole(
        server: PhoneServer, drivers: Callable[..., Any]) -> None:
    """The Seer's look with its OK; the Witch's potions in two steps (only what leads to a legal answer offered),
    read back whole and answered with the path's index."""
    from narrator.phones.server import OK

    phone = drivers()
    phone.get(server.link(4))
    wait_for(lambda: kind(phone) == "sleep")
    call = server.result([4], "Fortune Teller, wake up.", shown=["Seat 2 is a Werewolf."], ok=True)
    ok = wait_for(lambda: phone.find_elements(By.ID, "ok"))[0]
    assert "Seat 2 is a Werewolf." in phone.find_element(By.ID, "view").text
    ok.click()
    assert server.answers.get(timeout=10) == (4, OK) and kind(phone) == "sent"
    steps = [("Your healing potion", ["save seat 3", "do not save seat 3"]),
             ("Your poison potion", ["poison seat 1", "poison seat 2", "no poison"])]
    paths = [[0, 2], [1, 0], [1, 2]]  # healed, she may not poison tonight (say)
    values = [{"heal": True, "poison": None}, {"heal": False, "poison": 1}, {"heal": False, "poison": None}]
    server.ask({4: (lambda number: views.asking(number, "The Witch wakes up.", [], ["Seat 3 was attacked."],
                                                steps, paths), values)})
    wait_for(lambda: kind(phone) == "ask")
    phone.find_elements(By.CSS_SELECTOR, "button.choice")[0].click()  # save
    names = [b.text for b in phone.find_elements(By.CSS_SELECTOR, "button.choice")]
    assert names == ["no poison"]  # only what leads to a legal answer
    phone.find_elements(By.CSS_SELECTOR, "button.choice")[0].click()
    assert kind(phone) == "confirm" and "save seat 3\nno poison" in phone.find_element(By.ID, "view").text
    phone.find_element(By.ID, "confirm").click()
    assert server.answers.get(timeout=10) == (4, {"heal": True, "poison": None}) and call


def answer_on_page(page: Any, playing: threading.Event) -> None:
    """A player at the page: whenever it asks (the villager woken as a lover), taps the first choice and confirms."""
    while playing.is_set():
        with contextlib.suppress(Exception):  # the page redrawn between two looks: look again
            if kind(page) == "ask":
                while kind(page) == "ask":  # an answer in steps: the first choice at each
                    page.find_elements(By.CSS_SELECTOR, "button.choice")[0].click()
                page.find_element(By.ID, "confirm").click()
            elif page.find_elements(By.ID, "ok"):
                page.find_element(By.ID, "ok").click()
        time.sleep(0.05)  # looks again: a poll, the game does not wait on it


def test_a_villagers_phone_receives_no_other_seats_card_over_a_whole_game(tmp_path: Path,
                                                                          drivers: Callable[..., Any]) -> None:
    """A whole scripted game (the keypad's, the Seer's phone a socket) while a villager's page is open in chromium,
    answering what it is asked (its ballots; as a lover, if Cupid chooses it): every frame it received holds no other
    seat's card, and all are of one size."""
    frames, game, ahead, _ = game_with_a_page(tmp_path, drivers)
    roles = deal_cards(STARTER.table, SEED).roles
    voice = load_voice("en")
    assert game.outcome == ahead.outcome
    assert {len(frame.encode()) for frame in frames} == {frame_size(STARTER.table.seats, voice)}
    others = {voice.role(role) for role in set(roles) - {"villager"}}
    assert not [name for frame in frames for name in others if name in frame]
    assert f'"card":"{voice.role("villager")}"' in frames[-1]  # its own card, as it sleeps


def test_twins_a_sleeping_page_receives_the_same_bytes_whoever_the_seer_looks_at(tmp_path: Path,
                                                                                 drivers: Callable[..., Any]) -> None:
    """Two games that differ only in the Seer's first look (a werewolf, or not; her phone a socket): the villager's
    page in chromium, asleep at her call, is shown the same frames, byte for byte, and the same page."""
    from test_phones_game import legal_in, same_bytes

    roles = deal_cards(STARTER.table, SEED).roles
    twins = []
    for wolf in (True, False):
        where = tmp_path / str(wolf)
        where.mkdir()

        def pick(game: Game, call: Call, wolf: bool = wolf) -> int:
            return next(s for s in call.seats if legal_in(game)(s)
                        and (call.number > 1 or (roles[s - 1] == "werewolf") == wolf))

        frames, game, ahead, page = game_with_a_page(where, drivers, pick)
        assert game.eliminated == ahead.eliminated
        twins.append(({json.loads(frame)["seq"]: frame for frame in frames}, page))
    assert same_bytes(twins[0][0], twins[1][0]) and twins[0][1] == twins[1][1]


def game_with_a_page(tmp_path: Path, drivers: Callable[..., Any],
                     seer_picks: Callable[[Game, Call], int] | None = None) -> tuple[list[str], Game, Game, str]:
    """Plays STARTER with the Seer's phone a socket (her looks as ``seer_picks`` says) and a villager's page in
    chromium answering what it is asked; returns the page's frames, the game, the game planned, the page's text."""
    from keystrokes import Recorder
    from narrator.hearing import PushbackKeys
    from narrator.phones.device import PhoneAnswers
    from narrator.play import NewGame, Timing, play
    from narrator.screen import PlainScreen
    from narrator.table import TableIO
    from test_phones_game import GatedKeys, SocketPhone, plan

    voice = load_voice("en")
    roles = deal_cards(STARTER.table, SEED).roles
    seer, villager = roles.index("seer") + 1, roles.index("villager") + 1
    planned, ahead, picks = plan(STARTER, SEED, {seer, villager}, seer_picks)
    server = PhoneServer(STARTER.table.seats, TEXTS, bind="127.0.0.1", tick=TICK).start()
    page = drivers()
    try:
        with contextlib.ExitStack() as opened:
            looks = list(picks)
            SocketPhone(server, seer, opened, lambda view: view["choices"].index(  # type: ignore[union-attr]
                voice.seat_word.format(number=looks.pop(0))) if view["title"] == voice.text("seer.wake", {}) else 0)
            page.get(server.link(villager))
            wait_for(lambda: server.connected() == {seer, villager})
            playing = threading.Event()
            playing.set()
            answering = threading.Thread(target=answer_on_page, args=(page, playing), daemon=True)
            answering.start()
            device: PhoneAnswers | None = None
            keys = PushbackKeys(GatedKeys(planned, lambda: device is not None and device.waiting))
            device = PhoneAnswers(server, keys, voice)
            table = TableIO(keys, PlainScreen(io.StringIO()), Recorder(), devices=(device,),
                            card_shown=lambda seat, role: server.show_card(seat, voice.role(role)))
            try:
                game = play(STARTER, table, seed=SEED, start=NewGame(tmp_path),
                            timing=Timing(sleep=lambda s: None), out=io.StringIO())
            finally:
                playing.clear()
                answering.join(timeout=10)
            frames: list[str] = []
            wait_for(lambda: collect(page, frames, 1))
            text = str(page.find_element(By.ID, "view").text)
    finally:
        server.stop()
    return frames, game, ahead, text


def test_the_page_is_dark_and_fits_a_narrow_and_a_large_screen(server: PhoneServer,
                                                               drivers: Callable[..., Any]) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    choices = [(seat, f"Player {seat}, seat number {seat}") for seat in range(1, 7)] + [(None, "Nobody")]
    for width, height in ((360, 740), (1280, 900)):
        phone = drivers(width, height)
        phone.get(server.link(5))
        wait_for(lambda: kind(phone) == "sleep")
        server.wake([5], "Werewolves, wake up. Designate a player to eliminate.", choices)
        wait_for(lambda: kind(phone) == "ask")
        assert phone.execute_script("return getComputedStyle(document.body).backgroundColor") == "rgb(0, 0, 0)"
        assert phone.execute_script("return document.documentElement.scrollWidth") <= width
        assert phone.save_screenshot(str(SHOTS / f"ask-{width}.png"))
        server.sleep()
        wait_for(lambda: kind(phone) == "sleep")
        assert phone.save_screenshot(str(SHOTS / f"sleep-{width}.png"))
        assert (SHOTS / f"ask-{width}.png").stat().st_size > 1000


@pytest.mark.parametrize("language", ["en", "fr", "zh"])
def test_a_result_and_the_witchs_steps_fit_a_narrow_and_a_large_screen(language: str,
                                                                      drivers: Callable[..., Any]) -> None:
    """The Witch's potions (her victim shown, then her heal and poison) and the Seer's look with its OK, in the
    table's language, at 360 and 1280 px: dark, nothing wider than the screen."""
    from engine import Fact

    from narrator.phones.device import PhoneAnswers

    voice = load_voice(language)
    texts = {key: text for key, text in voice.lines.items() if key.startswith("phone.")}
    names = ["Ana", "Bao", "Chloé", "Dmitri", "Élise", "Fang"]
    server = PhoneServer(6, texts, language, bind="127.0.0.1", tick=TICK).start()
    device = PhoneAnswers(server, None, voice, names)  # type: ignore[arg-type]  # never waits here
    SHOTS.mkdir(parents=True, exist_ok=True)
    try:
        witch = Call("witch", Phase.NIGHT, 1, Kind.WITCH, actors=(5,), seats=tuple(range(1, 7)),
                     facts=(Fact("victim_shown", {"seat": 3, "potions": ["heal", "poison"]}, secret=True),))
        look = Fact("seer.sees", {"seat": 2, "role": "werewolf"}, secret=True)
        for width, height in ((360, 740), (1280, 900)):
            phone = drivers(width, height)
            phone.get(server.link(5))
            wait_for(lambda: kind(phone) == "sleep")
            device.opened(witch, lambda value: True)
            wait_for(lambda: kind(phone) == "ask")
            phone.find_elements(By.CSS_SELECTOR, "button.choice")[1].click()  # do not save
            assert phone.execute_script("return document.documentElement.scrollWidth") <= width
            assert phone.save_screenshot(str(SHOTS / f"witch-{language}-{width}.png"))
            server.result([5], device.prompt(Call("seer", Phase.NIGHT, 1, Kind.SEAT)), "", device.secret([look]),
                          ok=True)
            wait_for(lambda: phone.find_elements(By.ID, "ok"))
            assert phone.execute_script("return document.documentElement.scrollWidth") <= width
            assert phone.execute_script("return getComputedStyle(document.body).backgroundColor") == "rgb(0, 0, 0)"
            assert phone.save_screenshot(str(SHOTS / f"result-{language}-{width}.png"))
            server.sleep()
    finally:
        server.stop()
