"""The end's recap, on the terminal and in a Markdown file beside the journal: the deal (the Thief's card as
taken), every call's answer and what it brought, the lovers, the potions, the Seer's looks, the Sheriff's history,
every elimination with its cause; in the table's language; never before the game's end."""

from __future__ import annotations

import dataclasses
import io
import random
import stat
from pathlib import Path

import pytest

from engine import Deal, Game, Table
from engine.roles import cupid
from helpers import play_keys
from keystrokes import Recorder, plan_keys
from narrator.config import TableConfig
from narrator.play import STARTER, NewGame
from narrator.recap import build_recap, markdown
from narrator.voices import load_voice

APP = TableConfig("en", STARTER.table, pause=(0.0, 0.0))
SEED = 3


def played(config: TableConfig, keys: list[str], folder: Path) -> tuple[Game, str]:
    out = io.StringIO()
    game = play_keys(config, keys, seed=SEED, start=NewGame(folder=folder), out=out)
    return game, out.getvalue()


@pytest.mark.parametrize("language, recap, kept", [("fr", "(récapitulatif : {})", "(journal : {})"),
                                                  ("zh", "（复盘：{}）", "（记录：{}）")])
def test_the_recap_s_files_are_named_in_the_table_s_language(tmp_path: Path, language: str, recap: str,
                                                            kept: str) -> None:
    """After a game at a French or Chinese table, where the recap and the journal are: in its language (they
    were English), each path whole on its own line, to be copied."""
    config = dataclasses.replace(APP, language=language)
    keys, _ = plan_keys(config, SEED)
    _, printed = played(config, keys, tmp_path)
    journal = next(tmp_path.glob("game-*.jsonl"))
    assert printed.endswith(f"{recap.format(journal.with_suffix('.md'))}\n{kept.format(journal)}\n")


def test_the_recap_is_written_beside_the_journal_and_printed_once_the_game_is_over(tmp_path: Path) -> None:
    keys, ahead = plan_keys(APP, SEED)
    game, printed = played(APP, keys, tmp_path)
    voice = load_voice("en")
    journal = next(tmp_path.glob("game-*.jsonl"))
    recap = journal.with_suffix(".md").read_text(encoding="utf-8")
    assert stat.S_IMODE(journal.with_suffix(".md").stat().st_mode) == 0o600  # the whole deal: as private as the journal
    assert recap == markdown(build_recap(game, voice)) and recap in printed
    assert f"(recap: {journal.with_suffix('.md')})" in printed
    for seat, card in enumerate(game.deal.roles, start=1):
        assert f"- {voice.text('summary.deal', {'seat': seat, 'role': card})}" in recap
    lovers = cupid.lovers(game)
    assert voice.text("screen.lovers", {"seats": list(lovers)}) in recap
    for e in game.eliminated:
        assert voice.text("summary.eliminated", {"when": voice.text(f"summary.{e.phase.value}", {"number": e.number}),
                                                 "seat": e.seat, "role": e.role, "cause": e.cause}) in recap
    assert game.outcome is not None and voice.text(f"end.{game.outcome.winner}", {}) in recap
    looks = recap[recap.index("## The Fortune Teller's looks"):]  # the English rulebook's name for the Seer
    seen = [value for call, value in zip(game.calls, game.journal) if call.id == "seer" and isinstance(value, int)]
    assert seen  # every look, with the card seen, as the screen showed it to the Seer
    for seat in seen:
        assert voice.text("screen.seer_sees", {"seat": seat, "role": game.card(seat)}) in looks
    assert "## The Witch's potions" in recap
    assert "becomes Sheriff." in recap[recap.index("## The Sheriff"):]  # elected before the first night


def test_no_recap_is_written_for_a_game_stopped_before_its_end(tmp_path: Path) -> None:
    keys, _ = plan_keys(APP, SEED)
    with pytest.raises(EOFError):
        played(APP, keys[:40], tmp_path)
    assert list(tmp_path.glob("*.md")) == []


def test_the_thief_s_card_is_shown_as_taken() -> None:
    """The Thief who took a werewolf card is "Thief → Simple Werewolf" in the deal; the centre cards are named."""
    table = Table(6, ("thief", "werewolf", "seer", "villager", "villager", "villager", "werewolf", "villager"))
    deal = Deal(("thief", "werewolf", "seer", "villager", "villager", "villager"), ("werewolf", "villager"))
    game = Game(table, deal)
    rng = random.Random(1)
    while not game.over:
        call = game.call
        assert call is not None
        if call.id == "thief" and call.needs_answer:
            game.answer(1)  # the werewolf card
        else:
            game.answer(rng.choice(game.legal()) if call.needs_answer else None)
    recap = markdown(build_recap(game, load_voice("en")))
    assert "- Seat number one: Thief → Simple Werewolf." in recap
    assert "In the centre: Simple Werewolf and Simple Villager." in recap
    assert "You are now" not in recap  # the Thief's screen line, said to him alone, is not the recap's


@pytest.mark.parametrize(("language", "kept"), [("en", "Thief · Keeps their card"), ("fr", "Voleur · Garde sa carte"),
                                               ("zh", "小偷 · 保留自己的牌")])
def test_a_thief_who_keeps_his_card_is_told_so_not_spoken_to(language: str, kept: str) -> None:
    """The recap read "Thief · Keep your card", the read-back said to him: it tells the table what he did."""
    table = Table(6, ("thief", "werewolf", "seer", "villager", "villager", "villager", "werewolf", "villager"))
    game = Game(table, Deal(("thief", "werewolf", "seer", "villager", "villager", "villager"), ("werewolf", "villager")))
    while game.call is not None and game.call.id != "thief":
        game.answer(game.legal()[0] if game.call.needs_answer else None)  # the Sheriff's election, the nightfall
    game.answer(None)  # he keeps his card
    rng = random.Random(1)
    while not game.over:
        game.answer(rng.choice(game.legal()) if game.call is not None and game.call.needs_answer else None)
    recap = markdown(build_recap(game, load_voice(language)))
    assert f"- {kept}" in recap and load_voice(language).text("answer.keep", {}) not in recap


def test_the_recap_is_in_the_table_s_language(tmp_path: Path) -> None:
    french = TableConfig("fr", STARTER.table, pause=(0.0, 0.0))
    keys, _ = plan_keys(french, SEED)
    _, printed = played(french, keys, tmp_path)
    assert "# La partie en détail" in printed and "## La distribution" in printed
    assert "## Les éliminations" in printed and "The deal" not in printed


def test_a_sheriff_who_dies_and_names_his_successor_is_one_line_of_the_history(tmp_path: Path) -> None:
    keys, _ = plan_keys(APP, SEED)
    _, printed = played(APP, keys, tmp_path)
    history = [line for line in printed[printed.index("## The Sheriff"):printed.index("## Eliminations")]
               .splitlines() if line.startswith("- ")]
    assert history == ["- Before the first night: seat number four becomes Sheriff.", "- Day 1: seat number one becomes Sheriff."]


def roll_call_game(secret: int = 0) -> tuple[str, dict[str, int]]:
    """Plays a game whose first vote is a roll call, every voter naming the first seat offered (the first
    ``secret`` voters on their phones); returns its recap, in English, and the ballots."""
    table = Table(6, ("werewolf", "seer", "villager", "villager", "villager", "werewolf"))
    game = Game(table, Deal(table.deck, ()))
    rng = random.Random(2)
    ballots = None
    while not game.over:
        call = game.call
        assert call is not None
        if call.id == "vote" and call.needs_answer and ballots is None:
            ballots = {str(voter): call.seats[0] for voter in game.living()}
            cast = [int(voter) for voter in ballots][:secret]
            game.answer({"ballots": ballots, **({"secret": cast} if cast else {})})
        else:
            game.answer(rng.choice(game.legal()) if call.needs_answer else None)
    assert ballots is not None
    return markdown(build_recap(game, load_voice("en"))), ballots


def test_a_roll_call_vote_is_told_voter_by_voter() -> None:
    recap, ballots = roll_call_game()
    voice = load_voice("en")
    target = voice.seat(next(iter(ballots.values())))
    assert f"{voice.seat(int(next(iter(ballots))))} → {target}" in recap


def test_a_game_whose_lines_were_not_all_rendered_ends_with_the_command_that_renders_them(tmp_path: Path) -> None:
    """The status line told the host at the first line not ready; the full screen is gone at the end, the next game
    is when the command helps: it is printed again after the recap."""
    keys, _ = plan_keys(APP, SEED)
    told = "Lines not rendered yet are said by espeak-ng. Before the next game, run: werewolf-narrator voices render en"
    speaker = Recorder()
    speaker.not_ready_told = told
    out = io.StringIO()
    play_keys(APP, keys, seed=SEED, start=NewGame(folder=tmp_path), speaker=speaker, out=out)
    assert out.getvalue().rstrip().endswith(f"(journal: {next(tmp_path.glob('game-*.jsonl'))})\n{told}")
    _, printed = played(APP, keys, tmp_path / "all-ready")
    assert "Before the next game" not in printed


def test_the_recap_lists_each_dawn_victim_on_its_own_and_says_when_in_the_table_s_style() -> None:
    """The second victim of a dawn was nested under the first; the looks said "night 1: ..." with an English
    colon in a Chinese recap."""
    from engine import Rules

    table = Table(6, ("werewolf", "witch", "seer", "villager", "villager", "villager"), Rules(sheriff=False))
    game = Game(table, Deal(table.deck, ()))
    plan = {"werewolves": 4, "witch": {"heal": False, "poison": 5}, "seer": 1, "vote": 1}
    while not game.over:
        call = game.call
        assert call is not None
        game.answer(plan[call.id] if call.id in plan else None if call.optional or not call.needs_answer
                    else game.legal()[0])
    en = markdown(build_recap(game, load_voice("en"))).splitlines()
    assert "- Seat number five has been eliminated. Their card: Simple Villager." in en  # not "  - ", under seat four
    assert "- Night 1: seat number one · Seat number one is a Simple Werewolf." in en
    zh = markdown(build_recap(game, load_voice("zh"))).splitlines()
    assert "- 五号出局了，身份是村民。" in zh and "- 第1夜：一号 · 一号是狼人。" in zh


def test_the_sheriffs_tie_break_is_named_as_such_and_day_zero_in_digits_in_chinese() -> None:
    from narrator.recap import who

    voice = load_voice("en")
    game = Game(STARTER.table, Deal(STARTER.table.deck, ()))
    call = game.call
    assert call is not None
    assert who(voice, call._replace(id="sheriff_tiebreak")) == "The Sheriff's tie-break"
    assert who(voice, call._replace(id="sheriff_election")) == "The Sheriff's election"
    zh = load_voice("zh")
    assert zh.text("screen.day_zero", {}).startswith(zh.text("summary.night", {"number": 1}))


def test_ballots_cast_in_secret_on_the_phones_stay_secret_in_the_recap() -> None:
    """A vote whose ballots were cast on the players' phones is secret for good: the recap, made to be shared,
    says it was a secret ballot and never who voted for whom (the tally and its result were said aloud)."""
    recap, _ = roll_call_game(secret=2)
    assert "- The vote · Secret ballots\n" in recap and "→" not in recap
