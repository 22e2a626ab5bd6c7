"""Reading YAML files hosts write by hand, keeping the line of every key for error messages."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from engine.answers import shown

Path_ = tuple[object, ...]


@dataclass
class Document:
    """A YAML file's data, with the line of every key and item (by its path of keys and indexes)."""

    path: str
    data: Any
    lines: dict[Path_, int] = field(default_factory=dict)
    values: int = 0

    def where(self, *keys: object) -> str:
        """Returns ``file:line`` for the nearest known place of ``keys`` (e.g. where("deal", 3))."""
        path = tuple(keys)
        while path and path not in self.lines:
            path = path[:-1]
        line = self.lines.get(path)
        return f"{self.path}:{line}" if line else self.path


MAX_VALUES = 100_000
"""No table or script holds more values; more means aliases expanding without end (a billion laughs)."""
LARGEST = 10**18


def _scalar(loader: yaml.SafeLoader, node: yaml.Node, doc: Document) -> Any:
    """Reads one scalar; a value its tag cannot read (2024-13-45, !!int six) is an error at its line."""
    try:
        value = loader.construct_object(node, deep=True)
    except (ValueError, TypeError, KeyError, AttributeError, IndexError, OverflowError, yaml.YAMLError):
        raise _error(doc, node, f"{shown(node.value)} cannot be read as {node.tag.rsplit(':', 1)[-1]}") from None
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= LARGEST:
        raise _error(doc, node, "a number far too large")
    return value


def _convert(loader: yaml.SafeLoader, node: yaml.Node, path: Path_, doc: Document) -> Any:
    doc.lines.setdefault(path, node.start_mark.line + 1)
    doc.values += 1
    if doc.values > MAX_VALUES:
        raise _error(doc, node, f"more than {MAX_VALUES} values: too large for a table or a script "
                                "(aliases that expand without end?)")
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
    return _scalar(loader, node, doc)


def _error(doc: Document, node: yaml.Node, message: str) -> "YamlError":
    return YamlError(f"{doc.path}:{node.start_mark.line + 1}: {message}")


class YamlError(Exception):
    """A file that is not the YAML it should be."""


def parse(text: str, path: str) -> Document:
    """Returns the document in ``text``; raises YamlError naming the line of a syntax error."""
    doc = Document(path, None)
    try:
        loader = yaml.SafeLoader(text)
    except yaml.YAMLError as exc:
        raise YamlError(f"{path}: not valid YAML: {exc}") from None
    try:
        node = loader.get_single_node()
        doc.data = None if node is None else _convert(loader, node, (), doc)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark else path
        raise YamlError(f"{where}: not valid YAML: {exc.problem or exc.context}") from None
    except yaml.YAMLError as exc:
        raise YamlError(f"{path}: not valid YAML: {exc}") from None
    except RecursionError:
        raise YamlError(f"{path}: nested too deeply to be a table or a script") from None
    except (ValueError, TypeError, OverflowError) as exc:
        # A scalar that looks like a date, a time or a number but is not one (2020-13-45).
        raise YamlError(f"{path}: not valid YAML: {exc}") from None
    finally:
        loader.dispose()
    return doc


def load(path: str | Path) -> Document:
    """Reads and parses a YAML file; raises YamlError for a missing, unreadable or malformed file."""
    name = str(path)
    try:
        raw = Path(path).read_bytes()
    except FileNotFoundError:
        raise YamlError(f"{name}: no such file") from None
    except IsADirectoryError:
        raise YamlError(f"{name}: is a folder, not a file") from None
    except OSError as exc:
        raise YamlError(f"{name}: cannot be read ({exc.strerror or exc})") from None
    except ValueError:
        raise YamlError(f"{shown(name)}: not a usable file name") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise YamlError(f"{name}: not UTF-8 text (byte {exc.start})") from None
    return parse(text, name)
