"""The Simple Villager: no power; analyses, persuades and votes."""

from ..role import Role


class Villager(Role):
    id = "villager"
    copies = None


ROLE = Villager()
