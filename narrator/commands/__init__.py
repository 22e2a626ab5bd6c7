"""The bodies of the ``werewolf-narrator`` commands, by theme; narrator.cli parses the command line and calls them.

Their modules import only the standard library and narrator.errors at the top, the rest inside their functions: a
game's supervisor imports them all (through narrator.cli) and must load neither the engine nor rich."""
