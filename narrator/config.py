"""The table config: a YAML file a host writes (language, seats, deck, house rules), checked key by key."""

from __future__ import annotations

import dataclasses
import difflib
import unicodedata
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
    check_groups,
    preset,
)
from engine.answers import shown
from engine.roles.actor import LENDABLE
from engine.table import check_extras
from engine.variants import INCOMPATIBLE, VARIANTS
from engine.village import TOKENS, check_buildings

from .errors import UserError
from .voices import languages
from .yamlfile import Document, YamlError, load

# The speech backends a table may ask for (narrator.speak.BACKENDS).
SPEAKERS = ("auto", "piper", "pyttsx3", "console")

KEYS: dict[str, str] = {
    "language": "the narrator's language: one of the voice files (en, fr, zh)",
    "seats": f"the number of players ({MIN_SEATS} to {MAX_SEATS}), or a list of their names, clockwise from seat 1",
    "deck": "a list of character ids, one card a player (plus the Thief's two centre cards)",
    "preset": "a deck preset for the number of seats: " + ", ".join(sorted(PRESETS)),
    "deal": "app (the program shuffles and deals) or cards (real cards are dealt)",
    "sheriff": "true or false: elect a Sheriff, when sheriff_elected says (default true)",
    "call_dead": "true or false: call eliminated or powerless characters anyway, for fair play (default true)",
    "reveal_roles": "true or false: reveal an eliminated player's card (default true)",
    "sisters_wake": "true or false: the Two Sisters (and the Three Brothers) wake again on even nights, as "
                    "sisters_interval: 2 (default false)",
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
    # The Sheriff, votes, calls and characters' house rules (issue 6).
    "sheriff_elected": "start or first_day: when the Sheriff is elected, before the first night or on the first "
                       "day before its vote (default start)",
    "sheriff_double_vote": "true or false: the Sheriff's vote counts double (default true)",
    "sheriff_breaks_ties": "true or false: the Sheriff chooses among the tied (false: a run-off among the "
                           "tied; default true)",
    "votes_may_be_skipped": "true or false: a vote may end with nobody eliminated (false: the village must name "
                            "someone, except after a second tie; default true)",
    "skip_idle_calls": "true or false: skip every call with nothing to do, for the dead and for those who could "
                       "only pass (it gives secrets away; default false)",
    "big_bad_wolf_loses_power": "true or false: the Big Bad Wolf loses his second victim once a werewolf is "
                                "eliminated (default true)",
    "white_werewolf_interval": "a number of nights, 1 to 10: the White Werewolf wakes every that many nights "
                               "(default 2: nights 2, 4, 6...)",
    "sisters_interval": "a number of nights, 0 to 10: the Two Sisters and the Three Brothers wake again every that "
                        "many nights (0: never, or every 2 with sisters_wake; default 0)",
    "elder_lives": "a number, 1 to 5: the werewolf attacks it takes to kill the Elder (default 2)",
    "elder_revenge": "true or false: killed by the village, the Elder takes the villagers' special powers "
                     "(default true)",
    "idiot_dies_with_elder": "true or false: a revealed Village Idiot dies when the Elder's penalty strikes "
                             "(the Chinese article's option; default false)",
    "infected_bear_tamer_growls": "true or false: an infected Bear Tamer's bear growls every morning (false: only "
                                  "for a werewolf neighbour; default true)",
    "wolf_hound_random": "true or false: the Wolf Hound's side is drawn at random instead of chosen (default false)",
    "piper_charms": "a number, 1 to 3: the players the Piper charms each night (default 2)",
    "piper_keeps_power_if_infected": "true or false: an infected Piper still charms, his goal lost all the same "
                                     "(default false: he becomes a simple werewolf)",
    "groups": "the Prejudiced Manipulator's two public groups: two lists of seats that hold every seat once, "
              "e.g. [[1, 2, 3, 4], [5, 6, 7, 8]] (needed when he is in the deck; default: none)",
    "actor_cards": "with the Actor in the deck: the 3 face-up cards in the middle, character ids not in the deck, "
                   "from " + ", ".join(LENDABLE) + " (no default: the Actor needs them)",
    "seance_cards": "the questions of the Gypsy's 5 séance cards, in the table's language: a list of 5 lists of "
                    "texts (default: none; the narrator then names the card and the question by number)",
    "town_crier": "true or false: the Sheriff names a Town Crier who announces the New Moon's event cards "
                  "(needs sheriff; default false)",
    "buildings": "the Village's building tokens: a list of ids (" + ", ".join(TOKENS) + ") dealt at random, "
                 "one a seat at most, and announced aloud; or {seat: token} to give them yourself (default: none)",
    "speaker": "auto, piper, pyttsx3 or console: how lines are said (default auto: a Piper voice if one is installed "
               "for the language, see `werewolf-narrator voices`; else espeak-ng through pyttsx3; else the console)",
    "voice": "a speech voice id or part of its name (a Piper voice's or espeak-ng's), to override the one chosen "
             "for the language",
    "rate": "the speech rate in words a minute (80 to 400)",
    "device": "the sound output device: its number or part of its name",
    "ambience": "true or false: a soft wind under the night, generated by the program, that masks the players "
                "moving; it ducks under each line and fades out when the table opens its eyes (default false)",
    "call_floor": "a number of seconds, 0 to 60: no call made with eyes closed ends sooner, answered or not, so "
                  "that a quick answer sounds like an empty call (default 5)",
    "pause": "[min, max] seconds, 0 to 120: how long a call made for an eliminated or powerless character lasts "
             "until the living have answered enough calls to set the pace, then as long as theirs did (under "
             "call_floor counts as call_floor; default [5, 15])",
    "debate_timer": "seconds of debate before the vote, with a warning a minute before (0: no timer; default 0)",
    "last_words": "seconds, 0 to 600, of last words for a player the village votes out, counted down on the "
                  "screen; Enter ends them sooner (0: none; default 0)",
    "inputs": "which inputs answer, per phase: keypad and/or voice, e.g. {night: [keypad], day: [keypad, voice]}",
    "model": "the folder of the speech recognition model (default: the one `models fetch` installed for the language)",
    "microphone": "the microphone: its number or part of its name (see `werewolf-narrator devices`)",
    # -- the variants of the Chinese article (engine/variants.py) --
    "variants": "a list of the Chinese article's variants to play: " + ", ".join(VARIANTS) + " (default none)",
}
"""Every key of a table config, with what it expects."""

RULE_KEYS = ("sheriff", "call_dead", "reveal_roles", "sisters_wake", "hunter_shoots_when_poisoned",
             "fox_loses_power_on_miss", "cupid_wins_with_lovers", "guard_same_twice", "guard_protects_little_girl",
             "thief_must_take_werewolf", "werewolves_may_eat_werewolves",
             "sheriff_double_vote", "sheriff_breaks_ties", "votes_may_be_skipped", "skip_idle_calls",
             "big_bad_wolf_loses_power", "elder_revenge", "idiot_dies_with_elder", "infected_bear_tamer_growls",
             "wolf_hound_random", "piper_keeps_power_if_infected", "town_crier")
"""The house rules that are true or false (engine.Rules fields of the same names)."""

NUMBER_RULES = {"white_werewolf_interval": (1, 10), "sisters_interval": (0, 10), "elder_lives": (1, 5),
                "piper_charms": (1, 3)}
"""The house rules that are whole numbers, with their bounds (engine.Rules fields of the same names)."""


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


def closest(word: object, choices: list[str]) -> str:
    """Returns "; did you mean X, Y or Z?" with the choices closest to ``word`` (a list of them all is too long to
    read): up to three, as close as the closest but for a little (a clear misspelling names one); "" for none."""
    if not isinstance(word, str):
        return ""
    ratios = {c: difflib.SequenceMatcher(None, word, c).ratio() for c in difflib.get_close_matches(word, choices, 3)}
    close = [c for c, ratio in ratios.items() if ratio >= max(ratios.values(), default=0) - 0.1]
    if not close:
        return ""
    named = [shown(c) for c in close]
    return f"; did you mean {', '.join(named[:-1]) + ' or ' if len(named) > 1 else ''}{named[-1]}?"


BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""The characters that reorder the text around them (bidi overrides, embeddings, isolates and marks)."""


def control_character(text: str) -> str:
    """Returns what the first control character of ``text`` is (a terminal escape, a line break, a tab, a bidi
    override...), or "" when there is none: such a name could redraw the screen or hide another's text."""
    for char in text:
        category = unicodedata.category(char)
        if char == "\x1b":
            what = "an escape character (a terminal control sequence)"
        elif char in "\n\r" or category in ("Zl", "Zp"):
            what = "a line break"
        elif char == "\t":
            what = "a tab"
        elif char in BIDI_CONTROLS:
            what = "a bidirectional text control"
        elif category == "Cc":
            what = "a control character"
        else:
            continue
        return f"{what} (U+{ord(char):04X})"
    return ""


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
            found.errors.append(f"{doc.where(*prefix, key)}: unknown key {shown(key)}{closest(key, list(KEYS))} "
                                f"(`check --help` lists all {len(KEYS)})")
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
            for seat, name in enumerate(raw_seats, start=1):
                control = control_character(str(name))
                if control:
                    found.errors.append(f"{doc.where(*prefix, 'seats', seat - 1)}: seats: seat {seat}'s name "
                                        f"{shown(name)} holds {control}; a name is plain text, shown on the "
                                        "screen and said aloud")
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
    for key, (low, high) in NUMBER_RULES.items():
        if key in data:
            value = data[key]
            if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high:
                flags[key] = value
            else:
                bad(key, value)
    if "sheriff_elected" in data:
        if data["sheriff_elected"] in ("start", "first_day"):
            flags["sheriff_elected"] = data["sheriff_elected"]
        else:
            bad("sheriff_elected", data["sheriff_elected"])

    groups = read_groups(data.get("groups"))
    if groups is None:
        bad("groups", data.get("groups"))
        groups = ()

    chosen = _variants(data, doc, prefix, found)
    if chosen:
        flags["variants"] = chosen

    speaker = data.get("speaker", "auto")
    if speaker not in SPEAKERS:
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
    ambience = data.get("ambience", False)
    if not isinstance(ambience, bool):
        bad("ambience", ambience)
    pause = data.get("pause", [5, 15])
    if (not isinstance(pause, list) or len(pause) != 2
            or not all(isinstance(p, (int, float)) and not isinstance(p, bool) and 0 <= p <= 120 for p in pause)
            or pause[0] > pause[1]):
        bad("pause", pause)
        pause = [5, 15]
    floor = data.get("call_floor", 5)
    if isinstance(floor, bool) or not isinstance(floor, (int, float)) or not 0 <= floor <= 60:
        bad("call_floor", floor)
        floor = 5
    elif "pause" in data and pause[1] < floor:
        found.warnings.append(f"{at('pause')}: pause: {shown(pause)} ends under call_floor ({shown(floor)} s): "
                              f"until the living set the pace, every call made for the dead will last "
                              f"exactly the floor")
    timer = data.get("debate_timer", 0)
    if isinstance(timer, bool) or not isinstance(timer, int) or not 0 <= timer <= 3600:
        bad("debate_timer", timer)
        timer = 0
    last_words = data.get("last_words", 0)
    if isinstance(last_words, bool) or not isinstance(last_words, int) or not 0 <= last_words <= 600:
        bad("last_words", last_words)
        last_words = 0
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

    actor_cards: tuple[str, ...] = ()
    raw_cards = data.get("actor_cards", [])
    if not isinstance(raw_cards, list) or not all(isinstance(c, str) for c in raw_cards):
        bad("actor_cards", raw_cards)
    else:
        actor_cards = tuple(raw_cards)
    seance_cards: tuple[tuple[str, ...], ...] = ()
    raw_seance = data.get("seance_cards", [])
    if (not isinstance(raw_seance, list)
            or not all(isinstance(c, list) and all(isinstance(q, str) for q in c) for c in raw_seance)):
        bad("seance_cards", raw_seance)
    else:
        seance_cards = tuple(tuple(c) for c in raw_seance)
    tokens, given = _buildings(data.get("buildings"), at("buildings"), seats, found)

    if deck is not None and seats is not None and len(found.errors) == start:
        errors, warnings = check_deck(seats, deck, chosen)
        found.errors += [f"{at('deck') if 'deck' in data else at('preset')}: deck: {e}" for e in errors]
        found.warnings += [f"{at('deck') if 'deck' in data else at('preset')}: {w}" for w in warnings]
        place = at("groups") if "groups" in data else at("deck") if "deck" in data else at("preset")
        found.errors += [f"{place}: groups: {e}" for e in check_groups(seats, deck, groups)]
        if groups and "prejudiced_manipulator" not in deck:
            found.warnings.append(f"{at('groups')}: groups: only the Prejudiced Manipulator uses the groups, "
                                  "and he is not in the deck")
    if len(found.errors) > start or seats is None:
        return None
    table = Table(seats, deck or (), Rules(profile=str(profile), **flags), groups=groups,
                  actor_cards=actor_cards, seance_cards=seance_cards, buildings=tokens)
    for problem in check_extras(table):
        key = next((k for k in ("town_crier", "seance_cards") if problem.startswith(k)), "actor_cards")
        found.errors.append(f"{at(key) if key in data else at('deck')}: {problem}")
    if len(found.errors) > start:
        return None
    return TableConfig(language=str(language), table=table, names=names, deal=str(deal), source=doc.path,
                       speaker=str(speaker), voice=voice, rate=rate, device=device, ambience=ambience,
                       pause=(float(pause[0]), float(pause[1])), call_floor=float(floor), debate_timer=timer,
                       last_words=last_words, inputs=tuple((k, tuple(v)) for k, v in sorted(inputs.items())),
                       model=model, microphone=microphone, buildings_dealt=given)


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
    return config, found.warnings


def config_to_dict(config: TableConfig) -> dict[str, Any]:
    """Returns a config as plain data (for a game's journal)."""
    table = config.table
    return {"language": config.language, "names": list(config.names), "seats": table.seats,
            "deck": list(table.deck), "groups": [list(g) for g in table.groups],
            "rules": dataclasses.asdict(table.rules), "deal_mode": config.deal,
            "actor_cards": list(table.actor_cards), "seance_cards": [list(c) for c in table.seance_cards],
            "source": config.source, "speaker": config.speaker, "voice": config.voice, "rate": config.rate,
            "device": config.device, "ambience": config.ambience, "pause": list(config.pause),
            "call_floor": config.call_floor, "debate_timer": config.debate_timer, "last_words": config.last_words,
            "inputs": {k: list(v) for k, v in config.inputs}, "model": config.model,
            "microphone": config.microphone, "buildings": list(table.buildings),
            "buildings_dealt": [list(pair) for pair in config.buildings_dealt]}


def config_from_dict(data: dict[str, Any], where: str) -> TableConfig:
    """Returns the config a journal saved; a damaged one is a UserError naming ``where``."""
    try:
        table = Table(int(data["seats"]), tuple(data["deck"]), Rules(**data["rules"]),
                      groups=tuple(tuple(int(s) for s in g) for g in data.get("groups", [])),
                      actor_cards=tuple(data.get("actor_cards", ())),
                      seance_cards=tuple(tuple(c) for c in data.get("seance_cards", ())),
                      buildings=tuple(str(t) for t in data.get("buildings", ())))
        return TableConfig(language=str(data["language"]), table=table, names=tuple(data["names"]),
                           deal=str(data["deal_mode"]), source=str(data["source"]), speaker=str(data["speaker"]),
                           voice=data["voice"], rate=data["rate"], device=data["device"],
                           ambience=data.get("ambience", False) is True,  # a journal from before the ambience
                           pause=(float(data["pause"][0]), float(data["pause"][1])),
                           # a journal from before the floor: the game goes on with today's default
                           call_floor=float(data.get("call_floor", TableConfig.call_floor)),
                           debate_timer=int(data["debate_timer"]),
                           last_words=int(data.get("last_words", 0)),  # a journal from before last words: none
                           inputs=tuple((k, tuple(v)) for k, v in sorted(data["inputs"].items())),
                           model=data["model"], microphone=data["microphone"],
                           buildings_dealt=tuple((int(s), str(t)) for s, t in data.get("buildings_dealt", ())))
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise UserError(f"{where}: the journal's table is damaged ({exc})") from None
