"""The Python scripts beside a sample (scripts/gen_data.py, scripts/verify_result.py): what they need, running
them sandboxed, and the arguments of a verify script when the sample does not spell them out.

A script runs only when it imports nothing but the standard library and NumPy (the interpreter running
ascendc-lsp, which has NumPy); otherwise the step is skipped and the result says which modules it needs.
"""

from __future__ import annotations

import ast
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from ascendc_lsp.toolchain import sandbox

ALLOWED_THIRD_PARTY = frozenset({"numpy"})
SCRIPT_MEMORY = 4 << 30


def required_modules(script: Path) -> list[str]:
    """Top-level modules the script imports that are neither the standard library nor NumPy (sorted)."""
    try:
        tree = ast.parse(script.read_text(encoding="utf-8", errors="replace"))
    except (OSError, SyntaxError, ValueError):
        return []
    mods: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            mods.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            mods.add(node.module.split(".")[0])
    local = {p.stem for p in script.parent.glob("*.py")}
    return sorted(
        m
        for m in mods
        if m not in sys.stdlib_module_names and m not in ALLOWED_THIRD_PARTY and m not in local
    )


@dataclass
class ScriptRun:
    returncode: int | None
    output: str
    seconds: float
    timed_out: bool
    error: str | None


def run_script(script_argv: list[str], cwd: Path, run_root: Path, timeout: float) -> ScriptRun:
    """`python <script> args...` in cwd (inside run_root, the only writable place), sandboxed like a kernel
    (sandbox.run_python: the same path as a spec's reference)."""
    res = sandbox.run_python(
        script_argv,
        cwd,
        sandbox.Limits(timeout=timeout, memory_bytes=SCRIPT_MEMORY),
        write_paths=[run_root],
    )
    output = (res.stdout + res.stderr)[-20000:]
    if res.error:
        output = (output + "\n" + res.error).strip()
    return ScriptRun(res.returncode, output, res.seconds, res.timed_out, res.error)


def verify_arguments(script: Path, output_dir: Path, before: dict[str, float]) -> list[str] | None:
    """`OUTPUT GOLDEN` arguments for a verify script, from the files in output/ (relative to its parent):
    golden files are those gen_data wrote (named golden*), outputs the .bin files the program wrote.
    None when they cannot be paired."""
    if not output_dir.is_dir():
        return None
    files = sorted(p for p in output_dir.iterdir() if p.is_file() and p.suffix == ".bin")
    golden = [p for p in files if p.name.lower().startswith("golden")]
    outputs = [p for p in files if p not in golden and before.get(p.name) != p.stat().st_mtime]
    if not golden or not outputs:
        return None
    rel = output_dir.name
    if len(golden) == 1 and len(outputs) >= 1:
        out = _best_output(outputs)
        return [f"{rel}/{out.name}", f"{rel}/{golden[0].name}"]
    pairs = _pair(outputs, golden)
    if pairs is None:
        return None
    roles = argument_roles(script)
    if roles is not None and len(roles) == 2 * len(pairs) and roles.count("golden") == len(pairs):
        seen = {"output": 0, "golden": 0}
        args: list[str] = []
        for role in roles:
            o, g = pairs[seen[role]]
            args.append(f"{rel}/{(g if role == 'golden' else o).name}")
            seen[role] += 1
        return args
    return [x for o, g in pairs for x in (f"{rel}/{o.name}", f"{rel}/{g.name}")]


def _best_output(outputs: list[Path]) -> Path:
    for p in outputs:
        if re.fullmatch(r"output(_\w+)?\.bin", p.name):
            return p
    return outputs[0]


def _pair(outputs: list[Path], golden: list[Path]) -> list[tuple[Path, Path]] | None:
    def tag(p: Path, prefix: str) -> str:
        return re.sub(rf"^{prefix}_?", "", p.stem.lower())

    by_tag = {tag(g, "golden"): g for g in golden}
    pairs: list[tuple[Path, Path]] = []
    for o in outputs:
        g = by_tag.get(tag(o, "output"))
        if g is not None:
            pairs.append((o, g))
    return pairs if len(pairs) == len(golden) else None


def argument_roles(script: Path) -> list[str] | None:
    """ "output" / "golden" for each positional argument of a verify script, from the names it gives them: the
    parameters of the function it calls with sys.argv[1..n], the variables it assigns them to, or its argparse
    positionals. None when the script does not say."""
    try:
        tree = ast.parse(script.read_text(encoding="utf-8", errors="replace"))
    except (OSError, SyntaxError, ValueError):
        return None

    def argv_index(node: ast.AST) -> int | None:
        if (
            isinstance(node, ast.Subscript)
            and isinstance(node.value, ast.Attribute)
            and node.value.attr == "argv"
            and isinstance(node.slice, ast.Constant)
            and isinstance(node.slice.value, int)
        ):
            return node.slice.value
        return None

    functions = {f.name: f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)}
    names: dict[int, str] = {}
    positionals: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            idx = [argv_index(a) for a in node.args]
            fname = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if fname in functions and any(i is not None for i in idx):
                params = [a.arg for a in functions[fname].args.args]
                for pos, i in enumerate(idx):
                    if i is not None and pos < len(params):
                        names[i] = params[pos]
            if fname == "add_argument" and node.args and isinstance(node.args[0], ast.Constant):
                arg = str(node.args[0].value)
                if not arg.startswith("-"):
                    positionals.append(arg)
        elif (
            isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
        ):
            i = argv_index(node.value)
            if i is not None:
                names.setdefault(i, node.targets[0].id)
    ordered = [names[i] for i in sorted(names) if i >= 1] or positionals
    if not ordered:
        return None
    return ["golden" if re.search(r"golden|expect|truth|ref", n, re.I) else "output" for n in ordered]


__all__ = ["ScriptRun", "required_modules", "run_script", "verify_arguments"]
