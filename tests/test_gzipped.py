"""The files the site stores gzipped (build.py's gzip_files): gzip's format, which every
browser decodes, as small as Zopfli makes it, and made once per content."""

from __future__ import annotations

import gzip

import pytest

import build


@pytest.mark.parametrize("file", build.gzipped_files(), ids=lambda file: file.name)
def test_each_gzipped_copy_is_its_file_smaller_than_gzips_own_best(file):
    plain = file.read_bytes()
    stored = file.with_name(file.name + ".gz").read_bytes()
    assert gzip.decompress(stored) == plain
    assert len(stored) < len(gzip.compress(plain, compresslevel=9, mtime=0))


def test_a_file_is_gzipped_once_and_its_copy_kept_for_the_next_build(monkeypatch, tmp_path):
    dist = tmp_path / "dist"
    (dist / "chunks").mkdir(parents=True)
    (dist / "chunks" / "editor-ABC.js").write_text("let a = 1;\n" * 200, encoding="utf-8")
    (dist / "data.json").write_text('{"a": [1, 2, 3]}' * 100, encoding="utf-8")
    monkeypatch.setattr(build, "DIST", dist)
    monkeypatch.setattr(build, "GZIPPED", ["data.json"])
    monkeypatch.setattr(build, "EDITOR_CHUNK", "chunks/editor")
    monkeypatch.setattr(build, "GZIP_CACHE", tmp_path / "kept")
    commands = []
    run = build.run
    monkeypatch.setattr(build, "run", lambda *cmd, **kw: (commands.append(cmd), run(*cmd, **kw)))

    build.gzip_files()
    first = {path: path.read_bytes() for path in dist.rglob("*.gz")}
    for path in first:
        path.unlink()
    build.gzip_files()

    assert len(commands) == 1  # Zopfli ran for the first build only
    assert sorted(first) == [dist / "chunks" / "editor-ABC.js.gz", dist / "data.json.gz"]
    assert {path: path.read_bytes() for path in dist.rglob("*.gz")} == first
    assert gzip.decompress(first[dist / "data.json.gz"]) == (dist / "data.json").read_bytes()
