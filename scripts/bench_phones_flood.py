"""Prints what one hostile or vanished phone costs the others (issue 34), on 127.0.0.1 at the table's own clock (a
frame a second): the honest phones' worst wait between two frames while a client floods its seat's socket with
pings and never reads, the server's memory growth under that flood, how long the flooder stays connected; then the
same with a phone that stops reading (a browser suspended with its TCP up), and how long it stays connected.

The flooder runs in a process of its own, as a player's laptop would; the server and the honest phones run here,
the memory traced by tracemalloc (the server's frames, buffers and pongs: what a flood would pile up).

    python scripts/bench_phones_flood.py [--pings 400000] [--seconds 20] [--phones 4]
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import os
import sys
import time
import tracemalloc
from typing import Any

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests"))

from narrator.phones.server import PhoneServer  # noqa: E402

raw: Any = importlib.import_module("rawphones")  # tests/rawphones.py: the honest phones, the flood, the vanished


def gaps(honest: list[Any], since: float, until: float) -> str:
    """Returns the honest phones' worst wait between two frames from ``since`` to ``until``, and their frames."""
    worst = max(phone.worst_gap(since, until) for phone in honest)
    frames = sum(len([at for at in phone.times if since <= at <= until]) for phone in honest)
    return f"worst gap {worst:.2f} s ({frames} frames to {len(honest)} honest phones)"


async def flooded(server: PhoneServer, phones: int, pings: int, seconds: float) -> None:
    honest = [raw.Honest(server.link(seat)) for seat in range(1, phones + 1)]
    reading = [asyncio.create_task(phone.run(seconds + 3)) for phone in honest]
    await asyncio.sleep(1.5)
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    start = time.monotonic()
    written, connections, cut = await asyncio.to_thread(raw.flood_elsewhere, server.link(phones + 1), pings, seconds)
    took = time.monotonic() - start
    current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    await asyncio.gather(*reading)
    print(f"ping flood: {written:,} pings written in {took:.1f} s over {connections} connection(s); "
          f"{gaps(honest, start, start + took)}")
    print(f"ping flood: memory growth peak {(peak - before) / 1e6:.2f} MB, after {(current - before) / 1e6:.2f} MB")
    # As the flooder saw it: its first write that failed (a flood that ends first sees nothing).
    dropped = f"{cut:.2f} s after its first ping" if cut is not None else f"not seen in {took:.0f} s"
    print(f"ping flood: flooder dropped {dropped}; told by day: {phones + 1 in server.dropped()}")


async def vanished(server: PhoneServer, phones: int, seconds: float) -> None:
    honest = [raw.Honest(server.link(seat)) for seat in range(1, phones + 1)]
    reading = [asyncio.create_task(phone.run(seconds + 1)) for phone in honest]
    gone = asyncio.Event()
    seat = phones + 1
    asleep = asyncio.create_task(raw.vanish(server.link(seat), gone))
    while seat not in server.connected():
        await asyncio.sleep(0.01)
    start = time.monotonic()
    while seat in server.connected() and time.monotonic() - start < seconds:
        await asyncio.sleep(0.05)
    cut = time.monotonic() - start
    await asyncio.gather(*reading)
    end = start + seconds
    gone.set()
    await asleep
    print(f"vanished phone: {gaps(honest, start, end)} over {seconds:.0f} s")
    print("vanished phone: dropped " + (f"{cut:.1f} s after it stopped reading" if cut < seconds
                                        else f"not in {seconds:.0f} s"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pings", type=int, default=400_000, help="the flood's pings (default 400,000)")
    parser.add_argument("--seconds", type=float, default=20, help="each part's longest run (default 20 s)")
    parser.add_argument("--phones", type=int, default=4, help="honest phones (default 4)")
    args = parser.parse_args()
    texts = {"phone.refused": "This link opens nothing."}
    for part in ("flood", "vanished"):
        server = PhoneServer(args.phones + 1, texts, bind="127.0.0.1").start()
        try:
            if part == "flood":
                asyncio.run(flooded(server, args.phones, args.pings, args.seconds))
            else:
                asyncio.run(vanished(server, args.phones, args.seconds))
        finally:
            server.stop()


if __name__ == "__main__":
    main()
