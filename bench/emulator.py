"""Emulator benchmark: compile and run times per example, printed as a table.

    .venv/bin/python bench/emulator.py [--examples DIR] [--only NAME ...] [--json OUT]

Columns:
- `pch s`: building the precompiled emulator headers (once per compiler/flags/header version; first row only);
- `cold s`: compile of a kernel whose binary is not cached (the PCH exists): what an edit costs;
- `cached s`: a whole `run` in-process when the binary is cached (inputs, reference, cache lookup, sandboxed
  run, verify, estimate);
- `cli s`: the same through `ascendc-lsp run` as a subprocess (Python start-up included);
- `run s`: the sandboxed kernel process alone; `Melem/s`: output elements emulated per second of `run s`.
Targets on a 2-core machine: elementwise cached cli <= 1 s, cold <= 5 s.

A fresh temporary cache directory is used (XDG_CACHE_HOME), so the user's cache is neither used nor touched.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--examples", default=str(ROOT / "examples"))
    ap.add_argument("--only", nargs="*", default=None, help="example folder names")
    ap.add_argument("--json", metavar="OUT", help="also write the rows as JSON")
    args = ap.parse_args(argv)

    cache = tempfile.mkdtemp(prefix="ascendc-bench-cache-")
    os.environ["XDG_CACHE_HOME"] = cache
    sys.path.insert(0, str(ROOT / "server"))
    from ascendc_lsp.toolchain.base import RunOptions
    from ascendc_lsp.toolchain.emulator import build
    from ascendc_lsp.toolchain.emulator.runner import EmulatorToolchain
    from ascendc_lsp.toolchain.spec import SpecError, load_spec

    cxx = build.find_cxx()
    if cxx is None:
        print("g++ not found", file=sys.stderr)
        return 2
    t = time.monotonic()
    pch = build.ensure_pch(cxx, 120.0)
    pch_s = time.monotonic() - t
    print(f"precompiled header: {'built' if pch else 'FAILED'} in {pch_s:.2f} s; cache {cache}")

    specs = sorted(Path(args.examples).glob("*/spec.yaml"))
    if args.only:
        specs = [s for s in specs if s.parent.name in args.only]
    tc = EmulatorToolchain()
    rows: list[dict[str, Any]] = []
    cli = [sys.executable, "-m", "ascendc_lsp", "run"]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "server")}
    for sp in specs:
        name = sp.parent.name
        try:
            spec = load_spec(sp)
        except SpecError as exc:
            print(f"{name}: {exc}", file=sys.stderr)
            continue
        first = tc.run(spec, RunOptions(timeout=300))
        if not first.compiled:
            rows.append({"example": name, "status": f"compile failed ({first.category})"})
            continue
        t = time.monotonic()
        second = tc.run(spec, RunOptions(timeout=300))
        cached = time.monotonic() - t
        t = time.monotonic()
        subprocess.run([*cli, str(sp)], capture_output=True, env=env, check=False)
        cli_s = time.monotonic() - t
        elements = sum(o.size for o in spec.outputs)
        rows.append(
            {
                "example": name,
                "status": "ok" if second.correct else f"FAIL ({second.category})",
                "cold_s": round(first.compile_seconds, 2),
                "cached_s": round(cached, 3),
                "cli_s": round(cli_s, 3),
                "run_s": round(second.run_seconds, 3),
                "melem_per_s": round(elements / max(second.run_seconds, 1e-9) / 1e6, 2),
                "estimate_us": None if second.estimate is None else round(second.estimate.microseconds, 2),
            }
        )
    head = f"{'example':<20} {'status':<10} {'pch s':>6} {'cold s':>7} {'cached s':>9} {'cli s':>6} {'run s':>6} "
    head += f"{'Melem/s':>8} {'est us':>8}"
    print(head)
    print("-" * len(head))
    for i, r in enumerate(rows):
        if "cold_s" not in r:
            print(f"{r['example']:<20} {r['status']}")
            continue
        pch_col = f"{pch_s:6.2f}" if i == 0 else " " * 6
        print(
            f"{r['example']:<20} {r['status']:<10} {pch_col} {r['cold_s']:7.2f} {r['cached_s']:9.3f} {r['cli_s']:6.2f} "
            f"{r['run_s']:6.3f} {r['melem_per_s']:8.2f} {r['estimate_us'] if r['estimate_us'] is not None else '-':>8}"
        )
    if args.json:
        Path(args.json).write_text(json.dumps({"pch_s": pch_s, "rows": rows}, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
