"""The engine ships as a pure-Python wheel with no runtime dependencies."""

import subprocess
import sys
import zipfile
from email.parser import Parser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_wheel_is_pure_typed_and_dependency_free(tmp_path):
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
        check=True,
    )
    (wheel,) = tmp_path.glob("*.whl")
    assert wheel.name.endswith("-py3-none-any.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        metadata_name = next(n for n in names if n.endswith(".dist-info/METADATA"))
        metadata = Parser().parsestr(archive.read(metadata_name).decode())
    assert "engine/py.typed" in names
    assert {"engine/__init__.py", "engine/graph.py", "engine/ops.py"} <= set(names)
    assert not any(n.startswith(("tests/", "web/", "bench/")) for n in names)
    requirements = metadata.get_all("Requires-Dist") or []
    assert [r for r in requirements if "extra ==" not in r] == []  # extras: tests, bench
    assert metadata["Requires-Python"] == ">=3.10"
