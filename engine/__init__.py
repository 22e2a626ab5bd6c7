"""The rules of The Werewolves of Miller's Hollow: pure, deterministic, driven by a journal of answers.

>>> from engine import Game, Table, Deal, Rules
>>> table = Table(6, ("werewolf",) * 2 + ("villager",) * 4, Rules(sheriff=False))
>>> game = Game(table, Deal(("werewolf", "villager", "villager", "werewolf", "villager", "villager")))
>>> [c.id for c in game.calls]
['nightfall']
"""

from .answers import kept_after_undo
from .calls import call_kinds
from .game import Game
from .order import PROFILES, night_calls
from .role import CallSpec, GameOver, Play, Role
from .roles.gypsy import CARDS as SEANCE_CARDS
from .roles import CALLS, KINDS, ROLES, TABLE_KEYS, Advice, badges, check_deck, check_extras, revealed
from .state import Kept, Night, Player, State
from .table import MAX_SEATS, MIN_SEATS, PRESETS, Deal, Rules, Table, check_groups, deal_cards, preset
from .types import Answer, Call, Elimination, Fact, IllegalAnswer, Kind, Outcome, Phase, Step, Team

__all__ = [
    "Advice", "Answer", "CALLS", "Call", "CallSpec", "Deal", "Elimination", "Fact", "Game", "GameOver",
    "IllegalAnswer", "KINDS", "Kept", "Kind", "MAX_SEATS", "MIN_SEATS", "Night", "Outcome", "PRESETS", "PROFILES", "Phase", "SEANCE_CARDS",
    "Play", "Player", "ROLES", "Role", "Rules", "State", "Step", "TABLE_KEYS", "Table", "Team", "badges", "call_kinds",
    "check_deck", "check_extras", "check_groups", "deal_cards", "kept_after_undo", "night_calls", "preset", "revealed",
]
