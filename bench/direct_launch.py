"""Direct-launch programs on the emulator: how many official samples build and pass by their own verification.

Runs `ascendc-lsp run SAMPLE` (toolchain/program) on
- every sample folder of the devkit examples (cannmirror/asc-devkit `examples/**`, the folders holding `.asc`
  files), grouped by what they program against: the SIMD C++ API on dav-2201 (Atlas A2/A3), the SIMD C++ API on
  dav-3510 (Ascend 950), the register ("Reg") API, SIMT (`__simt_vf__`, `threadIdx`, asc_simt.h), the SIMD C API
  (`asc_*`, asc_simd.h), AI CPU;
- the older kernel-launch samples (LnickOne/Ascend `AscendC/lesson_01/**`: a main.cpp with run.sh);
and prints per group: samples, built, ran, verified by their own check, passed; then the causes of failure
ranked (the first compile error's missing header / symbol / overload, link errors, emulator errors,
verification failures, scripts that need more than NumPy).

Usage:
    nice -n 10 .venv/bin/python bench/direct_launch.py [--out results.jsonl] [--only SUBSTRING] [--limit N]
        [--timeout S] [--group GROUP]

Results are cached by the emulator's build cache, so a second run only re-runs the programs.
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from ascendc_lsp.toolchain.program.discover import DiscoveryError, find_root
from ascendc_lsp.toolchain.program.run import ProgramOptions, run_program
from corpus import public_tree

GROUPS = ("simd-cpp-2201", "simd-cpp-3510", "reg-api", "simt", "simd-c-api", "aicpu", "kernellaunch")


def devkit_samples(tree: Path) -> list[Path]:
    roots = {find_root(p.parent) for p in (tree / "examples").rglob("*.asc")}
    return sorted(roots)


def kernellaunch_samples(tree: Path) -> list[Path]:
    base = tree / "AscendC" / "lesson_01"
    out = []
    for main in sorted(base.rglob("main.cpp")):
        d = main.parent
        text = main.read_text(encoding="utf-8", errors="replace")
        if (
            not (d / "run.sh").is_file()
            or "aclnn" in text.lower()
            or "aclmdl" in text
            or "aclopExecute" in text
        ):
            continue
        out.append(d)
    return out


def group_of(root: Path, devkit: bool) -> str:
    if not devkit:
        return "kernellaunch"
    text = "\n".join(p.read_text(encoding="utf-8", errors="replace") for p in sorted(root.rglob("*.asc")))
    rel = str(root)
    if "04_aicpu" in rel:
        return "aicpu"
    if re.search(r"__simt_vf__|__simt__|threadIdx|asc_simt\.h|simt_api/", text):
        return "simt"
    if re.search(r"asc_simd\.h|c_api/", text) or (
        re.search(r"\basc_[a-z0-9_]+\s*\(", text) and "asc_vf_call" not in text
    ):
        return "simd-c-api"
    if re.search(r"\bReg::|MicroAPI|__simd_vf__|asc_vf_call", text):
        return "reg-api"
    cm = (
        (root / "CMakeLists.txt").read_text(encoding="utf-8", errors="replace")
        if (root / "CMakeLists.txt").is_file()
        else ""
    )
    m = re.search(r'CMAKE_ASC_ARCHITECTURES\s+"([^"]+)"', cm)
    return "simd-cpp-3510" if m and "3510" in m.group(1) else "simd-cpp-2201"


def cause(result: dict[str, Any]) -> str:
    """A short, countable reason for a failure."""
    if result.get("discovery_error"):
        return "not runnable: " + _norm(result["discovery_error"])
    diags = result.get("diagnostics") or []
    errors = [d for d in diags if d.get("severity") == "error"]
    if not result.get("compiled"):
        for d in errors:
            msg = d.get("message", "")
            m = re.search(r"([\w./]+\.h(?:pp)?): No such file or directory", msg)
            if m:
                return f"missing header {m.group(1)}"
            m = re.search(r"undefined (.+?)\. A function", msg)
            if m:
                return "link: undefined " + m.group(1)[:80]
            return "compile: " + _norm(msg)
        return "compile: ?"
    skipped = [s for s in result.get("steps", []) if s.get("skipped") and "needs" in (s.get("skipped") or "")]
    for d in errors:
        code = d.get("code", "")
        if code in ("verify",):
            continue
        check = (d.get("data") or {}).get("check") or code
        return f"emulator: {check}: " + _norm(d.get("message", ""))[:90]
    if skipped:
        return "script needs " + re.sub(r"^needs ", "", skipped[0]["skipped"]).split(" (")[0]
    if any(d.get("code") == "verify" for d in errors):
        return "verification failed"
    if not result.get("verified"):
        return "no verification of its own"
    return "?"


def _norm(msg: str) -> str:
    first = msg.splitlines()[0] if msg else ""
    first = re.sub(r"/[^\s:]+/", "", first)
    first = re.sub(r"\d+", "N", first)
    return first[:120]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=Path("/tmp/direct_launch.jsonl"))
    ap.add_argument("--only", default=None, help="run only samples whose path contains this")
    ap.add_argument("--group", choices=GROUPS, default=None)
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--timeout", type=float, default=120.0)
    args = ap.parse_args(argv)
    samples: list[tuple[Path, bool]] = []
    devkit = public_tree("cannmirror+asc-devkit")
    older = public_tree("LnickOne+Ascend")
    if devkit is None and older is None:
        print("no public trees: run bench/corpus.py first", file=sys.stderr)
        return 2
    if devkit is not None:
        samples += [(p, True) for p in devkit_samples(devkit)]
    if older is not None:
        samples += [(p, False) for p in kernellaunch_samples(older)]
    if args.only:
        samples = [s for s in samples if args.only in str(s[0])]
    todo = [(p, d, group_of(p, d)) for p, d in samples]
    if args.group:
        todo = [t for t in todo if t[2] == args.group]
    if args.limit:
        todo = todo[: args.limit]
    rows: list[dict[str, Any]] = []
    with args.out.open("w", encoding="utf-8") as fh:
        for i, (path, _dev, group) in enumerate(todo, 1):
            t0 = time.monotonic()
            row: dict[str, Any] = {"sample": str(path), "group": group}
            try:
                r = run_program(path, ProgramOptions(timeout=args.timeout)).to_json()
                row.update(
                    {
                        k: r[k]
                        for k in (
                            "compiled",
                            "ran",
                            "correct",
                            "verified",
                            "verification",
                            "steps",
                            "launches",
                            "recipe",
                            "soc",
                        )
                    }
                )
                row["diagnostics"] = r["diagnostics"][:8]
            except DiscoveryError as exc:
                row.update(
                    {
                        "compiled": False,
                        "ran": False,
                        "correct": False,
                        "verified": False,
                        "discovery_error": str(exc),
                    }
                )
            row["seconds"] = round(time.monotonic() - t0, 2)
            row["cause"] = "" if row.get("correct") else cause(row)
            rows.append(row)
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
            fh.flush()
            status = "PASS" if row.get("correct") else ("built" if row.get("compiled") else "----")
            print(
                f"[{i}/{len(todo)}] {status} {group:14} {path.name:40} {row['seconds']:6.1f}s {row['cause'][:100]}",
                flush=True,
            )
    print_summary(rows)
    return 0


def print_summary(rows: list[dict[str, Any]]) -> None:
    print()
    print(f"{'group':16} {'samples':>8} {'built':>6} {'ran':>5} {'verified':>9} {'passed':>7}")
    for g in (*GROUPS, "all"):
        sel = [r for r in rows if g == "all" or r["group"] == g]
        if not sel:
            continue
        print(
            f"{g:16} {len(sel):8} {sum(bool(r.get('compiled')) for r in sel):6} {sum(bool(r.get('ran')) for r in sel):5} "
            f"{sum(bool(r.get('verified')) for r in sel):9} {sum(bool(r.get('correct')) for r in sel):7}"
        )
    print("\ncauses of failure (first cause per sample), by group:")
    for g in GROUPS:
        c = collections.Counter(r["cause"] for r in rows if r["group"] == g and not r.get("correct"))
        if not c:
            continue
        print(f"  {g}:")
        for k, v in c.most_common(25):
            print(f"    {v:4}  {k}")


if __name__ == "__main__":
    raise SystemExit(main())
