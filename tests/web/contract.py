"""The contract between the runner and the page (web/shared/contract.json), as the tests
read it: straight from the file, not through either side."""

from __future__ import annotations

import json
from pathlib import Path

FILE = Path(__file__).parents[2] / "web" / "shared" / "contract.json"
CONTRACT = json.loads(FILE.read_text(encoding="utf-8"))
