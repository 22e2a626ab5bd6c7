"""The rules of The Werewolves of Miller's Hollow: pure, deterministic, driven by a journal of answers.

>>> from engine import Game, Table, Deal, Rules
>>> table = Table(6, ("werewolf",) * 2 + ("villager",) * 4, Rules(sheriff=False))
>>> game = Game(table, Deal(("werewolf", "villager", "villager", "werewolf", "villager", "villager")))
>>> [c.id for c in game.calls]
['nightfall']
"""

from .calls import call_kinds
from .game import Game, GameOver, Player
from .order import PROFILES, night_calls
from .role import CallSpec, Role
from .roles import CALLS, ROLES
from .table import MAX_SEATS, MIN_SEATS, PRESETS, Deal, Rules, Table, check_deck, check_groups, deal_cards, preset
from .types import Answer, Call, Elimination, Fact, IllegalAnswer, Kind, Outcome, Phase, Step, Team

__all__ = [
    "Answer", "CALLS", "Call", "CallSpec", "Deal", "Elimination", "Fact", "Game", "GameOver",
    "IllegalAnswer", "Kind", "MAX_SEATS", "MIN_SEATS", "Outcome", "PRESETS", "PROFILES", "Phase", "Player",
    "ROLES", "Role", "Rules", "Step", "Table", "Team", "call_kinds", "check_deck", "check_groups",
    "deal_cards", "night_calls", "preset",
]
