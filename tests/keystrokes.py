"""The keys a table presses on the keypad to give an answer (the inverse of narrator.asking)."""

from __future__ import annotations

import random
from typing import Any, Callable, Iterable, Iterator

from engine import Answer, Call, Game, IllegalAnswer, Kind, Step, deal_cards
from engine.calls import declared_calls


def legal_in(game: Game) -> Callable[[Answer], bool]:
    """Returns whether the engine takes an answer to ``game``'s running call (its check, as a device asks it)."""
    def legal(value: Answer) -> bool:
        try:
            game.check(value)
        except IllegalAnswer:
            return False
        return True
    return legal


def seat(n: int | None) -> list[str]:
    """A seat (or 0 for nobody), Enter, then Enter to confirm the read-back."""
    return [*str(n or 0), "enter", "enter"]


def keys_for(call: Call, value: Any) -> list[str]:
    """Returns the keys that answer ``call`` with ``value``."""
    if not call.live or declared_calls()[call.id].traits.announces:
        return []
    if call.kind is Kind.NONE:
        return ["enter"]
    if call.kind is Kind.DRAW:
        return []  # the program draws: no key (the variants)
    if call.kind is Kind.SEAT:
        return seat(value)
    if call.kind is Kind.SEATS and call.picks == 0:
        return [k for s in value or () for k in (*str(s), "enter")] + ["0", "enter", "enter"]
    if call.kind is Kind.SEATS:
        return [k for s in value for k in (*str(s), "enter")] + ["enter"]
    if call.kind is Kind.YES_NO:
        return ["1" if value else "0", "enter", "enter"]
    if call.kind is Kind.SIDE:
        return ["2" if value == "wolf" else "1", "enter", "enter"]
    if call.kind is Kind.CARD:
        return [str(value or 0), "enter", "enter"]
    if call.kind is Kind.NUMBER:
        return [*str(value or 0), "enter", "enter"]
    if call.kind is Kind.SEANCE:
        if value is None:
            return ["0", "enter", "enter"]
        numbers = (value["card"], value["question"], value["asker"])
        return [k for n in numbers for k in (*str(n), "enter")] + ["enter"]
    if call.kind is Kind.WITCH:
        shown = next((dict(f.values) for f in call.facts if f.key == "victim_shown"), {})
        potions: Any = shown.get("potions") or []
        keys: list[str] = []
        if "heal" in potions and shown.get("seat") is not None:
            keys += ["1" if value.get("heal") else "0", "enter", "enter"]
        if value.get("heal") and shown.get("one_in_all"):
            return keys
        if "poison" in potions:
            keys += seat(value.get("poison"))
        return keys
    if isinstance(value, dict) and "tie" in value:
        return ["tie"] + [k for s in value["tie"] for k in (*str(s), "enter")] + ["0", "enter", "enter"]
    return seat(value)


TMUX_KEYS = {"enter": "Enter", "back": "BSpace", "undo": "u", "repeat": "r", "tie": "t", "rollcall": "v", "menu": "m"}
"""How tmux send-keys names each key."""


def after(step: Step, cards_on_screen: bool = True) -> list[str]:
    """The Enter that tells the narrator those awake have read what their answer revealed; with the cards on the
    screen (deal: app), the two Enters of the Confessor who sees a card there (one to see it, one to hide it)."""
    keys = ["enter"] if any(f.secret for f in step.facts) else []
    confessions = sum(f.key == "confessor.confesses" for f in step.facts) if cards_on_screen else 0
    return keys + ["enter", "enter"] * confessions


def after_on_phones(step: Step, phones: bool) -> list[str]:
    """The keys `after` a step, when the call was answered on the awake seats' ``phones``: a secret result's Enter is
    the OK given on a phone."""
    keys = after(step)
    return keys[1:] if phones and any(fact.secret for fact in step.facts) else keys


def random_legal(game: Game, call: Call, rng: random.Random) -> Any:
    """A random legal answer to ``call`` (None for a call that needs none)."""
    return rng.choice(game.legal()) if call.needs_answer else None


def answered_ahead(game: Game, rng: random.Random,
                   choose: Callable[[Game, Call, random.Random], Any] = random_legal) -> Iterator[tuple[Call, Any, Step]]:
    """Plays ``game`` to its end, each call answered as ``choose`` says (by default a random legal answer, drawn
    from ``rng``); yields each call, its answer and the step it made."""
    while not game.over:
        call = game.call
        assert call is not None
        value = choose(game, call, rng)
        yield call, value, game.answer(value)


def plan_keys(config: Any, seed: int) -> tuple[list[str], Game]:
    """Plays ``config``'s game ahead with random legal answers (the deal from ``seed``); returns every key
    the table will press, from the deal on the screen to the winner, and the finished game."""
    game = Game(config.table, deal_cards(config.table, seed))
    keys = ["enter"] * 3 * config.table.seats  # the deal: show, hide, back to the seat
    for call, value, step in answered_ahead(game, random.Random(seed)):
        keys += keys_for(call, value) + after(step)
    return keys, game


class ScriptedKeys:
    """Keys from a list, each typed as it is read (narrator.keypad.Keys); raises EOFError when they run out. Keys
    typed while nobody reads (`stray`) wait in the buffer, read first, until `drain` forgets them."""

    def __init__(self, keys: Iterable[str]) -> None:
        self.keys = list(keys)
        self.buffered: list[str] = []

    def stray(self, *keys: str) -> None:
        """Types ``keys`` now, while the narrator reads none (a floor's wait, a dead character's call)."""
        self.buffered += keys

    def read(self, timeout: float | None = None) -> str | None:
        if self.buffered:
            return self.buffered.pop(0)
        if not self.keys:
            if timeout is not None:
                return None
            raise EOFError("no more keys")
        return self.keys.pop(0)

    def meanwhile(self, seconds: float) -> str | None:
        """A call made for nobody reads the keys typed while it waits (`stray`), never those planned for the calls
        to come; with none, its time has passed."""
        return self.buffered.pop(0) if self.buffered else None

    def drain(self) -> None:
        self.buffered.clear()

    def close(self) -> None:
        pass


class Recorder:
    """A speaker that remembers what it said."""

    name = "recorder"
    renders_ahead = False
    not_ready_told = ""

    def __init__(self) -> None:
        self.said: list[str] = []

    def say(self, text: str) -> None:
        self.said.append(text)

    def prepare(self, texts: Iterable[str]) -> int:
        return 0

    def close(self) -> None:
        pass
