"""Knowledge that generalises: trigger templates, learned specificity, log cues, honest confidence, triage with
the kernel (static findings, emulator runs of a spec next to it), the compiled-knowledge cache and the bench's
labelled-message data."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from ascendc_lsp.knowledge.explain import explain_log
from ascendc_lsp.knowledge.retrieval import Retriever
from ascendc_lsp.knowledge.triggers import compile_trigger, expand_template, normalise_log, template_words
from ascendc_lsp.lsp.protocol import EXPLAIN_LOG
from ascendc_lsp.toolchain.log_cues import log_cues

ROOT = Path(__file__).resolve().parents[1]
BUGGY = ROOT / "tests" / "kernels" / "buggy"

# NPU-style logs as the runtime prints them (bench/triage.py builds the same family)
AIVEC_NO_DETAIL = """[ERROR] aclrtSynchronizeStream(stream) failed: 507035
EZ9999: Inner Error!
EZ9999[PID: 41231] 2026-05-11-10:21:33.418.229 (EZ9999):  The error from device(chipId:0, dieId:0), serial number \
is 17, there is an aivec error exception, core id is 0, error code = 0x4000000000000000, dump info: pc start: \
0x124400000000, current: 0x1244000003a0, vec error info: 0x6b0000002c, mte error info: 0x1d03000040, ifu error \
info: 0x0, ccu error info: 0x0, cube error info: 0, biu error info: 0, aic error mask: 0x6500020bd00028c, para \
base: 0x12c100000000.[FUNC:PrintCoreInfo][FILE:device_error_core_proc.cc][LINE:645]
       Kernel task happen error, retCode=0x31, [vector core exception].[FUNC:PreCheckTaskErr][FILE:davinci_kernel_task.cc][LINE:1729]"""
AIVEC_DDR = AIVEC_NO_DETAIL.replace("error code = 0x4000000000000000", "error code = 0x800000").replace(
    "vec error info: 0x6b0000002c", "vec error info: 0x0"
)
OUTPUT_MISMATCH_TAIL = """[FAIL] Output mismatch, max diff: 5.8125, location: (10006,)
Diff count: 23
Diff indices: [(9984,), (9985,), (9986,), (9987,), (9988,)]"""


@pytest.fixture(scope="module")
def retriever() -> Retriever:
    return Retriever.default()


# ------------------------------------------------------------------------------------------- templates


def test_templates_match_the_family_not_one_message() -> None:
    rx = compile_trigger(r"no member named {q}{id}{q} in namespace {q}{qid}{q}")
    assert rx.search("error: no member named 'SYNCALL' in namespace 'pto'")
    assert rx.search("error: no member named 'AddTilingData' in namespace 'optiling'")
    assert not rx.search("error: no matching function for call to 'DataCopy'")
    path = compile_trigger(r"{path}:{int}:{int}: error: use of undeclared identifier {q}{id}{q}")
    assert path.search("op_kernel/add_custom_abc123.cpp:47:38: error: use of undeclared identifier 'sqrtf'")
    # regex repetitions are left alone, placeholders expand
    assert r"\d{6}" in expand_template(r"\d{6} {code}")
    assert "qid" not in expand_template("{qid}")


def test_logs_are_normalised_so_gcc_quotes_match_templates() -> None:
    text = normalise_log("error: ‘expf’ was not declared in this scope; did you mean ‘exp’?")
    assert "'expf'" in text and len(text) == len(
        "error: ‘expf’ was not declared in this scope; did you mean ‘exp’?"
    )
    assert compile_trigger(r"{q}expf{q} was not declared").search(text)
    assert "declared" in template_words(r"{q}{id}{q} was not declared in this scope")
    assert "{" not in template_words(r"{q}{id}{q} was not declared in this scope")


def test_shipped_triggers_are_templates_for_identifier_families(retriever: Retriever) -> None:
    for message in (
        "error: use of undeclared identifier 'expf'",
        "kernel.cpp:52:24: error: ‘powf’ was not declared in this scope; did you mean ‘pow’?",
        "error: no matching function for call to 'tanhf'",
    ):
        assert "libm-call-in-kernel" in retriever.fired_patterns(message), message
    # libm's names are lower-case; AscendC's vector API of the same word is not a libm call
    assert "libm-call-in-kernel" not in retriever.fired_patterns(
        "error: no matching function for call to 'Exp'"
    )


# ---------------------------------------------------------------------------------- learned specificity


def _trigger_specificity(retriever: Retriever, entry_id: str, needle: str) -> float:
    found = [
        t.specificity for t in retriever.index.triggers if t.entry_id == entry_id and needle in t.pattern
    ]
    assert found, (entry_id, needle)
    return max(found)


def test_generic_headers_learn_a_low_specificity_exact_error_strings_a_high_one(retriever: Retriever) -> None:
    generic = _trigger_specificity(retriever, "async-error-attribution", "Rectify the fault")
    exact = _trigger_specificity(retriever, "mte-gm-address-out-of-range", "DDR address of the MTE")
    assert exact == 1.0
    assert generic < 0.5 < exact
    # a runtime code shared by many causes says little
    assert retriever.index.code_specificity["507035"] < 0.25


def test_trigger_prefilters_never_skip_a_text_the_template_matches(retriever: Retriever) -> None:
    import re

    texts = [normalise_log(x) for e in retriever.entries.values() for x in e.context.examples]
    texts += ["errorStr: The DDR address of the MTE instruction is out of range."]
    filtered = [t for t in retriever.index.triggers if t.literals is not None]
    assert len(filtered) > len(retriever.index.triggers) / 2  # most templates have a literal to look for
    for trig in filtered:
        rx = re.compile(trig.pattern, re.IGNORECASE)
        for text in texts:
            if rx.search(text):
                assert trig.may_match(text.lower()), (trig.entry_id, trig.pattern)


# ------------------------------------------------------------------------------------------------- cues


@pytest.mark.parametrize(
    ("text", "cue"),
    [
        ("op_host/add_custom.cpp:12:5: error: no member named 'GetStorageShape'", "host-compile"),
        ("op_kernel/add_custom.cpp:30:9: error: use of undeclared identifier 'expf'", "kernel-compile"),
        ("CMake Error at CMakeLists.txt:12 (find_package):", "cmake"),
        ("ERROR: Failed to build wheel for op_extension\n  pip install -e .", "pip"),
        ("call aclnnAddCustom failed, detail: EZ1001", "aclnn"),
        ("[FUNC:PrintCoreInfo][FILE:device_error_core_proc.cc][LINE:645] errorStr: ...", "device-exception"),
        ("AssertionError: Tensor-likes are not close!", "precision"),
        ("精度不达标，最大误差 0.02", "chinese"),
    ],
)
def test_log_cues(text: str, cue: str) -> None:
    assert cue in log_cues(text)


def test_cues_move_the_prior_towards_their_families(retriever: Retriever) -> None:
    prior = retriever.index.cue_prior(["cmake"])
    assert max(prior, key=prior.get) in {"toolchain-env", "op-project-config"}  # type: ignore[arg-type]
    prior = retriever.index.cue_prior(["device-exception"])
    best = max(prior, key=prior.get)  # type: ignore[arg-type]
    assert best in {"gm-out-of-bounds", "ub-out-of-bounds", "aicore-exception-triage", "misaligned-access",
                    "vector-param-invalid", "ub-overflow", "sync-deadlock"}  # fmt: skip


# ------------------------------------------------------------------------------------------- confidence


def test_specific_message_answers_with_high_confidence(retriever: Retriever) -> None:
    answer = retriever.answer("errorStr: The DDR address of the MTE instruction is out of range.")
    assert answer.matches[0].entry.category == "gm-out-of-bounds"
    assert answer.confidence == "high" and not answer.uncertain and answer.message() == ""


def test_vague_message_answers_uncertain_with_families(retriever: Retriever) -> None:
    answer = retriever.answer("the operator gives wrong results sometimes")
    assert answer.uncertain
    assert answer.families and abs(sum(s for _, s in answer.families) - 1.0) < 1e-6
    text = answer.message()
    assert text.startswith("uncertain:") and "likely families" in text and "--source" in text


def test_explain_json_carries_confidence_families_and_cues(retriever: Retriever) -> None:
    result = explain_log(
        "op_kernel/add.cpp:12:5: error: no matching function for call to 'expf'", retriever=retriever
    )
    assert result["matches"][0]["category"] == "libm-in-kernel"
    assert result["confidence"] in {"high", "medium"} and result["uncertain"] is False
    assert result["families"][0]["category"] == "libm-in-kernel"
    assert "kernel-compile" in result["cues"]
    assert {"pattern", "example", "cue", "evidence"} <= set(result["matches"][0])
    json.dumps(result)


def test_aivec_exception_answers_with_an_out_of_bounds_family_first(retriever: Retriever) -> None:
    oob = {"ub-out-of-bounds", "gm-out-of-bounds", "ub-overflow"}
    ddr = retriever.answer(AIVEC_DDR)
    assert ddr.matches[0].entry.category == "gm-out-of-bounds"
    no_detail = retriever.answer(AIVEC_NO_DETAIL)
    assert no_detail.matches[0].entry.category in oob | {"aicore-exception-triage"}
    assert {c for c, _ in no_detail.families[:3]} & oob


# ---------------------------------------------------------------------------------------------- triage


def test_source_triage_names_the_ub_overflow_and_its_line(retriever: Retriever) -> None:
    source = BUGGY / "ASC001_ub_overflow.cpp"
    result = explain_log(AIVEC_NO_DETAIL, retriever=retriever, source_path=str(source),
                         source_text=source.read_text(encoding="utf-8"), run=False)  # fmt: skip
    diagnosis = result["triage"]["diagnosis"]
    assert diagnosis["category"] == "ub-overflow"
    assert diagnosis["line"] and diagnosis["headline"].startswith("UB overflow")
    assert f"at line {diagnosis['line']}" in diagnosis["headline"]
    assert result["matches"][0]["category"] == "ub-overflow"
    assert result["confidence"] == "high"


def test_triage_keeps_the_log_answer_when_the_kernel_explains_nothing(retriever: Retriever) -> None:
    source = ROOT / "examples" / "softmax_rows" / "softmax_rows.cpp"
    log = (
        "CMake Error at CMakeLists.txt:3 (find_package): Could not find a package configuration file for ASC"
    )
    alone = explain_log(log, retriever=retriever)
    result = explain_log(log, retriever=retriever, source_path=str(source),
                         source_text=source.read_text(encoding="utf-8"), run=False)  # fmt: skip
    assert result["triage"]["diagnosis"] is None
    assert result["matches"][0]["id"] == alone["matches"][0]["id"]


def test_find_spec_matches_the_source_named_by_a_spec() -> None:
    from ascendc_lsp.knowledge.triage import find_spec

    folder = ROOT / "examples" / "leaky_relu_tail"
    assert find_spec(folder / "leaky_relu_tail_buggy.cpp") == folder / "spec_buggy.yaml"
    assert find_spec(folder / "leaky_relu_tail.cpp") == folder / "spec.yaml"
    assert find_spec(BUGGY / "ASC001_ub_overflow.cpp") is None


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("g++") is None, reason="the emulator backend needs g++")
def test_triage_runs_the_spec_next_to_the_kernel_on_the_emulator(retriever: Retriever) -> None:
    source = ROOT / "examples" / "leaky_relu_tail" / "leaky_relu_tail_buggy.cpp"
    result = explain_log(OUTPUT_MISMATCH_TAIL, retriever=retriever, source_path=str(source),
                         source_text=source.read_text(encoding="utf-8"), run=True)  # fmt: skip
    triage = result["triage"]
    assert triage["spec"].endswith("spec_buggy.yaml")
    assert triage["run"] and triage["run"]["correct"] is False
    assert triage["diagnosis"] is not None
    assert result["matches"][0]["category"] == triage["diagnosis"]["category"]


def test_explain_cli_source_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from ascendc_lsp.cli import main

    log = tmp_path / "npu.log"
    log.write_text(AIVEC_NO_DETAIL, encoding="utf-8")
    code = main(
        [
            "explain",
            str(log),
            "--format",
            "json",
            "--source",
            str(BUGGY / "ASC001_ub_overflow.cpp"),
            "--no-run",
        ]
    )
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["triage"]["diagnosis"]["category"] == "ub-overflow"
    code = main(["explain", str(log), "--source", str(BUGGY / "ASC001_ub_overflow.cpp"), "--no-run"])
    assert code == 0
    assert "UB overflow" in capsys.readouterr().out


# ----------------------------------------------------------------------------------- compiled cache


def test_compiled_cache_builds_once_and_rebuilds_what_it_rejects() -> None:
    from ascendc_lsp.knowledge.compiled import cached, content_key

    calls: list[int] = []

    def build() -> dict[str, Any]:
        calls.append(1)
        return {"v": len(calls)}

    key = content_key(["test", "v1"])
    assert cached("unit-test", key, build) == {"v": 1}
    assert cached("unit-test", key, build) == {"v": 1} and len(calls) == 1
    assert cached("unit-test", key, build, valid=lambda v: False) == {"v": 2}
    assert cached("unit-test", content_key(["test", "v2"]), build) == {"v": 3}


def test_files_key_follows_entry_edits(tmp_path: Path) -> None:
    from ascendc_lsp.knowledge.compiled import files_key

    entry = tmp_path / "one.yaml"
    entry.write_text("id: one\n", encoding="utf-8")
    before = files_key([tmp_path])
    entry.write_text("id: one\ntitle: changed\n", encoding="utf-8")
    assert files_key([tmp_path]) != before


# ------------------------------------------------------------------------------------------- bench data


def test_web_quotes_are_labelled_messages_with_their_source() -> None:
    from ascendc_lsp.knowledge.entries import taxonomy

    slugs = set(taxonomy())
    rows = [json.loads(line) for line in (ROOT / "bench" / "data" / "real_errors.jsonl").read_text().splitlines()
            if line.strip()]  # fmt: skip
    assert len(rows) >= 50
    for row in rows:
        assert row["source"].startswith("http"), row["id"]
        assert row["category"] in slugs and set(row.get("accept", [])) <= slugs
        assert row["message"].strip() and len(row["message"]) < 4000


def test_realdata_loader_dedupes_and_groups_by_source(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        from realdata import load_messages
    finally:
        sys.path.remove(str(ROOT / "bench"))
    rows, _notes = load_messages(tmp_path / "absent.jsonl", snapshot=False)
    assert rows and len({r.group for r in rows}) >= 8
    assert len({r.message for r in rows}) == len(rows)
    assert all(r.accepts(r.category) for r in rows)


# ------------------------------------------------------------------------------------------ editor command


async def test_explain_log_command_triages_with_the_open_kernel(client: LanguageClient) -> None:
    source = BUGGY / "ASC001_ub_overflow.cpp"
    text = source.read_text(encoding="utf-8")
    uri = source.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="cpp", version=1, text=text)
        )
    )
    result = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(
            command=EXPLAIN_LOG.id, arguments=[{"log": AIVEC_NO_DETAIL, "uri": uri, "run": False}]
        )
    )
    assert result is not None
    assert result["triage"]["diagnosis"]["category"] == "ub-overflow"
    assert result["matches"][0]["category"] == "ub-overflow"
    plain = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(
            command=EXPLAIN_LOG.id, arguments=[{"log": "the kernel is a bit slow sometimes"}]
        )
    )
    assert plain is not None and plain["triage"] is None
    assert plain["uncertain"] is True and plain["message"].startswith("uncertain:")
