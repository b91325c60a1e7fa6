"""Emulator benchmark: each shipped example at 1x, 16x and 256x of its spec, printed as a table.

    .venv/bin/python bench/emulator.py [--examples DIR] [--only NAME ...] [--scales 1 16 256] [--json OUT]

A scaled spec multiplies the outer (first) dimension of every input and output by the scale, and the tiling
fields that depend on it (RECIPES below: the per-block length or tile count grows, the per-core tile stays what
it is at 1x, so it stays within UB). Examples whose shapes are compile-time constants in the kernel run at 1x
only.

Columns:
- `numpy ms`: the spec's NumPy reference (data.evaluate_reference, what every `run` pays);
- `kernel s`: the sandboxed emulated kernel process alone (RunResult.run_seconds);
- `run s`: the whole in-process `run` of a spec run before (the binary and the spec's data cached: cache lookups,
  input files, sandboxed kernel, verify, estimate); `data s`: the same run when the spec's data is not cached yet
  (inputs generated, the reference evaluated while the kernel runs, both stored), what the first run of a large
  spec costs once its kernel is compiled;
- `run/kern`, `kern/np`: the ratios. Targets (issue 11) at 256x for add_double_buffer and softmax_rows:
  run/kern <= 2 and kern/np <= 5;
- `cpu np/kern/run`: the same three as CPU seconds, for a shared machine where wall times depend on the load (the
  1-minute load average is printed with the table). They come from one extra run with the sandbox's rlimits-only
  isolation: a bwrap'ed process's CPU time does not reach our rusage;
- `events`: traced events (pipe-level cost model input); `est us`: the estimate;
- `cold s`: the compile of that scale's binary (the PCH exists), `cli s` (1x only): `ascendc-lsp run` as a
  subprocess, Python start-up included. The precompiled header build time is printed once above the table.

A fresh temporary cache directory is used (XDG_CACHE_HOME), so the user's cache is neither used nor touched.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

# How each example scales: "fields" are tiling fields multiplied by the scale together with the outer dimension;
# "block_dim": the block count scales instead (the kernel's per-block share is a compile-time constant);
# "fixed": shapes are constants of the kernel source, so only 1x runs.
RECIPES: dict[str, dict[str, Any]] = {
    "add_double_buffer": {"fields": ["totalLength", "tileNum"]},
    "framework_sub": {"fields": ["totalLength", "tileNum"]},
    "cast_hypot": {"fields": ["totalLength"]},
    "tbuf_manual_sync": {"fields": ["totalLength"]},
    "softmax_rows": {"fields": ["rowsPerBlock"]},
    "leaky_relu_tail": {"fields": ["formerLength", "tailLength"]},
    "reduce_rows": {"block_dim": True},
    "matmul_cube": {"fixed": True},
}
TARGETS = ("add_double_buffer", "softmax_rows")  # the targets are stated for these two


def scaled_spec_data(data: dict[str, Any], recipe: dict[str, Any], scale: int) -> dict[str, Any]:
    """The spec's YAML data with the outer dimension (and what depends on it) multiplied by `scale`."""
    out = copy.deepcopy(data)
    if scale == 1:
        return out
    for key in ("inputs", "outputs"):
        for t in out.get(key) or []:
            shape = list(t["shape"])
            shape[0] = int(shape[0]) * scale
            t["shape"] = shape
    fields = (out.get("tiling") or {}).get("fields") or {}
    for name in recipe.get("fields", []):
        fields[name] = int(fields[name]) * scale
    if recipe.get("block_dim"):
        out["block_dim"] = int(out.get("block_dim", 1)) * scale
    return out


def _children_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def _cpu_run(tc: Any, spec: Any, opts: Any) -> tuple[float, float]:
    """(kernel process CPU s, whole run CPU s) of one run under rlimits-only isolation."""
    from ascendc_lsp.toolchain import sandbox

    saved = os.environ.get("ASCENDC_LSP_SANDBOX")
    os.environ["ASCENDC_LSP_SANDBOX"] = "none"
    sandbox.isolation_mode.cache_clear()
    try:
        c, k = time.process_time(), _children_cpu()
        tc.run(spec, opts)
        kernel = _children_cpu() - k
        return kernel, time.process_time() - c + kernel
    finally:
        if saved is None:
            os.environ.pop("ASCENDC_LSP_SANDBOX", None)
        else:
            os.environ["ASCENDC_LSP_SANDBOX"] = saved
        sandbox.isolation_mode.cache_clear()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--examples", default=str(ROOT / "examples"))
    ap.add_argument("--only", nargs="*", default=None, help="example folder names")
    ap.add_argument("--scales", nargs="*", type=int, default=[1, 16, 256])
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds per compile and per kernel run")
    ap.add_argument("--repeat", type=int, default=1, help="timed runs per row; each column keeps its minimum")
    ap.add_argument("--json", metavar="OUT", help="also write the rows as JSON")
    args = ap.parse_args(argv)

    cache = tempfile.mkdtemp(prefix="ascendc-bench-cache-")
    os.environ["XDG_CACHE_HOME"] = cache
    sys.path.insert(0, str(ROOT / "server"))
    import yaml

    from ascendc_lsp.toolchain.base import RunOptions
    from ascendc_lsp.toolchain.emulator import build, data

    try:  # absent in checkouts older than the data cache (the bench also measures those, for before/after)
        from ascendc_lsp.toolchain.emulator import datacache
    except ImportError:
        datacache = None
    from ascendc_lsp.toolchain.emulator.runner import EmulatorToolchain
    from ascendc_lsp.toolchain.spec import SpecError, spec_from_dict

    cxx = build.find_cxx()
    if cxx is None:
        print("g++ not found", file=sys.stderr)
        return 2
    t = time.monotonic()
    pch = build.ensure_pch(cxx, 120.0)
    pch_s = time.monotonic() - t
    print(f"precompiled header: {'built' if pch else 'FAILED'} in {pch_s:.2f} s; cache {cache}", flush=True)

    spec_files = sorted(Path(args.examples).glob("*/spec.yaml"))
    if args.only:
        spec_files = [s for s in spec_files if s.parent.name in args.only]
    tc = EmulatorToolchain()
    rows: list[dict[str, Any]] = []
    cli = [sys.executable, "-m", "ascendc_lsp", "run"]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "server")}
    opts = RunOptions(timeout=args.timeout)
    for sp in spec_files:
        name = sp.parent.name
        recipe = RECIPES.get(name, {"fixed": True})
        raw = yaml.safe_load(sp.read_text(encoding="utf-8"))
        for scale in args.scales:
            if scale != 1 and recipe.get("fixed"):
                continue
            label = f"{name} x{scale}"
            try:
                spec = spec_from_dict(scaled_spec_data(raw, recipe, scale), base_dir=sp.parent, origin=label)
            except SpecError as exc:
                print(f"{label}: {exc}", file=sys.stderr)
                continue
            first = tc.run(spec, opts)  # compiles this scale's harness
            if not first.compiled:
                rows.append({"example": name, "scale": scale, "status": f"compile failed ({first.category})"})
                continue
            inputs = data.generate_inputs(spec)
            key = datacache.spec_key(spec) if datacache is not None else None
            if key is not None and datacache is not None:
                shutil.rmtree(datacache.store_root() / key, ignore_errors=True)
            t = time.monotonic()
            tc.run(spec, opts)
            data_s = time.monotonic() - t
            numpy_s = numpy_cpu = kernel_s = whole_s = float("inf")
            for _ in range(max(1, args.repeat)):
                t, c = time.monotonic(), time.process_time()
                data.evaluate_reference(spec, inputs)
                numpy_s = min(numpy_s, time.monotonic() - t)
                numpy_cpu = min(numpy_cpu, time.process_time() - c)
                t = time.monotonic()
                res = tc.run(spec, opts)
                whole_s = min(whole_s, time.monotonic() - t)
                kernel_s = min(kernel_s, res.run_seconds)
            kernel_cpu, whole_cpu = _cpu_run(tc, spec, opts)
            cli_s = None
            if scale == 1:
                t = time.monotonic()
                subprocess.run([*cli, str(sp)], capture_output=True, env=env, check=False)
                cli_s = time.monotonic() - t
            row = {
                "example": name,
                "scale": scale,
                "elements": sum(o.size for o in spec.outputs),
                "status": "ok" if res.correct else f"FAIL ({res.category})",
                "numpy_ms": round(numpy_s * 1000, 2),
                "kernel_s": round(kernel_s, 3),
                "run_s": round(whole_s, 3),
                "data_s": round(data_s, 3),
                "run_per_kernel": round(whole_s / max(kernel_s, 1e-9), 2),
                "kernel_per_numpy": round(kernel_s / max(numpy_s, 1e-9), 2),
                "numpy_cpu_ms": round(numpy_cpu * 1000, 2),
                "kernel_cpu_s": round(kernel_cpu, 3),
                "run_cpu_s": round(whole_cpu, 3),
                "events": getattr(res.estimate, "events", None),
                "estimate_us": None if res.estimate is None else round(res.estimate.microseconds, 2),
                "cold_s": round(first.compile_seconds, 2),
                "cli_s": None if cli_s is None else round(cli_s, 2),
            }
            rows.append(row)
            print(json.dumps(row), file=sys.stderr, flush=True)
    head = (
        f"{'example':<18} {'scale':>5} {'elements':>10} {'status':<8} {'numpy ms':>9} {'kernel s':>9} {'run s':>7} "
        f"{'run/kern':>8} {'kern/np':>8} {'data s':>7} {'cpu np ms':>9} {'kern s':>7} {'run s':>7} {'events':>9} "
        f"{'est us':>10} {'cold s':>6} {'cli s':>6}"
    )
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print(head)
    print("-" * len(head))
    for r in rows:
        if "kernel_s" not in r:
            print(f"{r['example']:<18} {r['scale']:>5} {'':>10} {r['status']}")
            continue
        ev = "-" if r["events"] is None else f"{r['events']:,}"
        est = "-" if r["estimate_us"] is None else f"{r['estimate_us']:,.1f}"
        cli_col = "" if r["cli_s"] is None else f"{r['cli_s']:.2f}"
        print(
            f"{r['example']:<18} {r['scale']:>5} {r['elements']:>10,} {r['status']:<8} {r['numpy_ms']:>9.1f} "
            f"{r['kernel_s']:>9.3f} {r['run_s']:>7.3f} {r['run_per_kernel']:>8.2f} {r['kernel_per_numpy']:>8.2f} "
            f"{r['data_s']:>7.3f} {r['numpy_cpu_ms']:>9.1f} {r['kernel_cpu_s']:>7.3f} {r['run_cpu_s']:>7.3f} "
            f"{ev:>9} {est:>10} {r['cold_s']:>6.2f} {cli_col:>6}"
        )
    failed = [
        f"{r['example']} x256 (run/kern {r['run_per_kernel']}, kern/np {r['kernel_per_numpy']})"
        for r in rows
        if r["example"] in TARGETS
        and r["scale"] == 256
        and "kernel_s" in r
        and (r["run_per_kernel"] > 2 or r["kernel_per_numpy"] > 5)
    ]
    if any(r["scale"] == 256 and r["example"] in TARGETS for r in rows):
        print(
            "targets at 256x (run/kern <= 2, kern/np <= 5): "
            + ("MISSED: " + "; ".join(failed) if failed else "met")
        )
    if args.json:
        Path(args.json).write_text(json.dumps({"pch_s": pch_s, "rows": rows}, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
