"""The Little Girl: may spy on the werewolves during their call; the engine has nothing to run."""

from ..role import Role


class LittleGirl(Role):
    id = "little_girl"


ROLE = LittleGirl()
