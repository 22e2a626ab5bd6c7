"""How long a call lasts at a real table, so that its length tells nobody whether anyone answered it.

A living Seer takes as long as she needs; a call made for a dead or powerless character has nobody to
answer. If the second were short (or always alike), a table would hear which calls are empty within a
night or two. So every call made with eyes closed (the night's calls, the Stuttering Judge's, the cards'
identification) is paced here:

- **The floor.** A call opens when its answer is first asked (its wake line said, what it shows on the
  screen shown) and closes just before its sleep line, once those awake have read what their answer
  revealed. It never closes sooner than ``floor`` seconds after it opened: a fast answer waits out the
  rest. Quick living answers then end exactly at the floor, as many empty calls do.
- **The living set the pace.** Each call answered by someone gives a sample: how long it stayed open
  (the floor included), less the time the host spent in the host menu (a pause for a phone call says
  nothing about how long a Seer takes).
- **An empty call waits a duration drawn from those samples**: from this call's own if it has any (a
  dead Seer waits as the living Seer did: a character's calls are compared with its own), or else from
  every call of its kind (the night's calls, or the identifications) if they are MIN_SAMPLES at least,
  or else (the first calls of a game, a game just resumed) from the configured ``fallback`` range. The
  draw is a sample taken at random and stretched by a small random factor (JITTER), so that an empty
  call does not repeat a living one's length to the tenth of a second. Stretched past the longest call
  of its pool, or under the floor, it is reflected back (an empty call is never longer than the longest
  living one it is drawn from, and no lengths heap up at either end); a quick answer's sample gives the
  floor itself, as quick answers do.
- **No sample is left out**, however long: a slow character (the Witch weighing her potions, the pack
  deliberating) is slow when empty too. Leaving out the samples far over the night's median made such a
  character's empty calls as short as the quick ones', which a table heard the night her potions were spent.
  A player who fetches a drink without pausing the game (the host menu's pause is not counted) makes that
  character's empty calls longer: they stand out no more than the living call did.
- **The samples are journaled** (narrator.journal's ``{"pace": ..., "took": ...}``): a game resumed keeps its pace,
  a dead Seer's calls as long after a resume as her living calls were before it.

What a listener could still notice: the first calls of a game, paced by the fallback range (the host can
tune it to the table: ``pause`` in the config); a character dead after one or two living calls, whose empty
calls then stay close to those (the same spread as the living's over many games, a narrower one within a
game); a call never answered by anyone yet (a card in the centre from the first night), paced by the other
calls of its kind.

Draws use their own random generator (the system's), never the game's, whose draws the journal keeps:
a resumed game draws the same cards whatever the pacing did.
"""

from __future__ import annotations

import contextlib
import math
import random
import time
from typing import Callable, Iterator

MIN_SAMPLES = 3
"""The samples of its kind a call with none of its own needs before its empty calls are drawn from them."""

JITTER = 0.07
"""The spread (log-normal sigma) of the factor a drawn sample is stretched by: wide enough that no living length is
found again to the tenth of a second, narrow enough that an empty call stays within a fifth of the length it is drawn
from (its tails beyond three sigmas cut)."""

IDENTIFY = "identify"
"""The pool of the cards' identification (deal: cards), apart from the night's calls."""


class Pacing:
    """The timing of the calls made with eyes closed: a floor for all, and empty calls paced by living ones."""

    def __init__(self, floor: float = 0.0, fallback: tuple[float, float] = (0.0, 0.0), *,
                 clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] = time.sleep,
                 rng: random.Random | None = None,
                 on_sample: Callable[[str, float], None] = lambda key, took: None) -> None:
        self.floor = floor
        self.fallback = fallback
        self.clock = clock
        self.sleep = sleep
        self.rng = rng or random.SystemRandom()
        self.samples: dict[str, list[float]] = {}
        self.on_sample = on_sample  # journals each sample as it is taken
        self._key: str | None = None  # the open call's pool
        self._token: object = None  # what tells the same call asked again (after a refusal) from the next
        self._opened = 0.0
        self._held = 0.0
        self._living = True

    @property
    def open_key(self) -> str | None:
        """The open call's key, or None between calls."""
        return self._key

    def open(self, key: str, token: object = None) -> None:
        """Opens the call ``key`` (its wake line said); the same ``token`` again (not None) keeps it open."""
        if token is not None and token is self._token and self._key == key:
            return
        self._key, self._token = key, token
        self._opened = self.clock()
        self._held = 0.0
        self._living = True

    def wait(self, key: str) -> None:
        """Nobody answers the call ``key``: waits, from its opening (or from now, if it is not open), as long
        as a living answer might take."""
        left = self.left(key)
        if left > 0:
            self.sleep(left)

    def left(self, key: str) -> float:
        """Nobody answers the call ``key``: returns how long it has yet to last (none when negative), from its
        opening (or from now, if it is not open), as long as a living answer might take."""
        start = self._opened if self._key == key else self.clock()
        if self._key == key:
            self._living = False
        return self.draw(key) - (self.clock() - start)

    def close(self) -> None:
        """Before the sleep line: waits out the rest of the floor; a living answer's length becomes a sample."""
        if self._key is None:
            return
        took = self.clock() - self._opened
        if took < self.floor:
            self.sleep(self.floor - took)
        if self._living:
            sample = max(took - self._held, self.floor)
            self.samples.setdefault(self._key, []).append(sample)
            self.on_sample(self._key, sample)
        self._key = self._token = None

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        """The host's time (the host menu, a pause): left out of the open call's sample."""
        start = self.clock()
        try:
            yield
        finally:
            if self._key is not None:
                self._held += self.clock() - start

    def kin(self, key: str) -> list[float]:
        """Returns the samples of every call of ``key``'s kind (the night's calls, or the identifications)."""
        return [s for k, pool in self.samples.items() if (k == IDENTIFY) == (key == IDENTIFY) for s in pool]

    def pool(self, key: str) -> list[float]:
        """Returns the samples an empty call ``key`` is drawn from (empty: the fallback range)."""
        own = self.samples.get(key, [])
        kin = self.kin(key)
        return own if own else kin if len(kin) >= MIN_SAMPLES else []

    def draw(self, key: str) -> float:
        """Returns how long an empty call ``key`` lasts."""
        pool = self.pool(key)
        if not pool:
            return max(self.floor, self.rng.uniform(*self.fallback))
        longest = max(pool)
        base = self.rng.choice(pool)
        if base <= self.floor:
            return self.floor  # a quick answer: the call lasted the floor, and so does this one
        stretch = self.rng.gauss(0.0, JITTER)
        while abs(stretch) > 3 * JITTER:  # tails cut (drawn again, not heaped at the cut): within a fifth of the base
            stretch = self.rng.gauss(0.0, JITTER)
        stretched = base * math.exp(stretch)
        # Stretched past the pool's longest living call or under the floor, reflected back (in log scale): no
        # lengths heap up at either end, beyond the quick answers' own heap at the floor.
        if stretched > longest:
            stretched = longest * longest / stretched
        if stretched < self.floor:
            stretched = min(self.floor * self.floor / stretched, longest)
        return stretched
