"""How many public kernel files clangd reads without an error, with no configuration and with ours.

"Ours" is what "AscendC: Configure clangd" writes when no CANN toolkit is installed: the emulator headers in IDE
mode (lsp/features/clangd.py emulator_flags), plus, for a kernel of an op project, the header the real op build
generates (DTYPE_<X> macros, tiling structs at global scope) force-included. `.asc` files are C++ (-xc++).

The sample is drawn (seeded) from the kernel files that compile against the emulator headers, read from a JSONL of
the fidelity prototype (one {"file", "ok"} per line, paths relative to the public trees); without one, from every
public kernel file. Each file is checked with `clangd --check` over a compile_commands.json in a temp dir (the
public trees stay read-only). Prints a table: files, with no error, share, and the most frequent first errors.

    python bench/clangd_fidelity.py [--sample 40] [--seed 1] [--compiles /tmp/fid/result.jsonl] [--mode both]
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ascendc_lsp.lsp.features.clangd import emulator_flags, op_kernel_flags

ERROR_LINE = re.compile(r"^E\[[^\]]*\] \[([^\]]*)\] Line (\d+): (.*)$")
CHECK_DONE = re.compile(r"All checks completed, (\d+) errors")


def public_root() -> Path:
    from ascendc_lsp.toolchain.opproject.discovery import public_trees_dir

    return public_trees_dir()


def kernel_files(root: Path) -> list[str]:
    out = []
    for p in sorted(root.rglob("*")):
        if p.suffix not in (".cpp", ".asc", ".cc") or not p.is_file():
            continue
        rel = str(p.relative_to(root))
        if rel.startswith(("cannmirror+asc-devkit/include/", "cannmirror+asc-devkit/impl/")):
            continue
        text = p.read_bytes()
        if b"__global__" in text and b"__aicore__" in text:
            out.append(rel)
    return out


def flags_for(path: Path, mode: str, soc: str) -> tuple[list[str], str]:
    if mode == "none":
        return ["-std=c++17"], ""
    flags = list(emulator_flags(soc))
    note = ""
    if "op_kernel" in path.parts:
        extra, note = op_kernel_flags(path)
        flags += extra
    if path.suffix == ".asc":
        flags.insert(0, "-xc++")
    return flags, note


def check(clangd: str, path: Path, flags: list[str], timeout: float) -> tuple[int, list[tuple[str, int, str]]]:
    with tempfile.TemporaryDirectory(prefix="clangd-fid-") as tmp:
        entry = {"directory": str(path.parent), "file": str(path), "arguments": ["clang++", *flags, "-c", str(path)]}
        (Path(tmp) / "compile_commands.json").write_text(json.dumps([entry]), encoding="utf-8")
        try:
            proc = subprocess.run(
                [clangd, f"--check={path}", f"--compile-commands-dir={tmp}", "--check-locations=0",
                 "--enable-config=0"],
                capture_output=True, text=True, timeout=timeout,
            )  # fmt: skip
        except subprocess.TimeoutExpired:
            return -1, [("timeout", 0, f"clangd did not finish in {timeout:g} s")]
    errors = [(m[1], int(m[2]), m[3]) for m in map(ERROR_LINE.match, proc.stderr.splitlines()) if m]
    done = CHECK_DONE.search(proc.stderr)
    count = int(done.group(1)) if done else max(len(errors), 1)
    return count, errors


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sample", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--compiles", default="/tmp/fid/result.jsonl", help="JSONL of files that compile on the emulator")
    ap.add_argument("--root", default="", help="public trees (default: the corpus cache)")
    ap.add_argument("--mode", choices=("none", "ours", "both"), default="both")
    ap.add_argument("--soc", default="Ascend910B")
    ap.add_argument("--clangd", default=shutil.which("clangd-19") or shutil.which("clangd") or "clangd")
    ap.add_argument("--timeout", type=float, default=120.0)
    ap.add_argument("--show", type=int, default=12, help="first errors listed")
    args = ap.parse_args()

    root = Path(args.root) if args.root else public_root()
    if not root.is_dir():
        print(f"error: no public trees at {root} (run bench/corpus.py)", file=sys.stderr)
        return 2
    compiles = Path(args.compiles)
    if compiles.is_file():
        rows = [json.loads(line) for line in compiles.read_text(encoding="utf-8").splitlines() if line.strip()]
        pool = sorted(r["file"] for r in rows if r.get("ok"))
        origin = f"{len(pool)} files that compile on the emulator ({compiles})"
    else:
        pool = kernel_files(root)
        origin = f"{len(pool)} public kernel files (no {compiles}: not filtered by emulator compile)"
    pool = [f for f in pool if (root / f).is_file()]
    sample = sorted(random.Random(args.seed).sample(pool, min(args.sample, len(pool))))
    modes = ("none", "ours") if args.mode == "both" else (args.mode,)
    print(f"clangd fidelity: {len(sample)} of {origin}; clangd {args.clangd}; seed {args.seed}")
    summary = {}
    for mode in modes:
        clean = 0
        firsts: collections.Counter[str] = collections.Counter()
        t0 = time.monotonic()
        for rel in sample:
            path = root / rel
            flags, note = flags_for(path, mode, args.soc)
            count, errors = check(args.clangd, path, flags, args.timeout)
            if count == 0:
                clean += 1
            else:
                code, line, message = errors[0] if errors else ("?", 0, "errors without a message")
                shape = re.sub(r"'[^']*'", "'_'", message)[:90]
                firsts[f"[{code}] {shape}"] += 1
                print(f"  {mode:4} {count:3} error(s) {rel}:{line}: {message[:110]}" + (f" ({note})" if note else ""))
        summary[mode] = (clean, time.monotonic() - t0, firsts)
    print()
    print(f"{'configuration':<14} {'files':>5} {'no error':>8} {'share':>6} {'seconds':>8}")
    for mode, (clean, seconds, _) in summary.items():
        print(f"{mode:<14} {len(sample):>5} {clean:>8} {100 * clean / max(1, len(sample)):>5.0f}% {seconds:>8.0f}")
    for mode, (_, _, firsts) in summary.items():
        if firsts:
            print(f"\nfirst errors ({mode}):")
            for message, n in firsts.most_common(args.show):
                print(f"  {n:3}  {message}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
