"""A first rule through the helpers: the Elder survives the first bite."""

from helpers import drive, eliminated, new_game


def test_elder_survives_first_bite() -> None:
    game = new_game(["werewolf", "elder", "villager", "villager", "werewolf", "villager"])
    drive(game, ("werewolves", 2), ("vote", None), ("werewolves", 2))
    assert eliminated(game) == [(2, "werewolves")]
