"""The table config: a YAML file a host writes (language, seats, deck, house rules), checked key by key."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from engine import (
    Advice,
    MAX_SEATS,
    MIN_SEATS,
    PRESETS,
    ROLES,
    Rules,
    Table,
    check_deck,
    check_groups,
    preset,
)
from engine.answers import shown
from engine.order import interval
from engine import check_extras
from engine.table import house_rules
from engine.variants import INCOMPATIBLE, VARIANTS
from engine.village import TOKENS, check_buildings

from .errors import UserError
from .names import blank, character_id, closest, control_character, fold_name, look, suggest, written_names
from .table_keys import _LIST_RULES, CALL_FLOOR, DEBATE_TIMER, KEYS, LAST_WORDS, PAUSE, RATE, SPEAKERS
from .voices import Voice, languages, load_voice
from .yamlfile import Document, YamlError, load

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
    ambience: bool = False
    """A night ambience under the lines said with eyes closed (narrator.speak.ambience)."""
    phones: bool = False
    """The players' phones as private screens (narrator.phones), as ``play --phones``."""
    pause: tuple[float, float] = (5.0, 15.0)
    """How long an empty call lasts before the living's answers set the pace (narrator.pacing)."""
    call_floor: float = 5.0
    """The seconds every call made with eyes closed lasts at least."""
    debate_timer: int = 0
    last_words: int = 0
    """The seconds a player voted out may speak (0: no last words)."""
    inputs: tuple[tuple[str, tuple[str, ...]], ...] = (("day", ("keypad", "voice")), ("night", ("keypad",)))
    model: str | None = None
    microphone: str | int | None = None
    buildings_dealt: tuple[tuple[int, str], ...] = ()
    """The building tokens the host gave by seat (``buildings: {seat: token}``); empty: dealt at random."""

    def voice_phases(self) -> frozenset[str]:
        """Returns the phases whose answers may be spoken."""
        return frozenset(phase for phase, inputs in self.inputs if "voice" in inputs)


@dataclass(frozen=True)
class Warned:
    """A warning found in a file: where it is (file:line, and the key) and the advice, which is said in the table's
    language (the host of a Chinese table reads Chinese; the keys and file names stay as written)."""

    where: str
    advice: Advice

    def text(self, voice: Voice) -> str:
        """Returns the warning in ``voice``'s language, its place first."""
        said = voice.text(f"screen.advice_{self.advice.key}", dict(self.advice.values), fragment=True)
        return f"{self.where}: {said}"


@dataclass
class Findings:
    """Problems found while checking a file: errors stop it, warnings are advice."""

    errors: list[str] = field(default_factory=list)
    warnings: list[Warned] = field(default_factory=list)

    def warn(self, where: str, key: str, **values: int | str) -> None:
        """Records the advice ``key`` (the line ``screen.advice_<key>``), filled with ``values``, found at ``where``."""
        self.warnings.append(Warned(where, Advice(key, tuple(values.items()))))

    def said(self, language: str) -> list[str]:
        """Returns the warnings as the table's ``language`` says them."""
        voice = load_voice(language)
        return [warning.text(voice) for warning in self.warnings]

    def fail_if_any(self) -> None:
        """Raises a UserError listing every error, if there is any."""
        if self.errors:
            raise UserError("\n".join(self.errors))


def read_table(data: Any, doc: Document, prefix: tuple[object, ...], found: Findings,
               seats_from_deal: int | None = None, deal_where: str = "") -> TableConfig | None:
    """Checks a table config mapping; records every problem in ``found``; returns the config if it is sound.

    ``seats_from_deal``: a practice script's deal says how many players there are (``deal_where``: its place)."""
    if not isinstance(data, dict):
        found.errors.append(f"{doc.where(*prefix)}: a table config is a mapping of keys ({', '.join(KEYS)})")
        return None
    for key in data:
        if key not in KEYS:
            found.errors.append(f"{doc.where(*prefix, key)}: unknown key {shown(key)}{closest(key, list(KEYS))} "
                                f"(`check --help` lists all {len(KEYS)})")
    return _Reader(data, doc, prefix, found).table(seats_from_deal, deal_where)


@dataclass
class _Reader:
    """Reads one table config mapping, key by key, recording every problem in ``found`` with its place."""

    data: dict[str, Any]
    doc: Document
    prefix: tuple[object, ...]
    found: Findings

    def at(self, key: str, *more: object) -> str:
        """Returns the place of a key (or of an item of its value) in the file."""
        return self.doc.where(*self.prefix, key, *more)

    def bad(self, key: str, got: object) -> None:
        """Records a value that is not what ``key`` expects."""
        self.found.errors.append(f"{self.at(key)}: {key}: expected {KEYS[key]}; got {shown(got)}")

    def table(self, seats_from_deal: int | None, deal_where: str) -> TableConfig | None:
        """Reads every key, then checks the whole table; returns the config if it is sound."""
        data, found = self.data, self.found
        start = len(found.errors)
        language = data.get("language", "en")
        if not isinstance(language, str) or language not in languages():
            found.errors.append(f"{self.at('language')}: language: no voice file for {shown(language)}; "
                                f"languages: {', '.join(languages())}")
        names, seats = self.seats()
        if seats_from_deal is not None:
            if seats is not None and seats != seats_from_deal:
                found.errors.append(f"{self.at('seats')}: seats: {seats} seats, but the deal has {seats_from_deal}")
            seats = seats_from_deal
            if not self.deck_fits_deal(seats_from_deal, deal_where):
                return None
        deck, seats = self.deck(seats, seats_from_deal)
        deal = data.get("deal", "app")
        if deal not in ("app", "cards"):
            self.bad("deal", deal)
        rules = self.house_rules()
        groups = read_groups(data.get("groups"))
        if groups is None:
            self.bad("groups", data.get("groups"))
            groups = ()
        speech = self.speech()
        pacing = self.pacing()
        hearing = self.hearing()
        actor_cards, seance_cards = self.cards()
        tokens, given = _buildings(data.get("buildings"), self.at("buildings"), seats, found)
        if deck is not None and seats is not None and len(found.errors) == start:
            self.check_deck(seats, deck, groups, rules.get("variants", ()))
        if len(found.errors) > start or seats is None:
            return None
        table = Table(seats, deck or (), Rules(**rules), groups=groups, actor_cards=actor_cards,
                      seance_cards=seance_cards, buildings=tokens)
        for problem in check_extras(table):
            key = next((k for k in ("town_crier", "seance_cards") if problem.startswith(k)), "actor_cards")
            found.errors.append(f"{self.at(key) if key in data else self.at('deck')}: {problem}")
        if len(found.errors) > start:
            return None
        return TableConfig(language=str(language), table=table, names=names, deal=str(deal),
                           source=self.doc.path, buildings_dealt=given, **speech, **pacing, **hearing)

    def seats(self) -> tuple[tuple[str | None, ...], int | None]:
        """Reads ``seats``: a number, or the players' names; returns (names, number of seats)."""
        names: tuple[str | None, ...] = ()
        seats: int | None = None
        raw_seats = self.data.get("seats")
        if isinstance(raw_seats, bool):
            self.bad("seats", raw_seats)
        elif isinstance(raw_seats, int):
            seats = raw_seats
        elif isinstance(raw_seats, list):
            if all(isinstance(n, (str, int)) and not isinstance(n, bool) for n in raw_seats):
                given = tuple(str(n) for n in raw_seats)
                names, seats = given, len(given)
                for seat, name in enumerate(raw_seats, start=1):
                    control = control_character(str(name))
                    if control:
                        self.found.errors.append(f"{self.at('seats', seat - 1)}: seats: seat {seat}'s name "
                                                 f"{shown(name)} holds {control}; a name is plain text, shown on "
                                                 "the screen and said aloud")
                self.names_apart(given)
            else:
                self.bad("seats", raw_seats)
        elif raw_seats is not None:
            self.bad("seats", raw_seats)
        if seats is not None and not MIN_SEATS <= seats <= MAX_SEATS:
            self.found.errors.append(f"{self.at('seats')}: seats: a table has {MIN_SEATS} to {MAX_SEATS} players, "
                                     f"not {shown(seats)}")
            seats = None
        return names, seats

    def names_apart(self, names: tuple[str, ...]) -> None:
        """Warns about a blank name, and names the table could not tell apart on the screen or aloud: the same
        letters but for case, spaces, accents' forms or letters of another script that look alike."""
        seen: dict[str, int] = {}
        for seat, name in enumerate(names, start=1):
            if blank(name):
                self.found.warn(f"{self.at('seats', seat - 1)}: seats", "blank_name", number=seat, name=shown(name))
                continue
            key = look(name)
            if key in seen:
                self.found.warn(f"{self.at('seats', seat - 1)}: seats", "names_alike", number=seat, name=shown(name),
                                other=seen[key], other_name=shown(names[seen[key] - 1]))
            else:
                seen[key] = seat

    def deck_fits_deal(self, seats_from_deal: int, deal_where: str) -> bool:
        """Returns whether a deck given without seats fits the deal's number of players; records it if not."""
        raw_deck = self.data.get("deck")
        if isinstance(raw_deck, list) and "seats" not in self.data:
            # The deal says how many players there are: a deck of another size is named as the deal's
            # mistake, once, rather than as the deck's consequences.
            thief = any(isinstance(c, str) and character_id(c) == "thief" for c in raw_deck)
            implied = len(raw_deck) - (2 if thief else 0)
            if implied != seats_from_deal:
                thief_cards = ", plus the Thief's two centre cards" if thief else ""
                self.found.errors.append(f"{deal_where}: deal: {seats_from_deal} seats are dealt, but the deck has "
                                         f"cards for {implied} players (one card a seat{thief_cards})")
                return False
        return True

    def deck(self, seats: int | None, seats_from_deal: int | None) -> tuple[tuple[str, ...] | None, int | None]:
        """Reads ``deck`` or ``preset``; returns the deck and the number of seats (the deck's, if not given)."""
        data, found = self.data, self.found
        deck: tuple[str, ...] | None = None
        if "deck" in data and "preset" in data:
            found.errors.append(f"{self.at('preset')}: give either deck or preset, not both")
        elif "deck" in data:
            raw = data["deck"]
            if not isinstance(raw, list) or not all(isinstance(c, str) for c in raw):
                self.bad("deck", raw)
                return None, seats
            named = [character_id(card) for card in raw]  # Salvateur as guard, 女巫 as witch
            for i, (card, role) in enumerate(zip(raw, named)):
                if role is None:
                    hint = closest(card, sorted({*ROLES, *(name for name, _ in written_names())}), fold=fold_name)
                    found.errors.append(f"{self.at('deck', i)}: deck: unknown character {shown(card)}"
                                        f"{hint} (`check --help` lists all {len(ROLES)})")
            deck = tuple(role or card for card, role in zip(raw, named))
            if seats is None:
                seats = len(deck) - (2 if "thief" in deck else 0)
                if "thief" in deck and seats < MIN_SEATS:
                    found.errors.append(f"{self.at('deck')}: deck: {len(deck)} cards with the Thief make {seats} "
                                        f"players (one card a player plus the Thief's 2 centre cards); a table "
                                        f"has {MIN_SEATS} to {MAX_SEATS} players")
                    seats = None
        elif "preset" in data:
            name = data["preset"]
            if not isinstance(name, str) or name not in PRESETS:
                self.bad("preset", name)
            elif seats is None:
                found.errors.append(f"{self.at('preset')}: preset: say how many players with 'seats'")
            else:
                try:
                    deck = preset(str(name), seats)
                except ValueError as exc:
                    found.errors.append(f"{self.at('preset')}: preset: {exc}")
        elif seats_from_deal is None:
            found.errors.append(f"{self.doc.where(*self.prefix)}: the table needs a deck: 'deck' (a list of "
                                f"characters) or 'preset'")
        return deck, seats

    def house_rules(self) -> dict[str, Any]:
        """Reads the house rules the table sets, as engine.Rules declares them: each of its type, among its
        choices or within its bounds; a list of variants as _variants checks it. Returns them by name."""
        rules: dict[str, Any] = {}
        for rule in house_rules():
            if rule.name in _LIST_RULES or rule.name not in self.data:
                continue
            value = self.data[rule.name]
            # type(): true is not a number here, though Python's bool is an int
            if (type(value) is rule.kind and (not rule.choices or value in rule.choices)
                    and (rule.bounds is None or isinstance(value, int) and rule.bounds[0] <= value <= rule.bounds[1])):
                rules[rule.name] = value
            else:
                self.bad(rule.name, value)
        chosen = _variants(self.data, self.doc, self.prefix, self.found)
        if chosen:
            rules["variants"] = chosen
        return rules

    def speech(self) -> dict[str, Any]:
        """Reads how lines are said: ``speaker``, ``voice``, ``rate``, ``device``, ``ambience``."""
        data = self.data
        speaker = data.get("speaker", "auto")
        if speaker not in SPEAKERS:
            self.bad("speaker", speaker)
        voice = data.get("voice")
        if voice is not None and not isinstance(voice, str):
            self.bad("voice", voice)
        rate = data.get("rate")
        if rate is not None and not RATE.holds(rate):
            self.bad("rate", rate)
        device = data.get("device")
        if device is not None and (isinstance(device, bool) or not isinstance(device, (str, int))):
            self.bad("device", device)
        ambience = data.get("ambience", False)
        if not isinstance(ambience, bool):
            self.bad("ambience", ambience)
        phones = data.get("phones", False)
        if not isinstance(phones, bool):
            self.bad("phones", phones)
        return {"speaker": str(speaker), "voice": voice, "rate": rate, "device": device, "ambience": ambience,
                "phones": phones}

    def pacing(self) -> dict[str, Any]:
        """Reads how long calls and days last: ``pause``, ``call_floor``, ``debate_timer``, ``last_words``."""
        data = self.data
        pause = data.get("pause", [5, 15])
        if (not isinstance(pause, list) or len(pause) != 2
                or not all(PAUSE.holds(p) for p in pause)
                or pause[0] > pause[1]):
            self.bad("pause", pause)
            pause = [5, 15]
        floor = data.get("call_floor", 5)
        if not CALL_FLOOR.holds(floor):
            self.bad("call_floor", floor)
            floor = 5
        elif "pause" in data and pause[1] < floor:
            self.found.warn(f"{self.at('pause')}: pause", "pause_under_floor", pause=shown(pause), floor=shown(floor))
        timer = data.get("debate_timer", 0)
        if not DEBATE_TIMER.holds(timer):
            self.bad("debate_timer", timer)
            timer = 0
        last_words = data.get("last_words", 0)
        if not LAST_WORDS.holds(last_words):
            self.bad("last_words", last_words)
            last_words = 0
        return {"pause": (float(pause[0]), float(pause[1])), "call_floor": float(floor), "debate_timer": timer,
                "last_words": last_words}

    def hearing(self) -> dict[str, Any]:
        """Reads how answers are heard: ``inputs``, ``model``, ``microphone``."""
        data = self.data
        default_inputs = {"night": ["keypad"], "day": ["keypad", "voice"]}
        inputs = data.get("inputs", default_inputs)
        if (not isinstance(inputs, dict) or not set(inputs) <= {"night", "day"}
                or not all(isinstance(v, list) and v and all(isinstance(x, str) for x in v)
                           and set(v) <= {"keypad", "voice"} for v in inputs.values())):
            self.bad("inputs", inputs)
            inputs = default_inputs
        inputs = {**default_inputs, **inputs}
        model = data.get("model")
        if model is not None and not isinstance(model, str):
            self.bad("model", model)
            model = None
        microphone = data.get("microphone")
        if microphone is not None and (isinstance(microphone, bool) or not isinstance(microphone, (str, int))):
            self.bad("microphone", microphone)
            microphone = None
        return {"inputs": tuple((k, tuple(v)) for k, v in sorted(inputs.items())), "model": model,
                "microphone": microphone}

    def cards(self) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
        """Reads the cards a table adds beside its deck: the Actor's and the Gypsy's séance cards."""
        actor_cards: tuple[str, ...] = ()
        raw_cards = self.data.get("actor_cards", [])
        if not isinstance(raw_cards, list) or not all(isinstance(c, str) for c in raw_cards):
            self.bad("actor_cards", raw_cards)
        else:
            actor_cards = tuple(raw_cards)
        seance_cards: tuple[tuple[str, ...], ...] = ()
        raw_seance = self.data.get("seance_cards", [])
        if (not isinstance(raw_seance, list)
                or not all(isinstance(c, list) and all(isinstance(q, str) for q in c) for c in raw_seance)):
            self.bad("seance_cards", raw_seance)
        else:
            seance_cards = tuple(tuple(c) for c in raw_seance)
        return actor_cards, seance_cards

    def check_deck(self, seats: int, deck: tuple[str, ...], groups: tuple[tuple[int, ...], ...],
                   variants: tuple[str, ...]) -> None:
        """Checks the deck for the number of seats and the variants, and the Prejudiced Manipulator's groups."""
        data, found = self.data, self.found
        errors, warnings = check_deck(seats, deck, variants)
        place = self.at("deck") if "deck" in data else self.at("preset")
        found.errors += [f"{place}: deck: {e}" for e in errors]
        found.warnings += [Warned(place, advice) for advice in warnings]
        groups_place = self.at("groups") if "groups" in data else place
        found.errors += [f"{groups_place}: groups: {e}" for e in check_groups(seats, deck, groups)]
        if groups and "prejudiced_manipulator" not in deck:
            found.warn(f"{self.at('groups')}: groups", "groups_unused", role="prejudiced_manipulator")


def _buildings(raw: Any, where: str, seats: int | None,
               found: Findings) -> tuple[tuple[str, ...], tuple[tuple[int, str], ...]]:
    """Reads ``buildings``: a list of tokens (dealt at random) or {seat: token}; returns (tokens, given)."""
    if raw is None:
        return (), ()
    given: tuple[tuple[int, str], ...] = ()
    if isinstance(raw, list) and all(isinstance(t, str) for t in raw):
        tokens = tuple(raw)
    elif isinstance(raw, dict) and all(isinstance(k, int) and not isinstance(k, bool) and isinstance(v, str)
                                       for k, v in raw.items()):
        given = tuple(sorted(raw.items()))
        tokens = tuple(t for _, t in given)
        outside = [k for k, _ in given if seats is not None and not 1 <= k <= seats]
        if outside:
            found.errors.append(f"{where}: buildings: seat {outside[0]} is not at this table of {seats}")
    else:
        found.errors.append(f"{where}: buildings: expected {KEYS['buildings']}; got {shown(raw)}")
        return (), ()
    unknown = [t for t in tokens if t not in TOKENS]
    for token in unknown:
        found.errors.append(f"{where}: buildings: unknown building {shown(token)}{suggest(token, list(TOKENS))}; "
                            f"buildings: {', '.join(TOKENS)}")
    if not unknown:
        found.errors += [f"{where}: buildings: {e}" for e in check_buildings(seats or MAX_SEATS, tokens)]
    return tokens, given


def read_groups(raw: Any) -> tuple[tuple[int, ...], ...] | None:
    """Returns the ``groups`` key as two tuples of seats (() when absent), or None when it is not that shape;
    which seats they hold is checked against the table by engine.check_groups."""
    if raw is None:
        return ()
    if (not isinstance(raw, list) or len(raw) != 2
            or not all(isinstance(g, list) and g and all(isinstance(s, int) and not isinstance(s, bool) for s in g)
                       for g in raw)):
        return None
    return tuple(tuple(g) for g in raw)


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
    return config, found.said(config.language)


def config_to_dict(config: TableConfig) -> dict[str, Any]:
    """Returns a config as plain data (for a game's journal)."""
    table = config.table
    return {"language": config.language, "names": list(config.names), "seats": table.seats,
            "deck": list(table.deck), "groups": [list(g) for g in table.groups],
            "rules": dataclasses.asdict(table.rules), "deal_mode": config.deal,
            "actor_cards": list(table.actor_cards), "seance_cards": [list(c) for c in table.seance_cards],
            "source": config.source, "speaker": config.speaker, "voice": config.voice, "rate": config.rate,
            "device": config.device, "ambience": config.ambience, "phones": config.phones, "pause": list(config.pause),
            "call_floor": config.call_floor, "debate_timer": config.debate_timer, "last_words": config.last_words,
            "inputs": {k: list(v) for k, v in config.inputs}, "model": config.model,
            "microphone": config.microphone, "buildings": list(table.buildings),
            "buildings_dealt": [list(pair) for pair in config.buildings_dealt]}


def ruled_before(rules: dict[str, Any]) -> dict[str, Any]:
    """Returns a journal's house rules with what a journal from before a ruling played by (docs/rules.md): the
    Three Brothers woke with the Sisters, and the Devoted Servant kept the card's first-night choice."""
    rules = dict(rules)
    sisters = rules.get("sisters_interval", 0)
    if "brothers_interval" not in rules and type(sisters) is int:  # else the reader names the bad value
        rules["brothers_interval"] = interval("sisters_interval", rules.get("sisters_wake") is True,
                                              {"sisters_interval": sisters})
    rules.setdefault("servant_chooses_again", False)
    return rules


def config_from_dict(data: Any, where: str) -> TableConfig:
    """Returns the config a journal saved, checked as a table config file is (every key's type and bounds, the
    language, the players' names, the deck): a journal is a file like any other, and may have been changed. A
    damaged one is a UserError naming ``where``."""
    try:
        written = _as_written(data)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise UserError(f"{where}: the journal's table is damaged ({shown(str(exc))})") from None
    found = Findings()
    config = read_table(written, Document(where, written), (), found)
    source = data.get("source", "")
    if not isinstance(source, str) or control_character(source):
        found.errors.append(f"{where}: source: expected the table config's file name; got {shown(source)}")
    if found.errors or config is None:
        raise UserError(f"{where}: the journal's table is damaged:\n" + "\n".join(found.errors))
    return dataclasses.replace(config, source=source)


def _as_written(data: Any) -> dict[str, Any]:
    """Returns a journal's table (config_to_dict's) as a table config file would give it, to be read as one.
    Keys added since a journal was written take their defaults (the call floor, the last words, the ambience)."""
    if not isinstance(data, dict) or not isinstance(data["rules"], dict):
        raise TypeError("not a mapping")
    names, seats = data.get("names") or [], data["seats"]
    if names and seats != len(names):
        raise ValueError(f"{seats} seats but {len(names)} names")
    written: dict[str, Any] = {
        "language": data["language"], "seats": names or seats, "deck": data["deck"],
        **ruled_before(data["rules"]), "deal": data["deal_mode"], "actor_cards": data.get("actor_cards", []),
        "seance_cards": data.get("seance_cards", []), "ambience": data.get("ambience", False),
        "phones": data.get("phones", False), "pause": data["pause"], "call_floor": data.get("call_floor", TableConfig.call_floor),
        "debate_timer": data["debate_timer"], "last_words": data.get("last_words", 0), "inputs": data["inputs"],
        **{key: data[key] for key in ("speaker", "voice", "rate", "device", "model", "microphone")
           if data.get(key) is not None}}
    if not written.get("variants", True):
        del written["variants"]
    if data.get("groups"):
        written["groups"] = data["groups"]
    if data.get("buildings_dealt"):
        written["buildings"] = {seat: token for seat, token in data["buildings_dealt"]}
    elif data.get("buildings"):
        written["buildings"] = data["buildings"]
    return written
