"""Fixtures for more than one test folder."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest


@pytest.fixture
def busy_port() -> Iterator[int]:
    """A port another server listens on."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        yield server.getsockname()[1]
