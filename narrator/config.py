"""The table config: a YAML file a host writes (language, seats, deck, house rules), checked key by key."""

from __future__ import annotations

import dataclasses
import difflib
from dataclasses import dataclass, field
from typing import Any

from engine import (
    MAX_SEATS,
    MIN_SEATS,
    PRESETS,
    PROFILES,
    ROLES,
    Rules,
    Table,
    check_deck,
    preset,
)
from engine.answers import shown
from engine.variants import INCOMPATIBLE, VARIANTS

from .errors import UserError
from .voices import languages
from .yamlfile import Document, YamlError, load

KEYS: dict[str, str] = {
    "language": "the narrator's language: one of the voice files (en, fr, zh)",
    "seats": f"the number of players ({MIN_SEATS} to {MAX_SEATS}), or a list of their names, clockwise from seat 1",
    "deck": "a list of character ids, one card a player (plus the Thief's two centre cards)",
    "preset": "a deck preset for the number of seats: " + ", ".join(sorted(PRESETS)),
    "deal": "app (the program shuffles and deals) or cards (real cards are dealt)",
    "sheriff": "true or false: elect a Sheriff before the first night (default true)",
    "call_dead": "true or false: call eliminated or powerless characters anyway, for fair play (default true)",
    "reveal_roles": "true or false: reveal an eliminated player's card (default true)",
    "sisters_wake": "true or false: the Two Sisters wake again on even nights (default false)",
    "profile": "the call order: " + ", ".join(sorted(PROFILES)) + " (default bestof)",
    "witch_potions": "2, or 1 for the French rules' one-potion Witch (one potion in all, heal or poison; default 2)",
    "hunter_shoots_when_poisoned": "true or false: the Hunter shoots even when poisoned (false: the Chinese "
                                   "rules; default true)",
    "fox_loses_power_on_miss": "true or false: the Fox loses his power when he finds no werewolf (default true)",
    "cupid_wins_with_lovers": "true or false: Cupid wins with lovers of mixed sides (default false)",
    "guard_same_twice": "true or false: the Guard may protect the same player two nights running (default false)",
    "guard_protects_little_girl": "true or false: the Guard's protection covers the Little Girl (default false)",
    "thief_must_take_werewolf": "true or false: shown two werewolf cards, the Thief must take one (default true)",
    "werewolves_may_eat_werewolves": "true or false: the werewolves may devour one of their own (default false)",
    "speaker": "auto, pyttsx3 or console: how lines are said (default auto: speech if this machine can)",
    "voice": "a speech voice id or part of its name, to override the one chosen for the language",
    "rate": "the speech rate in words a minute (80 to 400)",
    "device": "the sound output device: its number or part of its name",
    "pause": "[min, max] seconds to wait at a call made for an eliminated or powerless character "
             "(default [3, 8])",
    "debate_timer": "seconds of debate before the vote, with a warning a minute before (0: no timer; default 0)",
    "inputs": "which inputs answer, per phase: keypad and/or voice, e.g. {night: [keypad], day: [keypad, voice]}",
    "model": "the folder of the speech recognition model (default: the one `models fetch` installed for the language)",
    "microphone": "the microphone: its number or part of its name (see `werewolf-narrator devices`)",
    # -- the variants of the Chinese article (engine/variants.py) --
    "variants": "a list of the Chinese article's variants to play: " + ", ".join(VARIANTS) + " (default none)",
}
"""Every key of a table config, with what it expects."""

RULE_KEYS = ("sheriff", "call_dead", "reveal_roles", "sisters_wake", "hunter_shoots_when_poisoned",
             "fox_loses_power_on_miss", "cupid_wins_with_lovers", "guard_same_twice", "guard_protects_little_girl",
             "thief_must_take_werewolf", "werewolves_may_eat_werewolves")
"""The house rules that are true or false (engine.Rules fields of the same names)."""


@dataclass(frozen=True)
class TableConfig:
    """A checked table config: everything the narrator needs to set up a game."""

    language: str
    table: Table
    names: tuple[str | None, ...] = ()
    deal: str = "app"
    source: str = ""
    speaker: str = "auto"
    voice: str | None = None
    rate: int | None = None
    device: str | int | None = None
    pause: tuple[float, float] = (3.0, 8.0)
    debate_timer: int = 0
    inputs: tuple[tuple[str, tuple[str, ...]], ...] = (("day", ("keypad", "voice")), ("night", ("keypad",)))
    model: str | None = None
    microphone: str | int | None = None

    def voice_phases(self) -> frozenset[str]:
        """Returns the phases whose answers may be spoken."""
        return frozenset(phase for phase, inputs in self.inputs if "voice" in inputs)


@dataclass
class Findings:
    """Problems found while checking a file: errors stop it, warnings are advice."""

    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def fail_if_any(self) -> None:
        """Raises a UserError listing every error, if there is any."""
        if self.errors:
            raise UserError("\n".join(self.errors))


def suggest(word: object, choices: list[str]) -> str:
    """Returns " (did you mean X?)" when ``word`` looks like a misspelling of a choice."""
    if not isinstance(word, str):
        return ""
    close = difflib.get_close_matches(word, choices, n=1)
    return f" (did you mean {shown(close[0])}?)" if close else ""


def read_table(data: Any, doc: Document, prefix: tuple[object, ...], found: Findings,
               seats_from_deal: int | None = None, deal_where: str = "") -> TableConfig | None:
    """Checks a table config mapping; records every problem in ``found``; returns the config if it is sound."""
    where = doc.where(*prefix)
    if not isinstance(data, dict):
        found.errors.append(f"{where}: a table config is a mapping of keys ({', '.join(KEYS)})")
        return None

    def at(key: str) -> str:
        return doc.where(*prefix, key)

    def bad(key: str, got: object) -> None:
        found.errors.append(f"{at(key)}: {key}: expected {KEYS[key]}; got {shown(got)}")

    for key in data:
        if key not in KEYS:
            found.errors.append(f"{doc.where(*prefix, key)}: unknown key {shown(key)}{suggest(key, list(KEYS))}; "
                                f"known keys: {', '.join(KEYS)}")
    start = len(found.errors)

    language = data.get("language", "en")
    if not isinstance(language, str) or language not in languages():
        found.errors.append(f"{at('language')}: language: no voice file for {shown(language)}; "
                            f"languages: {', '.join(languages())}")

    names: tuple[str | None, ...] = ()
    seats: int | None = None
    raw_seats = data.get("seats")
    if isinstance(raw_seats, bool):
        bad("seats", raw_seats)
    elif isinstance(raw_seats, int):
        seats = raw_seats
    elif isinstance(raw_seats, list):
        if all(isinstance(n, (str, int)) and not isinstance(n, bool) for n in raw_seats):
            names = tuple(str(n) for n in raw_seats)
            seats = len(names)
        else:
            bad("seats", raw_seats)
    elif raw_seats is not None:
        bad("seats", raw_seats)
    if seats is not None and not MIN_SEATS <= seats <= MAX_SEATS:
        found.errors.append(f"{at('seats')}: seats: a table has {MIN_SEATS} to {MAX_SEATS} players, not {shown(seats)}")
        seats = None
    if seats_from_deal is not None:
        if seats is not None and seats != seats_from_deal:
            found.errors.append(f"{at('seats')}: seats: {seats} seats, but the deal has {seats_from_deal}")
        seats = seats_from_deal
        raw_deck = data.get("deck")
        if isinstance(raw_deck, list) and "seats" not in data:
            # The deal says how many players there are: a deck of another size is named as the deal's
            # mistake, once, rather than as the deck's consequences.
            implied = len(raw_deck) - (2 if "thief" in raw_deck else 0)
            if implied != seats_from_deal:
                thief = ", plus the Thief's two centre cards" if "thief" in raw_deck else ""
                found.errors.append(f"{deal_where}: deal: {seats_from_deal} seats are dealt, but the deck has "
                                    f"cards for {implied} players (one card a seat{thief})")
                return None

    deck: tuple[str, ...] | None = None
    if "deck" in data and "preset" in data:
        found.errors.append(f"{at('preset')}: give either deck or preset, not both")
    elif "deck" in data:
        raw = data["deck"]
        if not isinstance(raw, list) or not all(isinstance(c, str) for c in raw):
            bad("deck", raw)
        else:
            for i, card in enumerate(raw):
                if card not in ROLES:
                    found.errors.append(f"{doc.where(*prefix, 'deck', i)}: deck: unknown character {shown(card)}"
                                        f"{suggest(card, list(ROLES))}; characters: {', '.join(sorted(ROLES))}")
            deck = tuple(raw)
            if seats is None:
                seats = len(deck) - (2 if "thief" in deck else 0)
                if "thief" in deck and seats < MIN_SEATS:
                    found.errors.append(f"{at('deck')}: deck: {len(deck)} cards with the Thief make {seats} "
                                        f"players (one card a player plus the Thief's 2 centre cards); a table "
                                        f"has {MIN_SEATS} to {MAX_SEATS} players")
                    seats = None
    elif "preset" in data:
        name = data["preset"]
        if not isinstance(name, str) or name not in PRESETS:
            bad("preset", name)
        elif seats is None:
            found.errors.append(f"{at('preset')}: preset: say how many players with 'seats'")
        else:
            try:
                deck = preset(str(name), seats)
            except ValueError as exc:
                found.errors.append(f"{at('preset')}: preset: {exc}")
    elif seats_from_deal is None:
        found.errors.append(f"{where}: the table needs a deck: 'deck' (a list of characters) or 'preset'")

    deal = data.get("deal", "app")
    if deal not in ("app", "cards"):
        bad("deal", deal)
    profile = data.get("profile", "bestof")
    if not isinstance(profile, str) or profile not in PROFILES:
        bad("profile", profile)
    flags: dict[str, Any] = {}
    for key in RULE_KEYS:
        if key in data:
            if isinstance(data[key], bool):
                flags[key] = data[key]
            else:
                bad(key, data[key])
    if "witch_potions" in data:
        if data["witch_potions"] in (1, 2) and not isinstance(data["witch_potions"], bool):
            flags["witch_potions"] = data["witch_potions"]
        else:
            bad("witch_potions", data["witch_potions"])

    chosen = _variants(data, doc, prefix, found)
    if chosen:
        flags["variants"] = chosen

    speaker = data.get("speaker", "auto")
    if speaker not in ("auto", "pyttsx3", "console"):
        bad("speaker", speaker)
    voice = data.get("voice")
    if voice is not None and not isinstance(voice, str):
        bad("voice", voice)
    rate = data.get("rate")
    if rate is not None and (isinstance(rate, bool) or not isinstance(rate, int) or not 80 <= rate <= 400):
        bad("rate", rate)
    device = data.get("device")
    if device is not None and (isinstance(device, bool) or not isinstance(device, (str, int))):
        bad("device", device)
    pause = data.get("pause", [3, 8])
    if (not isinstance(pause, list) or len(pause) != 2
            or not all(isinstance(p, (int, float)) and not isinstance(p, bool) and 0 <= p <= 120 for p in pause)
            or pause[0] > pause[1]):
        bad("pause", pause)
        pause = [3, 8]
    timer = data.get("debate_timer", 0)
    if isinstance(timer, bool) or not isinstance(timer, int) or not 0 <= timer <= 3600:
        bad("debate_timer", timer)
        timer = 0
    default_inputs = {"night": ["keypad"], "day": ["keypad", "voice"]}
    inputs = data.get("inputs", default_inputs)
    if (not isinstance(inputs, dict) or not set(inputs) <= {"night", "day"}
            or not all(isinstance(v, list) and v and all(isinstance(x, str) for x in v)
                       and set(v) <= {"keypad", "voice"} for v in inputs.values())):
        bad("inputs", inputs)
        inputs = default_inputs
    inputs = {**default_inputs, **inputs}
    model = data.get("model")
    if model is not None and not isinstance(model, str):
        bad("model", model)
        model = None
    microphone = data.get("microphone")
    if microphone is not None and (isinstance(microphone, bool) or not isinstance(microphone, (str, int))):
        bad("microphone", microphone)
        microphone = None

    if deck is not None and seats is not None and len(found.errors) == start:
        errors, warnings = check_deck(seats, deck, chosen)
        found.errors += [f"{at('deck') if 'deck' in data else at('preset')}: deck: {e}" for e in errors]
        found.warnings += [f"{at('deck') if 'deck' in data else at('preset')}: {w}" for w in warnings]
    if len(found.errors) > start or seats is None:
        return None
    table = Table(seats, deck or (), Rules(profile=str(profile), **flags))
    return TableConfig(language=str(language), table=table, names=names, deal=str(deal), source=doc.path,
                       speaker=str(speaker), voice=voice, rate=rate, device=device,
                       pause=(float(pause[0]), float(pause[1])), debate_timer=timer,
                       inputs=tuple((k, tuple(v)) for k, v in sorted(inputs.items())),
                       model=model, microphone=microphone)


def _variants(data: dict[str, Any], doc: Document, prefix: tuple[object, ...], found: Findings) -> tuple[str, ...]:
    """Reads the ``variants`` key: known names, each once, no two that cannot be played together."""
    raw = data.get("variants", [])
    if raw is None:
        return ()
    if isinstance(raw, str):
        raw = [raw]  # a single variant may be given without brackets
    if not isinstance(raw, list):
        found.errors.append(f"{doc.where(*prefix, 'variants')}: variants: expected {KEYS['variants']}; got {shown(raw)}")
        return ()
    chosen: list[str] = []
    for i, name in enumerate(raw):
        if not isinstance(name, str) or name not in VARIANTS:
            found.errors.append(f"{doc.where(*prefix, 'variants', i)}: variants: unknown variant {shown(name)}"
                                f"{suggest(name, list(VARIANTS))}; variants: {', '.join(VARIANTS)}")
        elif name in chosen:
            found.errors.append(f"{doc.where(*prefix, 'variants', i)}: variants: {name} is named twice")
        else:
            chosen.append(name)
    for pair, why in INCOMPATIBLE.items():
        if pair <= set(chosen):
            first, second = sorted(pair)
            found.errors.append(f"{doc.where(*prefix, 'variants')}: variants: {first} and {second} cannot be "
                                f"played together: {why}")
    return tuple(chosen)


def load_config(path: str) -> tuple[TableConfig, list[str]]:
    """Loads and checks a table config file; returns it with its warnings, or raises a UserError."""
    try:
        doc = load(path)
    except YamlError as exc:
        raise UserError(str(exc)) from None
    found = Findings()
    config = read_table(doc.data, doc, (), found)
    found.fail_if_any()
    assert config is not None
    return config, found.warnings


def config_to_dict(config: TableConfig) -> dict[str, Any]:
    """Returns a config as plain data (for a game's journal)."""
    table = config.table
    return {"language": config.language, "names": list(config.names), "seats": table.seats,
            "deck": list(table.deck), "rules": dataclasses.asdict(table.rules), "deal_mode": config.deal,
            "source": config.source, "speaker": config.speaker, "voice": config.voice, "rate": config.rate,
            "device": config.device, "pause": list(config.pause), "debate_timer": config.debate_timer,
            "inputs": {k: list(v) for k, v in config.inputs}, "model": config.model,
            "microphone": config.microphone}


def config_from_dict(data: dict[str, Any], where: str) -> TableConfig:
    """Returns the config a journal saved; a damaged one is a UserError naming ``where``."""
    try:
        table = Table(int(data["seats"]), tuple(data["deck"]), Rules(**data["rules"]))
        return TableConfig(language=str(data["language"]), table=table, names=tuple(data["names"]),
                           deal=str(data["deal_mode"]), source=str(data["source"]), speaker=str(data["speaker"]),
                           voice=data["voice"], rate=data["rate"], device=data["device"],
                           pause=(float(data["pause"][0]), float(data["pause"][1])),
                           debate_timer=int(data["debate_timer"]),
                           inputs=tuple((k, tuple(v)) for k, v in sorted(data["inputs"].items())),
                           model=data["model"], microphone=data["microphone"])
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise UserError(f"{where}: the journal's table is damaged ({exc})") from None
