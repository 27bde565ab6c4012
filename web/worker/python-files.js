// Writing the Python files a memory snapshot was made with (snapshot/files.json,
// made by build.py) into Pyodide's file system, in loadPyodide's fsInit: the
// snapshot holds Python's memory, not its files, and tracebacks read source
// lines from the files. Shared by the worker and the snapshot maker, so both
// see the same files at the same paths.

/** Where each group of files.json goes. */
const ROOTS = {
  "site-packages": ({ sitePackages }) => sitePackages,
  home: () => "/home/pyodide",
};

/**
 * @param {object} FS Pyodide's (Emscripten's) file system
 * @param {{sitePackages: string}} info what fsInit is told
 * @param {Record<string, Record<string, string>>} files files.json: group -> path -> text
 */
export function writePythonFiles(FS, info, files) {
  for (const [group, tree] of Object.entries(files)) {
    const root = ROOTS[group](info);
    for (const [path, text] of Object.entries(tree)) {
      const full = `${root}/${path}`;
      FS.mkdirTree(full.slice(0, full.lastIndexOf("/")));
      FS.writeFile(full, text);
    }
  }
}
