"""Voice files: every line the narrator says or shows, in one language, and how seats and roles are said."""

from __future__ import annotations

import dataclasses
import re
import string
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

from engine.calls import declared_calls, declared_facts
from engine.contract import CallDecl

from .errors import UserError
from .yamlfile import Document, YamlError, load

VOICES_DIR = Path(__file__).resolve().parent.parent / "voices"

# Lines only ever shown on the screen, never said: they keep their numbers as digits (read, and typed on a keypad).
SCREEN_ONLY = ("screen.", "prompt.", "identify.prompt_", "menu.", "summary.", "recap.", "deal.app_show",
               "deal.app_hidden", "confessor.sees", "identify.centre",
               "refusal.twice", "refusal.secret", "phone.")
# Where a sentence has just ended in a template: a value filled in here begins a sentence.
SENTENCE_END = re.compile(r"[.!?…]\s+$")
# Where a template goes on with a word after a placeholder (not a mark, nor the line's end).
WORD_NEXT = re.compile(r"\s*\w")


def said_aloud(key: str) -> bool:
    """Returns whether the line ``key`` may be said aloud (else it is only shown)."""
    return not key.startswith(SCREEN_ONLY)


def call_lines(call: CallDecl) -> tuple[str, ...]:
    """Returns every line a call may be made with: a wake and a sleep line for characters woken at night, a call
    line by day (and an open line when eyes are closed, a signal line when it promises one), the read-backs of
    what a yes does, and the lines picked by a house rule or a variant."""
    traits = call.traits
    lines = [f"{call.id}.wake", f"{call.id}.sleep"] if call.night else []
    lines += [f"{call.id}.call"] if call.day else []
    lines += [f"{call.id}.open"] if traits.eyes_closed else []
    lines += [f"{call.id}.signal"] if traits.signal else []
    lines += [f"answer.{traits.yes_means}", f"answer.no_{traits.yes_means}"] if traits.yes_means else []
    return (*lines, *(f"{call.id}.{line}" for line in traits.ruled_lines))


def declared_lines() -> dict[str, tuple[str, str]]:
    """Returns every line the engine's declaration needs (engine/contract.py): the line's key, with the owner
    (a character, or a part of the game) and the call or fact it tells."""
    needed: dict[str, tuple[str, str]] = {}
    for call in declared_calls().values():
        for line in call_lines(call):
            needed.setdefault(line, (call.owner, f"its call {call.id!r}"))
    for fact in declared_facts().values():
        for line in fact.every_line:
            needed.setdefault(line, (fact.owner, f"its fact {fact.key!r}"))
    return needed


def languages() -> list[str]:
    """Returns the languages that have a voice file."""
    return sorted(p.stem for p in VOICES_DIR.glob("*.yaml"))


def placeholders(template: str) -> set[str]:
    """Returns the names of the ``{placeholders}`` of a line."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@dataclass(frozen=True)
class Voice:
    """One language's lines, seat words and character names."""

    language: str
    lines: Mapping[str, str]
    numbers: Mapping[int, str]
    counts: Mapping[int, str]
    sentence_case: bool
    roles: Mapping[str, str]
    seat_word: str
    seat_named: str
    separator: str
    last_separator: str
    words: Mapping[str, str]
    causes: Mapping[str, str]
    speech: tuple[tuple[str, str], ...]
    named_roles: Mapping[str, str] = dataclasses.field(default_factory=dict)
    """Character names with the article the rulebook gives them ("the Witch", "Cupido"; « la Sorcière »): the
    ``{the_role}`` of "You are {the_role}"."""
    named_close: str = ""
    """What closes a named seat when its sentence goes on ("Ann, seat two, is the Sheriff"): the name and seat
    are heard as one, before the verb."""

    def seat(self, number: int, names: Sequence[str | None] = ()) -> str:
        """Returns how seat ``number`` is said ("seat seven", or "Ann, seat seven" with names)."""
        word = self.numbers.get(number, str(number))
        name = names[number - 1] if 0 < number <= len(names) else None
        if name:
            return self.seat_named.format(name=name, number=word)
        return self.seat_word.format(number=word)

    def number(self, number: int, count: bool = False) -> str:
        """Returns ``number`` as a word (a count as counts are said: zh 两名, not 二名); digits beyond the words."""
        if count and number in self.counts:
            return self.counts[number]
        return self.numbers.get(number, str(number))

    def join(self, items: Sequence[str]) -> str:
        """Joins words as the language lists them ("a, b and c")."""
        if len(items) <= 1:
            return "".join(items)
        return self.separator.join(items[:-1]) + self.last_separator + items[-1]

    def tally(self, totals: Sequence[tuple[int, int]], names: Sequence[str | None] = ()) -> str:
        """Returns each seat's votes of a count as said, in the order given ("seat three, four votes; seat five,
        two votes"); each appended to those before, the separator the language's own. Empty: no votes."""
        said = ""
        for seat, n in totals:
            said = self.text("tally.more" if said else "tally.votes", {"votes": said, "seat": seat, "count": n},
                             names, fragment=True)
        return said

    def spoken(self, text: str) -> str:
        """Returns ``text`` as the speech synthesiser should get it (words it mispronounces replaced)."""
        for written, said in self.speech:
            text = text.replace(written, said)
        return text

    def worded(self, key: str, phones: bool) -> str:
        """Returns the key of the line said for ``key``: at a table with the players' ``phones``, its phones'
        wording, ``<key>_phones``, where the language has one (the lovers come to the screen or look at their
        phone; the host's stop ends the phones' links). The same at every table with phones, whoever holds one."""
        phoned = f"{key}_phones"
        return phoned if phones and phoned in self.lines else key

    def role(self, role: str) -> str:
        """Returns a character's name in this language."""
        return self.roles.get(role, role)

    def text(self, key: str, values: Mapping[str, object] | None = None,
             names: Sequence[str | None] = (), fragment: bool = False) -> str:
        """Returns the line ``key`` with its placeholders filled: seats, lists of seats and roles said; in a line
        that may be said, numbers as words (``{count}`` as a count); a value that begins a sentence capitalised.
        A count of one takes the line's singular, ``<key>_one``, where the language has one ("one player"). A
        ``fragment`` (a piece of a longer line, as each seat's votes in a tally) keeps its first letter as it is."""
        template = self.lines[key]
        if values and values.get("count") == 1 and f"{key}_one" in self.lines:
            template = self.lines[f"{key}_one"]
        filled: dict[str, str] = {}
        for name, value in (values or {}).items():
            if name in ("seat",) and isinstance(value, int):
                filled[name] = self.seat(value, names)
            elif name == "seats" and isinstance(value, (list, tuple)):
                filled[name] = self.join([self.seat(int(s), names) for s in value])
            elif name in ("role", "first", "second") and isinstance(value, str):
                filled[name] = self.role(value)
                if name == "role":
                    filled["the_role"] = self.named_roles.get(value, filled[name])
            elif name == "cause" and isinstance(value, str):
                filled[name] = self.causes.get(value, value)
            elif isinstance(value, bool):
                filled[name] = self.words["yes" if value else "no"]
            elif isinstance(value, int) and said_aloud(key):
                filled[name] = self.number(value, count=name == "count")
            else:
                filled[name] = str(value)
        parsed = list(string.Formatter().parse(template))
        for (_, field, _, _), (after, _, _, _) in zip(parsed, parsed[1:] + [("", None, None, None)]):
            if field in ("seat", "seats") and field in filled and WORD_NEXT.match(after) and self._named_last(
                    values, field, names):
                filled[field] += self.named_close  # "Bruno, joueur deux, devient Capitaine"
        if self.sentence_case:
            for before, field, _, _ in parsed:
                if field in filled and before and SENTENCE_END.search(before):
                    filled[field] = filled[field][:1].upper() + filled[field][1:]
        try:
            text = template.format_map(filled)
        except KeyError as missing:  # never a raw "{number}" said or shown: the caller forgot a value
            raise UnfilledLine(f"the line {key!r} ({self.language}) needs the value {missing.args[0]!r}; "
                               f"given: {', '.join(sorted(filled)) or 'none'}") from None
        if self.sentence_case and not fragment:  # a line may open with a seat or a template's word: "Seat four..."
            text = text[:1].upper() + text[1:]
        return text


    @staticmethod
    def _named_last(values: Mapping[str, object] | None, field: str, names: Sequence[str | None]) -> bool:
        """Returns whether the seat filled in ``field`` (the last one, for a list) is said with its name."""
        value = (values or {}).get(field)
        last = value[-1] if isinstance(value, (list, tuple)) and value else value
        return isinstance(last, int) and 0 < last <= len(names) and bool(names[last - 1])


class UnfilledLine(Exception):
    """A line asked for without a value one of its placeholders needs: a fault of the program, never a line
    with a raw ``{placeholder}`` said or shown."""


def _pairs(doc_path: str, data: object) -> tuple[tuple[str, str], ...]:
    if not isinstance(data, list) or not all(isinstance(p, list) and len(p) == 2 and all(isinstance(w, str) for w in p)
                                             for p in data):
        raise UserError(f"{doc_path}: 'speech' is a list of [written, said] pairs")
    return tuple((p[0], p[1]) for p in data)


def _strings(doc_path: str, data: object, key: str) -> dict[str, str]:
    if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
        raise UserError(f"{doc_path}: '{key}' must map names to text")
    return {str(k): str(v) for k, v in data.items()}


def _numbers(doc: Document, data: object, key: str) -> dict[int, str]:
    if not isinstance(data, dict) or not all(isinstance(k, int) and isinstance(v, str) for k, v in data.items()):
        raise UserError(f"{doc.where(key)}: '{key}' maps numbers to words")
    return dict(data)


def voice_document(language: str) -> Document:
    """Reads ``voices/<language>.yaml``; a missing or malformed file is a UserError saying so."""
    path = VOICES_DIR / f"{language}.yaml"
    if language not in languages():  # a name, never a path to follow ('../x', '/tmp/x')
        raise UserError(f"no voice file for language {language!r}; languages: {', '.join(languages())}")
    try:
        return load(path)
    except YamlError as exc:
        raise UserError(str(exc)) from None


def load_voice(language: str) -> Voice:
    """Loads ``voices/<language>.yaml``; a missing or malformed file is a UserError saying so."""
    doc = voice_document(language)
    path = doc.path
    data = doc.data
    if not isinstance(data, dict):
        raise UserError(f"{path}: a voice file is a mapping (language, numbers, roles, lines, ...)")
    for key in ("numbers", "roles", "lines", "seat", "seat_named", "list_separator", "list_last", "yes_word", "no_word"):
        if key not in data:
            raise UserError(f"{doc.where()}: the key {key!r} is missing")
    numbers = _numbers(doc, data["numbers"], "numbers")
    voice = Voice(
        language=str(data.get("language", language)),
        lines=_strings(str(path), data["lines"], "lines"),
        numbers=dict(numbers),
        counts=_numbers(doc, data.get("counts") or {}, "counts"),
        sentence_case=data.get("sentence_case", True) is not False,
        roles=_strings(str(path), data["roles"], "roles"),
        seat_word=str(data["seat"]),
        seat_named=str(data["seat_named"]),
        separator=str(data["list_separator"]),
        last_separator=str(data["list_last"]),
        words={"yes": str(data["yes_word"]), "no": str(data["no_word"])},
        causes=_strings(str(path), data.get("causes", {}), "causes"),
        speech=_pairs(str(path), data.get("speech") or []),
        named_roles=_strings(str(path), data.get("named_roles") or {}, "named_roles"),
        named_close=str(data.get("named_close", "")),
    )
    _check_declared(doc, voice)
    return voice


def _check_declared(doc: Document, voice: Voice) -> None:
    """Refuses a voice file that lacks a line the engine's declaration needs: at start-up, not mid-game."""
    missing = [(line, owner, what) for line, (owner, what) in declared_lines().items() if line not in voice.lines]
    if missing:
        line, owner, what = missing[0]
        more = f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""
        who = (f"the character {voice.role(owner)!r} ({owner})" if owner in voice.roles
               else f"the {owner!r} part of the game")
        raise UserError(f"{doc.where('lines')}: the {voice.language!r} voice file has no line {line!r}{more}, "
                        f"which {who} needs for {what}")
