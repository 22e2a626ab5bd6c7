"""Reading YAML files hosts write by hand, keeping the line of every key for error messages.

Every file is bounded before it can cost much: a regular file only (a FIFO or a device could hang or never end),
at most ``max_bytes`` read, and the document counted and measured as it is composed, node by node, so that a
list of a million items or a nesting ten thousand deep is refused while parsing, not once built.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from yaml.composer import Composer
from yaml.constructor import SafeConstructor
from yaml.parser import Parser
from yaml.reader import Reader
from yaml.resolver import Resolver
from yaml.scanner import Scanner

from engine.answers import shown

Path_ = tuple[object, ...]


@dataclass
class Document:
    """A YAML file's data, with the line of every key and item (by its path of keys and indexes)."""

    path: str
    data: Any
    lines: dict[Path_, int] = field(default_factory=dict)
    values: int = 0
    characters: int = 0

    def where(self, *keys: object) -> str:
        """Returns ``file:line`` for the nearest known place of ``keys`` (e.g. where("deal", 3))."""
        path = tuple(keys)
        while path and path not in self.lines:
            path = path[:-1]
        line = self.lines.get(path)
        return f"{self.path}:{line}" if line else self.path


MAX_VALUES = 100_000
"""No table or script holds more values, once aliases are expanded; more means aliases expanding without end
(a billion laughs). The same bound holds for the nodes written, counted while composing."""
MAX_DEPTH = 50
"""Nesting: a table config is four levels deep, a voice file three; more is not a file written by hand."""
MAX_BYTES = 1_000_000
"""The largest file read unless --max-size says otherwise: a voice file is under 40 KB, a table config a few."""
max_bytes = MAX_BYTES
"""The cap of this run (the command line's --max-size sets it)."""
LARGEST = 10**18


class YamlError(Exception):
    """A file that is not the YAML it should be."""


def _bounded(*parser: type) -> type:
    """Returns a safe loader over ``parser`` (libyaml's, or PyYAML's Python reader, scanner and parser) that
    composes with PyYAML's Python composer, counting the nodes and the depth as it goes: a document too large
    or too deep stops at the node that goes over."""

    class Loader(Composer, *parser, SafeConstructor, Resolver):  # type: ignore[misc]
        def __init__(self, text: str, path: str) -> None:
            if parser[0] is Reader:
                Reader.__init__(self, text)
                Scanner.__init__(self)
                Parser.__init__(self)
            else:  # libyaml's CParser
                parser[0].__init__(self, text)  # type: ignore[misc]
            Composer.__init__(self)
            SafeConstructor.__init__(self)
            Resolver.__init__(self)
            self.path, self.nodes, self.depth = path, 0, 0

        def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
            self.depth += 1
            self.nodes += 1
            if self.depth > MAX_DEPTH or self.nodes > MAX_VALUES:
                line = self.peek_event().start_mark.line + 1
                raise YamlError(f"{self.path}:{line}: " + (f"nested more than {MAX_DEPTH} deep: too deep"
                                                            if self.depth > MAX_DEPTH else
                                                            f"more than {MAX_VALUES} values: too large")
                                + " for a table or a script")
            try:
                return super().compose_node(parent, index)
            finally:
                self.depth -= 1

    return Loader


PYTHON_LOADER = _bounded(Reader, Scanner, Parser)
LOADER = _bounded(yaml.cyaml.CParser) if yaml.__with_libyaml__ else PYTHON_LOADER  # type: ignore[attr-defined]
"""libyaml's parser where PyYAML was built with it: several times faster than the Python one."""


def _scalar(loader: SafeConstructor, node: yaml.Node, doc: Document) -> Any:
    """Reads one scalar; a value its tag cannot read (2024-13-45, !!int six) is an error at its line."""
    try:
        value = loader.construct_object(node, deep=True)
    except (ValueError, TypeError, KeyError, AttributeError, IndexError, OverflowError, yaml.YAMLError):
        raise _error(doc, node, f"{shown(node.value)} cannot be read as {node.tag.rsplit(':', 1)[-1]}") from None
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= LARGEST:
        raise _error(doc, node, "a number far too large")
    return value


def _convert(loader: SafeConstructor, node: yaml.Node, path: Path_, doc: Document) -> Any:
    doc.lines.setdefault(path, node.start_mark.line + 1)
    doc.values += 1
    if doc.values > MAX_VALUES:
        raise _error(doc, node, f"more than {MAX_VALUES} values: too large for a table or a script "
                                "(aliases that expand without end?)")
    if len(path) > MAX_DEPTH:  # aliases nest a node in itself, or deeper than it was written
        raise _error(doc, node, f"nested more than {MAX_DEPTH} deep: too deep for a table or a script "
                                "(an alias inside itself?)")
    if isinstance(node, yaml.MappingNode):
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                raise _error(doc, key_node, "a key must be a plain word or number")
            key = _scalar(loader, key_node, doc)
            if not isinstance(key, (str, int, float, bool)) and key is not None:
                raise _error(doc, key_node, "a key must be a plain word or number")
            if key in result:
                raise _error(doc, key_node, f"the key {shown(key)} appears twice")
            doc.lines[path + (key,)] = key_node.start_mark.line + 1
            result[key] = _convert(loader, value_node, path + (key,), doc)
        return result
    if isinstance(node, yaml.SequenceNode):
        return [_convert(loader, item, path + (i,), doc) for i, item in enumerate(node.value)]
    # Written once, a text is at most the file; repeated by aliases, it could be read (and checked, character by
    # character) thousands of times over: the text of the whole document is bounded by the file's cap.
    doc.characters += len(node.value)
    if doc.characters > max_bytes:
        raise _error(doc, node, f"aliases repeat more than {max_bytes:,} characters of text: too large for a table "
                                "or a script")
    return _scalar(loader, node, doc)


def _error(doc: Document, node: yaml.Node, message: str) -> YamlError:
    return YamlError(f"{doc.path}:{node.start_mark.line + 1}: {message}")


def _unprintable(exc: yaml.reader.ReaderError, text: str, path: str) -> YamlError:
    """The error for a character YAML does not allow (a control character), at its line: libyaml counts its
    position in bytes and PyYAML in characters, so the character itself is looked for."""
    at = text.find(chr(exc.character)) if isinstance(exc.character, int) else -1
    if at < 0:
        return YamlError(f"{path}: not valid YAML: {exc.reason}")
    return YamlError(f"{path}:{text.count(chr(10), 0, at) + 1}: not valid YAML: a character YAML does not allow "
                     f"(U+{exc.character:04X})")


def parse(text: str, path: str, loader: type = LOADER) -> Document:
    """Returns the document in ``text``; raises YamlError naming the line of a syntax error."""
    doc = Document(path, None)
    try:
        reader = loader(text, path)
    except yaml.reader.ReaderError as exc:  # PyYAML's reader checks the whole text first
        raise _unprintable(exc, text, path) from None
    except UnicodeEncodeError:  # libyaml is given UTF-8: a lone surrogate cannot be
        raise YamlError(f"{path}: not valid text (a lone surrogate character)") from None
    try:
        node = reader.get_single_node()
        doc.data = None if node is None else _convert(reader, node, (), doc)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark else path
        raise YamlError(f"{where}: not valid YAML: {exc.problem or exc.context}") from None
    except yaml.reader.ReaderError as exc:
        raise _unprintable(exc, text, path) from None
    except yaml.YAMLError as exc:
        raise YamlError(f"{path}: not valid YAML: {exc}") from None
    except RecursionError:
        raise YamlError(f"{path}: nested too deeply to be a table or a script") from None
    except (ValueError, TypeError, OverflowError) as exc:
        # A scalar that looks like a date, a time or a number but is not one (2020-13-45).
        raise YamlError(f"{path}: not valid YAML: {exc}") from None
    finally:
        reader.dispose()
    return doc


def read_capped(path: str | Path, cap: int, what: str = "file") -> bytes:
    """Returns the bytes of a regular file of at most ``cap`` bytes; raises YamlError naming the file for
    anything else: missing, a folder, a FIFO or a device (opened without waiting for a writer), too large
    (by its size, and by reading at most ``cap`` + 1 bytes, for a file that grows)."""
    name = str(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise YamlError(f"{name}: no such file") from None
    except IsADirectoryError:
        raise YamlError(f"{name}: is a folder, not a file") from None
    except OSError as exc:
        raise YamlError(f"{name}: cannot be read ({exc.strerror or exc})") from None
    except ValueError:
        raise YamlError(f"{shown(name)}: not a usable file name") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise YamlError(f"{name}: is a folder, not a file")
        if not stat.S_ISREG(mode):
            kind = "a FIFO" if stat.S_ISFIFO(mode) else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) \
                else "a socket" if stat.S_ISSOCK(mode) else "not a regular file"
            raise YamlError(f"{name}: is {kind}, not a regular {what}")
        too_large = YamlError(f"{name}: larger than {cap:,} bytes: too large for a {what} "
                              "(--max-size BYTES reads larger ones)")
        if os.fstat(fd).st_size > cap:
            raise too_large
        chunks, got = [], 0
        while got <= cap:
            chunk = os.read(fd, cap + 1 - got)
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
        if got > cap:
            raise too_large
        return b"".join(chunks)
    except OSError as exc:
        raise YamlError(f"{name}: cannot be read ({exc.strerror or exc})") from None
    finally:
        os.close(fd)


def load(path: str | Path) -> Document:
    """Reads and parses a YAML file (at most ``max_bytes``); raises YamlError for a missing, unreadable, special,
    too large or malformed file."""
    name = str(path)
    raw = read_capped(path, max_bytes, "YAML file")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise YamlError(f"{name}: not UTF-8 text (byte {exc.start})") from None
    return parse(text, name)
