"""The names a table writes: its players' (blank, alike, or carrying a control character) and its characters' (an
id, or a name in any voice file); and the closest choices to a misspelt word, for the messages that name them."""

from __future__ import annotations

import difflib
import functools
import re
import unicodedata
from typing import Callable

from engine import ROLES
from engine.answers import shown

from .voices import languages, load_voice


def suggest(word: object, choices: list[str]) -> str:
    """Returns " (did you mean X?)" when ``word`` looks like a misspelling of a choice."""
    if not isinstance(word, str):
        return ""
    close = difflib.get_close_matches(word, choices, n=1)
    return f" (did you mean {shown(close[0])}?)" if close else ""


def closest(word: object, choices: list[str], fold: Callable[[str], str] = lambda text: text) -> str:
    """Returns "; did you mean X, Y or Z?" with the choices closest to ``word`` (a list of them all is too long to
    read): up to three, as close as the closest but for a little (a clear misspelling names one); "" for none. With
    ``fold``, words and choices are compared as it makes them (case aside), and the choices named as given."""
    if not isinstance(word, str):
        return ""
    given = {fold(c): c for c in choices}
    wanted = fold(word)
    ratios = {c: difflib.SequenceMatcher(None, wanted, c).ratio()
              for c in difflib.get_close_matches(wanted, list(given), 3)}
    close = [c for c, ratio in ratios.items() if ratio >= max(ratios.values(), default=0) - 0.1]
    if not close:
        return ""
    named = [shown(given[c]) for c in close]
    return f"; did you mean {', '.join(named[:-1]) + ' or ' if len(named) > 1 else ''}{named[-1]}?"


LOOK_ALIKES = str.maketrans("аеорсухіјѕԁԛԝһӏαεοριτυνχκмтвн", "aeopcyxijsdqwhlaeopitunxkmtbh")
"""Cyrillic and Greek letters drawn as Latin ones (lower case: names are compared case-folded)."""

BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
"""Letters (Hangul fillers) and a symbol (the blank Braille pattern) that are drawn as nothing."""


def blank(name: str) -> bool:
    """Returns whether a name shows nothing: spaces, invisible formatting, blank letters."""
    return all(c.isspace() or c in BLANKS or unicodedata.category(c) in ("Cf", "Mn", "Me", "Zs") for c in name)


def look(name: str) -> str:
    """Returns how a name looks: compatibility forms unified, case and spaces ignored, accents dropped, letters of
    other scripts drawn like Latin ones read as them ("Zoe" and "Zoë", "Ann" and "Аnn" with a Cyrillic A)."""
    folded = unicodedata.normalize("NFKD", name).casefold()
    plain = "".join(c for c in folded if not unicodedata.combining(c) and not c.isspace()
                    and unicodedata.category(c) not in ("Cf", "Mn"))
    return plain.translate(LOOK_ALIKES)


def fold_name(name: str) -> str:
    """Returns a character's name as a deck's names are compared: composed, case aside, spaces around it dropped."""
    return unicodedata.normalize("NFC", name).strip().casefold()


@functools.lru_cache(maxsize=1)
def written_names() -> tuple[tuple[str, str], ...]:
    """Returns each character's name in each voice file's character names (``roles``), as written there, with its id:
    (Salvateur, guard), (Voyante, seer), (女巫, witch), (Fortune Teller, seer)... The voice files are read once: they do
    not change while the program runs."""
    return tuple(dict.fromkeys((load_voice(language).role(role), role) for language in languages() for role in ROLES))


def character_names() -> dict[str, str]:
    """Returns every name a deck may give a character, by its `fold_name` form: its id (``guard``) and its names in the
    voice files (`written_names`), each mapped to its id."""
    names = {fold_name(role): role for role in ROLES}
    for name, role in written_names():
        names.setdefault(fold_name(name), role)
    return names


def character_id(card: str) -> str | None:
    """Returns the character a deck's ``card`` names (its id, or its name in a voice file, case aside), or None.

    >>> character_id("Salvateur"), character_id("voyante"), character_id("女巫"), character_id("Fortune Teller")
    ('guard', 'seer', 'witch', 'seer')
    """
    return card if card in ROLES else character_names().get(fold_name(card))


MARKUP = re.compile(r"\[[^\]]*\]|<[^>]*>|[*_`|#\\]")
"""What a screen, a web page or a Markdown file could take for markup: a tag in brackets (rich's "[bold]", a link
"[a](b)"), an HTML tag, Markdown's emphasis, code, tables and headings, a backslash."""


def markup_like(name: str) -> bool:
    """Returns whether a name looks like markup ("[/]", "<b>", "**Ann**"): it is shown as written, as text, but the
    host may have meant something else."""
    return MARKUP.search(name) is not None


MAX_NAME = 24
"""Characters a player's name holds at most: the phones' frames are sized for the longest (narrator.phones.sizes),
and the screen's seating circle and the lines said stay readable."""


def too_long(name: str) -> str:
    """Returns what is wrong with a name longer than MAX_NAME characters ("" when it is not)."""
    if len(name) <= MAX_NAME:
        return ""
    return f"is {len(name)} characters long; a name holds at most {MAX_NAME}"


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
