"""The keys a table presses on the keypad to give an answer (the inverse of narrator.asking)."""

from __future__ import annotations

from typing import Any

from engine import Call, Kind, Step

ANNOUNCEMENTS = ("nightfall", "dawn", "growl")


def seat(n: int | None) -> list[str]:
    """A seat (or 0 for nobody), Enter, then Enter to confirm the read-back."""
    return [*str(n or 0), "enter", "enter"]


def keys_for(call: Call, value: Any) -> list[str]:
    """Returns the keys that answer ``call`` with ``value``."""
    if not call.live or call.id in ANNOUNCEMENTS:
        return []
    if call.kind is Kind.NONE:
        return ["enter"]
    if call.kind is Kind.SEAT:
        return seat(value)
    if call.kind is Kind.SEATS:
        return [k for s in value for k in (*str(s), "enter")] + ["enter"]
    if call.kind is Kind.YES_NO:
        return ["1" if value else "0", "enter", "enter"]
    if call.kind is Kind.SIDE:
        return ["2" if value == "wolf" else "1", "enter", "enter"]
    if call.kind is Kind.CARD:
        return [str(value or 0), "enter", "enter"]
    if call.kind is Kind.WITCH:
        shown = next((dict(f.values) for f in call.facts if f.key == "victim_shown"), {})
        potions = shown.get("potions") or []
        keys: list[str] = []
        if "heal" in potions and shown.get("seat") is not None:
            keys += ["1" if value.get("heal") else "0", "enter", "enter"]
        if "poison" in potions:
            keys += seat(value.get("poison"))
        return keys
    if isinstance(value, dict) and "tie" in value:
        return ["tie"] + [k for s in value["tie"] for k in (*str(s), "enter")] + ["0", "enter", "enter"]
    return seat(value)


TMUX_KEYS = {"enter": "Enter", "back": "BSpace", "undo": "u", "repeat": "r", "tie": "t", "menu": "m"}
"""How tmux send-keys names each key."""


def after(step: Step) -> list[str]:
    """The Enter that tells the narrator those awake have read what their answer revealed."""
    return ["enter"] if any(f.secret for f in step.facts) else []
