"""What the learner's code prints: stdout and stderr, capped, streamed to the page."""

from __future__ import annotations

import json
import signal
import time
from collections.abc import Callable
from types import FrameType

from .contract import CONTRACT

MAX_LINES = CONTRACT["output"]["lines"]
MAX_CHARS = CONTRACT["output"]["chars"]
FLUSH_SECONDS = 0.05
BATCH_PAIRS = 1_000
"""A batch holds at most this many [stream, text] pairs (code that switches streams at
every character makes one a character): the page takes in a batch in one task."""
TRUNCATED = f"\n… output truncated (more than {MAX_LINES:,} lines or {MAX_CHARS // 1000:,} kB)\n"
STREAMS = tuple(CONTRACT["output"]["streams"])
TICK: int | None = getattr(signal, "SIGUSR1", None)
"""The worker's tick, every FLUSH_SECONDS while Python runs (web/worker/signals.js).
Windows's Python, which the authors' commands may run on, has no such signal."""


class Output:
    """stdout and stderr together, in order, capped, sent to the page in timed batches:
    a message at most every FLUSH_SECONDS, and one at the end, however the output comes;
    what waits goes on the worker's tick too, though the code writes nothing more for a
    while. Each message costs the page's main thread a task of its own."""

    def __init__(self, post: Callable[[str], None]) -> None:
        self._post = post
        self.pending: list[list[str]] = []  # [stream, text] pairs the runner wrote
        self.sealed: list[str] = []  # the items of JSON lists, to send before `pending`
        self.lines = 0
        self.chars = 0
        self.truncated = False
        self.last_flush = float("-inf")  # so the first write goes out at once

    def write(self, stream: str, text: str) -> None:
        if self.truncated or not text:
            return
        kept = text  # past a cap, the part that fits is kept, then a note says the rest was cut
        if text.count("\n") > MAX_LINES - self.lines:
            kept = "".join(line + "\n" for line in text.split("\n")[: MAX_LINES - self.lines])
        kept = kept[: MAX_CHARS - self.chars]
        self.lines += kept.count("\n")
        self.chars += len(kept)
        self.truncated = kept != text
        pieces = [(stream, kept), ("stderr", TRUNCATED)] if self.truncated else [(stream, kept)]
        for name, piece in pieces:
            if self.pending and self.pending[-1][0] == name:
                self.pending[-1][1] += piece
            elif piece:
                self.pending.append([name, piece])
        if self.truncated or len(self.pending) >= BATCH_PAIRS \
                or time.monotonic() - self.last_flush > FLUSH_SECONDS:
            self.flush()

    def send(self, batch: str) -> None:
        """A batch (a JSON list of [stream, text] pairs) from code that reaches this object
        (sys.stdout.output) and sends output itself: it goes out with the rest, uncapped
        (the page caps what it takes), and an empty one costs next to nothing. What is
        not such a batch goes at once as it is, for the page to refuse."""
        text = batch.strip() if type(batch) is str else ""
        if text[:1] == "[" and text[-1:] == "]" and not text[1:-1].strip():
            return
        if not _is_batch(text):
            self.flush()
            self._post(batch)
            return
        self._seal()
        self.sealed.append(text[1:-1])
        if time.monotonic() - self.last_flush > FLUSH_SECONDS:
            self.flush()

    def tick(self, signum: int, frame: FrameType | None) -> None:
        """TICK's handler: send what waits, unless the tick came in the middle of this
        module's code (a write, a send): then that sends it, or the next tick does."""
        if (self.pending or self.sealed) and not _inside_this_module(frame):
            self.flush()

    def note(self, text: str) -> None:
        """A line from the playground itself, on stderr."""
        self.write("stderr", text + "\n")

    def flush(self) -> None:
        self._seal()
        if self.sealed:
            self._post(f"[{','.join(self.sealed)}]")
            self.sealed = []
        self.last_flush = time.monotonic()

    def _seal(self) -> None:
        """Put the pending pairs, as JSON, after what is to be sent."""
        if self.pending:
            self.sealed.append(json.dumps(self.pending)[1:-1])
            self.pending = []


def _inside_this_module(frame: FrameType | None) -> bool:
    """Whether `frame`, or a frame it was called from, runs this module's code."""
    while frame is not None:
        if frame.f_globals is globals():
            return True
        frame = frame.f_back
    return False


def _is_batch(text: str) -> bool:
    """Whether `text` is JSON of a list of [stream, text] pairs."""
    try:
        pairs = json.loads(text)
    except ValueError:
        return False
    return type(pairs) is list and all(
        type(pair) is list and len(pair) == 2 and pair[0] in STREAMS and type(pair[1]) is str
        for pair in pairs)


class Stream:
    """A text file object that writes into an Output under one stream name."""

    def __init__(self, output: Output, name: str) -> None:
        self.output = output
        self.name = name

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        text = str.__str__(text)  # a str subclass's methods are the learner's code
        self.output.write(self.name, text)
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False


class NoInput:
    """stdin for code that calls input(): there is no one to type, so say so plainly."""

    def readline(self, size: int = -1) -> str:
        raise EOFError("input() has no keyboard here: put the value in the code instead")

    read = readline
