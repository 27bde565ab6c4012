"""The contract between the runner and the page: what a run sends at most, and a table's
fields. It is stated once, in web/shared/contract.json, which the page and the tests read
too; the runner ships it at the same place beside its package (build.py). Read once, as
the runner is imported (the memory snapshot holds it read): a run reads the numbers the
modules took from it, never the file."""

from __future__ import annotations

import json
import os
from types import MappingProxyType

with open(os.path.join(os.path.dirname(os.path.dirname(__file__)), "shared", "contract.json"),
          encoding="utf-8") as file:
    CONTRACT = MappingProxyType(json.load(file))
del file
