// Runs Python inside Pyodide under Node, the Python learners run the engine with: the
// engine's tests (`python build.py test`) and bench/engine.py's comparison use it.
//
//     node tests/pyodide/run.mjs PYODIDE_DIR [--wheel FILE]... [--copy PATH]... \
//         -- SCRIPT [ARG]...   (or -- -m MODULE [ARG]...)
//
// PYODIDE_DIR holds pyodide.mjs and its files (dist/pyodide: the ones the site ships).
// Each wheel is unpacked into site-packages; each PATH (a file or a folder, relative to
// the current directory) is copied to the same place under Python's working directory.
// The script or module then runs as __main__ with those arguments in sys.argv, as
// `python -P` runs it (its folder is not put on sys.path), and this process exits with
// its exit code.

import { writeSync } from "node:fs";
import { readdir, readFile, stat } from "node:fs/promises";
import { join, posix, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const { values, positionals } = parseArgs({
  options: {
    wheel: { type: "string", multiple: true, default: [] },
    copy: { type: "string", multiple: true, default: [] },
  },
  allowPositionals: true,
});
const [pyodideDir, ...argv] = positionals;
if (!pyodideDir || argv.length === 0) {
  console.error("usage: node run.mjs PYODIDE_DIR [--wheel FILE]... [--copy PATH]... -- ARGV...");
  process.exit(2);
}

const { loadPyodide } = await import(pathToFileURL(join(resolve(pyodideDir), "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: resolve(pyodideDir) + sep });
const toFd = (fd) => ({ write: (bytes) => writeSync(fd, bytes) });
pyodide.setStdout(toFd(1));
pyodide.setStderr(toFd(2));

for (const wheel of values.wheel) {
  pyodide.unpackArchive(new Uint8Array(await readFile(wheel)), "wheel");
}
const home = pyodide.FS.cwd();
for (const path of values.copy) {
  await copyInto(pyodide.FS, path, posix.join(home, ...path.split(/[\\/]/)));
}

/** Copy a file, or a folder without its caches and hidden files, into Python's files. */
async function copyInto(FS, from, to) {
  if ((await stat(from)).isDirectory()) {
    FS.mkdirTree(to);
    for (const name of await readdir(from)) {
      if (name !== "__pycache__" && !name.startsWith(".")) {
        await copyInto(FS, join(from, name), posix.join(to, name));
      }
    }
  } else {
    FS.mkdirTree(posix.dirname(to));
    FS.writeFile(to, await readFile(from));
  }
}

const main = pyodide.runPython(`
import runpy, sys, traceback

def main(argv):
    """Run argv as \`python ARGV...\` would; return its exit code."""
    sys.argv = list(argv)
    try:
        if sys.argv[0] == "-m":
            del sys.argv[0]
            runpy.run_module(sys.argv[0], run_name="__main__", alter_sys=True)
        else:
            runpy.run_path(sys.argv[0], run_name="__main__")
    except SystemExit as exit:
        if exit.code is None or isinstance(exit.code, int):
            return exit.code or 0
        print(exit.code, file=sys.stderr)
        return 1
    except BaseException:
        traceback.print_exc()
        return 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
    return 0

main
`);
process.exitCode = main(argv);
