"""No import cycle between the modules of any package, imports inside functions included.

A function-local import hides a cycle rather than removing it: the modules still need each
other, and whichever is imported first decides what the other finds. This test parses every
module under src/tiergarten with `ast`, collects its imports at any depth (module level and
inside functions and classes; `if TYPE_CHECKING:` blocks only name types and are left out),
resolves relative imports, and builds, for each package, the graph of its modules and
subpackages (a subpackage is one node: whatever a module inside it imports counts for it).
Every such graph must be acyclic.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"
ROOT = "tiergarten"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def all_modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted((SRC / ROOT).rglob("*.py"))}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports_of(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement at any depth, except the body of `if TYPE_CHECKING:`."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                yield from imports_of(ast.Module(body=[child], type_ignores=[]))
        else:
            yield from imports_of(node)


def targets(name: str, path: Path, node: ast.Import | ast.ImportFrom,
            modules: dict[str, Path]) -> Iterator[str]:
    """The project modules one import statement of module `name` loads."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.name.split(".")[0] == ROOT:
                yield alias.name
        return
    if node.level:
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for _ in range(node.level - 1):
            package = package.rpartition(".")[0]
        base = f"{package}.{node.module}" if node.module else package
    else:
        base = node.module or ""
    if base.split(".")[0] != ROOT:
        return
    for alias in node.names:
        sub = f"{base}.{alias.name}"
        yield sub if sub in modules else base  # `from . import view` loads view, not __init__


def node_in(package: str, module: str) -> str | None:
    """The node that stands for `module` in `package`'s graph: the package itself (its
    __init__), a direct module, or the direct subpackage holding it; None if outside."""
    if module == package:
        return package
    if not module.startswith(package + "."):
        return None
    return f"{package}.{module[len(package) + 1:].split('.')[0]}"


def import_graphs() -> dict[str, dict[str, dict[str, str]]]:
    """package -> node -> {imported node: where the first such import is (file:line)}."""
    modules = all_modules()
    packages = [m for m, p in modules.items() if p.name == "__init__.py"]
    graphs: dict[str, dict[str, dict[str, str]]] = {p: {} for p in packages}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(), str(path))
        for node in imports_of(tree):
            where = f"{path.relative_to(SRC)}:{node.lineno}"
            for target in targets(name, path, node, modules):
                for package, graph in graphs.items():
                    a, b = node_in(package, name), node_in(package, target)
                    if a is not None and b is not None and a != b:
                        graph.setdefault(a, {}).setdefault(b, where)
    return graphs


def find_cycle(graph: dict[str, dict[str, str]]) -> list[str] | None:
    """A cycle as a list of nodes (the first repeated at the end), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, {})):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state:
            found = visit(start)
            if found:
                return found
    return None


def describe(graph: dict[str, dict[str, str]], cycle: list[str]) -> str:
    return "\n".join(f"  {a} -> {b}  ({graph[a][b]})" for a, b in zip(cycle, cycle[1:],
                                                                         strict=False))


GRAPHS = import_graphs()


def test_the_graphs_are_built_from_real_imports() -> None:
    mammuz = GRAPHS["tiergarten.games.mammuz"]
    assert "tiergarten.games.mammuz.view" in mammuz["tiergarten.games.mammuz.state"]
    assert "tiergarten.core" in GRAPHS["tiergarten"]["tiergarten.games"]


def test_a_cycle_is_found_and_told_with_its_path() -> None:
    graph = {"p.a": {"p.b": "p/a.py:3"}, "p.b": {"p.c": "p/b.py:9"}, "p.c": {"p.a": "p/c.py:1"}}
    cycle = find_cycle(graph)
    assert cycle == ["p.a", "p.b", "p.c", "p.a"]
    assert describe(graph, cycle).splitlines()[2] == "  p.c -> p.a  (p/c.py:1)"
    assert find_cycle({"p.a": {"p.b": "x"}, "p.b": {}}) is None


def test_imports_inside_functions_count_and_type_checking_ones_do_not() -> None:
    tree = ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import A\n"
                     "else:\n    from .b import B\ndef f():\n    from .c import C\n")
    assert [n.module for n in imports_of(tree)] == ["typing", "b", "c"]  # type: ignore[union-attr]


@pytest.mark.parametrize("package", sorted(GRAPHS))
def test_no_import_cycle_within(package: str) -> None:
    graph = GRAPHS[package]
    cycle = find_cycle(graph)
    assert cycle is None, f"import cycle in {package}:\n{describe(graph, cycle)}"
