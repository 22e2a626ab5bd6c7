"""The `voices` command: which voice each language gets, and `voices render`, `add` and `fetch`."""

from __future__ import annotations

import argparse
import contextlib
import os
import time
from typing import Callable, Iterator

from ..errors import UserError
from .common import UsageError, _is_script, _warn


def cmd_voices(args: argparse.Namespace) -> int:
    from ..speak import describe_voices

    if args.action != "fetch" and (args.voice or args.url or args.sha256 or args.size is not None):
        raise UsageError("--voice, --url, --sha256 and --size go with `voices fetch LANG`")
    if args.action == "render":
        return _render_voices(args)
    if args.action == "add":
        return _add_voice(args)
    if args.action == "fetch":
        return _fetch_voice(args)
    if args.language or args.config or args.file:
        raise UsageError("`voices` alone lists the voices; `voices render LANG [--config FILE]` renders a language; "
                         "`voices add LANG FILE.onnx` installs a Piper voice; `voices fetch LANG` downloads one")
    for entry in describe_voices():
        voice = entry.get("voice")
        why = f"; {entry['why']}" if entry.get("why") else ""
        if voice:
            print(f"{entry['language']}: {voice}{why}")
        else:
            print(f"{entry['language']}: no voice on this machine; {entry.get('hint', '')}{why}".rstrip("; "))
    return 0


def _add_voice(args: argparse.Namespace) -> int:
    """Installs a Piper voice the user has, once it has loaded and said a line of the language."""
    from ..speak.ahead import fixed_lines
    from ..speak.piper_backend import add_voice
    from ..voices import languages, load_voice

    if not args.language or not args.file or args.config:
        raise UsageError("`voices add` needs a language and a Piper voice: voices add LANG FILE.onnx")
    if args.language not in languages():
        raise UserError(f"no voice file for {args.language!r}: the languages are {', '.join(languages())}")
    sample = fixed_lines(load_voice(args.language))[0]
    voice = add_voice(args.language, args.file, sample)
    print(f"{args.language}: Piper voice {voice.name} installed in {voice.model.parent}; "
          "tables in that language now speak with it (speaker: auto or piper)")
    return 0


def _fetch_voice(args: argparse.Namespace) -> int:
    """Downloads the official Piper voice of a language (or --voice NAME), checks it and installs it."""
    from ..speak.ahead import fixed_lines
    from ..speak.piper_backend import INSTALL
    from ..speak.voice_fetch import fetch_voice
    from ..voices import languages, load_voice

    if not args.language or args.file or args.config:
        raise UsageError("`voices fetch` needs a language: voices fetch LANG [--voice NAME] [--url URL]")
    if args.language not in languages():
        raise UserError(f"no voice file for {args.language!r}: the languages are {', '.join(languages())}")
    sample = fixed_lines(load_voice(args.language))[0]
    voice, how = fetch_voice(args.language, sample, args.voice, url=args.url, sha256=args.sha256, size=args.size)
    if how == "already":
        print(f"{args.language}: Piper voice {voice.name} is already installed in {voice.model.parent}")
        return 0
    print(f"{args.language}: Piper voice {voice.name} installed in {voice.model.parent}; tables in that language "
          "now speak with it (speaker: auto or piper)")
    if how == "unheard":
        _warn(f"piper-tts is not installed, so the voice was checked against its checksums but not heard ({INSTALL})")
    return 0


def _render_voices(args: argparse.Namespace) -> int:
    """Renders every line of a language (and of a table, with --config) into the voice cache."""
    from ..config import load_config
    from ..script import load_script
    from ..speak import RenderedSpeaker, lines_ahead, rendering_speaker, seat_words
    from ..voices import load_voice
    from ..yamlfile import YamlError, load

    if not args.language:
        raise UsageError("`voices render` needs a language: voices render LANG [--config FILE]")
    language = args.language
    voice = load_voice(language)
    seats, voice_id, rate, backend = RENDER_SEATS, None, None, "auto"
    names: tuple[str | None, ...] = ()
    roles: tuple[str, ...] = ()
    table = None
    deal: str | None = None
    phones: bool | None = None
    if args.config:
        try:
            is_script = _is_script(load(args.config).data)
        except YamlError as exc:
            raise UserError(str(exc)) from None
        if is_script:
            script, warnings = load_script(args.config)
            config = script.config  # a practice script's table
        else:
            config, warnings = load_config(args.config)
        for warning in warnings:
            _warn(warning, config.language)
        if config.language != language:
            raise UserError(f"{args.config}: the table speaks {config.language!r}, not {language!r}: "
                            f"voices render {config.language} --config {args.config}")
        seats, names, roles, table = config.table.seats, config.names, config.table.deck, config.table
        deal, phones = config.deal, config.phones
        voice_id, rate = config.voice, config.rate
        backend = "auto" if config.speaker == "console" else config.speaker
    speaker = rendering_speaker(backend, language, voice_id, rate, warn=_warn)
    cache = speaker.cache
    assert cache is not None
    problem = cache.problem()
    if problem:
        speaker.close()
        raise UserError(f"cannot write rendered lines to the voice cache {cache.folder} ({problem}): nothing was "
                        "rendered; make that folder writable, or set XDG_CACHE_HOME to one that is")
    texts = list(lines_ahead(voice, seats, names, roles, table, deal, phones))
    words = seat_words(voice, seats, names)
    builtin = ""
    if not args.config:
        from ..play import STARTER

        if STARTER.language == language:  # `play` alone: its lines naming a character too, so none falls back
            starter = STARTER.table
            texts = list(dict.fromkeys([*texts, *lines_ahead(voice, starter.seats, STARTER.names, starter.deck,
                                                             starter, STARTER.deal, STARTER.phones)]))
            builtin = f", the built-in table's {starter.seats}"
            words += seat_words(voice, starter.seats, STARTER.names)
    if isinstance(speaker, RenderedSpeaker):
        speaker.seat_words = words  # a line naming several seats is rendered as the pieces it is said with
        speaker.list_joins = (voice.separator.strip(), voice.last_separator.strip())
    todo = speaker.todo(texts)  # a slow engine's lines are their clauses: each rendered once, for every line
    reused = len(texts) - sum(1 for text in texts if not speaker.cached(text))
    start = time.monotonic()
    done = [0]
    try:
        with _render_progress(language, len(todo), speaker.pieces_word) as advance:
            def step() -> None:
                done[0] += 1
                advance((time.monotonic() - start) / done[0])

            rendered, failed = speaker.render_all(todo, step, workers=render_workers())
    finally:
        speaker.close()
    if failed:
        _warn(f"{failed} of {len(todo)} {speaker.pieces_word} could not be rendered (they are rendered, and told, "
              "when said)")
    if not cache.writable:
        raise UserError(f"the voice cache {cache.folder} stopped taking rendered lines partway (see the warning "
                        "above): free some space there and run the command again; the lines kept stay kept")
    where = f"{seats} seats" + (f", {len(set(roles))} characters" if roles else "") + builtin
    each = speaker.pieces_word.rstrip("s")
    rate_note = f" ({(time.monotonic() - start) / (rendered + failed):.2f} s a {each})" if rendered + failed else ""
    pieces = f" as {rendered + failed} {speaker.pieces_word}" if speaker.pieces_word != "lines" and todo else ""
    print(f"{language}: {len(texts)} lines ({where}) with {speaker.voice_name} [{speaker.voice_id}]: "
          f"{len(texts) - reused} rendered{pieces}, {reused} already there" + (f", {failed} failed" if failed else "")
          + f", in {cache.folder}{rate_note}")
    return 1 if failed else 0


@contextlib.contextmanager
def _render_progress(language: str, total: int, what: str = "lines") -> Iterator[Callable[[float], None]]:
    """Shows, on a terminal, a progress bar of ``total`` lines (or clauses: ``what``) to render with the time left
    and the seconds each; yields the function that moves it on by one, given the seconds each so far."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    console = Console(stderr=True)
    if not console.is_terminal or not total:
        yield lambda seconds: None
        return
    columns = (TextColumn(f"rendering {language}", markup=False), BarColumn(), MofNCompleteColumn(),
               TextColumn("{task.fields[each]}"), TextColumn("time left"), TimeRemainingColumn())
    with Progress(*columns, console=console) as progress:
        task = progress.add_task("render", total=total, each="")

        def advance(seconds: float) -> None:
            progress.update(task, advance=1, each=f"{seconds:.2f} s a {what.rstrip('s')}")

        yield advance


# Seats whose lines `voices render` renders without a config: the classic preset's largest table.
RENDER_SEATS = 18


def render_workers() -> int:
    """How many engines `voices render` runs side by side: one a core, at most four (each Kokoro engine loads its
    own model, ~280 MB); WEREWOLF_NARRATOR_RENDER_WORKERS sets it (1 on a small machine)."""
    given = os.environ.get("WEREWOLF_NARRATOR_RENDER_WORKERS", "")
    if given.isdigit() and 0 < int(given) <= 16:
        return int(given)
    return max(1, min(4, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1))
