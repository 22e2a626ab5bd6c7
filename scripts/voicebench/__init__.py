"""The parts of scripts/bench_voice.py, how well the narrator's lines are heard: the lines said (`lines`), the judges
that hear them (`judges`), and how what they heard is scored, in English words (`words`) and in French and Chinese
characters (`characters`)."""
