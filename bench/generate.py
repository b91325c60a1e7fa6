"""Benchmark of the checked LLM loop over bench/tasks/*.yaml, with and without knowledge retrieval (ablation).

    ASCENDC_LSP_BENCH_BASE_URL=http://localhost:8000/v1 ASCENDC_LSP_BENCH_MODEL=my-model \\
    ASCENDC_LSP_BENCH_API_KEY_ENV=MY_KEY_VAR .venv/bin/python bench/generate.py [--tasks DIR] [--only NAME ...]
        [--max-iterations 5] [--refine 1] [--arms knowledge,none] [--json OUT]

The key is read from the environment variable named by ASCENDC_LSP_BENCH_API_KEY_ENV (default
ASCENDC_LSP_BENCH_API_KEY, then OPENAI_API_KEY); it is never printed. Without an endpoint the benchmark says so and
exits 0 (so CI can run it unconditionally).

Per arm it reports: compile rate (tasks where some attempt compiled), correctness (tasks with a correct kernel),
mean iterations to the first correct kernel, and the mean speedup of the best kernel over the first correct draft
(the cost model's estimate, after the refinement rounds). Per level too (1 elementwise, 2 reduction/softmax,
3 matmul/fused). Trajectories go to a temporary workspace's .ascendc/ (kept with --keep).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TASKS = ROOT / "bench" / "tasks"


def endpoint_from_env(env: dict[str, str] | None = None) -> dict[str, str] | None:
    env = dict(os.environ) if env is None else env
    base_url = env.get("ASCENDC_LSP_BENCH_BASE_URL", "")
    model = env.get("ASCENDC_LSP_BENCH_MODEL", "")
    if not base_url or not model:
        return None
    key_env = env.get("ASCENDC_LSP_BENCH_API_KEY_ENV", "") or "ASCENDC_LSP_BENCH_API_KEY"
    if not env.get(key_env) and env.get("OPENAI_API_KEY"):
        key_env = "OPENAI_API_KEY"
    return {"base_url": base_url, "model": model, "api_key_env": key_env}


def _level(path: Path) -> str:
    return path.name.split("_", 1)[0] if path.name[:1].isdigit() else "?"


def run_task(spec_path: Path, arm: str, args: argparse.Namespace, endpoint: dict[str, str],
             workspace: Path) -> dict[str, Any]:
    from ascendc_lsp.llm.client import ChatClient, LlmError, resolve_config
    from ascendc_lsp.llm.generate import Services, generate_kernel
    from ascendc_lsp.llm.loop import LoopConfig, ToolchainEvaluator
    from ascendc_lsp.toolchain.spec import load_spec

    spec = load_spec(spec_path)
    config = resolve_config(None, base_url=endpoint["base_url"], model=endpoint["model"],
                            api_key_env=endpoint["api_key_env"], timeout=args.timeout)
    client = ChatClient(config)
    out_dir = workspace / arm / spec.kernel
    out_dir.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    row: dict[str, Any] = {"task": spec_path.stem, "level": _level(spec_path), "arm": arm}
    try:
        with tempfile.TemporaryDirectory(prefix="ascendc-bench-eval-") as tmp:
            evaluator = ToolchainEvaluator(Path(tmp), soc=spec.soc or "Ascend910B")
            outcome = generate_kernel(
                spec,
                Services(client=client, evaluator=evaluator),
                out=out_dir / f"{spec.kernel}.cpp",
                config=LoopConfig(max_iterations=args.max_iterations, refine=args.refine,
                                  use_knowledge=arm == "knowledge", learn=False),
                workspace=workspace,
            )
    except LlmError as exc:
        row.update(status="error", message=str(exc), seconds=round(time.monotonic() - started, 1))
        return row
    finally:
        client.close()
    result = outcome.result
    compiled = any(a.verdict.stage in ("run", "verify", "done") for a in result.attempts)
    row.update(
        status=result.status,
        compiled=compiled,
        correct=result.correct,
        iterations=result.iterations if result.first_correct else None,
        attempts=len(result.attempts),
        speedup=result.speedup,
        first_us=result.first_correct.verdict.microseconds if result.first_correct else None,
        best_us=result.best.verdict.microseconds if result.best and result.correct else None,
        stages=[a.verdict.stage for a in result.attempts],
        tokens=sum((a.prompt_tokens or 0) + (a.completion_tokens or 0) for a in result.attempts),
        seconds=round(time.monotonic() - started, 1),
        trajectory=str(result.trajectory) if result.trajectory else None,
    )
    return row


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(rows)
    if not n:
        return {"tasks": 0}
    iters = [r["iterations"] for r in rows if r.get("iterations")]
    speedups = [r["speedup"] for r in rows if r.get("speedup")]
    return {
        "tasks": n,
        "compile_rate": sum(1 for r in rows if r.get("compiled")) / n,
        "correct_rate": sum(1 for r in rows if r.get("correct")) / n,
        "mean_iterations": statistics.mean(iters) if iters else None,
        "mean_speedup": statistics.mean(speedups) if speedups else None,
        "errors": sum(1 for r in rows if r.get("status") == "error"),
    }


def _fmt(x: Any, pct: bool = False) -> str:
    if x is None:
        return "-"
    if pct:
        return f"{100 * x:.0f}%"
    return f"{x:.2f}" if isinstance(x, float) else str(x)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tasks", default=str(TASKS))
    ap.add_argument("--only", nargs="*", default=None, help="task names (file stems, e.g. 1_add_f16)")
    ap.add_argument("--max-iterations", type=int, default=5)
    ap.add_argument("--refine", type=int, default=1)
    ap.add_argument("--arms", default="knowledge,none", help="comma list: knowledge (retrieval on), none (ablation)")
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds per LLM reply")
    ap.add_argument("--json", metavar="OUT", help="also write every row and the summary as JSON")
    ap.add_argument("--keep", metavar="DIR", help="keep the workspace (kernels, trajectories) in DIR")
    args = ap.parse_args(argv)

    endpoint = endpoint_from_env()
    if endpoint is None:
        print("bench/generate.py: no endpoint configured; set ASCENDC_LSP_BENCH_BASE_URL and ASCENDC_LSP_BENCH_MODEL "
              "(and the key in ASCENDC_LSP_BENCH_API_KEY, or name its variable in ASCENDC_LSP_BENCH_API_KEY_ENV). "
              "Skipping.")
        return 0
    specs = sorted(Path(args.tasks).glob("*.yaml"))
    if args.only:
        specs = [p for p in specs if p.stem in set(args.only)]
    if not specs:
        print(f"bench/generate.py: no task specs under {args.tasks}", file=sys.stderr)
        return 2
    arms = [a.strip() for a in args.arms.split(",") if a.strip() in ("knowledge", "none")]
    workspace = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="ascendc-bench-gen-"))
    workspace.mkdir(parents=True, exist_ok=True)
    print(f"bench/generate.py: {len(specs)} task(s) x arms {arms} with {endpoint['model']} at {endpoint['base_url']}; "
          f"up to {args.max_iterations} attempt(s) + {args.refine} refinement round(s); workspace {workspace}")
    rows: list[dict[str, Any]] = []
    for spec_path in specs:
        for arm in arms:
            row = run_task(spec_path, arm, args, endpoint, workspace)
            rows.append(row)
            print(f"  {row['task']:<28} {arm:<9} {row.get('status', '?'):<9} correct={row.get('correct')} "
                  f"iters={_fmt(row.get('iterations'))} speedup={_fmt(row.get('speedup'))} "
                  f"stages={','.join(row.get('stages') or [])} {row.get('seconds')} s", flush=True)
            if row.get("status") == "error" and not rows[:-1]:
                print(f"bench/generate.py: the endpoint failed on the first task: {row.get('message')}",
                      file=sys.stderr)
    summary: dict[str, Any] = {}
    print("\narm        level  tasks  compile  correct  mean iters  mean speedup")
    for arm in arms:
        for level in ("all", "1", "2", "3"):
            subset = [r for r in rows if r["arm"] == arm and (level == "all" or r["level"] == level)]
            s = summarise(subset)
            summary[f"{arm}/{level}"] = s
            if s["tasks"]:
                print(f"{arm:<10} {level:<6} {s['tasks']:>5}  {_fmt(s['compile_rate'], True):>7}  "
                      f"{_fmt(s['correct_rate'], True):>7}  {_fmt(s['mean_iterations']):>10}  "
                      f"{_fmt(s['mean_speedup']):>12}")
    if args.json:
        Path(args.json).write_text(json.dumps({"endpoint": {"model": endpoint["model"],
                                                            "base_url": endpoint["base_url"]},
                                               "rows": rows, "summary": summary}, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
