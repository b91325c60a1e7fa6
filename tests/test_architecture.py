"""The layering of docs/architecture.md, checked on the imports of the source (module-level and lazy ones).

Each layer may import only the layers below it; no module imports LSP libraries outside lsp/; the import graph
between modules has no cycle (function-level imports included); the emulator's kernel headers never include the
host shims. A failure names the offending import: move the code to the layer that owns it (docs/architecture.md).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "server" / "ascendc_lsp"
EMULATOR = PACKAGE / "toolchain" / "emulator"

# Layer of each top-level part of the package, lowest first. A module may import its own layer and lower ones.
LAYERS: dict[str, int] = {
    "errors": 0, "paths": 0, "resources": 0, "safeio": 0,
    "syntax": 1,
    "diagnostics": 2,
    "hardware": 3,
    "settings": 4,
    "toolchain": 5,
    "checks": 6,
    "knowledge": 7,
    "llm": 8,
    "lsp": 9,
    "cli": 10, "__main__": 10,
}  # fmt: skip
# The command-line front ends of each layer (`<layer>/command.py`) may read the CLI's exit codes and parser helpers.
FRONT_ENDS = re.compile(r"^ascendc_lsp\.\w+\.command$")
LSP_LIBRARIES = ("lsprotocol", "pygls")
# No cycle is allowed: features reach the server through the `lsp.core.ServerCore` interface, not lsp/server.py.
KNOWN_CYCLES: list[frozenset[str]] = []


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py")) if "include" not in p.parts}


def _imports(name: str, path: Path, known: dict[str, Path]) -> Iterator[tuple[str, int]]:
    """(imported module, line) for every import in the file, at any depth (lazy ones included)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            yield target, node.lineno
            for alias in node.names:  # `from pkg import module`
                if f"{target}.{alias.name}" in known:
                    yield f"{target}.{alias.name}", node.lineno


def _graph() -> dict[str, dict[str, int]]:
    known = _modules()
    graph: dict[str, dict[str, int]] = {}
    for name, path in known.items():
        graph[name] = {}
        for target, line in _imports(name, path, known):
            graph[name].setdefault(target, line)
    return graph


def _part(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def test_every_part_of_the_package_has_a_layer() -> None:
    parts = {_part(m) for m in _modules()} - {""}
    assert parts <= set(LAYERS), f"add {sorted(parts - set(LAYERS))} to LAYERS and docs/architecture.md"


def test_layers_import_only_downwards() -> None:
    broken = []
    for module, targets in _graph().items():
        own = LAYERS.get(_part(module))
        if own is None:
            continue
        for target, line in targets.items():
            if not target.startswith("ascendc_lsp."):
                continue
            theirs = LAYERS.get(_part(target))
            if theirs is None or theirs <= own:
                continue
            if FRONT_ENDS.match(module) and _part(target) == "cli":
                continue
            broken.append(f"{module} (line {line}) imports {target}: layer {_part(target)} is above {_part(module)}")
    assert not broken, "\n".join(broken)


def test_only_lsp_knows_lsp() -> None:
    broken = [
        f"{module} (line {line}) imports {target}"
        for module, targets in _graph().items()
        if _part(module) != "lsp"
        for target, line in targets.items()
        if target.split(".")[0] in LSP_LIBRARIES
    ]
    assert not broken, "\n".join(broken)


def _cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(frozenset(component))
    return found


def test_no_import_cycles() -> None:
    graph = {m: {t for t in targets if t in _modules() and t != m} for m, targets in _graph().items()}
    cycles = [c for c in _cycles(graph) if c not in KNOWN_CYCLES]
    assert not cycles, "import cycles (lazy imports included):\n" + "\n".join(", ".join(sorted(c)) for c in cycles)


def test_the_cycle_finder_finds_a_lazy_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [frozenset({"a", "b", "c"})]
    assert _cycles({"a": {"b"}, "b": set()}) == []


_INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)


@pytest.mark.parametrize("header", sorted((EMULATOR / "include").rglob("*.h")), ids=lambda p: p.name)
def test_emulator_headers_never_include_host_headers(header: Path) -> None:
    include_root = (EMULATOR / "include").resolve()
    host_root = EMULATOR / "host_include"
    for kind, name in _INCLUDE.findall(header.read_text(encoding="utf-8", errors="replace")):
        if kind == '"':
            resolved = (header.parent / name).resolve()
            assert resolved.is_relative_to(include_root), f"{header.name} includes {name} outside the emulator headers"
        else:
            assert not (host_root / name).exists(), f"{header.name} includes the host shim <{name}>"


def test_the_layering_is_written_down() -> None:
    text = (PACKAGE.parents[1] / "docs" / "architecture.md").read_text(encoding="utf-8")
    for part in LAYERS:
        if part not in ("__main__",):
            assert f"`{part}" in text, f"docs/architecture.md does not describe {part}"


def _assignments_of(name: str) -> list[str]:
    """Modules that assign `name` at module level (`NAME = ...` or `NAME: T = ...`)."""
    found = []
    for module, path in _modules().items():
        for node in ast.parse(path.read_text(encoding="utf-8"), str(path)).body:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                found.append(module)
    return found


def _code_strings(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    docstrings = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)}
    return {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
            and id(n) not in docstrings}


def test_one_default_soc_and_one_cache_directory_rule() -> None:
    assert _assignments_of("DEFAULT_SOC") == ["ascendc_lsp.hardware.limits"]
    # the cache directory is computed in paths.py only (XDG_CACHE_HOME, a relative one ignored): no other module
    # has the strings it is made of in its code (docstrings may say where the caches are)
    spelled = [
        module
        for module, path in _modules().items()
        if module != "ascendc_lsp.paths" and {"XDG_CACHE_HOME", ".cache"} & _code_strings(path)
    ]
    assert not spelled, f"compute the cache directory with ascendc_lsp.paths.cache_dir, not in {spelled}"


def test_a_subcommands_handler_is_imported_only_when_it_runs() -> None:
    """cli.py names each handler as a "module:function" string; importing cli (what every subcommand pays for)
    pulls in none of them, nor the heavy libraries they use."""
    import subprocess
    import sys

    from ascendc_lsp import cli

    handlers = sorted({target.split(":")[0] for target in cli._HANDLERS.values()})
    assert handlers and all(h in _modules() for h in handlers)
    heavy = [*handlers, *LSP_LIBRARIES, "numpy", "openai", "chromadb", "tree_sitter"]
    probe = f"import sys, ascendc_lsp.cli; print([m for m in {heavy!r} if m in sys.modules])"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.strip() == "[]", f"importing ascendc_lsp.cli imports {done.stdout.strip()}"


def test_one_utf16_conversion_and_one_error_hierarchy() -> None:
    encoders = [
        module
        for module, path in _modules().items()
        if module != "ascendc_lsp.syntax.positions"
        and any(re.fullmatch(r"utf[-_]?16(?:[-_][lb]e)?", s, re.I) for s in _code_strings(path))
    ]
    assert not encoders, f"convert columns with ascendc_lsp.syntax.positions, not in {encoders}"
    shared = {"InputError", "Cancelled", "UnknownSocError"}
    classes = sorted(
        (node.name, module)
        for module, path in _modules().items()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path)))
        if isinstance(node, ast.ClassDef) and node.name in shared
    )
    assert classes == sorted((name, "ascendc_lsp.errors") for name in shared), classes


# Modules that start a process without the sandbox, and why that is not untrusted code. Every kernel, generated
# program, reference script and op_host build runs through toolchain/sandbox.py; a new entry needs a reason.
DIRECT_PROCESS_STARTS = {
    "ascendc_lsp.toolchain.emulator.build": "the compiler's own --version and include-path queries",
    "ascendc_lsp.toolchain.program.cmake": "a CMake execute_process that asks the compiler a fixed query",
    "ascendc_lsp.toolchain.program.run": "addr2line reading a built binary's symbols (never running it)",
}
_PROCESS_MODULES = {"subprocess", "multiprocessing", "pty"}
_PROCESS_CALLS = {"system", "popen", "fork", "forkpty", "execv", "execve", "execvp", "execvpe", "spawnv", "spawnve",
                  "posix_spawn", "posix_spawnp", "create_subprocess_exec", "create_subprocess_shell"}  # fmt: skip


def test_untrusted_code_runs_only_through_the_sandbox() -> None:
    starting = set()
    for module, path in _modules().items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        imports = {alias.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for alias in n.names}
        imports |= {(n.module or "").split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        calls = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
        if imports & _PROCESS_MODULES or calls & _PROCESS_CALLS:
            starting.add(module)
    unexpected = starting - set(DIRECT_PROCESS_STARTS) - {"ascendc_lsp.toolchain.sandbox"}
    assert not unexpected, f"{sorted(unexpected)} start processes outside toolchain/sandbox.py"
    assert "ascendc_lsp.toolchain.sandbox" in starting and set(DIRECT_PROCESS_STARTS) <= starting, "stale entries"
