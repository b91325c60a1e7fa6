"""`check` on large generated sources (issue 16: "check on a 5 MB file in seconds"; a 50 MB one gives a bounded
result or a clear size error).

    python bench/check_large.py [--sizes 1,5,50] [--profile]
    python bench/check_large.py --stages --sizes 0.5,1,2,5 [--same-names]
    python bench/check_large.py --corpus --sizes 0.6,1.25,2.5,5 [--stages]

The sources are the shipped examples (correct and buggy), each copy in its own namespace, repeated up to the size:
realistic kernel code at scale, not one pathological shape (bench/fuzz.py has those). `--corpus` takes, instead,
distinct public kernel files (bench/corpus.py's cache, those naming `__aicore__`, in path order) concatenated up to
the size: code nobody here wrote, with its own shapes (tiling-key dispatches, deep class hierarchies). Each size runs `ascendc-lsp
check` in a fresh process and prints a table: size, wall and CPU seconds, exit code, findings, peak RSS;
`--profile` adds the top cProfile entries of the in-process run of the largest checked size. `--stages` prints,
instead, the CPU seconds of each stage (parse, model, every rule) per size and how the last step scaled (ratio 1.0:
linear; 2.5 from 2 to 5 MB: quadratic).

Measured (--stages, CPU seconds, 2 cores shared at load 8-18): 0.5/1/2/5 MB: total 1.18 / 2.65 / 5.56 / 13.16 s,
ratio 0.95 (linear); at 5 MB model 3.4, ASC008 3.1, ASC001 2.8, parse 1.7, ASC005 0.6. Before the scope index and
the indexed function lookups ASC005 scaled 1.88 from 2 to 5 MB and the total was 14.0 s. Linear now, but 2.6x over
the 5 s target: what is left is a constant factor spread over the model, lifecycle and UB-budget passes.

Measured --corpus (523 distinct public kernel files, 5.0 MB; CPU seconds of the child, wall at load 5-10 on 2 cores):
| size MB | wall s | CPU s | peak RSS MB | findings |
|---|---|---|---|---|
| 0.6 | 5.9 | 3.0 | 72 | 35 |
| 1.25 | 14.9 | 4.2 | 112 | 98 |
| 2.5 | 31.3 | 8.6 | 191 | 212 |
| 5.0 | 35.8 | 21.4 | 308 | 235 |
Before the lifecycle fix (_lifecycle._driven took the Init/Process calls of every `op` of a tiling-key dispatch,
one per branch, so each class ran them 26 times, piling up tokens to copy at every branch): 1.25 MB 11.9 s wall,
2.5 MB 100 s wall (8x for 2x; 42 s CPU), 190 s for cann-ops' dequant_swiglu_quant alone (98 KB with its headers;
6 s after; merged with checks8/9: main 22.6 s CPU, with the fix 1.2 s). After that merge, 5.0 MB: 27.2 s CPU,
36.8 s wall, 318 MB peak.
--stages at 1.25 / 2.5 MB: total 3.97 / 7.98 s, ratio 1.01; ASC008 1.68 / 2.86, model 0.49 / 1.60, ASC001 0.60 /
1.42, parse 0.64 / 0.90. Left at 5 MB: one lifecycle unit (Conv3dDxBasicBlockSplitMN, defined twice in the
concatenation: overloads of both copies fan out) runs to the 40,000-step budget and gives up, with each step's
state copy growing with its tokens: the steps bound the statements, not the copying.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
_INCLUDE = re.compile(r"^\s*#\s*include[^\n]*\n", re.M)


_DEFINED = re.compile(r"\b(?:class|struct)\s+(\w+)|__aicore__\s+void\s+(\w+)\s*\(")


def make_source(megabytes: float, same_names: bool = False) -> str:
    """Example kernels repeated to `megabytes`, each copy in a namespace of its own and (unless `same_names`) with
    its classes and kernels renamed, as in a file of many distinct generated kernels."""
    bodies = [_INCLUDE.sub("", p.read_text(encoding="utf-8")) for p in sorted(EXAMPLES.glob("*/*.cpp"))]
    target = int(megabytes * (1 << 20))
    parts = ['#include "kernel_operator.h"\n', "using namespace AscendC;\n"]
    size = sum(len(p) for p in parts)
    copy = 0
    while size < target:
        body = bodies[copy % len(bodies)]
        if not same_names:
            names = {m.group(1) or m.group(2) for m in _DEFINED.finditer(body)}
            if names:
                body = re.sub(r"\b(" + "|".join(sorted(names)) + r")\b", rf"\g<1>_{copy}", body)
        chunk = f"namespace copy_{copy} {{\n{body}\n}}  // namespace copy_{copy}\n"
        parts.append(chunk)
        size += len(chunk)
        copy += 1
    return "".join(parts)


def corpus_source(megabytes: float) -> str:
    """Distinct public kernel files (by content) of bench/corpus.py's cache, whole, in path order, up to
    `megabytes` (the last file may cross it)."""
    from corpus import corpus_dir, corpus_missing_message

    root = corpus_dir()
    if not (root / "MANIFEST.json").is_file():
        raise SystemExit(corpus_missing_message())
    target = int(megabytes * 1_000_000)
    parts: list[str] = []
    seen: set[int] = set()
    size = 0
    for path in sorted(p for p in root.rglob("*") if p.suffix in (".cpp", ".h", ".hpp", ".cc") and p.is_file()):
        text = path.read_text(encoding="utf-8", errors="replace")
        if "__aicore__" not in text or hash(text) in seen:
            continue
        seen.add(hash(text))
        chunk = f"// ---- {path.relative_to(root)}\n{text}\n"
        parts.append(chunk)
        size += len(chunk.encode())
        if size >= target:
            break
    return "".join(parts)


def run_check(path: Path, timeout: float) -> dict[str, object]:
    t0 = time.monotonic()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "ascendc_lsp", "check", str(path), "--format", "json"],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return {"exit": "timeout", "wall": time.monotonic() - t0, "cpu": None, "findings": None, "rss_mb": None}
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    findings: int | str
    if proc.returncode not in (0, 1):  # refused (2) or failed: what it said
        findings = (proc.stderr.strip().splitlines() or ["?"])[-1][:100]
        return {"exit": proc.returncode, "wall": time.monotonic() - t0, "cpu": None, "findings": findings, "rss_mb": None}
    try:
        data = json.loads(proc.stdout)
        findings = sum(len(f.get("diagnostics", f.get("findings", []))) for f in data.get("files", [])) if isinstance(
            data, dict
        ) else len(data)
    except (json.JSONDecodeError, AttributeError, TypeError):
        findings = proc.stderr.strip().splitlines()[-1][:80] if proc.stderr.strip() else "?"
    return {
        "exit": proc.returncode,
        "wall": time.monotonic() - t0,
        "cpu": (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime),
        "findings": findings,
        "rss_mb": after.ru_maxrss / 1024,  # the largest child so far (getrusage keeps the maximum)
    }


def stage_seconds(source: str) -> dict[str, float]:
    """CPU seconds of each stage of `check` on `source`, in process: parse, model, then every rule by id."""
    from ascendc_lsp.checks.base import CheckContext
    from ascendc_lsp.checks.engine import load_catalogue, load_soc, registered_rules
    from ascendc_lsp.hardware.limits import DEFAULT_SOC
    from ascendc_lsp.syntax.document import SourceDocument
    from ascendc_lsp.syntax.model import build_model

    times: dict[str, float] = {}
    t0 = time.process_time()
    document = SourceDocument(source)
    document.tree  # noqa: B018 (the parse may be lazy)
    times["parse"] = time.process_time() - t0
    t0 = time.process_time()
    model = build_model(document)
    times["model"] = time.process_time() - t0
    context = CheckContext(document=document, model=model, soc=load_soc(DEFAULT_SOC), catalogue=load_catalogue())
    for rule_id, function in sorted(registered_rules().items()):
        t0 = time.process_time()
        list(function(context))  # a rule may be a generator
        times[rule_id] = time.process_time() - t0
    return times


def print_stages(sizes: list[float], same_names: bool, top: int, from_corpus: bool = False) -> None:
    """The scaling table: CPU seconds per stage at each size, the slowest stages (at the largest size) first."""
    runs = [stage_seconds(corpus_source(mb) if from_corpus else make_source(mb, same_names)) for mb in sizes]
    last = runs[-1]
    names = sorted(last, key=lambda k: -last[k])[:top]
    print(f"{'stage':<10}" + "".join(f"{f'{mb:g} MB':>9}" for mb in sizes) + f"{'ratio':>8}")
    for name in [*names, "total"]:
        row = [sum(r.values()) if name == "total" else r.get(name, 0.0) for r in runs]
        # how much faster than the size the last step grew: 1.0 is linear
        ratio = (row[-1] / row[-2]) / (sizes[-1] / sizes[-2]) if len(row) > 1 and row[-2] > 0.01 else float("nan")
        print(f"{name:<10}" + "".join(f"{v:>9.2f}" for v in row) + f"{ratio:>8.2f}", flush=True)


def profile(path: Path, top: int) -> str:
    from ascendc_lsp import cli

    prof = cProfile.Profile()
    out = io.StringIO()
    real_stdout = sys.stdout
    sys.stdout = io.StringIO()
    try:
        prof.runcall(cli.main, ["check", str(path), "--format", "json"])
    except SystemExit:
        pass
    finally:
        sys.stdout = real_stdout
    pstats.Stats(prof, stream=out).sort_stats("cumulative").print_stats(top)
    return out.getvalue()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="1,5,50", help="megabytes, comma separated")
    ap.add_argument("--timeout", type=float, default=900.0)
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--same-names", action="store_true", help="keep class names (equal names in many namespaces)")
    ap.add_argument("--corpus", action="store_true", help="public kernels (bench/corpus.py's cache), not examples")
    ap.add_argument("--top", type=int, default=35)
    ap.add_argument("--stages", action="store_true", help="in process: CPU seconds per stage (parse, model, rules)")
    args = ap.parse_args()
    sizes = [float(s) for s in args.sizes.split(",") if s.strip()]
    if args.stages:
        print_stages(sizes, args.same_names, args.top, args.corpus)
        return 0
    print(f"{'size MB':>8} {'wall s':>8} {'cpu s':>8} {'exit':>6} {'peak RSS MB':>12}  findings")
    with tempfile.TemporaryDirectory(prefix="ascendc-check-large-") as tmp:
        last_checked: Path | None = None
        for mb in sizes:
            path = Path(tmp) / f"big_{mb:g}mb.cpp"
            source = corpus_source(mb) if args.corpus else make_source(mb, args.same_names)
            path.write_text(source, encoding="utf-8")
            r = run_check(path, args.timeout)
            cpu = f"{r['cpu']:.1f}" if isinstance(r["cpu"], float) else "-"
            rss = f"{r['rss_mb']:.0f}" if isinstance(r["rss_mb"], float) else "-"
            print(f"{mb:>8g} {r['wall']:>8.1f} {cpu:>8} {r['exit']!s:>6} {rss:>12}  {r['findings']}", flush=True)
            if r["exit"] in (0, 1):
                last_checked = path
        if args.profile and last_checked is not None:
            print(f"\ncProfile of check on {last_checked.name} (in process, cumulative):")
            print(profile(last_checked, args.top))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
