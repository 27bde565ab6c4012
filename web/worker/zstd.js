// Zstandard's decoder for the workers' downloads: zstddec's WebAssembly (its stream
// build), whole for the snapshot (snapshot-worker.js) and as the bytes arrive for
// Pyodide's wasm (stored.js), so that the wasm compiles while it downloads, as a gzipped
// one would. zstddec's own streaming takes every chunk at once; here its exports are
// driven one chunk at a time instead (Zstandard's ZSTD_decompressStream). Bundled on its
// own (dist/zstd.js), so that both workers load the one copy.

import { ZSTDDecoder } from "zstddec/stream";

// zstddec's WebAssembly exports, kept as it instantiates them.
let wasm = null;
const decoder = new ZSTDDecoder();
decoder._init = (result) => {
  wasm = result.instance.exports;
  ZSTDDecoder.prototype._init(result);
};

/** zstddec's decoder, once its WebAssembly is ready: decode() for a whole file. */
export const zstdReady = decoder.init().then(() => decoder);

/** Zstandard's format, as ../shared/gunzip.js's decoded() takes one: the first bytes of
 *  its frames, and unzstd. */
export const ZSTANDARD = { magic: [0x28, 0xb5, 0x2f, 0xfd], decode: unzstd };

/**
 * The bytes of `body` (a ReadableStream of Zstandard's frames) decoded as they arrive; an
 * error in decoding, or a body that ends mid-frame, errors the stream with why.
 */
export function unzstd(body) {
  let reader = null;
  let stream = null;
  return new ReadableStream({
    async pull(controller) {
      reader ??= body.getReader();
      await zstdReady;
      stream ??= new DecodingStream();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) {
            if (!stream.complete) throw new Error("it ends in the middle of a frame");
            stream.free();
            controller.close();
            return;
          }
          const parts = stream.push(value);
          for (const part of parts) controller.enqueue(part);
          if (parts.length) return;
        }
      } catch (error) {
        stream.free(); // its context and buffers, in zstddec's memory
        throw error;
      }
    },
    cancel(reason) {
      stream?.free();
      return reader?.cancel(reason);
    },
  });
}

/** One ZSTD_DCtx and its buffers in zstddec's memory, fed a chunk at a time. */
class DecodingStream {
  constructor() {
    this.context = wasm.ZSTD_createDCtx();
    this.outSize = wasm.ZSTD_DStreamOutSize();
    this.out = wasm.malloc(this.outSize);
    // ZSTD_inBuffer and ZSTD_outBuffer: a pointer and two size_t, 4 bytes each in wasm32.
    this.inBuffer = wasm.malloc(12);
    this.outBuffer = wasm.malloc(12);
    this.complete = true; // whether every frame begun has ended
  }

  /** The bytes `chunk` decodes to, with what came before it, in parts. */
  push(chunk) {
    const input = wasm.malloc(chunk.byteLength);
    const parts = [];
    try {
      new Uint8Array(wasm.memory.buffer).set(chunk, input);
      this.words(this.inBuffer, input, chunk.byteLength, 0);
      do {
        this.words(this.outBuffer, this.out, this.outSize, 0);
        const hint = wasm.ZSTD_decompressStream(this.context, this.outBuffer, this.inBuffer);
        if (hint < 0) throw new Error("it is not Zstandard's, or it is damaged");
        this.complete = hint === 0;
        const written = this.word(this.outBuffer, 2);
        if (written) parts.push(new Uint8Array(wasm.memory.buffer, this.out, written).slice());
      } while (this.word(this.inBuffer, 2) < chunk.byteLength);
    } finally {
      wasm.free(input);
    }
    return parts;
  }

  words(at, ...values) {
    const view = new DataView(wasm.memory.buffer);
    values.forEach((value, i) => view.setUint32(at + 4 * i, value, true));
  }

  word(at, i) {
    return new DataView(wasm.memory.buffer).getUint32(at + 4 * i, true);
  }

  free() {
    if (!this.context) return;
    wasm.ZSTD_freeDCtx(this.context);
    for (const block of [this.out, this.inBuffer, this.outBuffer]) wasm.free(block);
    this.context = null;
  }
}
