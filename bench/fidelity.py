"""How much public AscendC code the emulator takes unchanged: compile rate per repository, run rate of op projects.

    python bench/fidelity.py                    # every public tree under ~/.cache/ascendc-lsp/public
    python bench/fidelity.py --repo LnickOne+Ascend --kinds op --jobs 2 --limit 200
    python bench/fidelity.py --no-compile       # only the op test cases (run rate)

Compile rate: every kernel translation unit in the public trees (a source defining a `__global__` kernel; copies
de-duplicated by content, the first repository in bench/corpus.py's order keeping it), compiled `-fsyntax-only`
against the emulator headers through the same command builder, flags and precompiled header as `run`
(toolchain/emulator/build.py `syntax_check`). Kinds:
- op: a kernel in an op project's op_kernel/ whose op_host registers an op (OP_ADD in its sources or in the
  repository headers they include: op libraries register through their own macros). Built through the op build
  step (toolchain/opproject): op_host
  compiled on the CPU with the host shims, its OpDef's first dtype variant, the DTYPE_/ORIG_DTYPE_/FORMAT_ macros
  and the tiling structs generated from the host's tiling classes, the project's include folders. An op_host that
  does not compile counts as a failure of its kernels (cause `host: ...`).
- kernel: any other kernel source, compiled as it is (its folder and the include rule for its includes); its own
  `<<<...>>>` launch wrappers (pybind extensions, `<op>_do` functions) lowered as bisheng compiles them.
- direct: a direct-launch program (`.asc`, a host `int main(` / `int32_t main(`, or a `<<<...>>>` launch in a
  program folder with a main()). Built by the direct-launch
  toolchain when it provides `ascendc_lsp.toolchain.program.fidelity.check(path, timeout) -> (ok, first_error)`;
  otherwise counted as `not built`.
Run rate: every op test case found (tests/op_cases and --cases folders) run end to end; pass = CORRECT.
Failures are grouped by their normalised first error so the next gap is visible. Results are cached per file
content + emulator/host-shim version (~/.cache/ascendc-lsp/emulator/fidelity/); --no-cache recomputes.
"""

from __future__ import annotations

import argparse
import collections
import functools
import hashlib
import importlib
import json
import os
import re
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ascendc_lsp.toolchain.base import RunOptions
from ascendc_lsp.toolchain.emulator import build
from ascendc_lsp.toolchain.opproject import host
from ascendc_lsp.toolchain.opproject.discovery import (
    OpProject,
    OpProjectError,
    find_project,
    repository_headers,
    resolve_include_dirs,
)
from ascendc_lsp.toolchain.opproject.opbuild import Described, describe_project, kernel_build
from ascendc_lsp.toolchain.opproject.opdef import GE_DTYPES, variants
from corpus import EXCLUDED_PREFIXES, PREFERRED_ORDER, trees_dir

ROOT = Path(__file__).resolve().parents[1]
SOURCE_SUFFIXES = (".cpp", ".cc", ".asc", ".cce")
_KERNEL_DEF = re.compile(r"__global__[\s\S]{0,400}?\)\s*\{")
_MAIN = re.compile(r"\b(?:int|int32_t)\s+main\s*\(")  # a host main(), also as `int32_t main(` (the devkit samples)
_ERROR = re.compile(r"(?:^|\n)[^\n]*?(?:fatal )?error: ([^\n]*)")
CACHE_VERSION = "fidelity-v1"


@dataclass
class Unit:
    repo: str
    path: Path
    rel: str
    kind: str  # op | kernel | direct


@dataclass
class Outcome:
    repo: str
    rel: str
    kind: str
    ok: bool | None  # None: not built (no builder for the kind)
    cause: str = ""
    seconds: float = 0.0


def normalise(message: str) -> str:
    """A first error without paths, line numbers and literal numbers, so equal causes count together."""
    m = message.strip()
    m = re.sub(r"^\S+?:\d+(:\d+)?:\s*", "", m)
    m = re.sub(r"(?:fatal )?error:\s*", "", m)
    m = re.sub(r"/[^\s:'\"‘’]+/", "", m)
    m = re.sub(r"\b\d+\b", "N", m)
    m = re.sub(r"\s+", " ", m)
    return m[:110]


def first_error(stderr: str) -> str:
    m = _ERROR.search(stderr)
    if m:
        return m.group(1)
    lines = [x for x in stderr.strip().splitlines() if x.strip()]
    return lines[-1] if lines else "failed without a message"


# ----------------------------------------------------------------------------------------------------------------
# collecting translation units


def collect(trees: Path, repos: list[str] | None) -> list[Unit]:
    names = sorted((p.name for p in trees.iterdir() if p.is_dir()), key=lambda n: (
        PREFERRED_ORDER.index(n) if n in PREFERRED_ORDER else len(PREFERRED_ORDER), n))
    seen: set[str] = set()
    out: list[Unit] = []
    for name in names:
        if repos and name not in repos:
            continue
        root = trees / name
        excluded = EXCLUDED_PREFIXES.get(name, ())
        for p in sorted(root.rglob("*")):
            if p.suffix not in SOURCE_SUFFIXES or not p.is_file():
                continue
            rel = p.relative_to(root).as_posix()
            if rel.startswith(excluded):
                continue
            data = p.read_bytes()
            if b"__global__" not in data:
                continue
            text = data.decode("utf-8", "replace")
            if not _KERNEL_DEF.search(text):
                continue
            digest = hashlib.sha1(data).hexdigest()
            if digest in seen:
                continue
            seen.add(digest)
            out.append(Unit(name, p, rel, classify(p, text)))
    return out


def classify(path: Path, text: str) -> str:
    """direct: an .asc or a host main(); op: an op project's kernel whose op_host registers an op; a source with
    a `<<<...>>>` launch is direct only when its program has a main() (else it is a kernel library's source with a
    launch wrapper, as pybind extensions and the `<op>_do` functions of op kernels are)."""
    if path.suffix == ".asc" or _MAIN.search(text):
        return "direct"
    try:
        project = find_project(path)
        in_kernels = "op_kernel" in path.parts or path.resolve() in project.kernel_files
        if in_kernels and _registers_op(tuple(project.host_sources()), project.repo_root):
            return "op"
    except OpProjectError:
        pass
    if "<<<" in text and _program_has_main(path):
        return "direct"
    return "kernel"


@functools.cache
def _registers_op(host_sources: tuple[Path, ...], repo_root: Path) -> bool:
    """OP_ADD in the op_host sources or in the repository headers they include (op libraries register through
    their own macros, e.g. cann-ops' FOREACH_OPDEF)."""
    sources = list(host_sources)
    if any(b"OP_ADD" in s.read_bytes() for s in sources):
        return True
    headers = repository_headers(sources, repo_root, provided=[host.host_include_dir()])
    return any(b"OP_ADD" in h.read_bytes() for h in headers if h.is_file())


@functools.cache
def _program_has_main(path: Path) -> bool:
    """Whether the folder of the program `path` belongs to (the direct-launch toolchain's sample root) holds a
    source defining main()."""
    from ascendc_lsp.toolchain.program.discover import find_root

    root = find_root(path)
    for n, p in enumerate(sorted(root.rglob("*"))):
        if n > 2000:
            break
        if p.suffix in SOURCE_SUFFIXES and p.is_file() and _MAIN.search(p.read_text("utf-8", "replace")):
            return True
    return False


# ----------------------------------------------------------------------------------------------------------------
# building


class Cache:
    def __init__(self, path: Path, enabled: bool) -> None:
        self.path = path
        self.enabled = enabled
        self.lock = threading.Lock()
        self.data: dict[str, dict[str, Any]] = {}
        if enabled and path.is_file():
            try:
                self.data = json.loads(path.read_text())
            except ValueError:
                self.data = {}

    def get(self, key: str) -> dict[str, Any] | None:
        return self.data.get(key) if self.enabled else None

    def put(self, key: str, value: dict[str, Any]) -> None:
        with self.lock:
            self.data[key] = value

    def save(self) -> None:
        if not self.enabled:
            return
        with self.lock:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_suffix(".tmp")
            tmp.write_text(json.dumps(self.data))
            tmp.replace(self.path)


def _versions() -> str:
    inc = build.include_dir()
    return hashlib.sha256(
        (CACHE_VERSION + build.headers_digest(inc) + build.headers_digest(host.host_include_dir())).encode()
    ).hexdigest()


def _key(*parts: str | bytes) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(p if isinstance(p, bytes) else p.encode())
        h.update(b"\0")
    return h.hexdigest()


def _preferred_variant(op: Any) -> Any:
    vs = variants(op)
    for v in vs:  # a variant whose every dtype a test case could hold (the common float16/float32 ones)
        if all(GE_DTYPES.get(dt, (None, ""))[0] for _n, dt in v.dtypes):
            return v
    return vs[0]


def build_op_project(project: OpProject, units: list[Unit], timeout: float, cache: Cache, versions: str) -> list[
    Outcome
]:
    """Describe the project once (host build), then syntax-check each of its kernel translation units."""
    t0 = time.monotonic()
    described: Described | host.HostBuild | None = None
    host_cause = ""
    outcomes: list[Outcome] = []
    host_key = _key(versions, *(s.read_bytes() for s in project.host_sources()))
    for u in units:
        key = _key(versions, "op", u.path.read_bytes(), host_key)
        hit = cache.get(key)
        if hit is not None:
            outcomes.append(Outcome(**hit))
            continue
        if described is None and not host_cause:
            try:
                described = describe_project(project, timeout=max(timeout, 120.0))
            except OpProjectError as exc:
                host_cause = f"host: {exc}"
            if isinstance(described, host.HostBuild):
                d0 = described.diagnostics[0].message if described.diagnostics else "op_host does not compile"
                host_cause = "host: " + normalise(d0.replace("op_host does not compile on the CPU host shims: ", ""))
        if host_cause or not isinstance(described, Described):
            out = Outcome(u.repo, u.rel, "op", False, host_cause or "host: no description", time.monotonic() - t0)
        else:
            out = check_op_unit(described, u, timeout)
        cache.put(key, asdict(out))
        outcomes.append(out)
    return outcomes


def check_op_unit(d: Described, u: Unit, timeout: float) -> Outcome:
    t0 = time.monotonic()
    ops = d.ops
    op = None
    for o in ops:
        try:
            if d.project.kernel_for(o.type).file.resolve() == u.path.resolve():
                op = o
                break
        except OpProjectError:
            continue
    if op is None:
        if not ops:
            return Outcome(u.repo, u.rel, "op", False, "host: no op registered (no OP_ADD)", 0.0)
        op = ops[0]
    try:
        variant = _preferred_variant(op)
        kb = kernel_build(d, op, variant, None)
    except (OpProjectError, IndexError) as exc:
        return Outcome(u.repo, u.rel, "op", False, f"build: {normalise(str(exc))}", time.monotonic() - t0)
    prelude = (f"#define ASCENDC_EMU_TILING_STRUCT {kb.struct}\n" if kb.struct else "") + f'#include "{kb.header}"'
    r = build.syntax_check(
        u.path,
        include_dirs=kb.include_dirs,
        prelude=prelude,
        read_paths=[kb.header.parent, d.project.repo_root],
        timeout=timeout,
    )
    cause = "" if r.ok else ("timeout" if r.timed_out else normalise(first_error(r.stderr)))
    return Outcome(u.repo, u.rel, "op", r.ok, cause, time.monotonic() - t0)


_GTEST_INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]gtest/gtest\.h[>"]', re.M)


def check_kernel_unit(u: Unit, timeout: float, cache: Cache, versions: str) -> Outcome:
    key = _key(versions, "kernel", u.path.read_bytes(), u.rel)
    hit = cache.get(key)
    if hit is not None:
        return Outcome(**hit)
    t0 = time.monotonic()
    repo_root = trees_dir() / u.repo
    cxx = build.find_cxx() or "g++"
    if _GTEST_INCLUDE.search(u.path.read_text(encoding="utf-8", errors="replace")) and not any(
        (d / "gtest" / "gtest.h").is_file() for d in build.compiler_include_dirs(cxx)
    ):  # a unit test of a kernel: it needs GoogleTest, which is not installed here (and is never downloaded)
        return Outcome(u.repo, u.rel, "kernel", None, "not built: a gtest unit test, gtest is not installed", 0.0)
    here = [u.path.parent, u.path.parent.parent]
    found = resolve_include_dirs(
        [u.path], repo_root, provided=[build.include_dir(), *here], system=build.compiler_include_dirs(cxx)
    )
    r = build.syntax_check(u.path, include_dirs=[*here, *found], read_paths=[repo_root], timeout=timeout)
    cause = "" if r.ok else ("timeout" if r.timed_out else normalise(first_error(r.stderr)))
    out = Outcome(u.repo, u.rel, "kernel", r.ok, cause, time.monotonic() - t0)
    cache.put(key, asdict(out))
    return out


def direct_checker() -> Callable[[Path, float], tuple[bool, str]] | None:
    """The direct-launch toolchain's build check, when it is installed (branch `direct`): its own
    `program.fidelity.check`, else its program discovery + build (compile and link, no run)."""
    try:
        mod = importlib.import_module("ascendc_lsp.toolchain.program.fidelity")
        fn = getattr(mod, "check", None)
        if callable(fn):
            return fn
    except ImportError:
        pass
    try:
        discover = importlib.import_module("ascendc_lsp.toolchain.program.discover")
        pbuild = importlib.import_module("ascendc_lsp.toolchain.program.build")
    except ImportError:
        return None
    if not callable(getattr(discover, "discover", None)) or not callable(getattr(pbuild, "build_program", None)):
        return None

    def check(path: Path, timeout: float) -> tuple[bool, str]:
        try:
            layout = discover.discover(path)
        except Exception as exc:  # its DiscoveryError, or a bug of the plug-in: a cause either way
            return False, f"discovery: {exc}"
        pb = pbuild.build_program(layout, timeout=timeout)
        if getattr(pb, "ok", False):
            return True, ""
        diags = getattr(pb, "diagnostics", [])
        return False, diags[0].message if diags else (getattr(pb, "log", "") or "build failed")

    return check


def check_direct_unit(u: Unit, timeout: float, checker: Callable[[Path, float], tuple[bool, str]] | None) -> Outcome:
    if checker is None:
        return Outcome(u.repo, u.rel, "direct", None, "not built (no direct-launch build in this toolchain)")
    t0 = time.monotonic()
    try:
        ok, err = checker(u.path, timeout)
    except Exception as exc:  # a plug-in's bug must not stop the bench
        ok, err = False, f"checker raised {type(exc).__name__}: {exc}"
    return Outcome(u.repo, u.rel, "direct", ok, "" if ok else normalise(err), time.monotonic() - t0)


# ----------------------------------------------------------------------------------------------------------------
# run rate


@dataclass
class CaseOutcome:
    case: str
    repo: str
    project: str
    ok: bool
    cause: str = ""
    seconds: float = 0.0


def find_cases(folders: list[Path]) -> list[Path]:
    from ascendc_lsp.toolchain.opproject.testcase import is_test_case
    from ascendc_lsp.toolchain.spec import parse_yaml

    out: list[Path] = []
    for f in folders:
        for p in sorted(f.rglob("*.yaml")):
            try:
                if is_test_case(parse_yaml(p.read_text(encoding="utf-8"), str(p))):
                    out.append(p)
            except Exception:  # not a YAML test case: skip
                continue
    return out


def run_case_file(path: Path, timeout: float) -> CaseOutcome:
    from ascendc_lsp.toolchain.opproject.opbuild import run_case
    from ascendc_lsp.toolchain.opproject.testcase import load_test_case
    from ascendc_lsp.toolchain.spec import SpecError

    t0 = time.monotonic()
    name = path.stem
    try:
        case = load_test_case(path)
    except SpecError as exc:
        return CaseOutcome(name, "?", "?", False, f"bad test case: {exc}")
    repo = case.repository or "ours"
    project = str(case.project or "")
    try:
        r = run_case(case, RunOptions(timeout=timeout))
    except (SpecError, OpProjectError) as exc:
        msg = str(exc)
        cause = "tree absent" if "is not extracted" in msg else normalise(msg)
        return CaseOutcome(name, repo, project, False, cause, time.monotonic() - t0)
    cause = ""
    if not r.correct:
        errs = [d for d in r.diagnostics if d.severity == "error"]
        d0 = errs[0] if errs else None
        cause = f"{r.stage_reached}: " + (normalise(d0.message) if d0 else "not correct")
        if d0 is not None and d0.category:
            cause = f"{r.stage_reached} [{d0.category}]: " + normalise(d0.message)
    return CaseOutcome(name, repo, project, r.correct, cause, time.monotonic() - t0)


# ----------------------------------------------------------------------------------------------------------------
# report


def table(rows: list[list[str]], header: list[str]) -> str:
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    fmt = "  ".join(f"{{:{'<' if i == 0 else '>'}{w}}}" for i, w in enumerate(widths))
    lines = [fmt.format(*header), fmt.format(*("-" * w for w in widths))]
    lines += [fmt.format(*map(str, r)) for r in rows]
    return "\n".join(lines)


def pct(a: int, b: int) -> str:
    return f"{100.0 * a / b:.1f}%" if b else "-"


def report(outcomes: list[Outcome], cases: list[CaseOutcome], top: int) -> str:
    out: list[str] = []
    if outcomes:
        by: dict[tuple[str, str], list[Outcome]] = collections.defaultdict(list)
        for o in outcomes:
            by[(o.repo, o.kind)].append(o)
        rows = []
        for (repo, kind), os_ in sorted(by.items()):
            built = [o for o in os_ if o.ok is not None]
            ok = sum(1 for o in built if o.ok)
            rows.append([repo, kind, len(os_), ok, pct(ok, len(built)) if built else "not built"])
        out.append("Compile rate per repository (kernel translation units, de-duplicated):")
        out.append(table(rows, ["repository", "kind", "units", "compile", "rate"]))
        out.append("")
        kinds = collections.defaultdict(list)
        for o in outcomes:
            kinds[o.kind].append(o)
        rows = []
        for kind, os_ in sorted(kinds.items()):
            built = [o for o in os_ if o.ok is not None]
            ok = sum(1 for o in built if o.ok)
            rows.append([kind, len(os_), ok, pct(ok, len(built)) if built else "not built"])
        out.append("Compile rate per kind (all repositories):")
        out.append(table(rows, ["kind", "units", "compile", "rate"]))
        for kind, os_ in sorted(kinds.items()):
            causes = collections.Counter(o.cause for o in os_ if o.ok is False)
            if not causes:
                continue
            out.append("")
            out.append(f"Top causes of failure, kind {kind} ({sum(causes.values())} failing units):")
            out.append(table([[c[:110], n] for c, n in causes.most_common(top)], ["first error (normalised)", "units"]))
    if cases:
        out.append("")
        per = collections.defaultdict(list)
        for c in cases:
            per[c.repo].append(c)
        rows = [[r, len(cs), sum(c.ok for c in cs), pct(sum(c.ok for c in cs), len(cs))] for r, cs in sorted(per.items())]
        out.append("Run rate of op projects from their test cases (CORRECT on the emulator):")
        out.append(table(rows, ["repository", "cases", "pass", "rate"]))
        fails = [c for c in cases if not c.ok]
        if fails:
            out.append("")
            out.append("Failing test cases:")
            out.append(table([[c.case, c.cause[:110]] for c in fails], ["case", "cause"]))
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--trees", type=Path, default=None, help="public trees folder (default: bench/corpus.py's)")
    ap.add_argument("--repo", action="append", help="only this repository (owner+name); repeatable")
    ap.add_argument("--kinds", default="op,kernel,direct", help="comma list of op, kernel, direct")
    ap.add_argument("--limit", type=int, default=0, help="at most this many units per kind (sampled evenly)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds per compile / per test case run")
    ap.add_argument("--no-cache", action="store_true")
    ap.add_argument("--no-compile", action="store_true", help="skip the compile rate")
    ap.add_argument("--no-run", action="store_true", help="skip the op test cases")
    ap.add_argument("--cases", type=Path, action="append", default=[], help="more folders of op test cases")
    ap.add_argument("--top", type=int, default=15, help="causes listed per kind")
    ap.add_argument("--json", type=Path, help="write every outcome here")
    args = ap.parse_args(argv)

    trees = args.trees or trees_dir()
    os.environ["ASCENDC_PUBLIC_TREES"] = str(trees.resolve())  # each repository's root is its tree's top
    outcomes: list[Outcome] = []
    cases: list[CaseOutcome] = []
    t0 = time.monotonic()
    if not args.no_compile:
        if not trees.is_dir():
            print(f"fidelity: no public trees at {trees}: run bench/corpus.py first", file=sys.stderr)
            return 2
        kinds = {k.strip() for k in args.kinds.split(",") if k.strip()}
        units = [u for u in collect(trees, args.repo) if u.kind in kinds]
        if args.limit:
            sampled: list[Unit] = []
            for kind in sorted(kinds):
                ku = [u for u in units if u.kind == kind]
                step = max(1, len(ku) // args.limit) if len(ku) > args.limit else 1
                sampled += ku[::step][: args.limit]
            units = sampled
        print(f"fidelity: {len(units)} translation units ({collections.Counter(u.kind for u in units)})",
              file=sys.stderr)
        cache = Cache(build.cache_root() / "fidelity" / "results.json", not args.no_cache)
        versions = _versions()
        by_project: dict[Path, list[Unit]] = collections.defaultdict(list)
        others: list[Unit] = []
        for u in units:
            if u.kind == "op":
                by_project[find_project(u.path).op_host].append(u)
            else:
                others.append(u)
        checker = direct_checker()
        done = 0
        with ThreadPoolExecutor(max(1, args.jobs)) as ex:
            futures = [ex.submit(build_op_project, find_project(us[0].path), us, args.timeout, cache, versions)
                       for root, us in by_project.items()]
            for u in others:
                if u.kind == "kernel":
                    futures.append(ex.submit(lambda u=u: [check_kernel_unit(u, args.timeout, cache, versions)]))
                else:
                    futures.append(ex.submit(lambda u=u: [check_direct_unit(u, args.timeout, checker)]))
            for f in as_completed(futures):
                got = f.result()
                outcomes.extend(got)
                done += len(got)
                if done % 25 < len(got):
                    cache.save()
                    print(f"fidelity: {done}/{len(units)} units, {time.monotonic() - t0:.0f} s", file=sys.stderr)
        cache.save()
    if not args.no_run:
        folders = [ROOT / "tests" / "op_cases", *args.cases]
        paths = find_cases([f for f in folders if f.is_dir()])
        with ThreadPoolExecutor(max(1, args.jobs)) as ex:
            cases = list(ex.map(lambda p: run_case_file(p, args.timeout), paths))
    print(report(outcomes, cases, args.top))
    print(f"\n({time.monotonic() - t0:.0f} s)")
    if args.json:
        args.json.write_text(json.dumps({"units": [asdict(o) for o in outcomes], "cases": [asdict(c) for c in cases]},
                                        indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
