"""Find what makes up a direct-launch program and how its sample runs it.

`discover(path)` takes an `.asc` file, a host `main.cpp` or a sample folder and returns a `ProgramLayout`:
- the sample root (the folder with the CMakeLists.txt next to the file, else the file's folder);
- the translation units of the executable (CMakeLists.txt: `add_executable` + the libraries it links, e.g. the
  `ascendc_library` of the kernels; otherwise the `.asc` file, or `main.cpp` with the folder's other sources);
- include directories and definitions (CMake cache defaults honoured, `SCENARIO_NUM`-style values taken from the
  sample's own run recipe or its scripts' defaults);
- the run recipe: the sample's README (`mkdir -p build && cd build; cmake ...; python3 ../scripts/gen_data.py;
  ./demo; python3 ../scripts/verify_result.py ...`), else its run.sh (the older kernel-launch samples), else the
  devkit convention (run in build/, `scripts/gen_data.py` before, `scripts/verify_result.py OUTPUT GOLDEN` after,
  the two files found in output/ once the program ran).

Run mode (the samples' RUN_MODE / CMAKE_ASC_RUN_MODE): `npu` builds the NPU branch of the sources (launches with
`<<<>>>` / ACLRT_LAUNCH_KERNEL, acl/acl.h memory) - the code that runs on the device, which the emulator stands in
for; `cpu` builds the CPU-debug branch (`ASCENDC_CPU_DEBUG`: tikicpulib.h, GmAlloc, ICPU_RUN_KF).
"""

from __future__ import annotations

import ast
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

from ascendc_lsp import safeio
from ascendc_lsp.hardware.limits import DEFAULT_SOC
from ascendc_lsp.hardware.soc import cmake_architecture, soc_for_arch, soc_version
from ascendc_lsp.toolchain.program.cmake import CMakeError, Project, Target, read_project

SOURCE_SUFFIXES = (".asc", ".cpp", ".cc", ".cxx", ".c")
HEADER_SUFFIXES = (".h", ".hpp", ".hh", ".inc")


class DiscoveryError(ValueError):
    """The path is not a program this command can run; the message says why, in one line."""


def read_sample_file(path: Path, what: str) -> str:
    """A file of the sample (source, README, run.sh, script, CMakeLists.txt) as text, at most
    safeio.MAX_SOURCE_BYTES: a larger one (or an endless one) is a DiscoveryError naming it and the limit."""
    try:
        return safeio.read_text(path, safeio.MAX_SOURCE_BYTES, what, errors="replace")
    except safeio.InputError as exc:
        raise DiscoveryError(str(exc)) from None


@dataclass
class Step:
    kind: str  # "mkdir" | "python" | "program"
    argv: list[
        str
    ]  # python: [script, args...] (script relative to cwd); program: [args...]; mkdir: [dirs...]
    cwd: str  # relative to the sample root
    tee: str | None = None  # program: also write its stdout to this file (relative to cwd)

    def describe(self) -> str:
        if self.kind == "program":
            return "./<program> " + " ".join(self.argv)
        return " ".join([{"python": "python3", "mkdir": "mkdir -p"}[self.kind], *self.argv])


@dataclass
class ProgramLayout:
    root: Path
    name: str
    sources: list[Path]
    kernel_sources: list[Path]  # sources of ascendc_library targets (get aclrtlaunch_<kernel>.h headers)
    include_dirs: list[Path] = field(default_factory=list)
    defines: dict[str, str | None] = field(default_factory=dict)
    steps: list[Step] = field(default_factory=list)
    recipe: str = "default"  # readme | run.sh | default
    arch: str | None = None
    run_mode: str = "npu"
    soc: str = DEFAULT_SOC
    notes: list[str] = field(default_factory=list)
    cmake: Project | None = None

    @property
    def verify_steps(self) -> list[Step]:
        return [s for s in self.steps if s.kind == "python" and is_verify_script(s.argv[0])]


def is_verify_script(script: str) -> bool:
    """A script that checks results (verify_result.py, check_*.py, compare*.py) rather than making data."""
    return bool(re.search(r"verif|check|compare", Path(script).name, re.I))


def _is_gen(script: str) -> bool:
    return bool(re.search(r"gen|golden|data", Path(script).name, re.I)) and not is_verify_script(script)


# ------------------------------------------------------------------------------------------------ recipes
@dataclass
class _Recipe:
    steps: list[Step]
    cmake_defs: dict[str, str]
    program_names: set[str]


def _shell_lines(text: str) -> list[str]:
    """Shell commands of a script or code block: comments dropped, `;` and `&&` split, continuations joined."""
    text = text.replace("\\\n", " ")
    out: list[str] = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        # strip a trailing comment (not inside quotes)
        try:
            lex = shlex.shlex(line, posix=True, punctuation_chars=";&|()")
            lex.whitespace_split = True
            lex.commenters = "#"
            toks = list(lex)
        except ValueError:
            continue
        cur: list[str] = []
        for t in toks:
            if t in (";", "&&", "||", "(", ")"):
                if cur:
                    out.append(shlex.join(cur))
                cur = []
            else:
                cur.append(t)
        if cur:
            out.append(shlex.join(cur))
    return out


def _expand(word: str, env: dict[str, str]) -> str:
    return re.sub(r"\$\{?([A-Za-z_]\w*|\d)\}?", lambda m: env.get(m.group(1), m.group(0)), word)


def _recipe_from_commands(lines: list[str], start_cwd: str, positional: list[str] | None = None) -> _Recipe:
    env: dict[str, str] = {str(k): v for k, v in enumerate(positional or [], start=1)}
    cwd = start_cwd
    steps: list[Step] = []
    defs: dict[str, str] = {}
    names: set[str] = set()
    for line in lines:
        try:
            words = shlex.split(line)
        except ValueError:
            continue
        if not words:
            continue
        assigns = [re.fullmatch(r"([A-Za-z_]\w*)=(.*)", w) for w in words]
        if all(assigns):  # `A=1 B=2` on one line sets both
            for m in assigns:
                assert m is not None
                env[m.group(1)] = _expand(m.group(2), env)
            continue
        if words[0] == "export" and len(words) >= 2 and "=" in words[1]:
            var, _, val = words[1].partition("=")
            env[var] = _expand(val, env)
            continue
        words = [_expand(w, env) for w in words]
        if words[0] == "cd" and len(words) >= 2:
            if re.fullmatch(r"[\w./-]+", words[1]) and words[1] not in ("-", "~"):  # literal paths only
                cwd = _normpath(str(Path(cwd) / words[1]))
            continue
        if words[0] == "mkdir":
            dirs = [w for w in words[1:] if not w.startswith("-")]
            steps.append(Step("mkdir", dirs, cwd))
            continue
        if words[0] == "cmake":
            for w in words[1:]:
                mm = re.fullmatch(r"-D([A-Za-z_]\w*)(?::\w+)?=(.*)", w)
                if mm:
                    defs[mm.group(1)] = mm.group(2)
            continue
        if re.fullmatch(r"python[\d.]*", words[0]) and len(words) >= 2 and words[1].endswith(".py"):
            steps.append(Step("python", words[1:], cwd))
            continue
        if words[0].startswith("./") and not words[0].endswith((".sh", ".py")):
            tee = None
            if "|" in words and "tee" in words:
                k = words.index("tee")
                tee = words[k + 1] if k + 1 < len(words) else None
                words = words[: words.index("|")]
            names.add(words[0][2:])
            prog = Step("program", words[1:], cwd, tee=tee)
            if any(s.kind == "program" for s in steps[-1:]) and steps[-1].argv == prog.argv:
                continue  # the same run in both branches of an if (e.g. with or without a profiler)
            steps.append(prog)
    return _Recipe(steps, defs, names)


def _normpath(p: str) -> str:
    parts: list[str] = []
    for seg in Path(p).parts:
        if seg == "..":
            if parts and parts[-1] != "..":
                parts.pop()
            else:
                parts.append(seg)
        elif seg != ".":
            parts.append(seg)
    return str(Path(*parts)) if parts else "."


def _code_blocks(text: str) -> list[str]:
    """The fenced code blocks of a Markdown text, fence by fence: fences may be indented (inside list items) and
    carry an info string after a space (```` ``` text ````), so a block's end is never taken for the next start."""
    blocks: list[str] = []
    cur: list[str] | None = None
    for line in text.splitlines():
        if re.match(r"\s*```", line):
            if cur is None:
                cur = []
            else:
                blocks.append("\n".join(cur))
                cur = None
            continue
        if cur is not None:
            cur.append(line)
    return blocks


def readme_recipe(root: Path) -> _Recipe | None:
    """The run commands of the sample's README (the first code block that runs the program)."""
    for name in ("README.md", "README_en.md", "readme.md"):
        f = root / name
        if not f.is_file():
            continue
        text = read_sample_file(f, "README")
        for block in _code_blocks(text):
            rec = _recipe_from_commands(_shell_lines(block), ".")
            if any(s.kind == "program" for s in rec.steps):
                return rec
    return None


def runsh_arguments(root: Path, run_mode: str = "npu") -> list[str]:
    """The positional arguments the samples' READMEs pass to `root/run.sh` (`bash run.sh add_custom ascend910
    AiCore npu`, in the sample's own README or, after `cd <sample>`, in a README of a folder above it): the call
    naming `run_mode` when there are several, else the first; [] when no README calls it."""
    calls: list[list[str]] = []
    for base in [root, *root.parents][:3]:
        for name in ("README.md", "README_en.md", "readme.md"):
            f = base / name
            if not f.is_file():
                continue
            for block in _code_blocks(read_sample_file(f, "README")):
                for raw in block.replace("\\\n", " ").splitlines():
                    cwd = base.resolve()
                    for cmd in re.split(r"\s*(?:;|&&|\(|\))\s*", raw.split("#", 1)[0]):
                        try:
                            words = shlex.split(cmd)
                        except ValueError:
                            break
                        if words[:1] == ["cd"] and len(words) == 2 and re.fullmatch(r"[\w./-]+", words[1]):
                            cwd = (cwd / words[1]).resolve()
                            continue
                        if words[:1] in (["bash"], ["sh"], ["source"], ["."]):
                            words = words[1:]
                        if words[:1] in (["run.sh"], ["./run.sh"]) and cwd == root.resolve():
                            calls.append(words[1:])
        if calls:
            break
    if not calls:
        return []
    return next((c for c in calls if run_mode in c), calls[0])


def runsh_recipe(root: Path, run_mode: str = "npu") -> _Recipe | None:
    f = root / "run.sh"
    if not f.is_file():
        return None
    text = read_sample_file(f, "run script")
    # the data/run/verify part follows the build (`cmake --build`, `make`); build commands are skipped anyway;
    # $1, $2... are the arguments the README passes (run.sh's `-Dsmoke_testcase=$1`, `./${1}_${4}`)
    rec = _recipe_from_commands(_shell_lines(text), ".", runsh_arguments(root, run_mode))
    rec.steps = [
        s for s in rec.steps if not (s.kind == "mkdir" and any(d in ("build", "out") for d in s.argv))
    ]
    if not any(s.kind == "program" for s in rec.steps):
        return None
    return rec


def script_default(script: Path, option_pattern: str) -> str | None:
    """The argparse default of an option whose name matches the pattern (e.g. -scenarioNum), else None."""
    try:
        tree = ast.parse(read_sample_file(script, "Python script"))
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):  # DiscoveryError is a ValueError
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "add_argument":
            names = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            if not any(re.search(option_pattern, n, re.I) for n in names):
                continue
            for kw in node.keywords:
                if kw.arg == "default" and isinstance(kw.value, ast.Constant):
                    return str(kw.value.value)
    return None


# ------------------------------------------------------------------------------------------------ discovery
def find_root(path: Path) -> Path:
    """The sample folder: the nearest folder with a CMakeLists.txt, starting at the file's own folder."""
    start = path if path.is_dir() else path.parent
    for d in [start, *start.parents][:4]:
        if (d / "CMakeLists.txt").is_file():
            return d
    return start


def _cmake_project(root: Path, overrides: dict[str, str], notes: list[str]) -> Project | None:
    if not (root / "CMakeLists.txt").is_file():
        return None
    for _attempt in range(4):
        try:
            return read_project(root, overrides)
        except CMakeError as exc:
            msg = str(exc)
            missing = re.search(
                r"\b([A-Z][A-Z0-9_]+) (?:is not set|must be|is not defined)", msg
            ) or re.search(r"-D([A-Z][A-Z0-9_]+)=", msg)
            if missing and missing.group(1) not in overrides:
                var = missing.group(1)
                value = _default_for(root, var)
                overrides[var] = value
                notes.append(f"{var} is not set by the sample's CMakeLists.txt: using {var}={value}")
                continue
            raise DiscoveryError(msg) from None
    raise DiscoveryError(f"{root / 'CMakeLists.txt'}: cannot find a configuration the sample accepts")


def _default_for(root: Path, var: str) -> str:
    """A value for a variable the CMakeLists.txt requires: the scripts' default for the same knob, else 1."""
    words = [w for w in var.lower().split("_") if w not in ("num", "id")]
    pattern = "".join(f"(?=.*{re.escape(w)})" for w in words) or var
    for script in sorted((root / "scripts").glob("*.py")):
        v = script_default(script, pattern)
        if v is not None and v != "None":
            return v
    try:
        text = read_sample_file(root / "CMakeLists.txt", "CMakeLists.txt")
    except OSError:
        return "1"
    m = re.search(r"set\(\s*VALID_\w*\s+([^)\s]+)", text)
    return m.group(1) if m else "1"


def discover(
    path: Path, run_mode: str = "npu", soc: str | None = None, defines: dict[str, str] | None = None
) -> ProgramLayout:
    """The program at `path` (an .asc file, a main.cpp or a sample folder); raises DiscoveryError."""
    path = path.expanduser().resolve()
    if not path.exists():
        raise DiscoveryError(f"{path}: no such file or directory")
    if not path.is_file() and not path.is_dir():  # /dev/zero, a FIFO, a socket: nothing to build, nothing to read
        raise DiscoveryError(f"{path}: not a regular file or folder")
    if path.is_file() and path.suffix not in SOURCE_SUFFIXES:
        raise DiscoveryError(f"{path}: not a program source (.asc, .cpp) or a sample folder")
    root = find_root(path)
    notes: list[str] = []
    recipe = readme_recipe(root)
    recipe_kind = "readme" if recipe else "default"
    if recipe is None:
        recipe = runsh_recipe(root, run_mode)
        recipe_kind = "run.sh" if recipe else "default"
    overrides: dict[str, str] = {}
    if recipe is not None:  # the sample's own -D values, except toolkit paths and what the emulator decides
        overrides.update(
            {
                k: v
                for k, v in recipe.cmake_defs.items()
                if k not in _DECIDED and not re.search(r"PATH|PREFIX", k)
            }
        )
    if soc is None:
        wanted = overrides.get("CMAKE_ASC_ARCHITECTURES") or _cmake_default(root, "CMAKE_ASC_ARCHITECTURES")
        soc = (soc_for_arch(wanted) if wanted else None) or DEFAULT_SOC
    overrides["RUN_MODE"] = run_mode
    overrides["CMAKE_ASC_RUN_MODE"] = run_mode
    overrides["SOC_VERSION"] = soc_version(soc)
    architecture = cmake_architecture(soc)
    if architecture is not None:
        overrides["CMAKE_ASC_ARCHITECTURES"] = architecture
    overrides.update(defines or {})
    project = _cmake_project(root, overrides, notes)

    sources: list[Path] = []
    kernel_sources: list[Path] = []
    include_dirs: list[Path] = []
    defs: dict[str, str | None] = {}
    name = path.stem
    arch: str | None = None
    if project is not None:
        arch_v = project.variables.get("CMAKE_ASC_ARCHITECTURES") or project.cache_defaults.get(
            "CMAKE_ASC_ARCHITECTURES"
        )
        arch = arch_v.split(";")[0] if arch_v else None
        exe = _pick_executable(project, path, recipe)
        if exe is not None:
            name = exe.name
            for t in project.closure(exe):
                for s in t.sources:
                    if s.suffix in SOURCE_SUFFIXES and s not in sources:
                        sources.append(s)
                        if t.kind == "ascendc_library":
                            kernel_sources.append(s)
                include_dirs.extend(d for d in t.include_dirs if d not in include_dirs)
                for k, v in t.defines.items():
                    defs.setdefault(k, v)
            # kernel binaries the program loads at run time (aclrtBinaryLoadFromFile): compiled in, found by name
            for tg in project.targets.values():
                if tg.kind == "ascendc_fatbin":
                    for s in tg.sources:
                        if s.suffix in SOURCE_SUFFIXES and s not in sources:
                            sources.append(s)
                            kernel_sources.append(s)
            include_dirs.extend(d for d in project.include_dirs if d not in include_dirs)
            for k, v in project.defines.items():
                defs.setdefault(k, v)
    if not sources:
        sources, kernel_sources = _fallback_sources(path, root)
        notes.append("no executable found in CMakeLists.txt: building " + ", ".join(s.name for s in sources))
    missing = [s for s in sources if not s.is_file()]
    if missing:
        raise DiscoveryError(
            f"{missing[0]}: listed by {root / 'CMakeLists.txt'} but not found"
            + (
                " (generated by a build step the emulator does not run)"
                if missing[0].suffix not in SOURCE_SUFFIXES
                else ""
            )
        )
    if path.is_file() and path not in sources:
        notes.append(f"{path.name} is not among the sources of '{name}' in CMakeLists.txt; running '{name}'")
    include_dirs = [_relocated_include_dir(d, root, notes) for d in include_dirs]
    if not include_dirs or root not in include_dirs:
        include_dirs.append(root)
    layout = ProgramLayout(
        root=root,
        name=name,
        sources=sources,
        kernel_sources=kernel_sources or [s for s in sources if _looks_like_kernel(s)],
        include_dirs=include_dirs,
        defines=defs,
        recipe=recipe_kind,
        arch=arch,
        run_mode=run_mode,
        soc=soc,
        notes=notes,
        cmake=project,
    )
    layout.steps = recipe.steps if recipe is not None else _default_steps(root)
    if not any(s.kind == "program" for s in layout.steps):
        layout.steps.append(Step("program", [], _default_cwd(root)))
    return layout


# How many folders above the CMake-named one a moved project's shared headers are looked for.
_RELOCATE_LEVELS = 3


def _relocated_include_dir(d: Path, root: Path, notes: list[str]) -> Path:
    """An include folder CMake names that does not exist because the project was moved deeper than its
    CMakeLists.txt expects (`${CMAKE_CURRENT_LIST_DIR}/../../library/...` written before the sample moved into a
    sub-folder): the same tail under a higher folder that holds it, as the sample's own run.sh falls back to
    (`[ -d "$REPO_ROOT/library/shared" ] || REPO_ROOT=../../..`). Unchanged when it exists or nothing matches."""
    if d.is_dir():
        return d
    parts = Path(_normpath(str(d))).parts
    if ".." in parts:
        return d
    normal = Path(*parts)
    root_parts = Path(_normpath(str(root))).parts
    # The deepest ancestor of the sample root the missing folder hangs from, and the tail below it.
    common = 0
    while common < min(len(parts), len(root_parts)) and parts[common] == root_parts[common]:
        common += 1
    if common < 2 or common == len(parts):
        return d
    base, tail = Path(*parts[:common]), Path(*parts[common:])
    for _ in range(_RELOCATE_LEVELS):
        base = base.parent
        candidate = base / tail
        if candidate.is_dir():
            notes.append(f"include folder {normal} does not exist; using {candidate} (the project was moved)")
            return candidate
    return d


_DECIDED = {"RUN_MODE", "CMAKE_ASC_RUN_MODE", "SOC_VERSION", "CMAKE_BUILD_TYPE"}


def _cmake_default(root: Path, var: str) -> str | None:
    try:
        text = read_sample_file(root / "CMakeLists.txt", "CMakeLists.txt")
    except (OSError, DiscoveryError):
        return None
    m = re.search(rf"set\(\s*{var}\s+\"?([^\s\")]+)", text)
    return m.group(1) if m else None


def _pick_executable(project: Project, path: Path, recipe: _Recipe | None) -> Target | None:
    exes = project.executables()
    if not exes:
        return None
    if path.is_file():
        for e in exes:
            if path in [s for t in project.closure(e) for s in t.sources]:
                return e
    if recipe is not None:
        for e in exes:
            if e.name in recipe.program_names:
                return e
    for e in exes:
        if e.name == "demo":
            return e
    return exes[0]


def _looks_like_kernel(p: Path) -> bool:
    try:
        text = read_sample_file(p, "source")
    except OSError:
        return False
    return "__global__" in text


def _fallback_sources(path: Path, root: Path) -> tuple[list[Path], list[Path]]:
    if path.is_file() and path.suffix == ".asc":
        return [path], [path]
    folder = path if path.is_dir() else path.parent
    srcs = sorted(p for p in folder.iterdir() if p.suffix in SOURCE_SUFFIXES and p.is_file())
    if not srcs:
        raise DiscoveryError(f"{folder}: no .asc or .cpp sources to build")
    all_mains = [p for p in srcs if re.search(r"\bmain\s*\(", read_sample_file(p, "source"))]
    mains = list(all_mains)
    if len(mains) > 1:
        if path.is_file() and path in mains:
            mains = [path]
        else:
            raise DiscoveryError(
                f"{folder}: several sources define main() ({', '.join(p.name for p in mains[:4])}): name one"
            )
    if not mains:
        raise DiscoveryError(f"{folder}: no source defines main(): this is not a direct-launch program")
    keep = [p for p in srcs if p in mains or p not in all_mains]
    return keep, [p for p in keep if _looks_like_kernel(p)]


def _default_cwd(root: Path) -> str:
    return "." if (root / "run.sh").is_file() else "build"


def _default_steps(root: Path) -> list[Step]:
    cwd = _default_cwd(root)
    up = "." if cwd == "." else ".."
    steps = [Step("mkdir", ["input", "output"], cwd)]
    scripts = sorted((root / "scripts").glob("*.py")) if (root / "scripts").is_dir() else []
    for s in scripts:
        if _is_gen(s.name):
            steps.append(Step("python", [f"{up}/scripts/{s.name}"], cwd))
    steps.append(Step("program", [], cwd))
    for s in scripts:
        if is_verify_script(s.name):
            steps.append(Step("python", [f"{up}/scripts/{s.name}"], cwd))  # arguments found after the run
    return steps


__all__ = ["DiscoveryError", "ProgramLayout", "Step", "discover", "find_root"]
