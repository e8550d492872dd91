"""Layering: imports run one way and modules stay small.

The import graph is read from the source with :mod:`ast`, lazy imports inside functions
included and ``if TYPE_CHECKING:`` blocks left out (they never run). Two graphs are checked
for cycles: one between modules, and one between the parts a newcomer sees (the
subpackages and top-level modules of ``faucet_core`` and ``faucet_dagster``). A package's
``__init__`` is the façade of its own modules, so edges between a package and the modules
inside it do not count at the module level."""

from __future__ import annotations

import ast
import pathlib
from collections.abc import Iterable, Mapping

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGES = {
    "faucet_core": ROOT / "faucet-core" / "faucet_core",
    "faucet_dagster": ROOT / "faucet_dagster",
}
MAX_LINES = 500


def _modules(packages: Mapping[str, pathlib.Path]) -> dict[str, pathlib.Path]:
    found: dict[str, pathlib.Path] = {}
    for base in packages.values():
        for path in base.rglob("*.py"):
            parts = list(path.relative_to(base.parent).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imported_names(module: str, path: pathlib.Path) -> Iterable[str]:
    """Every dotted name ``module`` imports at run time (``from a import b`` gives ``a`` and
    ``a.b``: ``b`` may be a module)."""
    is_package = path.name == "__init__.py"

    def visit(nodes: Iterable[ast.AST]) -> Iterable[str]:
        for node in nodes:
            if isinstance(node, ast.If) and _is_type_checking(node.test):
                yield from visit(node.orelse)
                continue
            if isinstance(node, ast.Import):
                yield from (alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = module.split(".") if is_package else module.split(".")[:-1]
                    base = base[: len(base) - (node.level - 1)]
                    prefix = ".".join(base + ([node.module] if node.module else []))
                else:
                    prefix = node.module or ""
                yield prefix
                yield from (f"{prefix}.{alias.name}" for alias in node.names)
            yield from visit(ast.iter_child_nodes(node))

    return visit(ast.parse(path.read_text(encoding="utf-8")).body)


def import_graph(
    packages: Mapping[str, pathlib.Path], *, depth: int | None = None
) -> dict[str, set[str]]:
    """Edges between modules (``depth=None``) or between groups named by their first
    ``depth`` dotted parts."""
    modules = _modules(packages)

    def owner(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    def group(name: str) -> str:
        return name if depth is None else ".".join(name.split(".")[:depth])

    graph: dict[str, set[str]] = {group(m): set() for m in modules}
    for module, path in modules.items():
        for name in _imported_names(module, path):
            target = owner(name)
            if target is None or group(target) == group(module):
                continue
            if depth is None and (
                target.startswith(module + ".") or module.startswith(target + ".")
            ):
                continue
            graph[group(module)].add(group(target))
    return graph


def cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one member (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            advanced = False
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, ())))))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_import_cycle_between_modules() -> None:
    assert cycles(import_graph(PACKAGES)) == []


def test_no_import_cycle_between_subpackages() -> None:
    assert cycles(import_graph(PACKAGES, depth=2)) == []


def test_no_module_over_the_line_limit() -> None:
    long = {
        str(path.relative_to(ROOT)): count
        for path in _modules(PACKAGES).values()
        if (count := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}


@pytest.fixture
def tiny(tmp_path: pathlib.Path) -> pathlib.Path:
    base = tmp_path / "pkg"
    (base / "a").mkdir(parents=True)
    (base / "b").mkdir()
    for init in (base, base / "a", base / "b"):
        (init / "__init__.py").write_text("")
    return base


def test_the_checker_sees_a_lazy_import_cycle(tiny: pathlib.Path) -> None:
    (tiny / "a" / "one.py").write_text("from pkg.b.two import f\n")
    (tiny / "b" / "two.py").write_text("def f():\n    from ..a import one\n    return one\n")
    packages = {"pkg": tiny}
    assert cycles(import_graph(packages)) == [["pkg.a.one", "pkg.b.two"]]
    assert cycles(import_graph(packages, depth=2)) == [["pkg.a", "pkg.b"]]


def test_the_checker_ignores_type_checking_and_facades(tiny: pathlib.Path) -> None:
    (tiny / "a" / "__init__.py").write_text("from pkg.a.one import f\n")
    (tiny / "a" / "one.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.b import two\n"
        "def f():\n    import pkg.a\n"
    )
    (tiny / "b" / "two.py").write_text("from pkg.a import f\n")
    packages = {"pkg": tiny}
    assert cycles(import_graph(packages)) == []
    assert cycles(import_graph(packages, depth=2)) == []
