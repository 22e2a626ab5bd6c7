"""The table's side: the keypad's read-back and confirmation, undo and repeat, the screen, the deal."""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pytest

from engine import Game, Rules, Table, deal_cards
from helpers import play_keys
from keystrokes import Recorder, ScriptedKeys, plan_keys
from narrator.asking import KeypadAnswers
from narrator.hostmenu import HostMenu, MenuHooks
from narrator.config import TableConfig
from narrator.identify import identification_order
from narrator.journal import read_journal
from narrator.play import STARTER, NewGame
from narrator.screen import NOT_A_TERMINAL, PlainScreen
from narrator.voices import load_voice


def test_a_whole_game_is_played_from_the_keypad(tmp_path: Path) -> None:
    """Deal, every call, the winner: the keypad game ends exactly as the same answers do in the engine."""
    config = TableConfig("en", STARTER.table, pause=(0.0, 0.0))
    keys, ahead = plan_keys(config, 3)
    out = io.StringIO()
    game = play_keys(config, keys, seed=3, start=NewGame(folder=tmp_path), screen=PlainScreen(out))
    assert game.outcome == ahead.outcome
    assert game.eliminated == ahead.eliminated


def answers_for(keys: list[str], day: bool = False) -> tuple[KeypadAnswers, PlainScreen, Recorder, list[str]]:
    out = io.StringIO()
    screen = PlainScreen(out, terminal=True)  # what a terminal shows those awake
    speaker = Recorder()
    voice = load_voice("en")
    repeated: list[str] = []
    answers = KeypadAnswers(ScriptedKeys(keys), screen, voice,
                            say=lambda key, values: speaker.say(voice.text(key, values)),
                            repeat=lambda: repeated.append("again"), sleep=lambda s: None)
    return answers, screen, speaker, repeated


def seer_game() -> Game:
    table = Table(6, ("werewolf", "werewolf", "seer", "villager", "villager", "villager"), Rules(sheriff=False))
    game = Game(table, deal_cards(table, 1))
    game.answer(None)  # nightfall
    return game


def test_every_answer_is_read_back_before_it_counts() -> None:
    """'Seat number seven?' then Enter: Backspace instead changes the answer before the engine sees it."""
    game = seer_game()
    call = game.call
    assert call is not None and call.id == "seer"
    answers, screen, speaker, _ = answers_for(["4", "enter", "back", "5", "enter", "enter"])
    assert answers.answer(call, game) == 5
    assert "Seat number four?" in "".join(screen.out.getvalue())  # type: ignore[attr-defined]
    assert speaker.said == []  # at night the read-back is on the screen only


def test_read_back_by_day_is_said_aloud() -> None:
    """By day the read-back is public: it is said as well as shown."""
    table = Table(6, ("werewolf", "werewolf", "seer", "villager", "villager", "villager"),
                  Rules(sheriff=True))
    game = Game(table, deal_cards(table, 1))
    call = game.call
    assert call is not None and call.id == "sheriff_election"
    answers, _, speaker, _ = answers_for(["3", "enter", "enter"])
    assert answers.answer(call, game) == 3
    assert speaker.said == ["Seat number three?"]


def test_a_seat_beyond_the_table_is_refused_as_its_digit_is_typed() -> None:
    """At a table of six, "1" then "2" is refused at the "2" (on the screen, at night), and the seat is typed
    again from nothing: "12" was refused only once Enter was pressed."""
    game = seer_game()
    call = game.call
    assert call is not None
    answers, screen, speaker, _ = answers_for(["1", "2", "4", "enter", "enter"])
    assert answers.answer(call, game) == 4
    out = screen.out.getvalue()  # type: ignore[attr-defined]
    refusal = load_voice("en").text("refusal.no_such_seat", {"seat": 12})
    assert refusal in out and "Seat number one?" not in out and speaker.said == []
    assert out.index(refusal) < out.index("Seat number four?")


def test_undo_takes_back_the_first_lover_while_cupid_is_called() -> None:
    """Undo within the running call: the first seat typed for Cupid is taken back."""
    table = Table(6, ("werewolf", "werewolf", "cupid", "villager", "villager", "villager"), Rules(sheriff=False))
    game = Game(table, deal_cards(table, 1))
    game.answer(None)
    call = game.call
    assert call is not None and call.id == "cupid"
    answers, _, _, _ = answers_for(["1", "enter", "undo", "2", "enter", "4", "enter", "enter"])
    assert answers.answer(call, game) == [2, 4]


def test_repeat_says_the_call_again() -> None:
    """R (or the keypad's .) repeats the call, then the answer goes on."""
    game = seer_game()
    call = game.call
    assert call is not None
    answers, _, _, repeated = answers_for(["repeat", "2", "enter", "enter"])
    assert answers.answer(call, game) == 2
    assert repeated == ["again"]


def test_a_call_for_the_dead_waits_a_random_pause_without_input() -> None:
    """Fair play: no key is read for a call made for an eliminated character; the pause is random."""
    game = seer_game()
    call = game.call._replace(live=False)  # type: ignore[union-attr]
    waits: list[float] = []
    out = io.StringIO()
    answers = KeypadAnswers(ScriptedKeys([]), PlainScreen(out), load_voice("en"), say=lambda k, v: None,
                            repeat=lambda: None, pause=(3.0, 8.0), rng=random.Random(4), sleep=waits.append,
                            clock=lambda: 0.0)
    assert answers.answer(call, game) is None
    assert len(waits) == 1 and 3.0 <= waits[0] <= 8.0


LOOK = re.compile(r"[Ss]eat (number )?\w+,? is (the|a) ")
"""The Seer's look on the screen ("Seat number two is a Simple Werewolf.")."""


def test_secrets_are_cleared_when_their_call_ends(tmp_path: Path) -> None:
    """The Seer's look is on the screen during her call only."""
    config = TableConfig("en", Table(6, ("werewolf", "werewolf", "seer", "villager", "villager", "villager"),
                                     Rules(sheriff=False)), pause=(0.0, 0.0))
    keys, _ = plan_keys(config, 2)
    screen = PlainScreen(io.StringIO())
    cleared: list[list[str]] = []
    original = screen.clear

    def clear() -> None:
        cleared.append(list(screen.state.secrets))
        original()
        assert screen.state.secrets == []

    screen.clear = clear  # type: ignore[method-assign]
    play_keys(config, keys, seed=2, start=NewGame(folder=tmp_path), screen=screen)
    assert any(any(LOOK.search(s) for s in secrets) for secrets in cleared)


def test_cards_identification_wakes_each_character_in_the_first_nights_order() -> None:
    """deal: cards: characters are identified in the first night's order, the Thief first."""
    table = Table(8, ("thief", "cupid", "seer", "werewolf", "werewolf", "hunter", "villager", "villager",
                      "villager", "villager"), Rules())
    assert identification_order(table) == ["thief", "cupid", "seer", "werewolf", "hunter"]


def test_cards_deal_builds_the_game_from_the_seats_typed(tmp_path: Path) -> None:
    """Real cards: the seats typed and the Thief's centre cards make the deal; leftovers are villagers."""
    table = Table(8, ("thief", "seer", "werewolf", "werewolf", "hunter", "villager", "villager", "villager",
                      "villager", "villager"), Rules(sheriff=False))
    config = TableConfig("en", table, deal="cards", pause=(0.0, 0.0))
    kinds = sorted(set(table.deck))  # the Thief picks the centre cards from this numbered list
    centre = [kinds.index("villager") + 1, kinds.index("werewolf") + 1]
    keys = ["enter"]  # every player has looked at their card
    keys += ["1", "enter", "enter"]  # the Thief is seat 1
    keys += [str(centre[0]), "enter", str(centre[1]), "enter", "enter"]
    keys += ["2", "enter", "enter"]  # the Seer
    keys += ["3", "enter", "enter"]  # one werewolf card; the other is in the centre
    keys += ["4", "enter", "enter"]  # the Hunter
    out = io.StringIO()
    screen = PlainScreen(out)
    try:
        play_keys(config, keys, seed=1, start=NewGame(folder=tmp_path), screen=screen)
    except EOFError:
        pass  # the keys end with the identification; the game itself is not played here
    journals = list(tmp_path.glob("*.jsonl"))
    assert len(journals) == 1
    header, _ = read_journal(str(journals[0]))
    assert header["deal"] == ["thief", "seer", "werewolf", "hunter", "villager", "villager", "villager",
                              "villager"]
    assert sorted(header["centre"]) == ["villager", "werewolf"]


def main_screen(output: str) -> str:
    """What stays on a terminal's main screen and in its scrollback: all but the alternate screen's parts."""
    kept = []
    for part in output.split("\x1b[?1049h"):
        kept.append(part.split("\x1b[?1049l", 1)[1] if "\x1b[?1049l" in part else part)
    return "".join(kept)


def seer_table_game(tmp_path: Path, screen: PlainScreen, wrong_key_at_night: bool = False) -> Game:
    config = TableConfig("en", Table(6, ("werewolf", "werewolf", "seer", "witch", "villager", "villager"),
                                     Rules(sheriff=False)), pause=(0.0, 0.0))
    keys, _ = plan_keys(config, 2)
    if wrong_key_at_night:
        keys.insert(3 * 6, "other")  # the deal's keys come first: at the first night's first call answered
    return play_keys(config, keys, seed=2, start=NewGame(folder=tmp_path), screen=screen)


def test_plain_screen_on_a_terminal_shows_a_secret_in_the_alternate_screen_gone_when_its_call_ends(
        tmp_path: Path) -> None:
    """--plain in a terminal: the Seer's look, the pack's victim, every read-back are printed in the alternate
    screen, which the call's end leaves: nothing of them stays on the screen or in the scrollback."""
    out = io.StringIO()
    game = seer_table_game(tmp_path, PlainScreen(out, terminal=True))
    output = out.getvalue()
    kept = main_screen(output)
    assert output.count("\x1b[?1049h") == output.count("\x1b[?1049l") > 0
    assert LOOK.search(output) and "The Werewolves' victim: seat" in output  # shown to those awake
    assert "[screen]" not in kept and "  > " not in kept  # none of it stays: no secret, prompt or read-back
    winner = load_voice("en").text(f"end.{game.outcome.winner}", {})  # type: ignore[union-attr]
    assert "Fortune Teller, wake up" in kept and winner in kept  # what was said stays, as in a log


def test_plain_screen_off_a_terminal_never_writes_a_secret(tmp_path: Path) -> None:
    """--plain into a pipe or a log: no secret, prompt or read-back is written; it says so once."""
    out = io.StringIO()
    seer_table_game(tmp_path, PlainScreen(out))
    output = out.getvalue()
    assert output.count(NOT_A_TERMINAL) == 1
    assert "[screen]" not in output and "  > " not in output
    assert not LOOK.search(output) and "The Werewolves' victim: seat" not in output
    assert "Fortune Teller, wake up" in output


def test_plain_screen_keeps_a_wrong_keys_hint_at_night_in_the_alternate_screen(tmp_path: Path) -> None:
    """A wrong key at night printed "That key does nothing here" on the main screen, right under the call
    it was typed at (in the scrollback, it told that someone was awake there): it is the call's, gone with it."""
    out = io.StringIO()
    seer_table_game(tmp_path, PlainScreen(out, terminal=True), wrong_key_at_night=True)
    hint = load_voice("en").text("screen.wrong_key", {})
    assert hint in out.getvalue() and hint not in main_screen(out.getvalue())


def test_the_village_shown_from_the_host_menu_says_enter_goes_back_not_the_menus_entries() -> None:
    """After the menu's 4, its title stayed above the village shown, its entries listed but doing nothing
    (only Enter went back); the prompt now says what works."""
    game = seer_game()
    call = game.call
    assert call is not None
    answers, screen, _, _ = answers_for(["menu", "4", "3", "enter", "2", "enter", "enter"])
    answers.host_menu = HostMenu(answers, MenuHooks(public_state=lambda: "Night 1 · alive: 1 2 3 4 5 6"))
    assert answers.answer(call, game) == 2
    out = screen.out.getvalue()  # type: ignore[attr-defined]
    voice = load_voice("en")
    shown = out.index("Night 1 · alive: 1 2 3 4 5 6")
    assert out.index(f"> {voice.text('menu.back', {})}", shown) < out.index("Seat number two?")


def test_with_cards_on_the_screen_the_confessor_sees_the_card_on_the_screen_eyes_closed(tmp_path: Path) -> None:
    """With deal: app, "Ben, show your card in secret to the Confessor" — but Ben has no card. The table
    closes its eyes, the Confessor comes to the screen, sees seat 7's card, hides it; then everyone opens their eyes."""
    from engine import Deal
    from keystrokes import after, keys_for

    roles = ("werewolf", "villager", "villager", "villager", "villager", "villager", "werewolf", "villager")
    table = Table(8, roles, Rules(sheriff=False), buildings=("confessor",))
    config = TableConfig("en", table, pause=(0.0, 0.0))
    deal = Deal(roles, (), ((2, "confessor"),))
    game, keys = Game(table, deal), []
    while game.call is not None and game.call.id != "vote":
        call = game.call
        value = {"werewolves": 8, "confessor": 7}.get(call.id) if call.needs_answer else None
        keys += keys_for(call, value) + after(game.answer(value))  # the Confessor's: to see the card, to hide it
    out, speaker, voice = io.StringIO(), Recorder(), load_voice("en")
    with pytest.raises(EOFError):  # the keys run out at the vote
        play_keys(config, keys, seed=1, start=NewGame(folder=tmp_path, deal=deal),
                  screen=PlainScreen(out, terminal=True), speaker=speaker)
    said = [voice.spoken(voice.text(key, values)) for key, values in (
        ("confessor.to_screen", {"seat": 7}), ("confessor.from_screen", {}))]
    assert voice.spoken(voice.text("confessor.confesses", {"seat": 7})) not in speaker.said
    assert speaker.said[speaker.said.index(said[0]) + 1] == said[1]
    shown = voice.text("confessor.sees", {"seat": 7, "role": "werewolf"})
    assert shown in out.getvalue() and shown not in main_screen(out.getvalue())


def test_the_witch_is_shown_the_potions_she_has_left_once_she_heals() -> None:
    """After her heal, the poison's question stood under "Potions left: healing, poison" (stale): the list
    is shown again as it is now, in the place of the stale one, and again whole if she takes the heal back."""
    table = Table(6, ("werewolf", "witch", "villager", "villager", "villager", "villager"), Rules(sheriff=False))
    game = Game(table, deal_cards(table, 1))
    while game.call is not None and game.call.id != "witch":
        game.answer(game.legal()[0] if game.call.needs_answer else None)
    call = game.call
    assert call is not None
    answers, screen, _, _ = answers_for(["1", "enter", "enter", "undo", "1", "enter", "enter", "0", "enter", "enter"])
    assert answers.answer(call, game) == {"heal": True, "poison": None}
    out = screen.out.getvalue()  # type: ignore[attr-defined]
    voice = load_voice("en")
    left = voice.text("screen.potions", {"potions": voice.lines["screen.potion.poison"]})
    both = voice.text("screen.potions", {"potions": voice.join([voice.lines["screen.potion.heal"],
                                                                 voice.lines["screen.potion.poison"]])})
    shown = [line.split("[screen] ", 1)[1] for line in out.splitlines() if "Potions left" in line]
    assert shown == [both, left, both, left]
    assert screen.state.secrets == [left]  # one list at a time: what she holds now
