// Files a run writes end with it. Python's file system is Emscripten's, in the worker's
// memory, shared by every run and playground: a file the code leaves (a module planted
// where a later `import` finds it, say) would outlive the run. So before a run the
// tree's nodes are noted (a walk over some sixty objects, in JavaScript); after it,
// what the run created is removed, and a file or folder it changed, moved or removed,
// which cannot be put back so, is named: the next run gets a fresh Python.
//
// A node's ctime changes with every write to it, its mode or its times (a file's
// utime sets its mtime but its ctime to now); a folder's changes as names come and
// go in it, which the walk sees by its nodes, so a folder's own ctime is not compared.
// Devices (the terminal, whose ctime a write to fd 1 changes) are left alone.
//
// Every function used here is taken as the worker starts, before any learner code.

const { keys } = Object;
const apply = Reflect.apply;
const mapGet = Map.prototype.get;
const mapSet = Map.prototype.set;
const mapDelete = Map.prototype.delete;
const mapKeys = Map.prototype.keys;
const arrayPush = Array.prototype.push;
const DIRECTORY = 0o040000;
const DEVICE = 0o020000;
const KIND = 0o170000;

let fs = null; // Emscripten's FS object, and its functions as they were

/** Take the file system's functions, before any learner code runs. */
export function watchFiles(FS) {
  fs = { FS, root: FS.root, unlink: FS.unlink, rmdir: FS.rmdir };
}

function isFolder(node) {
  return (node.mode & KIND) === DIRECTORY && node.contents !== null && typeof node.contents === "object";
}

/** Call `visit(node, path)` on each node under `node` (a mount's root in its place):
 * a folder's nodes after it, unless `visit` returns false. */
function walk(node, path, visit) {
  const here = node.mounted?.root ?? node;
  if (visit(here, path) === false || !isFolder(here)) return;
  const names = keys(here.contents);
  for (let i = 0; i < names.length; i++) {
    walk(here.contents[names[i]], path === "/" ? `/${names[i]}` : `${path}/${names[i]}`, visit);
  }
}

/** The tree as it is: each node, with its path, ctime and mode. */
export function filesNow() {
  const nodes = new Map();
  walk(fs.root, "/", (node, path) => {
    apply(mapSet, nodes, [node, { path, ctime: node.ctime, mode: node.mode }]);
  });
  return nodes;
}

/** Remove what was created since `before` (filesNow()'s); what was changed, moved or
 * removed cannot be put back so: its path ("/home/pyodide/data.txt was changed"), or null. */
export function restoreFiles(before) {
  const left = new Map(before);
  const created = [];
  let changed = null;
  walk(fs.root, "/", (node, path) => {
    const was = apply(mapGet, left, [node]);
    if (!was) {
      apply(arrayPush, created, [{ node, path }]);
      return false;
    }
    apply(mapDelete, left, [node]);
    const kind = node.mode & KIND;
    const same = node.mode === was.mode && (kind === DIRECTORY || kind === DEVICE || node.ctime === was.ctime);
    if (!same || path !== was.path) changed ??= `${was.path} was changed`;
    return true;
  });
  for (let i = 0; i < created.length; i++) remove(created[i].node, created[i].path);
  const gone = apply(mapKeys, left, []).next();
  if (!gone.done) changed ??= `${apply(mapGet, left, [gone.value]).path} was removed or moved`;
  return changed;
}

/** Remove a node the run created, a folder with everything in it. */
function remove(node, path) {
  if (isFolder(node)) {
    const names = keys(node.contents);
    for (let i = 0; i < names.length; i++) remove(node.contents[names[i]], `${path}/${names[i]}`);
    apply(fs.rmdir, fs.FS, [path]);
  } else {
    apply(fs.unlink, fs.FS, [path]);
  }
}
