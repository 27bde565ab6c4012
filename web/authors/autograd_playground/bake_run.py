"""One build-time run, in a Python of its own (bake.py starts it):

    python -I bake_run.py SITE RESULT_FILE  < code

imports the engine from the wheel SITE's site.json names, and the runner from SITE's
playground_runner/, runs the code through the runner as the page's worker does, and
writes {"result": the runner's result, "output": what it printed} to RESULT_FILE (not
to stdout, which the code could write to)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path


def runner_module(site: Path):
    """The site's runner package, imported from its folder: the site's other folders
    stay off sys.path, so the code imports nothing of them."""
    name = json.loads((site / "site.json").read_text(encoding="utf-8"))["runner"]["module"]
    folder = site / name
    spec = importlib.util.spec_from_file_location(
        name, folder / "__init__.py", submodule_search_locations=[str(folder)])
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def main(site: Path, answer: Path) -> None:
    code = sys.stdin.buffer.read().decode("utf-8")
    engine = json.loads((site / "site.json").read_text(encoding="utf-8"))["engine"]
    sys.path.insert(0, str(site / engine))  # a pure wheel imports as a zip
    runner = runner_module(site).take()
    batches: list[str] = []
    result = json.loads(runner.run(code, batches.append))
    output = "".join(text for batch in batches for _, text in json.loads(batch))
    answer.write_text(json.dumps({"result": result, "output": output}), encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
