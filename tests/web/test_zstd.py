"""zstd.js, the workers' Zstandard decoder: a stream decoded as its bytes arrive, in
chunks of any size and across frames, gives the bytes compressed; one cut short, or not
Zstandard's, fails saying so."""

from __future__ import annotations

import base64
import random

import pytest
import zstandard

# In a page of the site: `compressed` (base64) fed to zstd.js's unzstd in chunks of the
# sizes given, in turn; the bytes decoded (base64), or the error's message.
DECODE_IN_CHUNKS = """
async ([compressed, sizes]) => {
  const { unzstd } = await import("./zstd.js");
  const bytes = Uint8Array.from(atob(compressed), (c) => c.charCodeAt(0));
  const body = new ReadableStream({
    start(controller) {
      for (let at = 0, i = 0; at < bytes.length; at += sizes[i++ % sizes.length]) {
        controller.enqueue(bytes.slice(at, at + sizes[i % sizes.length]));
      }
      controller.close();
    },
  });
  let text = "";
  try {
    const reader = unzstd(body).getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      for (const byte of read.value) text += String.fromCharCode(byte);
    }
    return { decoded: btoa(text) };
  } catch (error) {
    return { error: error.message };
  }
}
"""


@pytest.fixture(scope="module")
def zstd_page(browser, site):
    context = browser.new_context()
    page = context.new_page()
    page.goto(site + "learners.html")
    yield page
    context.close()


def decode(page, compressed: bytes, sizes: list[int]) -> dict:
    return page.evaluate(DECODE_IN_CHUNKS, [base64.b64encode(compressed).decode(), sizes])


def sample(size: int) -> bytes:
    """Bytes that compress, but not to nothing: words drawn at random."""
    words = [bytes(random.Random(n).choices(range(97, 123), k=n % 9 + 1)) for n in range(300)]
    chosen = random.Random(size).choices(words, k=size // 4)
    return b" ".join(chosen)[:size]


@pytest.mark.parametrize("sizes", [[1], [7, 1, 4096], [65536], [10**9]],
                         ids=["byte by byte", "odd chunks", "64 kB chunks", "whole"])
def test_a_stream_decodes_to_its_bytes_in_chunks_of_any_size(zstd_page, sizes):
    plain = sample(300_000 if sizes != [1] else 40_000)
    compressed = zstandard.ZstdCompressor(level=19).compress(plain)
    assert decode(zstd_page, compressed, sizes) == {"decoded": base64.b64encode(plain).decode()}


def test_frames_one_after_another_decode_to_their_bytes_joined(zstd_page):
    parts = [sample(200_000), b"", sample(5), sample(1_000_000)]
    compressed = b"".join(zstandard.ZstdCompressor(level=3).compress(part) for part in parts)
    joined = base64.b64encode(b"".join(parts)).decode()
    assert decode(zstd_page, compressed, [4093]) == {"decoded": joined}


def test_a_stream_cut_short_fails_saying_it_ends_mid_frame(zstd_page):
    compressed = zstandard.ZstdCompressor(level=19).compress(sample(300_000))
    assert decode(zstd_page, compressed[:len(compressed) // 2], [4096]) == {
        "error": "it ends in the middle of a frame"}


def test_bytes_that_are_not_zstandards_fail_saying_so(zstd_page):
    assert decode(zstd_page, b"plain text, not a frame" * 100, [4096]) == {
        "error": "it is not Zstandard's, or it is damaged"}
