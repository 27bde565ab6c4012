"""The files the site stores compressed (build.py's compress_files): Pyodide's wasm in
Zstandard, the rest gzipped, formats the workers decode; each smaller than its format's
usual best, and made once per content."""

from __future__ import annotations

import gzip

import pytest
import zstandard

import build


def usual_best(path_stored: str, plain: bytes) -> bytes:
    """What gzip's level 9, or Zstandard's level 19, make of `plain`."""
    if path_stored.endswith(".zst"):
        return zstandard.ZstdCompressor(level=19).compress(plain)
    return gzip.compress(plain, compresslevel=9, mtime=0)


def decompressed(path_stored: str, stored: bytes) -> bytes:
    if path_stored.endswith(".zst"):
        return zstandard.ZstdDecompressor().decompress(stored)
    return gzip.decompress(stored)


@pytest.mark.parametrize(("file", "copy"), build.compressed_files().items(),
                         ids=lambda file: file.name)
def test_each_compressed_copy_is_its_file_no_larger_than_its_formats_usual_best(file, copy):
    plain, stored = file.read_bytes(), copy.read_bytes()
    assert decompressed(copy.name, stored) == plain
    assert len(stored) <= len(usual_best(copy.name, plain))


def test_pyodides_wasm_is_stored_in_zstandard_smaller_than_gzipped():
    wasm = build.DIST / "pyodide" / "pyodide.asm.wasm"
    assert build.compressed_files()[wasm] == wasm.with_name("pyodide.asm.wasm.zst")
    stored = (build.DIST / "pyodide" / "pyodide.asm.wasm.zst").stat().st_size
    assert stored < 0.9 * len(gzip.compress(wasm.read_bytes(), compresslevel=9, mtime=0))


def test_a_file_is_compressed_once_and_its_copy_kept_for_the_next_build(monkeypatch, tmp_path):
    dist = tmp_path / "dist"
    (dist / "chunks").mkdir(parents=True)
    (dist / "chunks" / "editor-ABC.js").write_text("let a = 1;\n" * 200, encoding="utf-8")
    (dist / "data.json").write_text('{"a": [1, 2, 3]}' * 100, encoding="utf-8")
    (dist / "big.wasm").write_bytes(bytes(range(256)) * 100)
    monkeypatch.setattr(build, "DIST", dist)
    monkeypatch.setattr(build, "GZIPPED", ["data.json"])
    monkeypatch.setattr(build, "ZSTD_STORED", ["big.wasm"])
    monkeypatch.setattr(build, "EDITOR_CHUNK", "chunks/editor")
    monkeypatch.setattr(build, "COMPRESSED_CACHE", tmp_path / "kept")
    commands = []
    run = build.run
    monkeypatch.setattr(build, "run", lambda *cmd, **kw: (commands.append(cmd), run(*cmd, **kw)))

    def copies() -> dict:
        return {path: path.read_bytes() for suffix in ("*.gz", "*.zst")
                for path in dist.rglob(suffix)}

    build.compress_files()
    first = copies()
    for path in first:
        path.unlink()
    build.compress_files()

    assert len(commands) == 1  # compress.mjs ran for the first build only
    assert sorted(first) == [dist / "big.wasm.zst", dist / "chunks" / "editor-ABC.js.gz",
                             dist / "data.json.gz"]
    assert copies() == first
    assert gzip.decompress(first[dist / "data.json.gz"]) == (dist / "data.json").read_bytes()
    assert zstandard.ZstdDecompressor().decompress(first[dist / "big.wasm.zst"]) == \
        (dist / "big.wasm").read_bytes()
