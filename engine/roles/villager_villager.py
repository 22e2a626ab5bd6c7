"""The Villager-Villager (村民-村民, Characters expansion): a villager whose card shows "villager" on both
sides, so everyone knows from the start that he is an honest villager.

To the engine he is a plain villager with no power (one card per deck). He matters only to the narrator,
for whom his card is public from the start; nothing special is said or asked for him. The Chinese article:
he makes a fine Sheriff, but the Infected Father's infection still works on him.
"""

from ..role import Role


class VillagerVillager(Role):
    id = "villager_villager"
    copies = (0, 1)


ROLE = VillagerVillager()
