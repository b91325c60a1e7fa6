"""The CLI fuzz bench (bench/fuzz.py, issue 16): its inputs are a function of the seed, its `run` inputs reach the
build (they carry their kernel), a short run through two workers finds nothing, and the caches a long-lived process
fills from its inputs stay within their bounds. The 10,000-input run and its RSS slope are the bench's, not CI's."""

from __future__ import annotations

import argparse
import contextlib
import io
import random
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
    rng = random.Random(seed)
    sources = fuzz._examples(".cpp")
    specs = fuzz.spec_examples()
    entries = [p.read_text(encoding="utf-8") for p in sorted((fuzz.ROOT / "knowledge" / "entries").glob("*.yaml"))[:5]]
    return [fuzz.make_case(i, rng, sources, specs, entries, fresh_share=0.1) for i in range(count)]


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
    args = argparse.Namespace(inputs=40, seed=11, jobs=2, hang=120.0, subprocess_share=0.05, json=None)
    result = fuzz.run_cli_section(args)
    assert result["inputs"] == 40 and sum(result["verdicts"].values()) == 40
    assert result["verdicts"] == {"ok": 40}, result["samples"]
    assert sum(sum(codes.values()) for codes in result["exit_codes"].values()) == 40
    assert [life["worker"] for life in result["workers"]] == [0, 1]
    assert sum(life["inputs"] for life in result["workers"]) <= 40


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
