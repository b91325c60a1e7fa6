"""Fuzz bench: hostile and mutated inputs through every entry point; reports crashes, hangs, tracebacks and the
RSS slope of a long-lived process.

    python bench/fuzz.py [--inputs 10000] [--seed 16] [--section cli] [--hang 60] [--subprocess-share 0.02]

Section `cli` (this file's): kernel sources for `check`, specs for `run`, knowledge entries for `kb validate`,
failure records for `kb import`, logs for `explain`, made by seeded mutation of the shipped examples plus
pathological shapes (deep nesting of every kind, 80,000-term expressions, YAML aliases, NUL bytes, invalid UTF-8,
huge numbers, NaN, endless lines). Each input goes through `cli.main` in one worker process that lives for the
whole run (so its RSS slope shows leaks); a small share also goes through a fresh `ascendc-lsp` process (so exit
codes and stderr are judged end to end). The language-server section (documents and protocol messages over
stdio) is bench/fuzz_lsp.py.

Verdicts per input: ok (exit 0, 1 or 2 with at most a short stderr), crash (exit 70, an internal error; or the
worker died), traceback (a Python traceback printed), hang (no answer within --hang seconds: the worker is killed
and restarted). Done when crashes, hangs and tracebacks are 0 and the RSS slope is flat.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import multiprocessing as mp
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
EXIT_INTERNAL = 70

# ----------------------------------------------------------------------------------------------- generators

_CPP_TOKENS = [
    "{", "}", "(", ")", "[", "]", ";", "<", ">", "<<<", ">>>", "#if 1\n", "#endif\n", "#define X(", "template<",
    "AscendC::", "DataCopy(", "LocalTensor<half>", "pipe.InitBuffer(", "__aicore__", "__global__", "GM_ADDR",
    "if (", "else", "for (;;)", "while (1)", "return", "\"", "'", "/*", "*/", "//", "\\\n", "0x", "1e308", "\x00",
    "\ud800", "\udcff", "é", "𝔸", "\t", "\r\n", "+", "++", "->", "::",
]


def _pathological_source(rng: random.Random) -> str:
    n = rng.choice([10, 400, 3000]) if rng.random() < 0.9 else 20000
    kind = rng.randrange(9)
    head = '#include "kernel_operator.h"\nextern "C" __global__ __aicore__ void k(GM_ADDR x) {\n int a = 0;\n'
    if kind == 0:
        return head + "if (a) {\n" * n + "a++;\n" + "}\n" * n + "}\n"
    if kind == 1:
        return head + " int b = " + " + ".join(["a"] * min(n * 4, 80000)) + ";\n}\n"
    if kind == 2:
        return '#include "kernel_operator.h"\n' + "#if 1\n" * n + "int x;\n" + "#endif\n" * n
    if kind == 3:
        return head + "(" * n + "a" + ")" * n + ";\n}\n"
    if kind == 4:
        return head + "{" * n + "}" * n + "}\n"
    if kind == 5:
        return head + " int s = a" + "[a" * min(n, 5000) + "]" * min(n, 5000) + ";\n}\n"
    if kind == 6:
        return "x" * (n * 100)  # one endless line
    if kind == 7:
        return head + "/*" + "*" * n + "\n" + "}\n"  # unterminated comment
    return "template<" * n + "int" + ">" * n


def _mutate_text(text: str, rng: random.Random) -> str:
    data = list(text)
    for _ in range(rng.randint(1, 12)):
        if not data:
            data = list(rng.choice(_CPP_TOKENS))
        op = rng.randrange(5)
        i = rng.randrange(len(data) + 1)
        if op == 0:
            del data[i : i + rng.randint(1, 200)]
        elif op == 1:
            data[i:i] = list(rng.choice(_CPP_TOKENS) * rng.randint(1, 50))
        elif op == 2 and data:
            j = rng.randrange(len(data))
            data[i:i] = data[j : j + rng.randint(1, 2000)]
        elif op == 3:
            data[i:i] = [chr(rng.randrange(0, 0x250)) for _ in range(rng.randint(1, 30))]
        else:
            data = data[:i]
    return "".join(data)


def _examples(suffix: str) -> list[str]:
    return [p.read_text(encoding="utf-8") for p in sorted(EXAMPLES.rglob(f"*{suffix}"))]


_YAML_VALUES = ["nan", "-1", "0", "1e400", "[]", "{}", "~", "'x'", "[1000000000]", "[0]", "[-5]", "99999999999999999999",
                "!!python/object:os.system 'id'", "*undefined", "&a [1]", "|\n  raise SystemExit(0)\n",
                "|\n  import os\n  os._exit(0)\n", "|\n  while True: pass\n", '"\\ud800"', "[" * 500]


def _billion_laughs(levels: int) -> str:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, levels):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]")
    lines.append(f"kernel: k\nblock_dim: 1\ninputs: *a{levels - 1}\noutputs: *a{levels - 1}\nreference: y = x")
    return "\n".join(lines) + "\n"


def _mutate_yaml(text: str, rng: random.Random) -> str:
    lines = text.splitlines()
    kind = rng.randrange(6)
    if kind == 0 and lines:
        i = rng.randrange(len(lines))
        key = lines[i].split(":", 1)[0]
        lines[i] = f"{key}: {rng.choice(_YAML_VALUES)}"
    elif kind == 1:
        depth = rng.choice([50, 101, 1000, 30000])
        lines.append("x-deep: " + "[" * depth + "]" * depth)
    elif kind == 2:
        return _billion_laughs(rng.choice([3, 6, 9]))
    elif kind == 3:
        return _mutate_text(text, rng)
    elif kind == 4:
        return "".join(" " * i + f"k{i}:\n" for i in range(rng.choice([10, 150, 2000])))
    else:
        for _ in range(rng.randint(1, 4)):
            if lines:
                i = rng.randrange(len(lines))
                lines[i] = lines[i].replace(rng.choice(["8", "2048", "float16", "x", "value"]), rng.choice(_YAML_VALUES))
    return "\n".join(lines) + "\n"


def _record(rng: random.Random) -> str:
    kind = rng.randrange(6)
    if kind == 0:
        return "[" * rng.choice([50, 1000, 100000])
    if kind == 1:
        return json.dumps({"log": "error: " + "a" * rng.choice([10, 40_000, 1_000_000]), "before": "a", "after": "b"})
    if kind == 2:
        return json.dumps({"log": "error: " + "a/" * rng.choice([10, 20_000, 400_000]), "diff": "-a\n+b"})
    if kind == 3:
        return json.dumps({"log": rng.choice([None, 1, [], {}, "x"]), "before": rng.choice([None, 2, "x"]), "after": "y"})
    if kind == 4:
        return _mutate_text(json.dumps({"log": "error: bad thing", "before": "int a;", "after": "int b;"}), rng)
    return "\x00\xff" * rng.randint(1, 1000)


def _log(rng: random.Random) -> str:
    base = ("EZ9999: Inner Error!\nerror: 'DataCopy' was not declared in this scope\n"
            "[ERROR] aclrtSynchronizeStream failed: 507035\n")  # fmt: skip
    if rng.random() < 0.3:
        return "x" * rng.choice([10, 1_000_000]) + "\n"
    return _mutate_text(base * rng.randint(1, 50), rng)


@dataclass
class Case:
    kind: str  # check | run | validate | import | explain
    name: str
    files: dict[str, str]  # file name -> text (latin-1 round-trip keeps arbitrary bytes)
    argv: list[str]


def make_case(index: int, rng: random.Random, sources: list[str], specs: list[str], entries: list[str]) -> Case:
    roll = rng.random()
    if roll < 0.50:
        text = _pathological_source(rng) if rng.random() < 0.2 else _mutate_text(rng.choice(sources), rng)
        return Case("check", f"{index}-check", {"k.cpp": text}, ["check", "{dir}/k.cpp"])
    if roll < 0.55:
        spec = _mutate_yaml(rng.choice(specs), rng)
        return Case("run", f"{index}-run", {"spec.yaml": spec}, ["run", "{dir}/spec.yaml", "--timeout", "5"])
    if roll < 0.75:
        return Case("validate", f"{index}-validate", {"entry.yaml": _mutate_yaml(rng.choice(entries), rng)},
                    ["kb", "validate", "{dir}/entry.yaml"])  # fmt: skip
    if roll < 0.88:
        return Case("import", f"{index}-import", {"record.json": _record(rng)}, ["kb", "import", "{dir}/record.json"])
    return Case("explain", f"{index}-explain", {"build.log": _log(rng)}, ["explain", "{dir}/build.log", "--no-run"])


# ----------------------------------------------------------------------------------------------- the worker


def _rss_kb() -> int:
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def _worker(conn: Any, workdir: str) -> None:  # pragma: no cover - runs in the worker process
    os.environ["ASCENDC_LSP_DEBUG"] = "1"  # a traceback, if any, is printed so the bench can count it
    from ascendc_lsp import cli

    while True:
        msg = conn.recv()
        if msg is None:
            return
        argv: list[str] = msg
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = cli.main(argv)
            except SystemExit as exc:  # argparse
                code = exc.code if isinstance(exc.code, int) else 2
            except BaseException as exc:  # exactly what the bench counts
                import traceback

                traceback.print_exception(exc, file=err)
                code = EXIT_INTERNAL
        conn.send((code, err.getvalue()[-4000:], _rss_kb()))


@dataclass
class Tally:
    verdicts: Counter[str] = field(default_factory=Counter)
    by_kind: dict[str, Counter[str]] = field(default_factory=dict)
    samples: list[dict[str, Any]] = field(default_factory=list)
    rss: list[tuple[int, int]] = field(default_factory=list)  # (inputs done, worker RSS KiB) of one worker life
    seconds: dict[str, list[float]] = field(default_factory=dict)

    def add(self, case: Case, verdict: str, detail: str, seconds: float) -> None:
        self.verdicts[verdict] += 1
        self.by_kind.setdefault(case.kind, Counter())[verdict] += 1
        self.seconds.setdefault(case.kind, []).append(seconds)
        if verdict != "ok" and len(self.samples) < 40:
            self.samples.append({"case": case.name, "argv": case.argv, "verdict": verdict, "detail": detail[-600:]})


def judge(code: int, err: str) -> str:
    if "Traceback (most recent call last)" in err:
        return "traceback"
    if code == EXIT_INTERNAL or "internal error" in err:
        return "crash"
    if code in (0, 1, 2):
        return "ok"
    return "crash"


def write_case(case: Case, base: Path) -> Path:
    d = base / case.name
    d.mkdir(parents=True, exist_ok=True)
    for name, text in case.files.items():
        (d / name).write_bytes(text.encode("utf-8", "surrogatepass"))
    return d


def run_cli_section(args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    sources = _examples(".cpp")
    specs = _examples("spec.yaml")
    entries = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "knowledge" / "entries").glob("*.yaml"))[:50]]
    base = Path(tempfile.mkdtemp(prefix="ascendc-fuzz-"))
    print(f"  inputs and kept failures under {base}", file=sys.stderr)
    env_home = base / "home"
    env_home.mkdir()
    os.environ["XDG_CACHE_HOME"] = str(env_home / ".cache")  # kb import writes candidates: never the user's store
    os.environ["HOME"] = str(env_home)
    # the compile and PCH caches are shared with the user's on purpose: only what runs is fuzzed
    ctx = mp.get_context("spawn")
    tally = Tally()
    parent, child = ctx.Pipe()
    proc = _start_worker(ctx, child, base, parent)
    life_start = 0
    t_start = time.monotonic()
    for index in range(args.inputs):
        case = make_case(index, rng, sources, specs, entries)
        d = write_case(case, base / "cases")
        argv = [a.replace("{dir}", str(d)) for a in case.argv]
        if rng.random() < args.subprocess_share:
            t0 = time.monotonic()
            try:
                r = subprocess.run([sys.executable, "-m", "ascendc_lsp", *argv], capture_output=True, text=True,
                                   timeout=args.hang, check=False)  # fmt: skip
                verdict = judge(r.returncode, r.stderr) if r.returncode >= 0 else "crash"
                detail = f"exit {r.returncode}: {r.stderr}"
            except subprocess.TimeoutExpired:
                verdict, detail = "hang", f"no answer within {args.hang:g} s"
            tally.add(case, verdict, detail, time.monotonic() - t0)
        else:
            t0 = time.monotonic()
            parent.send(argv)
            if parent.poll(args.hang):
                try:
                    code, err, rss = parent.recv()
                    verdict, detail = judge(code, err), f"exit {code}: {err}"
                    tally.rss.append((index - life_start, rss))
                except EOFError:
                    verdict, detail = "crash", f"the worker died (exit {proc.exitcode})"
            else:
                verdict, detail = "hang", f"no answer within {args.hang:g} s"
            tally.add(case, verdict, detail, time.monotonic() - t0)
            if verdict == "hang" or not proc.is_alive():
                proc.kill()
                proc.join()
                parent, child = ctx.Pipe()
                proc = _start_worker(ctx, child, base, parent)
                life_start = index + 1
                tally.rss.clear()  # the slope is measured over the longest uninterrupted life
        if tally.samples and tally.samples[-1]["case"] == case.name:  # not ok: keep the input to reproduce it
            kept = base / "failures" / case.name
            shutil.copytree(d, kept, dirs_exist_ok=True)
            print(f"  {verdict}: {case.name} {' '.join(argv)} (kept in {kept}): {detail[-300:]!r}", file=sys.stderr)
        shutil.rmtree(d, ignore_errors=True)
        if (index + 1) % 500 == 0:
            print(f"  {index + 1} inputs, {dict(tally.verdicts)}, {time.monotonic() - t_start:.0f} s", file=sys.stderr)
            if args.json:  # a long run leaves its numbers so far behind it
                Path(args.json).write_text(json.dumps(_summary(args, tally, index + 1, t_start), indent=2))
    parent.send(None)
    proc.join(timeout=10)
    return _summary(args, tally, args.inputs, t_start)


def _start_worker(ctx: Any, child: Any, base: Path, parent: Any) -> Any:
    """A fresh worker, warmed up (imports done) before any input is timed against the hang limit."""
    proc = ctx.Process(target=_worker, args=(child, str(base)), daemon=True)
    proc.start()
    parent.send(["--version"])
    parent.recv()
    return proc


def _summary(args: argparse.Namespace, tally: Tally, done: int, t_start: float) -> dict[str, Any]:
    slope, first, last = _slope(tally.rss)
    return {
        "inputs": done,
        "seed": args.seed,
        "verdicts": dict(tally.verdicts),
        "by_kind": {k: dict(v) for k, v in tally.by_kind.items()},
        "median_seconds": {k: round(statistics.median(v), 3) for k, v in tally.seconds.items()},
        "max_seconds": {k: round(max(v), 2) for k, v in tally.seconds.items()},
        "rss_kib_first_last": [first, last],
        "rss_slope_kib_per_1000_inputs": slope,
        "samples": tally.samples,
        "seconds": round(time.monotonic() - t_start, 1),
    }


def _slope(points: list[tuple[int, int]]) -> tuple[float, int, int]:
    """Least-squares slope of RSS over the second half of the worker's life (the first half warms caches)."""
    if len(points) < 20:
        return 0.0, points[0][1] if points else 0, points[-1][1] if points else 0
    tail = points[len(points) // 2 :]
    xs = [x for x, _ in tail]
    ys = [y for _, y in tail]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    den = sum((x - mx) ** 2 for x in xs) or 1.0
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / den
    return round(slope * 1000, 1), points[0][1], points[-1][1]


SECTIONS = {"cli": run_cli_section}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--inputs", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--section", choices=sorted(SECTIONS), default="cli")
    parser.add_argument("--hang", type=float, default=60.0, help="seconds without an answer that count as a hang")
    parser.add_argument("--subprocess-share", type=float, default=0.02,
                        help="share of inputs also run through a fresh ascendc-lsp process")  # fmt: skip
    parser.add_argument("--json", metavar="OUT.json", help="also write the results as JSON")
    args = parser.parse_args()
    result = SECTIONS[args.section](args)
    print(f"fuzz section {args.section}: {result['inputs']} inputs (seed {result['seed']}) in {result['seconds']} s")
    print("| verdict | count |\n|---|---|")
    for verdict in ("ok", "crash", "traceback", "hang"):
        print(f"| {verdict} | {result['verdicts'].get(verdict, 0)} |")
    print("\n| input kind | ok | crash | traceback | hang | median s | max s |\n|---|---|---|---|---|---|---|")
    for kind, counts in sorted(result["by_kind"].items()):
        print(f"| {kind} | {counts.get('ok', 0)} | {counts.get('crash', 0)} | {counts.get('traceback', 0)} | "
              f"{counts.get('hang', 0)} | {result['median_seconds'][kind]} | {result['max_seconds'][kind]} |")  # fmt: skip
    first, last = result["rss_kib_first_last"]
    print(f"\nworker RSS: {first / 1024:.0f} MiB -> {last / 1024:.0f} MiB; slope over the second half "
          f"{result['rss_slope_kib_per_1000_inputs']} KiB per 1,000 inputs")
    for sample in result["samples"][:10]:
        print(f"  {sample['verdict']}: {sample['case']} {' '.join(sample['argv'])}: {sample['detail'][-300:]!r}")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2), encoding="utf-8")
    bad = sum(result["verdicts"].get(v, 0) for v in ("crash", "traceback", "hang"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
