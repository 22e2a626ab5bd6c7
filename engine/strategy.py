"""Simple strategies that play whole games through the real engine, to estimate a deck's win rates.

Pure like the rest of the engine: every choice comes from the ``random.Random`` it is given, and the
engine checks every answer (one it refuses gives way to a uniform legal answer; ``Player.answer`` returns
only legal ones). Three models, after the French rules' win-probability table:

- ``random``: every choice is uniform among the legal answers; in a vote every living player names a
  uniformly random other player who may be voted for, and the engine counts the ballots (the Sheriff's double;
  a revealed Idiot casts none).
- ``seer``: the French table's first model, the Seer "gives her findings to the village and the
  werewolves do not know who she is". She looks at a player she has not looked at yet, each night; what
  she sees is public from the next day (anonymously): the village votes out a werewolf she found and never votes a
  player she cleared. The werewolves know each other: they devour a random villager and vote for one.
- ``hunt``: its second model, the Seer "speaks to denounce a werewolf, then dies the next night". She
  keeps her looks to herself until one finds a werewolf; on the next day she accuses it, and everything
  she saw becomes public, her own card with it (and what she sees later, if she survives); from that
  night the werewolves devour her.

In both, she tells what she saw at the day after her look, if she lives to it: the eliminated do not speak.

In every model the other characters (Witch, Hunter, Cupid, Thief, ...) choose uniformly among their legal
answers, except that in ``seer`` and ``hunt`` a Hunter or Sheriff of the village who must name someone
uses what the village knows, as a voter does.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Sequence

from . import votes
from .game import Game
from .roles import ROLES
from .table import Deal, Table, deal_cards
from .types import Answer, Call, IllegalAnswer, Kind, Phase, Step, Team

MODELS = ("random", "seer", "hunt")
"""The strategies, by name (see the module's docstring)."""

MAX_CALLS = 5000
"""A game still running after this many calls is counted as unfinished: ``simulate`` reports their share and
``check`` warns about a deck that leaves any (none has, since the stalemate ends a game: docs/rules.md)."""

UNFINISHED = "unfinished"
"""The outcome counted for a game stopped at MAX_CALLS."""

TRIES = 6
"""Blind draws among an answer's candidates before listing every legal one: cheaper, and just as uniform
(a draw refused is drawn again, so every legal answer stays equally likely)."""

SEATLIKE = (Kind.SEAT, Kind.VOTE, Kind.ELECTION)
WOLF_TEAMS = (Team.WEREWOLVES, Team.WHITE_WEREWOLF)
INFORMED = frozenset({"hunter", "sheriff_tiebreak"})
"""Calls outside the vote where the one who names a seat uses what the village knows (seer, hunt)."""


@dataclass
class Knowledge:
    """What the Seer saw, and what of it the village knows (seats that were werewolves or not when seen)."""

    looks: dict[int, bool] = field(default_factory=dict)  # seat -> a werewolf card; the Seer's own
    found: set[int] = field(default_factory=set)  # public: werewolves she found
    cleared: set[int] = field(default_factory=set)  # public: players she found not to be werewolves
    seer: int | None = None  # the Seer's seat once she has accused (hunt): the werewolves' next victim
    telling: int | None = None  # the Seer who will tell what she saw at the next day, if she lives to it

    def publish(self, seer: int | None) -> None:
        """Makes every look public; with ``seer``, her own card too (she spoke)."""
        self.found.update(s for s, wolf in self.looks.items() if wolf)
        self.cleared.update(s for s, wolf in self.looks.items() if not wolf)
        if seer is not None:
            self.seer = seer
            self.cleared.add(seer)


class Player:
    """Plays one game with a model: ``step`` answers the running call, ``play`` every call to the end."""

    def __init__(self, game: Game, rng: random.Random, model: str) -> None:
        if model not in MODELS:
            raise ValueError(f"unknown strategy {model!r}; strategies: {', '.join(MODELS)}")
        self.game = game
        self.rng = rng
        self.model = model
        self.informed = model != "random"
        self.knows = Knowledge()

    def play(self) -> Game:
        """Answers every call until the game is over (or MAX_CALLS); returns the game."""
        game = self.game
        while not game.over and len(game.calls) <= MAX_CALLS:
            self.step()
        return game

    def step(self) -> Step:
        """Gives the running call the model's answer and learns from what it reveals.

        The answer is not checked first: the engine checks it anyway, and one it refuses (which leaves the
        game untouched) gives way to a uniform legal answer. A blind draw refused and drawn again is still
        uniform among the legal answers.
        """
        game = self.game
        value = self.propose()
        try:
            step = game.answer(value)
        except IllegalAnswer:
            assert game.call is not None
            step = game.answer(self.uniform(game.call))
        self.observe(step)
        return step

    def answer(self) -> Answer:
        """Returns a legal answer to the running call, as the model plays it, without giving it."""
        value = self.propose()
        try:
            self.game.check(value)
        except IllegalAnswer:
            assert self.game.call is not None
            return self.uniform(self.game.call)
        return value

    def propose(self) -> Answer:
        """Returns the model's answer to the running call, before the rules have checked it."""
        game = self.game
        call = game.call
        assert call is not None, "the game is over"
        knows = self.knows
        if call.phase is Phase.DAY and knows.telling is not None:
            if game.alive(knows.telling):  # the eliminated do not speak: what she saw dies with her
                knows.publish(knows.telling if self.model == "hunt" else None)
            knows.telling = None
        if not call.needs_answer:
            return None
        if call.kind is Kind.VOTE:
            return self._vote(call)
        if self.informed:
            if call.id == "seer":
                return self._look(call)
            if call.id == "werewolves":
                return self._devour()
            if call.id in INFORMED and call.actors:
                return self.ballot(call.actors[0], call.seats)
        if call.kind in SEATLIKE:
            return self.rng.choice([*call.seats, None])
        return self.rng.choice(game.candidates())

    def observe(self, step: Step) -> None:
        """Learns what the Seer saw, from the facts shown to her, and makes it known as the model says."""
        if not self.informed or step.call.id != "seer":
            return
        knows = self.knows
        for fact in step.facts:
            if fact.key == "seer.sees":
                seat = fact.values["seat"]
                assert isinstance(seat, int)
                wolf = ROLES[str(fact.values["role"])].team in WOLF_TEAMS  # she sees the card, not the side
                knows.looks[seat] = wolf
                # She will speak at dawn: always (seer); once she has found a werewolf (hunt), and then on.
                if (self.model == "seer" or wolf or knows.seer is not None) and step.call.actors:
                    knows.telling = step.call.actors[0]

    def uniform(self, call: Call) -> Answer:
        """Returns an answer drawn uniformly among the legal ones."""
        game, rng = self.game, self.rng
        candidates = [*call.seats, None] if call.kind in SEATLIKE else game.candidates()
        for _ in range(TRIES):
            value = rng.choice(candidates)
            try:
                game.check(value)
            except IllegalAnswer:
                continue
            return value
        legal = game.legal()
        if not legal:  # pragma: no cover  (the engine always offers an answer; the property tests check it)
            raise RuntimeError(f"no legal answer to {call.id}")
        return rng.choice(legal)

    def ballot(self, voter: int, targets: Sequence[int]) -> int | None:
        """Returns whom ``voter`` names among ``targets``: the model's choice, never themself if avoidable."""
        game, rng, knows = self.game, self.rng, self.knows
        others = [s for s in targets if s != voter] or list(targets)
        if not others:
            return None
        if not self.informed:
            return rng.choice(others)
        if game.is_werewolf(voter):
            # The pack names a villager, the cleared last: voting for them would give a werewolf away.
            pool = ([s for s in others if not game.is_werewolf(s) and s not in knows.cleared]
                    or [s for s in others if not game.is_werewolf(s)] or others)
            return rng.choice(pool)
        found = [s for s in others if s in knows.found]
        if found:
            return found[0]  # the whole village names the same werewolf: the lowest seat she found
        # The Seer also trusts what she saw and kept to herself (hunt, before she speaks).
        own = knows.looks if game.card(voter) == "seer" else {}
        pool = [s for s in others if s not in knows.cleared and own.get(s) is not False] or others
        return rng.choice(pool)

    def _vote(self, call: Call) -> Answer:
        """Returns the vote's result: every living player's ballot, counted by the engine's own rules (the
        Sheriff's double; the ballots the engine refuses, a revealed Idiot's, left out), given as the seat, the tie,
        or nobody."""
        game = self.game
        ballots: dict[int, int | None] = {v: self.ballot(v, call.seats) for v in game.living()}
        while True:
            try:
                tally = votes.count(game, ballots)
            except IllegalAnswer as refusal:
                voter = refusal.values.get("seat")
                if (refusal.key in ("refusal.not_a_voter", "refusal.idiot_ballot", "refusal.barkeeper_voted")
                        and voter in ballots):
                    # The Scapegoat did not name this voter, the Idiot is revealed, the Barkeeper voted first: silent
                    del ballots[voter]
                    continue
                raise
            break
        # The result rather than the roll call: the same outcome, without reading every ballot again.
        return tally.seat if not tally.tied else {"tie": list(tally.tied)}

    def _look(self, call: Call) -> Answer:
        """The Seer looks at a living player she has not seen yet (or passes, having seen them all)."""
        me = call.actors[0] if call.actors else None
        unseen = [s for s in self.game.present() if s != me and s not in self.knows.looks]
        return self.rng.choice(unseen) if unseen else None

    def _devour(self) -> Answer:
        """The pack devours the Seer who spoke (hunt), else a random villager."""
        game, seer = self.game, self.knows.seer
        if seer is not None and game.alive(seer) and not game.is_werewolf(seer):
            return seer
        villagers = [s for s in game.living() if not game.is_werewolf(s)]
        return self.rng.choice(villagers) if villagers else None


def game_seed(seed: int, index: int) -> int:
    """Returns the seed of game ``index`` of a simulation seeded ``seed``: the same whatever the chunking."""
    return seed * 1_000_003 + index


def play(table: Table, seed: int, model: str = "random", deal: Deal | None = None) -> Game:
    """Deals with ``seed`` (unless ``deal`` is given) and plays a whole game with ``model``."""
    game = Game(table, deal if deal is not None else deal_cards(table, seed))
    # Its own stream: the deal's shuffle and the players' choices must not draw the same numbers.
    return Player(game, random.Random(seed * 2 + 1), model).play()


def winner(game: Game) -> str:
    """Returns who won the game (an Outcome's winner), or UNFINISHED."""
    return game.outcome.winner if game.outcome is not None else UNFINISHED
