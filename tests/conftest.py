"""Fixtures for more than one test folder."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

# No verdict may depend on how fast the machine is: Hypothesis's deadline for an example
# and its health check for slow data generation are timings, so neither applies.
settings.register_profile("any machine", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("any machine")


@pytest.fixture
def busy_port() -> Iterator[int]:
    """A port another server listens on."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        yield server.getsockname()[1]
