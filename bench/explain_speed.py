"""Speed of `explain`: the command line (a fresh process each time) and a warm in-process query.

    python bench/explain_speed.py [--runs 7] [--log FILE]

Reports the median wall time and CPU time (user + sys of the child) of `ascendc-lsp explain LOG` after one
warm-up run (which fills the compiled-knowledge cache), the same with `--format json`, the time of the Python
start-up alone for reference, and the p50/p95 of a warm `Retriever.answer` (the language server's path). CPU time
is reported because wall time on a shared machine mostly measures the other processes.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOG = """EZ9999: Inner Error!
EZ9999[PID: 2201] The error from device(chipId:0, dieId:0), serial number is 3, there is an aivec error exception, core id is 12, error code = 0x800000, dump info: pc start: 0x124400000000, current: 0x1244000002c0
[ERROR] aclrtSynchronizeStream(stream) failed: 507035
"""


def timed(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, env=env, capture_output=True, check=False, timeout=120)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def measure(cmd: list[str], env: dict[str, str], runs: int) -> tuple[float, float]:
    timed(cmd, env)  # warm-up: fills the compiled-knowledge cache
    walls, cpus = zip(*(timed(cmd, env) for _ in range(runs)), strict=True)
    return statistics.median(walls), statistics.median(cpus)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--log", type=Path)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="ascendc-bench-speed-") as tmp:
        # As installed: byte-compiled modules are written once and reused (some shells set PYTHONDONTWRITEBYTECODE).
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["XDG_CACHE_HOME"] = tmp
        log_path = args.log or Path(tmp) / "npu.log"
        if args.log is None:
            log_path.write_text(LOG, encoding="utf-8")
        exe = [sys.executable, "-m", "ascendc_lsp", "explain", str(log_path)]
        rows = [
            ("python -c pass", measure([sys.executable, "-c", "pass"], env, args.runs)),
            ("explain LOG", measure(exe, env, args.runs)),
            ("explain LOG --format json", measure([*exe, "--format", "json"], env, args.runs)),
        ]
        os.environ["XDG_CACHE_HOME"] = tmp
        sys.path.insert(0, str(ROOT / "server"))
        from ascendc_lsp.knowledge.retrieval import Retriever
        from ascendc_lsp.settings import Settings

        r = Retriever.default(Settings())
        r.answer(LOG)
        times = []
        for _ in range(50):
            t0 = time.perf_counter()
            r.answer(LOG)
            times.append((time.perf_counter() - t0) * 1000)
        times.sort()
    print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print("| command | wall (s, median) | CPU (s, median) |")
    print("|---|---|---|")
    for name, (wall, cpu) in rows:
        print(f"| {name} | {wall:.3f} | {cpu:.3f} |")
    print(f"\nwarm in-process answer ({len(r.entries)} entries): p50 {statistics.median(times):.1f} ms, "
          f"p95 {times[int(0.95 * (len(times) - 1))]:.1f} ms")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
