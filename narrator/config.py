"""The table config: a YAML file a host writes (language, seats, deck, house rules), checked key by key as
narrator.table_keys declares them. A game's journal keeps the same mapping, read back by the same reader."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from engine import (
    Advice,
    MAX_SEATS,
    MIN_SEATS,
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
from engine.events import CARDS
from engine.variants import INCOMPATIBLE, VARIANTS
from engine.village import TOKENS, check_buildings

from .errors import UserError
from .names import (blank, character_id, closest, control_character, fold_name, look, markup_like, suggest,
                    too_long, written_names)
from .table_keys import DECLARED, KEYS, plain
from .voices import Voice, languages, load_voice
from .yamlfile import Document, YamlError, load


def _seconds(pause: Any) -> tuple[float, float]:
    """Returns ``pause`` (``[min, max]`` as a file gives it) as TableConfig holds it."""
    return float(pause[0]), float(pause[1])


def _phases(inputs: Any) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Returns ``inputs`` (``{phase: [input, ...]}`` as a file gives it, every phase not named taking its default)
    as TableConfig holds it: the phases in order, each with its inputs."""
    return tuple((phase, tuple(given)) for phase, given in sorted({**DECLARED["inputs"].default, **inputs}.items()))


@dataclass(frozen=True)
class TableConfig:
    """A checked table config: everything the narrator needs to set up a game. Each setting a key gives has the
    key's name and its declared default (narrator.table_keys)."""

    language: str
    table: Table
    names: tuple[str | None, ...] = ()
    deal: str = DECLARED["deal"].default
    source: str = ""
    speaker: str = DECLARED["speaker"].default
    voice: str | None = None
    rate: int | None = None
    device: str | int | None = None
    ambience: bool = DECLARED["ambience"].default
    """A night ambience under the lines said with eyes closed (narrator.speak.ambience)."""
    phones: bool = DECLARED["phones"].default
    """The players' phones as private screens (narrator.phones), as ``play --phones``."""
    pause: tuple[float, float] = _seconds(DECLARED["pause"].default)
    """How long an empty call lasts before the living's answers set the pace (narrator.pacing)."""
    call_floor: float = float(DECLARED["call_floor"].default)
    """The seconds every call made with eyes closed lasts at least."""
    debate_timer: int = DECLARED["debate_timer"].default
    last_words: int = DECLARED["last_words"].default
    """The seconds a player voted out may speak (0: no last words)."""
    inputs: tuple[tuple[str, tuple[str, ...]], ...] = _phases({})
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


FIRST = ("language", "seats", "deck", "preset")
"""The keys read before the others, by readers of their own: the table's size, which the others' checks need."""


@dataclass
class _Reader:
    """Reads one table config mapping, key by key, recording every problem in ``found`` with its place."""

    data: dict[str, Any]
    doc: Document
    prefix: tuple[object, ...]
    found: Findings
    refused: set[str] = field(default_factory=set)
    """The keys whose value is not what they expect."""

    def at(self, key: str, *more: object) -> str:
        """Returns the place of a key (or of an item of its value) in the file."""
        return self.doc.where(*self.prefix, key, *more)

    def bad(self, key: str, got: object) -> None:
        """Records a value that is not what ``key`` expects."""
        self.found.errors.append(f"{self.at(key)}: {key}: expected {KEYS[key]}; got {shown(got)}")
        self.refused.add(key)

    def table(self, seats_from_deal: int | None, deal_where: str) -> TableConfig | None:
        """Reads every key, then checks the whole table; returns the config if it is sound."""
        data, found = self.data, self.found
        start = len(found.errors)
        language = data.get("language", DECLARED["language"].default)
        if not DECLARED["language"].holds(language):
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
        got = self.keys(seats)
        rules = Rules(**{name: got.pop(name) for name, key in DECLARED.items() if key.rule is not None})
        groups = tuple(tuple(group) for group in got.pop("groups") or ())
        tokens, given = got.pop("buildings")
        if deck is not None and seats is not None and len(found.errors) == start:
            self.check_deck(seats, deck, groups, rules.variants)
        if len(found.errors) > start or seats is None:
            return None
        table = Table(seats, deck or (), rules, groups=groups, actor_cards=tuple(got.pop("actor_cards") or ()),
                      seance_cards=tuple(tuple(card) for card in got.pop("seance_cards") or ()), buildings=tokens,
                      real_cards=got["deal"] == "cards")
        for problem in check_extras(table):
            key = next((k for k in ("town_crier", "seance_cards", "events") if problem.startswith(k)), "actor_cards")
            found.errors.append(f"{self.at(key) if key in data else self.at('deck')}: {problem}")
        if len(found.errors) > start:
            return None
        # What is left is how the narrator deals, speaks, paces and hears: TableConfig's settings, by the same names.
        settings = {**got, "pause": _seconds(got["pause"]), "call_floor": float(got["call_floor"]),
                    "inputs": _phases(got["inputs"])}
        return TableConfig(language=str(language), table=table, names=names, source=self.doc.path,
                           buildings_dealt=given, **settings)

    def keys(self, seats: int | None) -> dict[str, Any]:
        """Reads the keys after the deck, in the order they are declared: each checked against its shape, the
        variants and the buildings by readers of their own. Returns every key's value, its default when the key is
        absent or refused."""
        data = self.data
        own: dict[str, Callable[[], Any]] = {
            "variants": lambda: _names(data, "variants", VARIANTS, self.doc, self.prefix, self.found),
            "events": lambda: _names(data, "events", CARDS, self.doc, self.prefix, self.found),
            "buildings": lambda: _buildings(data.get("buildings"), self.at("buildings"), seats, self.found)}
        got: dict[str, Any] = {}
        for name, key in DECLARED.items():
            if name in FIRST:
                continue
            if key.own:
                got[name] = own[name]()
                continue
            got[name] = data.get(name, key.default)
            if name in data and not key.holds(got[name]):
                self.bad(name, got[name])
                got[name] = key.default
        if "pause" in data and "call_floor" not in self.refused and got["pause"][1] < got["call_floor"]:
            self.found.warn(f"{self.at('pause')}: pause", "pause_under_floor", pause=shown(list(got["pause"])),
                            floor=shown(got["call_floor"]))
        return got

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
                self.names_bounded(given)
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

    def names_bounded(self, names: tuple[str, ...]) -> None:
        """Refuses a name longer than MAX_NAME characters (the phones' frames are sized for the longest)."""
        for seat, name in enumerate(names, start=1):
            long = too_long(name)
            if long:
                self.found.errors.append(f"{self.at('seats', seat - 1)}: seats: seat {seat}'s name {shown(name)} "
                                         f"{long}")

    def names_apart(self, names: tuple[str, ...]) -> None:
        """Warns about a blank name, and names the table could not tell apart on the screen or aloud: the same
        letters but for case, spaces, accents' forms or letters of another script that look alike."""
        seen: dict[str, int] = {}
        for seat, name in enumerate(names, start=1):
            if blank(name):
                self.found.warn(f"{self.at('seats', seat - 1)}: seats", "blank_name", number=seat, name=shown(name))
                continue
            if markup_like(name):
                self.found.warn(f"{self.at('seats', seat - 1)}: seats", "markup_name", number=seat, name=shown(name))
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
            if not DECLARED["preset"].holds(name):
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
    if not unknown and tokens and seats is not None and len(tokens) < seats:
        # The Village gives every player a token (a Vagabond's among them): a seat without one is the table's
        # choice, not the box's, so the host is told what it means before the game.
        found.warn(f"{where}: buildings", "buildings_short", count=seats - len(tokens), players=seats)
    return tokens, given



def _names(data: dict[str, Any], key: str, names: Mapping[str, str], doc: Document, prefix: tuple[object, ...],
           found: Findings) -> tuple[str, ...]:
    """Reads a list of names (``variants``, the event cards of ``events``): known names, each once, in the order
    given, and no two variants that cannot be played together."""
    raw = data.get(key, [])
    if raw is None:
        return ()
    if isinstance(raw, str):
        raw = [raw]  # a single name may be given without brackets
    if not isinstance(raw, list):
        found.errors.append(f"{doc.where(*prefix, key)}: {key}: expected {KEYS[key]}; got {shown(raw)}")
        return ()
    what = "variant" if key == "variants" else "event card"
    chosen: list[str] = []
    for i, name in enumerate(raw):
        if not isinstance(name, str) or name not in names:
            found.errors.append(f"{doc.where(*prefix, key, i)}: {key}: unknown {what} {shown(name)}"
                                f"{suggest(name, list(names))}; {key}: {', '.join(names)}")
        elif name in chosen:
            found.errors.append(f"{doc.where(*prefix, key, i)}: {key}: {name} is named twice")
        else:
            chosen.append(name)
    for pair, why in INCOMPATIBLE.items() if key == "variants" else ():
        if pair <= set(chosen):
            first, second = sorted(pair)
            found.errors.append(f"{doc.where(*prefix, key)}: {key}: {first} and {second} cannot be "
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




# -- the table a game's journal keeps ------------------------------------------------------------------------------


def table_mapping(config: TableConfig) -> dict[str, Any]:
    """Returns the table config as a file gives it, every key written (the deck as its ids, not a preset): the mapping
    a game's journal keeps, read back by read_table as a file is (config_from_journal)."""
    table = config.table
    written: dict[str, Any] = {
        "language": config.language, "seats": list(config.names) or table.seats, "deck": list(table.deck),
        **{name: plain(getattr(table.rules, name)) for name, key in DECLARED.items() if key.rule is not None},
        "groups": plain(table.groups) or None, "actor_cards": list(table.actor_cards),
        "seance_cards": plain(table.seance_cards), "buildings": dict(config.buildings_dealt) or list(table.buildings)
        or None, "inputs": {phase: list(given) for phase, given in config.inputs}}
    for name in DECLARED:
        if name not in written and name != "preset":
            written[name] = plain(getattr(config, name))  # deal, speaker, ...: the settings of the same names
    return {name: written[name] for name in DECLARED if name in written}


def journal_table(config: TableConfig) -> dict[str, Any]:
    """Returns what a game's journal header holds of its table: the config (``table_mapping``) and the file it was
    read from."""
    return {"config": table_mapping(config), "source": config.source}


def config_from_journal(header: Any, where: str) -> TableConfig:
    """Returns the table a game's journal header keeps (``journal_table``'s), checked as a table config file is
    (every key's type and bounds, the language, the players' names, the deck): a journal is a file like any other,
    and may have been changed. A damaged one is a UserError naming ``where``."""
    header = header if isinstance(header, dict) else {}
    data, source = header.get("config"), header.get("source", "")
    if isinstance(data, dict) and "rules" in data:  # no table config has that key: the journal's shape before
        source = data.get("source", "")
        try:
            data = _old_shape(data)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise UserError(f"{where}: the journal's table is damaged ({shown(str(exc))})") from None
    elif isinstance(data, dict) and isinstance(data.get("buildings"), dict):
        # JSON writes a mapping's keys as text: the seats the buildings were given to come back as numbers.
        data = {**data, "buildings": {_seat(k): token for k, token in data["buildings"].items()}}
    found = Findings()
    config = read_table(data, Document(where, data), (), found)
    if not isinstance(source, str) or control_character(source):
        found.errors.append(f"{where}: source: expected the table config's file name; got {shown(source)}")
    if found.errors or config is None:
        raise UserError(f"{where}: the journal's table is damaged:\n" + "\n".join(found.errors))
    return dataclasses.replace(config, source=source)


def _seat(key: object) -> object:
    """Returns a mapping's key that JSON wrote as text ("2") as the seat number it was; any other key as it is."""
    return int(key) if isinstance(key, str) and key.isascii() and key.isdigit() and len(key) <= 7 else key


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




def _old_shape(data: dict[str, Any]) -> dict[str, Any]:
    """Returns a journal's table in the shape journals kept it in until a table config's own (commit 4cca2fd and
    before: config_to_dict's mapping, the names apart from the seats, the house rules nested under "rules", the deal
    as "deal_mode", the source inside) as a table config file would give it, to be read as one. Keys added since
    such a journal was written take their defaults (the call floor, the last words, the ambience), house rules what
    it played by (ruled_before). It can go, with ruled_before, once journals of that shape need no longer resume
    (tests/journals/ holds such journals, and tests/journals/headers/rich_table.jsonl the last of the shape)."""
    if not isinstance(data["rules"], dict):
        raise TypeError("not a mapping")
    names, seats = data.get("names") or [], data["seats"]
    if names and seats != len(names):
        raise ValueError(f"{seats} seats but {len(names)} names")
    written: dict[str, Any] = {
        "language": data["language"], "seats": names or seats, "deck": data["deck"],
        **ruled_before(data["rules"]), "deal": data["deal_mode"], "actor_cards": data.get("actor_cards", []),
        "seance_cards": data.get("seance_cards", []), "ambience": data.get("ambience", False),
        "pause": data["pause"], "call_floor": data.get("call_floor", TableConfig.call_floor),
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
