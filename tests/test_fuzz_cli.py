"""The CLI fuzz bench (bench/fuzz.py, issue 16): its inputs are a function of the seed, its `run` inputs reach the
build (they carry their kernel), a short run through two workers finds nothing, and the caches a long-lived process
fills from its inputs stay within their bounds. The 10,000-input run and its RSS slope are the bench's, not CI's."""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import fuzz
from ascendc_lsp import cli
from ascendc_lsp.checks import engine
from ascendc_lsp.syntax import dialect
from ascendc_lsp.syntax.document import SourceDocument
from ascendc_lsp.toolchain.spec import load_spec

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _cases(seed: int, count: int) -> list[fuzz.Case]:
    sources = fuzz._examples(".cpp")
    specs = fuzz.spec_examples()
    entries = [p.read_text(encoding="utf-8") for p in sorted((fuzz.ROOT / "knowledge" / "entries").glob("*.yaml"))[:5]]
    return [fuzz.make_case(i, fuzz.case_rng(seed, i), sources, specs, entries, fresh_share=0.1) for i in range(count)]


def test_the_inputs_are_a_function_of_the_seed() -> None:
    first, again, other = _cases(7, 60), _cases(7, 60), _cases(8, 60)
    assert [(c.name, c.files, c.fresh) for c in first] == [(c.name, c.files, c.fresh) for c in again]
    assert [c.files for c in first] != [c.files for c in other]
    assert {c.kind for c in first} == {"check", "run", "validate", "import", "explain"}


def test_every_shipped_spec_carries_the_kernel_it_names(tmp_path: Path) -> None:
    """Before, a run input was the spec alone, so every one stopped at "kernel source not found"."""
    examples = fuzz.spec_examples()
    assert len(examples) >= 8
    for number, example in enumerate(examples):
        assert example.source is not None and example.source in example.files
        case = fuzz.Case("run", f"{number}-run", {**example.files, "spec.yaml": example.spec}, [])
        spec = load_spec(fuzz.write_case(case, tmp_path) / "spec.yaml")
        assert spec.source is not None and spec.source.is_file()


def test_a_short_run_through_two_workers_finds_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    args = argparse.Namespace(inputs=40, seed=11, jobs=2, passes=1, hang=120.0, subprocess_share=0.05, json=None)
    result = fuzz.run_cli_section(args)
    assert result["inputs"] == result["runs"] == 40 and sum(result["verdicts"].values()) == 40
    assert result["verdicts"] == {"ok": 40}, result["samples"]
    assert sum(sum(codes.values()) for codes in result["exit_codes"].values()) == 40
    assert [life["worker"] for life in result["workers"]] == [0, 1]
    assert sum(life["inputs"] for life in result["workers"]) <= 40
    assert result["flat"].startswith("undecided: one pass")  # no warm-up pass, no verdict
    assert result["rss_steps"] and all(step["kib"] > 0 for step in result["rss_steps"])


def test_validate_inputs_are_named_after_their_id() -> None:
    """Before, every `kb validate` input stopped at "id must equal the file name"."""
    validate = [c for c in _cases(3, 200) if c.kind == "validate"]
    named = [c for c in validate if next(iter(c.files)) != "entry.yaml"]
    assert len(named) > len(validate) // 2
    for case in named:
        (name, text), = case.files.items()
        assert f"id: {name.removesuffix('.yaml')}" in text and case.argv[-1] == f"{{dir}}/{name}"


@pytest.mark.parametrize(
    ("peaks", "slope", "points", "passes", "verdict"),
    [
        ([80_000, 81_000], 50.0, 5000, 2, "flat"),  # a high-water mark set in the warm-up, not raised again
        ([80_000, 80_500, 81_900], 0.0, 10, 3, "flat"),  # a slope over 10 inputs is noise: not judged
        ([80_000, 83_000], 0.0, 5000, 2, "not flat: peak"),  # raised again after the warm-up
        ([80_000, 80_000], 300.0, 5000, 2, "not flat: slope"),  # grows steadily within the peak margin
        ([80_000], 0.0, 0, 2, "undecided: the worker was restarted"),
        ([80_000], 0.0, 0, 1, "undecided: one pass"),
    ],
)
def test_the_flat_verdict_follows_its_stated_thresholds(
    peaks: list[int], slope: float, points: int, passes: int, verdict: str
) -> None:
    assert fuzz.flat_verdict(peaks, slope, points, passes).startswith(verdict)


def test_a_leaking_worker_is_not_flat() -> None:
    """The verdict can fail: a worker that keeps 512 KiB per input grows by 6 MiB again in the second pass."""
    args = argparse.Namespace(inputs=12, seed=22, jobs=1, passes=2, hang=120.0, subprocess_share=0.0, json=None,
                              inject_leak=512)  # fmt: skip
    result = fuzz.run_cli_section(args)
    assert result["runs"] == 24 and result["verdicts"] == {"ok": 24}, result["samples"]
    (worker,) = result["workers"]
    assert len(worker["pass_peaks_kib"]) == 2
    assert worker["pass_peaks_kib"][1] - worker["pass_peaks_kib"][0] >= 12 * 512 * 0.9
    assert result["flat"].startswith("not flat: peak"), result["flat"]


def _caches() -> dict[str, tuple[int, int | None]]:
    """(current size, bound) of every functools cache of the package's loaded modules."""
    out: dict[str, tuple[int, int | None]] = {}
    for name, module in list(sys.modules.items()):
        if not name.startswith("ascendc_lsp"):
            continue
        for attr, value in list(vars(module).items()):
            info: Callable[[], object] | None = getattr(value, "cache_info", None)
            if callable(info) and getattr(value, "__module__", None) == name:
                stats = info()
                out[f"{name}.{attr}"] = (stats.currsize, stats.maxsize)  # type: ignore[attr-defined]
    return out


def test_statement_macro_patterns_stay_within_their_bound() -> None:
    """Each distinct set of statement-like macro names compiled a pattern kept forever (300 documents: 300)."""
    dialect._statement_macro_use.cache_clear()
    for i in range(dialect.STATEMENT_MACRO_PATTERNS * 3):
        text = f"#define STMT_{i}(x) foo(x);\nvoid f() {{\n  STMT_{i}(1)\n}}\n"
        findings = engine.check_document(SourceDocument(text), engine.CheckOptions(use_project=False))
        assert not [f for f in findings if f.code == "syntax"], text  # the macro use is still understood
    assert dialect._statement_macro_use.cache_info().currsize == dialect.STATEMENT_MACRO_PATTERNS


def test_repeating_the_same_inputs_grows_no_cache(tmp_path: Path) -> None:
    """What a long-lived process keeps from its inputs is bounded: a second pass over the same inputs adds nothing
    to any cache (a cache keyed by something new per call, such as an object id or a fresh path, would)."""
    files = []
    for path in sorted(EXAMPLES.glob("*/*.cpp"))[:6]:
        target = tmp_path / path.name
        target.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
        files.append(["check", str(target)])
    log = tmp_path / "build.log"
    log.write_text("error: 'DataCopy' was not declared in this scope\n", encoding="utf-8")
    entry = next(iter(sorted((fuzz.ROOT / "knowledge" / "entries").glob("*.yaml"))))
    argvs = [*files, ["explain", str(log), "--no-run"], ["kb", "validate", str(entry)]]

    def one_pass() -> None:
        for argv in argvs:
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                assert cli.main(argv) in (0, 1), argv

    one_pass()
    after_first = _caches()
    for _ in range(3):
        one_pass()
    after_more = _caches()
    before = {name: size for name, (size, _) in after_first.items()}
    grown = {name: (before.get(name, 0), size) for name, (size, _) in after_more.items() if size > before.get(name, 0)}
    assert not grown, grown
    assert all(size <= bound for size, bound in after_more.values() if bound is not None)
