"""``werewolf-narrator simulate``: plays many games of a deck with simple strategies and prints who wins.

The games are the engine's own (engine.strategy), so every rule of the deck applies. Game ``i`` of a run
seeded ``s`` is dealt and played from ``engine.strategy.game_seed(s, i)`` alone, so a run's figures are the
same for a given seed whatever the number of jobs.
"""

from __future__ import annotations

import dataclasses
import math
import multiprocessing
import os
import signal
import sys
import time
from collections import Counter
from dataclasses import dataclass
from functools import partial
from typing import IO, Callable, Generator, Sequence

from engine import ROLES, Rules, Table, check_deck, check_extras, preset
from engine.strategy import MAX_CALLS, MODELS, UNFINISHED, game_seed, play, winner

from .errors import UserError
from .hint import command
from .voices import Voice

SIDES = ("village", "werewolves")
"""The two sides whose balance ``check`` judges; the loners' goals are meant to be rare."""

FAIR = (0.25, 0.75)
"""A side winning less than 25% or more than 75% of the games makes ``check`` warn that the deck is lopsided."""

CHECK_GAMES = 1000
"""The most games ``check`` plays for up to 12 players, for a side on the edge of the FAIR band (a 95% interval
within ±3.1 points: the edge is a convention, and more games would only say more precisely that the deck is on
it). Larger tables play fewer, as a game's length grows with the players (see check_games); most decks are decided
well before (see CHECK_LOOKS)."""

CHECK_LOOKS = (100, 200, 400, 800)
"""The games after which ``check`` looks at its figures, and stops once every side is decided (see decided); the
last look is at check_games."""

CHECK_CHUNK = 50  # games a worker plays at a time in ``check``: small, so that a decided check wastes little
Z_LOOK = 2.575829
"""The normal quantile of one look's two-sided 99% interval: with a fifth of 5% of error at each of its five looks
(the cap's included), ``check``'s verdict is right at least 95% of the time overall (Bonferroni;
``statistics.NormalDist().inv_cdf(1 - 0.05 / 10)``)."""

CHECK_MODEL = "hunt"
"""The model ``check`` plays: the French rules' "more realistic" one (the Seer accuses, then dies)."""

CHUNKS_PER_JOB = 4  # a few chunks a job, so that a job slowed by the rest of the machine does not hold all up
Z95 = 1.959964  # the normal quantile of a two-sided 95% interval


@dataclass(frozen=True)
class Result:
    """A simulation's figures: wins by winner name (an Outcome's winner, or "unfinished")."""

    model: str
    games: int
    wins: dict[str, int]
    seconds: float
    jobs: int

    def rate(self, team: str) -> float:
        """Returns the share of games ``team`` won."""
        return self.wins.get(team, 0) / self.games if self.games else 0.0

    def teams(self) -> list[str]:
        """Returns the two sides, then every other winner seen, most wins first."""
        others = sorted((t for t in self.wins if t not in SIDES), key=lambda t: (-self.wins[t], t))
        return [*SIDES, *others]


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """Returns the Wilson score interval of a rate ``wins / games`` (95% by default).

    >>> low, high = wilson(50, 100)
    >>> round(low, 3), round(high, 3)
    (0.404, 0.596)
    >>> wilson(0, 10)[0], round(wilson(0, 10)[1], 3)
    (0.0, 0.278)
    """
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def _chunk(job: tuple[Table, str, int, int, int]) -> Counter[str]:
    """Plays games ``start`` to ``stop`` of a run (a worker's share)."""
    table, model, seed, start, stop = job
    return Counter(winner(play(table, game_seed(seed, i), model)) for i in range(start, stop))


def _ignore_interrupts() -> None:
    """Lets Ctrl-C reach only the parent, which stops the workers: no traceback from each of them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def default_jobs() -> int:
    """Returns the number of cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover  (not Linux)
        return max(1, os.cpu_count() or 1)


def simulate(table: Table, games: int, model: str = CHECK_MODEL, seed: int = 1, jobs: int | None = None,
             progress: Callable[[int], None] = lambda played: None) -> Result:
    """Plays ``games`` games of ``table`` with ``model`` on ``jobs`` processes (default: every core); ``progress``
    is told how many games each finished chunk played."""
    if model not in MODELS:
        raise UserError(f"unknown strategy {model!r}; strategies: {', '.join(MODELS)}, all")
    jobs = default_jobs() if jobs is None else jobs
    jobs = max(1, min(jobs, games))
    start = time.perf_counter()
    count = max(1, min(games, jobs * CHUNKS_PER_JOB))
    bounds = [games * k // count for k in range(count + 1)]
    work = [(table, model, seed, bounds[k], bounds[k + 1]) for k in range(count)]
    wins: Counter[str] = Counter()
    for part in _played(work, jobs, ordered=False):
        wins.update(part)
        progress(sum(part.values()))
    return Result(model, games, dict(wins), time.perf_counter() - start, jobs)


def _played(work: list[tuple[Table, str, int, int, int]], jobs: int,
            ordered: bool) -> Generator[Counter[str], None, None]:
    """Yields each chunk's wins as it is played on ``jobs`` processes (in ``work``'s order if ``ordered``); the
    workers stop when the caller stops reading."""
    if jobs == 1:
        yield from map(_chunk, work)
        return
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    with context.Pool(jobs, initializer=_ignore_interrupts) as pool:
        yield from (pool.imap if ordered else pool.imap_unordered)(_chunk, work)


def decided(result: Result, z: float = Z_LOOK) -> bool:
    """Returns whether every side's interval (one look's, by default) lies on one side of the FAIR band's bounds: inside
    it, or wholly below or above; then more games would not change ``check``'s verdict.

    >>> decided(Result("hunt", 200, {"village": 100, "werewolves": 100}, 0.0, 1))
    True
    >>> decided(Result("hunt", 200, {"village": 140, "werewolves": 60}, 0.0, 1))
    False
    """
    for team in SIDES:
        low, high = wilson(result.wins.get(team, 0), result.games, z)
        if any(low < bound < high for bound in FAIR):
            return False
    return True


def sequential(table: Table, cap: int, model: str = CHECK_MODEL, seed: int = 1, jobs: int | None = None) -> Result:
    """Plays games of ``table`` until the figures are decided at one of CHECK_LOOKS, or ``cap`` games: the games
    are those ``simulate`` would play with ``seed`` (in order, whatever the jobs), so the verdict is the same
    every time."""
    jobs = max(1, min(default_jobs() if jobs is None else jobs, cap // CHECK_CHUNK or 1))
    start = time.perf_counter()
    looks = {g for g in CHECK_LOOKS if g < cap} | {cap}
    bounds = list(range(0, cap, CHECK_CHUNK)) + [cap]
    work = [(table, model, seed, a, b) for a, b in zip(bounds, bounds[1:])]
    wins: Counter[str] = Counter()
    played = 0
    chunks = _played(work, jobs, ordered=True)
    try:
        for (_, _, _, _, stop), part in zip(work, chunks):
            wins.update(part)
            played = stop
            if played in looks and (played == cap or decided(Result(model, played, dict(wins), 0.0, jobs))):
                break
    finally:
        chunks.close()  # the workers stop: the games still queued are not needed
    return Result(model, played, dict(wins), time.perf_counter() - start, jobs)


def lopsided(result: Result, voice: Voice) -> list[str]:
    """Returns a warning naming the side that wins more than the FAIR band allows, with its figure, in the language
    of ``voice``; when none does, one for each side that wins less (the loners' goals took the rest)."""
    low, high = FAIR
    strong = [t for t in SIDES if result.rate(t) > high]
    weak = [t for t in SIDES if result.rate(t) < low]
    warnings = []
    for team in strong or weak:
        a, b = wilson(result.wins.get(team, 0), result.games)
        warnings.append(voice.text(f"screen.check_lopsided_{team}", {
            "rate": f"{result.rate(team):.1%}", "margin": f"{(b - a) / 2:.1%}", "games": f"{result.games:,}",
            "model": result.model,
            "low": f"{a:.1%}", "high": f"{b:.1%}", "fair_low": f"{low:.0%}", "fair_high": f"{high:.0%}",
            "command": command()}, fragment=True))
    return warnings


def deadlocks(result: Result, voice: Voice) -> list[str]:
    """Returns a warning, in the language of ``voice``, when games of the deck never ended (still running after
    MAX_CALLS calls): the deck can deadlock, and a table playing it may have to end the game from the host menu."""
    stuck = result.wins.get(UNFINISHED, 0)
    if not stuck:
        return []
    return [voice.text("screen.check_deadlock", {
        "stuck": f"{stuck:,}", "games": f"{result.games:,}", "share": f"{stuck / result.games:.1%}",
        "model": result.model, "calls": f"{MAX_CALLS:,}", "command": command()}, fragment=True)]


def unfinished_line(result: Result) -> str:
    """Returns the share of a strategy's games left unfinished, as ``simulate`` prints it (0 for a sound deck)."""
    stuck = result.wins.get(UNFINISHED, 0)
    return (f"{result.model:>6} unfinished: {stuck:,} of {result.games:,} games ({result.rate(UNFINISHED):.1%}), "
            f"still running after {MAX_CALLS:,} calls")


def check_games(seats: int) -> int:
    """Returns the most games ``check`` plays for a table of ``seats``: about the same time whatever the size,
    and never fewer than 500 (an interval within ±4.4 points).

    >>> check_games(8), check_games(18), check_games(47)
    (1000, 666, 500)
    """
    return max(500, CHECK_GAMES * 12 // max(12, seats))


def check_balance(table: Table, voice: Voice, jobs: int | None = None) -> list[str]:
    """Returns ``check``'s warnings about a deck's balance and its deadlocks, in the table's language (``voice``),
    from a quick simulation that stops once its verdict is decided (see sequential; a fixed seed: the same deck
    always gets the same verdict)."""
    result = sequential(table, check_games(table.seats), CHECK_MODEL, seed=1, jobs=jobs)
    return deadlocks(result, voice) + lopsided(result, voice)


# -- the command line ------------------------------------------------------------------------------


def parse_deck(words: Sequence[str]) -> tuple[str, ...]:
    """Returns the cards named by ``words``: ids separated by spaces or commas, ``id*N`` for N copies.

    >>> parse_deck(["werewolf*2,seer", "villager*3"])
    ('werewolf', 'werewolf', 'seer', 'villager', 'villager', 'villager')
    """
    deck: list[str] = []
    for word in words:
        for item in filter(None, (w.strip() for w in word.split(","))):
            name, star, times = item.partition("*")
            n = 1
            if star:
                if not times.strip().isdigit() or not 1 <= int(times) <= 100:
                    raise UserError(f"--deck: {item!r}: write a card and its count as id*N (1 to 100), "
                                    "e.g. werewolf*2")
                n = int(times)
            name = name.strip()
            if name not in ROLES:
                from .names import closest

                raise UserError(f"--deck: unknown character {name!r}{closest(name, sorted(ROLES))} "
                                f"(`{command()} check --help` lists all {len(ROLES)})")
            deck += [name] * n
    if not deck:
        raise UserError("--deck: name the cards, e.g. --deck werewolf*2,seer,villager*5")
    return tuple(deck)


@dataclass(frozen=True)
class DeckOptions:
    """The deck `simulate` is told to play: the ``cards`` named (--deck's words, see parse_deck), a table ``config``
    file, or a ``preset`` with ``seats``, exactly one of the three; ``sheriff`` overrides the rules (None: theirs).
    Typed options, not the command line's Namespace: below the command line, nothing reads argparse."""

    cards: tuple[str, ...] = ()
    config: str | None = None
    preset: str | None = None
    seats: int | None = None
    sheriff: bool | None = None


@dataclass(frozen=True)
class SimulateOptions:
    """What `simulate` is told: the ``deck``, ``games`` a strategy, the ``strategy`` (one of MODELS, or "all"), the
    ``seed`` and the ``jobs`` (None: every core), each in range (the command line's types see to it)."""

    deck: DeckOptions
    games: int
    strategy: str
    seed: int
    jobs: int | None


def table_from_options(options: DeckOptions, warn: Callable[[str], None] | None = None) -> Table:
    """Returns the table the options describe: ``--deck`` ids, ``--config`` file, or ``--preset`` and
    ``--seats``; ``--sheriff``/``--no-sheriff`` override the rules."""
    from .config import load_config

    deck_words, config, name = options.cards, options.config, options.preset
    seats = options.seats
    given = [o for o, v in (("--deck", deck_words), ("--config", config), ("--preset", name)) if v]
    if len(given) != 1:
        raise UserError("say which deck to simulate with one of --deck, --config or --preset"
                        + (f" (not {' and '.join(given)})" if given else ""))
    rules = Rules()
    full: Table | None = None  # a config's table whole: its buildings, groups, the Actor's and séance cards
    if config:
        loaded, warnings = load_config(config)
        if warn is not None:
            for warning in warnings:
                warn(warning)
        table = loaded.table
        if seats is not None and seats != table.seats:
            raise UserError(f"--seats {seats}: {config} has {table.seats} players")
        rules, seats, deck, full = table.rules, table.seats, table.deck, table
    elif name:
        if seats is None:
            raise UserError("--preset: say how many players with --seats")
        try:
            deck = preset(name, seats)
        except ValueError as exc:
            raise UserError(f"--preset: {exc}") from None
    else:
        deck = parse_deck(deck_words)
        implied = len(deck) - (2 if "thief" in deck else 0)
        seats = implied if seats is None else seats
    if options.sheriff is not None:
        rules = dataclasses.replace(rules, sheriff=options.sheriff)
    errors, _ = check_deck(seats, deck, rules.variants)
    table = Table(seats, deck, rules) if full is None else dataclasses.replace(full, rules=rules)
    errors += check_extras(table)
    if errors:
        raise UserError("the deck cannot be played: " + "; ".join(errors))
    return table


def describe(table: Table) -> str:
    """Returns a deck in short: ``8 players: werewolf×2, seer, villager×5``."""
    counts = Counter(table.deck)
    cards = ", ".join(f"{c}×{n}" if n > 1 else c for c, n in counts.items())
    sheriff = "with" if table.rules.sheriff else "no"
    return f"{table.seats} players: {cards} ({sheriff} Sheriff)"


BLOCKS = " ▏▎▍▌▋▊▉█"


def bar(rate: float, width: int = 40) -> str:
    """Returns a text bar of ``rate`` (0 to 1), ``width`` characters for 100%.

    >>> bar(0.5, 8), bar(0.0, 4), len(bar(1 / 3, 40))
    ('████    ', '    ', 40)
    """
    eighths = round(max(0.0, min(1.0, rate)) * width * 8)
    full, part = divmod(eighths, 8)
    text = "█" * full + (BLOCKS[part] if part else "")
    return text.ljust(width)


def report(results: Sequence[Result], table: Table, seed: int, out: IO[str]) -> None:
    """Prints the figures of each result: a table of wins, rates and intervals, a bar chart, the speed."""
    from rich.console import Console
    from rich.table import Table as Grid

    console = Console(file=out, highlight=False, soft_wrap=True, markup=False)  # a deck's text is text
    games, jobs = results[0].games, results[0].jobs
    console.print(f"{games:,} games a strategy, {describe(table)}, seed {seed}")
    grid = Grid(show_edge=False)
    for column in ("strategy", "team", "wins", "rate", "95% interval"):
        grid.add_column(column, justify="right" if column in ("wins", "rate", "95% interval") else "left")
    for result in results:
        for team in result.teams():
            a, b = wilson(result.wins.get(team, 0), result.games)
            grid.add_row(result.model, team, f"{result.wins.get(team, 0):,}", f"{result.rate(team):.1%}",
                         f"{a:.1%} – {b:.1%}")
    console.print(grid)
    console.print()
    for result in results:
        for team in result.teams():
            console.print(f"{result.model:>6} {team:<14} {bar(result.rate(team))} {result.rate(team):6.1%}")
    for result in results:
        console.print(unfinished_line(result))
    seconds = sum(r.seconds for r in results)
    total = sum(r.games for r in results)
    rate = total / seconds if seconds else float("inf")
    console.print(f"{total:,} games in {seconds:.1f} s: {rate:,.0f} games/s on {jobs} "
                  f"job{'s' if jobs > 1 else ''} ({rate / jobs:,.0f} games/s a job)")


def cmd_simulate(options: SimulateOptions, warn: Callable[[str], None] | None = None) -> int:
    """Runs ``werewolf-narrator simulate``."""
    games, jobs, seed = options.games, options.jobs, options.seed
    models = MODELS if options.strategy == "all" else (options.strategy,)
    table = table_from_options(options.deck, warn)
    if not sys.stderr.isatty():
        results = [simulate(table, games, model, seed, jobs) for model in models]
    else:  # seconds of work: a progress bar, on the terminal only (gone once done; the report is the output)
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        columns = (TextColumn("{task.description}", markup=False), BarColumn(), MofNCompleteColumn(),
                   TimeRemainingColumn())
        with Progress(*columns, console=Console(file=sys.stderr), transient=True) as bar:
            results = []
            for model in models:
                task = bar.add_task(f"{model}: games", total=games)
                results.append(simulate(table, games, model, seed, jobs, progress=partial(bar.advance, task)))
    report(results, table, seed, sys.stdout)
    return 0
