"""Plays random legal 12-player Best Of games on one core and prints ``N games/s``.

Each game draws its deck from the Best Of box (plus the Thief), with the
rulebook's advice of no more than a quarter werewolves, deals it, and answers
every call with a uniformly random legal answer. Run it pinned to one core:

    taskset -c 0 python scripts/bench_engine.py [--games N] [--seed S]

``--against REV`` also plays the engine of revision REV (from a git worktree), round by round interleaved with
ours, so that the rest of the machine weighs on both alike, and prints both figures and their ratio.
``--root DIR`` plays the engine of another checkout (how ``--against`` runs the old one).
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
if "--root" in sys.argv:  # another checkout's engine, before any other on the path
    sys.path.insert(0, sys.argv[sys.argv.index("--root") + 1])
else:
    sys.path.insert(0, HERE)

from engine import Game, IllegalAnswer, Kind, Rules, Table, deal_cards  # noqa: E402

SEATS = 12
WOLVES = ["werewolf", "infected_father", "big_bad_wolf", "white_werewolf"]
SPECIALS = ["cupid", "seer", "little_girl", "fox", "knight", "elder", "witch", "bear_tamer", "hunter",
            "wild_child", "wolf_hound", "piper", "angel", "thief"]
SEATLIKE = (Kind.SEAT, Kind.VOTE, Kind.ELECTION)


def best_of_deck(rng: random.Random) -> tuple[str, ...]:
    """Returns a random 12-player deck from the Best Of box: 2 or 3 werewolves, specials, villagers."""
    deck = ["werewolf"] * rng.randint(1, 2) + rng.sample(WOLVES[1:], 1)
    if rng.random() < 0.3:
        deck += ["sister", "sister"]
    deck += rng.sample(SPECIALS, rng.randint(3, SEATS - len(deck)))
    deck += ["villager"] * (SEATS - len(deck) + (2 if "thief" in deck else 0))
    return tuple(deck)


def random_game(seed: int) -> Game:
    """Plays one game to its end with uniformly random legal answers."""
    rng = random.Random(seed)
    table = Table(SEATS, best_of_deck(rng), Rules(sheriff=rng.random() < 0.5))
    game = Game(table, deal_cards(table, seed))
    while not game.over:
        call = game.call
        assert call is not None
        if not call.needs_answer:
            game.answer(None)
            continue
        candidates = [*call.seats, None] if call.kind in SEATLIKE else game.candidates()
        for _ in range(6):  # a few blind tries are cheaper than listing every legal answer
            try:
                game.answer(rng.choice(candidates))
                break
            except IllegalAnswer:
                pass
        else:
            game.answer(rng.choice(game.legal()))
    return game


def rate(games: int, seed: int) -> tuple[float, float]:
    """Plays ``games`` games; returns (games a second, calls a game)."""
    start = time.perf_counter()
    calls = sum(len(random_game(seed * 1_000_003 + i).journal) for i in range(games))
    return games / (time.perf_counter() - start), calls / games


def against(rev: str, games: int, rounds: int, seed: int) -> None:
    """Prints the figures of REV's engine and ours, measured round by round interleaved (see the docstring)."""
    with tempfile.TemporaryDirectory() as tmp:
        tree = os.path.join(tmp, "tree")
        subprocess.run(["git", "-C", HERE, "worktree", "add", "--detach", "-q", tree, rev], check=True)
        try:
            rates: dict[str, list[float]] = {rev: [], "now": []}
            for _ in range(rounds):
                for name, root in ((rev, tree), ("now", HERE)):
                    out = subprocess.run([sys.executable, __file__, "--root", root, "--games", str(games),
                                          "--rounds", "1", "--seed", str(seed)], check=True, capture_output=True,
                                         text=True).stdout
                    rates[name].append(float(out.split()[-2]))
        finally:
            subprocess.run(["git", "-C", HERE, "worktree", "remove", "--force", tree], check=True)
    for name, found in rates.items():
        print(f"{name:>10}: rounds {', '.join(f'{r:.0f}' for r in found)}; best {max(found):.0f} games/s")
    print(f"{max(rates['now']) / max(rates[rev]):.2f}x {rev}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games a round (default 1000)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds; the fastest is reported (default 5)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--against", metavar="REV", help="also play REV's engine, interleaved (see the docstring)")
    parser.add_argument("--root", help="the checkout whose engine plays")
    args = parser.parse_args()
    if args.against:
        against(args.against, args.games, args.rounds, args.seed)
        return
    random_game(0)  # warm up imports and caches
    rates = []
    calls = 0.0
    for _ in range(args.rounds):
        games_per_second, calls = rate(args.games, args.seed)
        rates.append(games_per_second)
    # The fastest round is the one least disturbed by the rest of the machine (as timeit does).
    print(f"{args.games} games a round, {calls:.1f} calls a game, "
          f"rounds: {', '.join(f'{r:.0f}' for r in rates)} games/s")
    print(f"{max(rates):.0f} games/s")


if __name__ == "__main__":
    main()
