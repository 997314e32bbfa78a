"""The layers of the code, read from every module's imports: each arrow points down, none back up, no circle.

    settings, errors, limits, observation, metrics, schema_version  <- app.text <- app.data <- app.execution
        <- resolvers <- schema <- app.http <- app.asgi

The importer (`ingest/`) reads the text layer and the top-level modules only (docs/architecture.md).
"""

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOP = ("app.settings", "app.errors", "app.limits", "app.observation", "app.metrics", "app.schema_version")
LAYERS: tuple[tuple[str, ...], ...] = (
    TOP,
    ("app.text",),
    ("app.data",),
    ("app.execution",),
    ("resolvers",),
    ("schema",),
    ("app.http",),
    ("app.asgi",),
)
# Outside the stack: what each may import besides itself.
IMPORTER = ("ingest", (*TOP, "app.text"))
CHECKER = ("migrations_readonly_check", (*TOP, "app.text", "app.data", "app.execution", "schema"))  # reads the schema
PACKAGES = ("app", "resolvers", "schema", "ingest", "migrations_readonly_check")


def _within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(path): path for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))}


def _imports(module: str, path: Path, known: set[str]) -> Iterator[str]:
    """The project's modules that `module` imports, anywhere in it (a function's imports too)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
        else:
            continue
        # `from app.text import arabic` imports app.text.arabic; `from app.errors import NotFound` imports app.errors
        yield from (name for name in names if name in known and name != module)


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    known = set(modules)
    return {module: set(_imports(module, path, known)) for module, path in modules.items()}


def _rank(module: str) -> int | None:
    for rank, layer in enumerate(LAYERS):
        if any(_within(module, prefix) for prefix in layer):
            return rank
    return None


def _wrong_arrows(graph: dict[str, set[str]]) -> list[str]:
    wrong = []
    for module, targets in graph.items():
        for target in targets:
            if _within(target, "app") and target.count(".") == 0:
                continue  # the package `app` itself holds nothing
            if not _allowed(module, target):
                wrong.append(f"{module} -> {target}")
    return sorted(wrong)


def _allowed(module: str, target: str) -> bool:
    for package, may_import in (IMPORTER, CHECKER):
        if _within(module, package):
            return _within(target, package) or any(_within(target, prefix) for prefix in may_import)
    here, there = _rank(module), _rank(target)
    return here is not None and there is not None and there <= here


def _circle(graph: dict[str, set[str]]) -> list[str] | None:
    """One circle of imports, as the modules along it, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for target in sorted(graph.get(module, ())):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state and (found := visit(target)):
                return found
        path.pop()
        state[module] = 2
        return None

    for module in sorted(graph):
        if module not in state and (found := visit(module)):
            return found
    return None


def test_every_module_belongs_to_a_layer_or_to_the_importer_or_the_checker() -> None:
    outside = [
        module
        for module in _modules()
        if module != "app" and _rank(module) is None and not module.startswith(("ingest", "migrations_readonly_check"))
    ]
    assert outside == []


def test_every_import_points_down_the_layers() -> None:
    assert _wrong_arrows(_graph()) == []


def test_the_imports_form_no_circle() -> None:
    assert _circle(_graph()) is None


def test_the_checks_see_a_wrong_arrow_and_a_circle() -> None:
    """The checks themselves can fail: an arrow up, an importer reaching the execution layer, a circle."""
    graph = {"app.text.arabic": {"app.http.tools"}, "ingest.run": {"app.execution.context"}, "schema.x": set()}
    assert _wrong_arrows(graph) == ["app.text.arabic -> app.http.tools", "ingest.run -> app.execution.context"]
    assert _circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
