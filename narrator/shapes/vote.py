"""The village's vote (Kind.VOTE) and the Sheriff's election (Kind.ELECTION): the result typed (a seat, 0 for
nobody where it may pass, the tie key then the tied seats), or each voter's ballot in a roll call, counted by the
engine and read back before it counts."""

from __future__ import annotations

from typing import Any, Sequence

from engine import Answer, Game, IllegalAnswer, Kind, votes

from ..table_keys import SEAT_KEY
from . import AGAIN, SEAT, SEAT_SPOKEN, Pad, Repeat, Shape, Undo, so_far

TIE: dict[str, Any] = {"type": "object", "required": ["tie"], "additionalProperties": False,
                       "properties": {"tie": {"type": "array", "items": SEAT, "minItems": 2, "uniqueItems": True}}}
"""A vote's or an election's tie, the seats tied (the vote and the election take the same)."""

BALLOTS: dict[str, Any] = {"type": "object", "required": ["ballots"], "additionalProperties": False,
                           "properties": {"ballots": {"type": "object", "minProperties": 1,
                                                      "additionalProperties": False,
                                                      "patternProperties": {SEAT_KEY: {"anyOf": [
                                                          SEAT, {"type": "null"}]}}}}}
"""A roll call, each voter's seat to the seat they named (or null): the vote's and the election's."""


def vote(pad: Pad, optional: bool, prompt: str = "prompt.vote") -> Answer:
    """Reads the vote's result or, with the roll-call key, every voter's ballot; the Sheriff's election
    (``prompt.election``) alike, its tally read back as who is elected."""
    roll_call = pad.game is not None
    while True:
        if roll_call and pad.ballots:  # cast on the phones: the roll call asks the others, the tally is confirmed
            ballots = read_roll_call(pad, "tally.elected" if prompt == "prompt.election" else "tally.out",
                                     pad.ballots)
            pad.ballots = {}
            if ballots is not None:
                return ballots
            continue
        key = pad.number(pad.text(prompt), allow_zero=optional, tie=True, roll_call=roll_call,
                         largest=pad.largest())
        if key == "rollcall":
            ballots = read_roll_call(pad, "tally.elected" if prompt == "prompt.election" else "tally.out")
            if ballots is not None:
                return ballots
            continue
        if key == "tie":
            tied: list[int] = []
            while True:
                number = pad.number(pad.text("prompt.tie") + so_far(tied), allow_zero=True, largest=pad.largest())
                if number == 0 and len(tied) < 2:
                    pad.refuse("refusal.tie_two")  # the seats typed stay: a tie is two seats or more
                    continue
                if number == 0:
                    break
                assert isinstance(number, int)
                if number in tied:
                    pad.refuse("refusal.twice")  # said as it is typed, the list kept: not at the end, all lost
                    continue
                tied.append(number)
            if pad.confirm(pad.text("answer.tie", seats=pad.seat_words(tied)), {"tie": tied}):
                return {"tie": tied}
            continue
        assert isinstance(key, int)
        said = pad.text("answer.none") if key == 0 else pad.voice.seat(key, pad.names)
        if pad.confirm(said, key or None):
            return key or None


def read_roll_call(pad: Pad, result: str = "tally.out", given: dict[int, int | None] | None = None) -> Answer:
    """Asks each voter in seat order (by day, aloud) and reads their ballot: a seat, or 0 for nobody; undo
    takes back the last ballot (with none, back to the result). The ballots ``given`` (secret, cast on the
    players' phones) are taken as they are, never shown nor said one by one: only the voters without one are
    asked. The engine counts the whole roll call (the day's vote or the Sheriff's election: the running call's
    rules); its tally is shown and read back before it counts, the seat chosen said with ``result``. Returns
    ``{ballots: {voter: target}}`` (with ``secret``: the voters of ``given``), or None to type the result
    instead."""
    assert pad.game is not None
    game = pad.game
    voters = votes.voters(game)
    given = given or {}
    ballots: list[int | None] = []
    while True:
        if len(ballots) < len(voters) and voters[len(ballots)] in given:
            ballots.append(given[voters[len(ballots)]])
            continue
        try:
            if len(ballots) == len(voters):
                cast = dict(zip(voters, ballots))
                # The voters who cast theirs on a phone: secret, in the game's account too (recap), for good.
                answer: dict[str, Any] = {"ballots": cast, **({"secret": sorted(given)} if given else {})}
                if pad.confirm(tally(pad, game, cast, result), answer):
                    return answer
                if not typed(ballots, voters, given):
                    return None  # every ballot cast on the phones: Backspace types the result instead
                while voters[len(ballots) - 1] in given:
                    ballots.pop()
                ballots.pop()  # Backspace: the last voter's ballot typed again
                continue
            ballot = read_ballot(pad, voters[len(ballots)], ballots, voters, given)
        except Undo:
            while ballots and voters[len(ballots) - 1] in given:
                ballots.pop()  # a phone's ballot is not taken back: the one typed before it is
            if not ballots:
                pad.screen.entry("")
                return None
            ballots.pop()
            continue
        if ballot is not AGAIN:
            assert ballot is None or isinstance(ballot, int)
            ballots.append(ballot)


def typed(ballots: list[int | None], voters: Sequence[int], given: dict[int, int | None]) -> bool:
    """Returns whether any of ``ballots`` was typed on the keypad (not cast on a phone)."""
    return any(voter not in given for voter in voters[:len(ballots)])


def read_ballot(pad: Pad, voter: int, ballots: list[int | None], voters: Sequence[int],
                given: dict[int, int | None] | None = None) -> int | None | object:
    """Asks ``voter`` for their ballot; returns the seat, None for nobody, or AGAIN when it must be asked
    again (a seat the engine refuses, said why; repeat). The ballots ``given`` on the phones are not shown."""
    if pad.day:
        pad.say("roll_call.voter", {"seat": voter})
    done = "  ".join(f"{v}→{b or 0}" for v, b in zip(voters, ballots) if v not in (given or {}))
    try:
        number = pad.number(pad.text("prompt.roll_call", seat=voter) + (f"  ({done})" if done else ""),
                            allow_zero=True, largest=pad.largest())
    except Repeat:
        return AGAIN
    assert isinstance(number, int)
    if number == 0:
        return None
    try:  # a seat out of the vote (eliminated, not among the tied) is refused now, not after the last voter
        assert pad.check is not None
        pad.check({"ballots": {voter: number}})
    except IllegalAnswer as error:
        line = error.key if error.key in pad.voice.lines else "refusal.shape"
        if pad.day and not error.secret:
            pad.say(line, dict(error.values))
        pad.screen.refusal(pad.text(line, **error.values))
        return AGAIN
    return number


def tally(pad: Pad, game: Game, ballots: dict[int, int | None], result_key: str = "tally.out") -> str:
    """Returns the engine's count of ``ballots`` as read back: each seat's votes, most first, then the
    result ("Seat three, four votes; seat five, two votes. Seat three is eliminated", or "... is elected
    Sheriff" with ``result_key`` tally.elected)."""
    voice, names = pad.voice, pad.names
    totals = votes.totals(game, ballots)
    counted = votes.count(game, ballots)
    said = voice.tally([(seat, n) for seat, n in sorted(totals.items(), key=lambda item: (-item[1], item[0]))
                        if n > 0], names)
    if counted.tied:
        result = pad.text("answer.tie", seats=pad.seat_words(counted.tied))
    elif counted.seat is not None:
        result = voice.text(result_key, {"seat": counted.seat}, names, fragment=True)
    else:
        result = voice.text("tally.nobody", {}, names, fragment=True)
    return pad.text("tally.read", votes=said or voice.text("tally.empty", {}, fragment=True), result=result)


SHAPES = (
    Shape(Kind.VOTE, lambda pad, call: vote(pad, call.optional),
          "`seat`, `null` (nobody), `{tie: [a, b]}`, or a roll call `{ballots: {voter: target, ...}}`",
          {"anyOf": [SEAT, {"type": "null"}, TIE, BALLOTS]}, spoken=SEAT_SPOKEN),
    Shape(Kind.ELECTION, lambda pad, call: vote(pad, False, "prompt.election"),
          "`seat`, `{tie: [a, b]}`, or a roll call `{ballots: {voter: target, ...}}`",
          {"anyOf": [SEAT, TIE, BALLOTS]}, spoken=SEAT_SPOKEN),
)
