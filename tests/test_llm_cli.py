"""`ascendc-lsp generate` end to end (a real subprocess) against the FAKE OpenAI server."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fake_openai import FakeOpenAIServer, FakeReply, fenced
from tests.test_llm_loop import COMPUTE_LIBM, queue_kernel, write_spec

KEY = "sk-cli-test-key-77777"


def _run(args: list[str], env_extra: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
    env.update(env_extra)
    return subprocess.run([sys.executable, "-m", "ascendc_lsp", "generate", *args], capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=300)


def test_without_endpoint_says_how_to_configure(tmp_path: Path) -> None:
    spec = write_spec(tmp_path)
    r = _run([str(spec)], {}, tmp_path)
    assert r.returncode == 2 and "No LLM endpoint is configured" in r.stderr and "ascendc.llm.baseUrl" in r.stderr
    assert "Traceback" not in r.stderr


def test_bad_usage_exits_2(tmp_path: Path) -> None:
    env = {"OPENAI_BASE_URL": "http://127.0.0.1:9/v1", "OPENAI_MODEL": "m"}
    r = _run([str(tmp_path / "missing.yaml")], env, tmp_path)
    assert r.returncode == 2 and "no such file" in r.stderr
    r = _run([str(write_spec(tmp_path)), "--max-iterations", "0"], env, tmp_path)
    assert r.returncode == 2 and "--max-iterations" in r.stderr


def test_refused_endpoint_exits_2_without_traceback(tmp_path: Path) -> None:
    spec = write_spec(tmp_path)
    with FakeOpenAIServer(default=FakeReply(status=401, error="invalid key")) as fake:
        r = _run([str(spec)], {"OPENAI_BASE_URL": fake.base_url, "OPENAI_MODEL": "fake-model",
                               "OPENAI_API_KEY": KEY}, tmp_path)
    assert r.returncode == 2 and "refused the API key" in r.stderr and "Traceback" not in r.stderr
    assert KEY not in r.stderr


@pytest.mark.slow
def test_generate_writes_correct_kernel_after_feedback(tmp_path: Path) -> None:
    spec = write_spec(tmp_path / "proj")
    (tmp_path / "proj" / ".git").mkdir()
    out = tmp_path / "proj" / "out" / "vexp.cpp"
    out.parent.mkdir()
    replies = [fenced(queue_kernel(compute=COMPUTE_LIBM)), fenced(queue_kernel()), "No libm on AI Core.\nTITLE: t"]
    with FakeOpenAIServer(replies) as fake:
        r = _run([str(spec), "--out", str(out), "--max-iterations", "3"],
                 {"OPENAI_BASE_URL": fake.base_url, "OPENAI_MODEL": "fake-model", "OPENAI_API_KEY": KEY}, tmp_path)
    assert r.returncode == 0, r.stderr
    assert "[1/3] attempt 1 (draft): failed at static [libm-in-kernel]" in r.stderr
    assert "[2/3] attempt 2 (repair): CORRECT" in r.stderr and f"wrote {out}" in r.stderr
    assert "AscendC::Exp(" in out.read_text()
    trajectories = list((tmp_path / "proj" / ".ascendc" / "trajectories").glob("*.jsonl"))
    assert len(trajectories) == 1 and KEY not in trajectories[0].read_text()


@pytest.mark.slow
def test_generate_exit_1_when_no_correct_kernel(tmp_path: Path) -> None:
    spec = write_spec(tmp_path)
    with FakeOpenAIServer(default=FakeReply(fenced(queue_kernel(compute=COMPUTE_LIBM)))) as fake:
        r = _run([str(spec), "--max-iterations", "2", "--no-knowledge"],
                 {"OPENAI_BASE_URL": fake.base_url, "OPENAI_MODEL": "fake-model"}, tmp_path)
    assert r.returncode == 1 and "no correct kernel in 2 attempt(s)" in r.stderr and "best attempt saved at" in r.stderr
    assert not (tmp_path / "vexp.cpp").exists()


def test_bench_without_endpoint_skips_cleanly(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ASCENDC_LSP_BENCH_", "OPENAI_"))}
    r = subprocess.run([sys.executable, str(Path(__file__).parent.parent / "bench" / "generate.py")],
                       capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0 and "no endpoint configured" in r.stdout


@pytest.mark.slow
def test_bench_runs_both_arms_against_the_fake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util
    import json

    spec = importlib.util.spec_from_file_location("bench_generate", Path(__file__).parent.parent / "bench" / "generate.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    good = fenced(queue_kernel(name="exp_f32", total=8192))
    bad = fenced(queue_kernel(name="exp_f32", total=8192, compute=COMPUTE_LIBM))
    with FakeOpenAIServer([bad, good, bad, good]) as fake:  # learn=False in the bench: no rationale requests
        monkeypatch.setenv("ASCENDC_LSP_BENCH_BASE_URL", fake.base_url)
        monkeypatch.setenv("ASCENDC_LSP_BENCH_MODEL", "fake-model")
        out = tmp_path / "bench.json"
        assert bench.main(["--only", "1_exp_f32", "--refine", "0", "--json", str(out), "--keep",
                           str(tmp_path / "ws")]) == 0
    data = json.loads(out.read_text())
    assert [r["arm"] for r in data["rows"]] == ["knowledge", "none"]
    assert all(r["correct"] and r["iterations"] == 2 for r in data["rows"]), data["rows"]
    assert data["summary"]["knowledge/all"]["correct_rate"] == 1.0
