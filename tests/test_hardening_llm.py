"""Issue 17 items 2 and 6: what goes back to the model is capped and scrubbed, and an API key the model echoes
never reaches any artifact (the final kernel in the workspace included)."""

from __future__ import annotations

from pathlib import Path

from ascendc_lsp.llm.loop import MAX_FEEDBACK_CHARS, Learner, scrub_diagnostic
from tests.test_llm_loop import SECRET, TextEvaluator, fenced, queue_kernel, run_generate


def test_echoed_key_is_redacted_from_the_final_kernel_and_every_file_fast(tmp_path: Path) -> None:
    kernel = queue_kernel().replace("#include", f"// {SECRET}\n#include", 1)
    assert SECRET in kernel
    outcome, _fake = run_generate(tmp_path, [fenced(kernel), "r\nTITLE: t"], evaluator=TextEvaluator(),
                                  learner=Learner(False))
    assert outcome.result.correct and outcome.kernel_path is not None
    assert SECRET not in outcome.kernel_path.read_text(encoding="utf-8")
    for path in (tmp_path / "ws").rglob("*"):
        if path.is_file():
            assert SECRET not in path.read_text(encoding="utf-8", errors="replace"), path
    assert all(SECRET not in (a.code or "") + a.reply for a in outcome.result.attempts)


def test_kernel_output_passed_to_the_model_is_capped_and_scrubbed() -> None:
    noisy = "\x1b[31mred\x1b[0m\x00" + "A" * (50 * MAX_FEEDBACK_CHARS)
    out = scrub_diagnostic({"message": noisy, "severity": "error"})
    assert "\x1b" not in out["message"] and "\x00" not in out["message"]
    assert len(out["message"]) < MAX_FEEDBACK_CHARS + 100 and "characters cut" in out["message"]
    assert out["severity"] == "error"
