"""The engine's modules build on each other in one direction: the core (graph, ops,
autograd) imports no module that imports it back, and the Handle sugar builds on it."""

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"


def imports_of(module: str) -> set[str]:
    """The engine modules `module` imports (relative imports, at any depth in the file)."""
    tree = ast.parse((ENGINE / f"{module}.py").read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            found |= {node.module} if node.module else {alias.name for alias in node.names}
    return found


def reachable(module: str) -> set[str]:
    seen: set[str] = set()
    todo = [module]
    while todo:
        for imported in imports_of(todo.pop()) - seen:
            seen.add(imported)
            todo.append(imported)
    return seen


def test_no_engine_module_imports_one_that_imports_it_back():
    modules = [path.stem for path in ENGINE.glob("*.py")]
    assert [m for m in modules if m in reachable(m)] == []


def test_the_core_does_not_import_the_operator_sugar():
    assert "handle" not in reachable("graph") | reachable("ops") | reachable("autograd")


def test_a_graph_makes_handles_once_the_engine_is_imported():
    from engine import Graph, Handle

    g = Graph()
    x = g.value(2.0, "x")
    assert isinstance(x, Handle)
    assert (x * 3).data == 6.0
