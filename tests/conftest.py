import atexit
import os
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

# Rendered voice lines go to a folder of this test run, never to the user's own cache (the
# subprocesses the tests start inherit it too).
os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="werewolf-tests-cache-")
atexit.register(shutil.rmtree, os.environ["XDG_CACHE_HOME"], True)
# Likewise the data folder (journals, speech models, Piper voices): a voice or a model the user installed must
# not change what the tests choose.
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="werewolf-tests-data-")
atexit.register(shutil.rmtree, os.environ["XDG_DATA_HOME"], True)
# The hints name the command that runs the program where the user is (narrator.hint); pinned here, so that the
# messages the tests expect do not depend on where pytest runs (test_hints.py checks how it is chosen).
os.environ["WEREWOLF_NARRATOR_COMMAND"] = "werewolf-narrator"
