"""The supervisor: a game at the table runs in a child process, and if that process dies, the terminal comes back clean.

A secret never outlives its call: if the game's process dies for any reason, kill -9 included,
this small process gives the terminal its settings back, leaves the full screen, clears the screen and its
scrollback (where a card or a victim may still show), and offers to go on at once from the journal. It loads
neither the engine nor rich: whatever the game does, the supervisor must stay up and stay small.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import termios
import time
from pathlib import Path
from typing import Any, Callable, NoReturn, Sequence

from .hint import columns, command, fold, pinned, resume_hint, table_text, typed_path
from .journal import table_language

SUPERVISED = "WEREWOLF_NARRATOR_SUPERVISED"
"""Set in the game's own process (to the supervisor's process id), so that it plays rather than supervise itself,
and dies with its supervisor (`die_with_supervisor`)."""

SEED_VARIABLE = "WEREWOLF_NARRATOR_SEED"
"""The seed the host chose (`play --seed N`), given to the game's process by its environment, which only the
account may read: a command line shows to every account (ps), and the seed deals every card."""

def without_seed(argv: Sequence[str], seed: int) -> NoReturn:
    """Runs `werewolf-narrator ARGV` in this very process, started again (its process id kept), the ``seed`` given
    by its environment (SEED_VARIABLE): `play --seed N` leaves the command line at once, which every account reads
    (ps, /proc/PID/cmdline), for the whole game, the supervisor's and the game's process alike."""
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(sys.executable, [sys.executable, "-m", "narrator", *argv], {**os.environ, SEED_VARIABLE: str(seed)})


OWN_ENDS = frozenset({0, 1, 2, 130, 141})
"""The statuses the game's process ends with by itself (cli.main): the game over, bad input, a usage mistake, the
host's stop (its journal kept), the output closed. It gave the terminal back itself; any other end is a crash."""

CLEAN = "\x1b[?1049l\x1b[0m\x1b[?25h\x1b[H\x1b[2J\x1b[3J"
"""Leaves the alternate (full) screen, resets colours, shows the cursor, clears the screen and the scrollback."""

ENTER = (b"\r", b"\n")


def wanted(environ: dict[str, str] | None = None) -> bool:
    """Returns whether a game should run under a supervisor: played at a terminal, and not already supervised."""
    if (environ if environ is not None else os.environ).get(SUPERVISED):
        return False
    try:
        return os.isatty(0)
    except OSError:
        return False


def die_with_supervisor(environ: dict[str, str] | None = None) -> None:
    """In the game's process: asks the system to send it SIGHUP when its supervisor dies (Linux's parent-death
    signal), which stops the game as a shutdown does: its screen cleared, its journal released. Without it, a
    supervisor killed would leave the game running alone, its secret under the shell's prompt, its journal locked.
    A supervisor gone already is a SIGHUP now."""
    value = (environ if environ is not None else os.environ).get(SUPERVISED, "")
    if not value.isdigit() or int(value) <= 1 or not sys.platform.startswith("linux"):
        return  # not started by a supervisor of ours (a test's process id is 1), or no such signal on this system
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGHUP), 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() != int(value):
        os.kill(os.getpid(), signal.SIGHUP)
        return
    import threading

    threading.Thread(target=_watch_stopped, args=(int(value),), name="supervisor-watch", daemon=True).start()


def _watch_stopped(supervisor: int) -> None:
    """Sends this process SIGHUP once its supervisor is stopped (SIGSTOP): the shell then takes the terminal back,
    and the game's screen, a secret on it, would stay under its prompt. Gone, the parent-death signal tells."""
    while True:
        time.sleep(WATCH_SECONDS)
        try:
            with open(f"/proc/{supervisor}/stat", encoding="utf-8", errors="replace") as stat:
                state = stat.read().rsplit(")", 1)[1].split()[0]  # after the name, which may hold anything
        except (OSError, IndexError):
            return
        if state == "T":  # stopped by a signal ("t", a debugger's stop, is not the table's)
            os.kill(os.getpid(), signal.SIGHUP)
            return


WATCH_SECONDS = 0.5
"""How often the game looks whether its supervisor was stopped."""

PR_SET_PDEATHSIG = 1
"""prctl's option (linux/prctl.h): the signal a process receives when the thread that started it ends."""


def table_journal(path: str) -> bool:
    """Returns whether ``path`` is the journal of a game at the table (not a dry run's); resume reports the rest."""
    from .journal import MAX_BYTES, open_regular, parse_line  # as `resume` reads it: no crash on a CRLF, no hang on
    # a FIFO, never more than a journal can hold (a file of gigabytes without a newline)

    try:
        with open_regular(path) as file:
            header = parse_line(file.readline(MAX_BYTES).removesuffix(b"\n"))
    except (OSError, ValueError):
        return False
    return isinstance(header, dict) and header.get("kind") == "play"


def begun(journal: Path) -> bool:
    """Returns whether the game has a journal to go on from: its first line, the header, whole on the disk."""
    try:
        from .journal import MAX_BYTES

        with open(journal, "rb") as file:
            return file.readline(MAX_BYTES).endswith(b"\n")  # never a whole file of gigabytes without a newline
    except OSError:
        return False


class Supervisor:
    """Runs the game's process, waits, and cleans up after it if it dies."""

    def __init__(self, journal: Path, resume: Sequence[str], python: str = sys.executable,
                 environ: dict[str, str] | None = None) -> None:
        self.journal = journal
        self.resume = list(resume)
        self.environ = dict(environ or {})  # for the first game's process only: `resume` reads its journal
        self.python = python
        self.child: subprocess.Popen[bytes] | None = None
        self.stop: int | None = None  # SIGTERM or SIGHUP received: the stop was wanted, no offer to go on
        self.asking = False  # waiting for the host's key
        terminal = [fd for fd in (1, 2) if _isatty(fd)]
        self.out = terminal[0] if terminal else 2  # messages; the screen's controls only to a terminal
        self.screen = bool(terminal)

    def run(self, args: Sequence[str]) -> int:
        """Plays ``python -m narrator ARGS``, then `resume` as often as the host asks; returns the exit status."""
        saved = _terminal_state()
        handlers = {s: signal.signal(s, self._ignore) for s in (signal.SIGINT, signal.SIGQUIT)}
        handlers.update({s: signal.signal(s, self._forward) for s in (signal.SIGTERM, signal.SIGHUP)})
        # Ctrl-Z suspends neither: the shell would take the keyboard with a card on the screen. Ignored, they stay
        # ignored in the game's process (a handler would not).
        handlers.update({s: signal.signal(s, signal.SIG_IGN) for s in (signal.SIGTSTP, signal.SIGTTIN, signal.SIGTTOU)})
        try:
            while True:
                status = self._play(args)
                if status is None:
                    _restore(saved)
                    return 1
                if status in OWN_ENDS:
                    _restore(saved)  # keys typed for the game and not read would run as the shell's commands
                    return status
                crashed = status < 0
                _restore(saved)
                if self.screen:
                    # Killed, the game's own cleanup never ran: its screen may hold a secret. An internal error
                    # cleaned up and said why: its message stays for the bug report.
                    self._write(CLEAN if crashed else "\x1b[?25h")
                code = 128 - status if crashed else status
                if self.stop is not None:
                    self._write(self._stopped(status))
                    return code
                if not begun(self.journal):
                    self._write(f"The game stopped unexpectedly ({_why(status)}) before it had begun: nothing "
                                f"was saved. Start it again with {command()} play.\n")
                    return code
                # The journal and the command each on a line of their own, as the user may type them: cut by the
                # terminal, they would not be. The words in the table's language, as its screen was.
                say = self._words()
                if not self._enter(self._fold(say("screen.crashed", why=_why(status, say))) + "\n"
                                   + self._fold(say("screen.crash_saved")) + f"\n  {typed_path(str(self.journal))}\n\n"
                                   + self._fold(say("screen.crash_ask")) + "\n"):
                    self._write(f"{self._fold(say('screen.go_on_later'))}\n  {resume_hint(self.journal, self.out)}\n")
                    return code
                if self.screen:
                    # Answered, the message goes: left on the main screen, it came back at the game's next clean end
                    # ("killed by SIGKILL... Press Enter to go on" under a game that had just been stopped).
                    self._write(CLEAN)
                args = self.resume
        finally:
            for number, handler in handlers.items():
                signal.signal(number, handler)

    def _play(self, args: Sequence[str]) -> int | None:
        """Runs the game's process to its end; returns its status (minus the signal that killed it), or None
        when it could not be started."""
        try:
            self.child = subprocess.Popen([self.python, "-m", "narrator", *args],
                                          env={**os.environ, **self.environ, SUPERVISED: str(os.getpid()),
                                               **pinned()})
            self.environ = {}
        except OSError as exc:
            self._write(f"error: the game could not be started ({exc.strerror or exc})\n")
            return None
        if self.stop is not None:  # asked to stop while it was being started
            self.child.send_signal(self.stop)
        status = self.child.wait()
        self.child = None
        return status

    def _ignore(self, signum: int, frame: Any) -> None:
        """Ctrl-C and Ctrl-\\ are the game's: it asks the host whether to stop (or dies, and is cleaned up after)."""

    def _forward(self, signum: int, frame: Any) -> None:
        """SIGTERM and SIGHUP stop the game as the host's confirmed Ctrl-C does; no offer to go on afterwards."""
        self.stop = signum
        child = self.child
        if child is not None and child.poll() is None:
            child.send_signal(signum)
        elif self.asking:
            raise _Stopped()  # no game to stop: stop waiting for the host's key

    def _stopped(self, status: int) -> str:
        if not begun(self.journal):
            return f"The game was stopped ({_why(status)}) before it had begun: nothing was saved.\n"
        say = self._words()
        return f"{self._fold(say('screen.killed', why=_why(status, say)))}\n  {resume_hint(self.journal, self.out)}\n"

    def _words(self) -> Callable[..., str]:
        """The screen lines of the table's language, read from the journal's header once the game has begun.
        Before that nothing says the table's language (the game's process reads its config, which the supervisor
        must not: it would load the engine), so the messages of a game that never began stay in English."""
        language = table_language(self.journal)
        return lambda key, **values: table_text(language, key, **values)

    def _fold(self, text: str) -> str:
        """Cuts ``text`` between words to the terminal's width, never mid-word as the terminal would."""
        return fold(text, columns(self.out) if self.screen else None)

    def _enter(self, question: str) -> bool:
        """Writes ``question``, reads one key; returns True for Enter. Keys typed before the question do not answer
        it: they are dropped before it is written, so that an Enter pressed as soon as it shows is not (dropped
        after, it was lost, and the host waited for a game that waited for a key)."""
        try:
            saved = termios.tcgetattr(0)
            single = termios.tcgetattr(0)
            single[3] &= ~(termios.ICANON | termios.ECHO | termios.ISIG)  # Ctrl-C is a key here: quit
            single[6][termios.VMIN], single[6][termios.VTIME] = 1, 0
            termios.tcsetattr(0, termios.TCSAFLUSH, single)
        except (OSError, termios.error):
            self._write(question)
            return False  # no terminal left to ask
        self._write(question)
        self.asking = True
        try:
            return os.read(0, 1) in ENTER
        except (OSError, _Stopped):
            return False
        finally:
            self.asking = False
            try:
                termios.tcsetattr(0, termios.TCSADRAIN, saved)
            except (OSError, termios.error):
                pass

    def _write(self, text: str) -> None:
        """Writes to the terminal; a terminal that is gone is not an error (there is nobody to tell)."""
        try:
            os.write(self.out, text.replace("\n", "\r\n").encode("utf-8", "replace"))
        except OSError:
            pass


class _Stopped(Exception):
    """SIGTERM or SIGHUP while the supervisor waits for the host's key."""


def supervise(args: Sequence[str], journal: Path, resume: Sequence[str], environ: dict[str, str] | None = None) -> int:
    """Plays ``werewolf-narrator ARGS`` in a child process whose journal is ``journal`` (with ``environ`` added to
    its environment); if it dies, offers ``werewolf-narrator RESUME``; returns the exit status."""
    return Supervisor(journal, resume, environ=environ).run(args)


def _why(status: int, say: Callable[..., str] | None = None) -> str:
    """Why the game's process ended, in English or with ``say``'s words (the table's language)."""
    if status < 0:
        try:
            name = signal.Signals(-status).name
        except ValueError:
            name = f"signal {-status}"
        return say("screen.why_signal", signal=name) if say else f"its process was killed by {name}"
    return say("screen.why_status", status=status) if say else f"its process ended with status {status}"


def _isatty(fd: int) -> bool:
    try:
        return os.isatty(fd)
    except OSError:
        return False


def _terminal_state() -> list[Any] | None:
    """Returns the terminal's settings as the game found them (None without a terminal)."""
    try:
        return termios.tcgetattr(0)
    except (OSError, termios.error):
        return None


def _restore(saved: list[Any] | None) -> None:
    """Gives the terminal its settings back (echo, lines); input typed for the dead game is dropped."""
    if saved is None:
        return
    try:
        termios.tcsetattr(0, termios.TCSAFLUSH, saved)
    except (OSError, termios.error):
        pass
