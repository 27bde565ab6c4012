"""What the learner's code prints: stdout and stderr, capped, streamed to the page."""

from __future__ import annotations

import json
import time
from collections.abc import Callable

MAX_LINES = 10_000
MAX_CHARS = 250_000
FLUSH_SECONDS = 0.05
TRUNCATED = "\n… output truncated (more than 10,000 lines or 250 kB)\n"


class Output:
    """stdout and stderr together, in order, capped, sent to the page in timed batches."""

    def __init__(self, send: Callable[[str], None]) -> None:
        self.send = send
        self.pending: list[list[str]] = []
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
        if self.truncated or time.monotonic() - self.last_flush > FLUSH_SECONDS:
            self.flush()

    def note(self, text: str) -> None:
        """A line from the playground itself, on stderr."""
        self.write("stderr", text + "\n")

    def flush(self) -> None:
        if self.pending:
            self.send(json.dumps(self.pending))
            self.pending = []
        self.last_flush = time.monotonic()


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
