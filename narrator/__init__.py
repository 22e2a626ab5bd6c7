"""Everything that touches the world: voice files, config, practice scripts, the narration loop, the CLI."""
