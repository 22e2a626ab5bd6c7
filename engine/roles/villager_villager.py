"""The Villager-Villager (村民-村民, Characters expansion): a villager whose card shows "villager" on both
sides, so everyone knows from the start that he is an honest villager (两面都是"村民"图案的身份，一眼便可看出他的正直思想).

To the engine he is a plain villager with no power (one card per deck). His card is public: with real cards it
shows itself; with the program's deal (``deal: app``) nobody holds a card, so before anything else, with every eye
open, the narrator says which seat holds him (or that his card lies in the centre, as a real one would show it
there). The Chinese article: he makes a fine Sheriff, but the Infected Father's infection still works on him.
"""

from ..contract import CallTraits, FactSpec, Value
from ..role import Flow, Play, Role, nothing
from ..types import Fact, Kind


class VillagerVillager(Role):
    id = "villager_villager"
    copies = (0, 1)
    asks = {"villager_villager": Kind.NONE}

    def at_start(self, game: Play) -> Flow:
        """Said once, aloud, before the first vote and the first night: his card is public (the deck says whether
        he plays, so the call's moment tells nothing)."""
        if game.table.real_cards:
            return nothing()
        return _shown(game)


def _shown(game: Play) -> Flow:
    seats = game.dealt(ROLE.id)
    fact = Fact("villager_villager.seat", {"seat": seats[0]}) if seats else Fact("villager_villager.centre")
    yield game.ask("villager_villager", Kind.NONE, facts=(fact,))


ROLE = VillagerVillager()
FACTS = (FactSpec("villager_villager.seat", {"seat": Value.SEAT}), FactSpec("villager_villager.centre"))
"""Where his card is: a seat, or the centre (the Thief's two cards)."""
TRAITS = {"villager_villager": CallTraits(announces=True)}
"""Nobody answers: the narrator goes on at once."""
