"""Queue lifecycle (checks/rules/_lifecycle.py, queues.py) on a small pipeline kernel written here, with one
give-back deleted the way bench/mutants.py plants it: each gap the benchmark found on public kernels."""

from __future__ import annotations

from ascendc_lsp.checks.engine import CheckOptions, check_document
from ascendc_lsp.diagnostics import Diagnostic
from ascendc_lsp.syntax.document import SourceDocument

PIPELINE = """#include "kernel_operator.h"
using namespace AscendC;
class K {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t n) {
        xGm.SetGlobalBuffer((__gm__ half*)x, n);
        yGm.SetGlobalBuffer((__gm__ half*)y, n);
        pipe.InitBuffer(inQ, 2, 256 * sizeof(half));
        pipe.InitBuffer(outQ, 2, 256 * sizeof(half));
        this->n = n;
    }
    __aicore__ inline void Process() {
        for (int i = 0; i < 4; i++) {
            CopyIn(i);
            Compute(i);
            CopyOut(i);
        }
    }
private:
    __aicore__ inline void CopyIn(int i) {
        LocalTensor<half> x = inQ.AllocTensor<half>();
        DataCopy(x, xGm[i * 256], 256);
        inQ.EnQue(x);
    }
    __aicore__ inline void Helper(LocalTensor<half>& t, LocalTensor<half>& s) {
        Abs(t, s, 256);
    }
    __aicore__ inline void Compute(int i) {
        LocalTensor<half> x = inQ.DeQue<half>();
        LocalTensor<half> y = outQ.AllocTensor<half>();
        for (int k = 0; k < 2; k++) {
            Adds(y, x, (half)1, 256);
        }
        if (n > 3) {
            Helper(y, x);
        }
        outQ.EnQue(y);
        inQ.FreeTensor(x);
    }
    __aicore__ inline void CopyOut(int i) {
        LocalTensor<half> y = outQ.DeQue<half>();
        DataCopy(yGm[i * 256], y, 256);
        outQ.FreeTensor(y);
    }
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    GlobalTensor<half> xGm, yGm;
    uint32_t n;
};
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR y) {
    K op; op.Init(x, y, 1024); op.Process();
}
"""

FREE_X = "        inQ.FreeTensor(x);\n"


def check(text: str) -> list[Diagnostic]:
    return check_document(SourceDocument(text, path="pipeline.cpp"), CheckOptions(soc_name="Ascend910B"))


def queue_findings(text: str) -> list[Diagnostic]:
    return [f for f in check(text) if f.category == "queue-misuse" and f.severity in ("error", "warning")]


def line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n")


def near(finding: Diagnostic, line: int) -> bool:
    return finding.span.start.line - 3 <= line <= finding.span.end.line + 3


def blank(text: str, needle: str) -> str:
    return text.replace(needle, " " * (len(needle) - 1) + "\n", 1)


def test_the_pipeline_is_clean() -> None:
    assert queue_findings(PIPELINE) == []


def test_deque_in_a_helper_returning_an_empty_tensor_is_reported_at_its_declaration() -> None:
    getter = PIPELINE.replace(
        "    __aicore__ inline void Compute(int i) {\n        LocalTensor<half> x = inQ.DeQue<half>();",
        "    __aicore__ inline LocalTensor<half> GetX() {\n        LocalTensor<half> t = inQ.DeQue<half>();\n"
        "        return t;\n    }\n    __aicore__ inline void Compute(int i) {\n        LocalTensor<half> x = GetX();")
    assert queue_findings(getter) == []
    mutant = getter.replace("LocalTensor<half> t = inQ.DeQue<half>();", "LocalTensor<half> t;")
    planted = line_of(mutant, "LocalTensor<half> t;")
    findings = queue_findings(mutant)
    assert any(near(f, planted) and "holds no tensor from inQ" in f.message for f in findings), findings


def test_a_missing_free_is_placed_among_the_stage_s_enqueues() -> None:
    # The function goes on well past its give-backs: the finding spans the last use of x to the run of
    # give-backs (`outQ.EnQue(y)`) where the deleted FreeTensor was, not to the end of the function.
    padded = PIPELINE.replace("        outQ.EnQue(y);\n", "        Adds(y, y, (half)1, 256);\n" * 8 + "        outQ.EnQue(y);\n")
    padded = padded.replace("        if (n > 3) {\n            Helper(y, x);\n        }\n", "")
    padded = padded.replace(FREE_X, FREE_X + "        PipeBarrier<PIPE_ALL>();\n" * 8)
    assert queue_findings(padded) == []
    planted = line_of(padded, FREE_X)
    findings = queue_findings(blank(padded, FREE_X))
    assert any(f.code == "ASC008" and near(f, planted) for f in findings), findings


def test_overloaded_methods_are_all_followed() -> None:
    overloaded = PIPELINE.replace("    __aicore__ inline void CopyOut(int i) {", """    __aicore__ inline void Compute(float i) {
        LocalTensor<half> x = inQ.DeQue<half>();
        LocalTensor<half> y = outQ.AllocTensor<half>();
        Muls(y, x, (half)2, 256);
        outQ.EnQue(y);
        inQ.FreeTensor(x);
    }
    __aicore__ inline void CopyOut(int i) {""")
    assert queue_findings(overloaded) == []
    # The free deleted in the second overload (the one declared last).
    at = overloaded.rindex(FREE_X)
    planted = overloaded[:at].count("\n")
    mutant = overloaded[:at] + " " * (len(FREE_X) - 1) + "\n" + overloaded[at + len(FREE_X):]
    findings = queue_findings(mutant)
    assert any(f.code == "ASC008" and near(f, planted) for f in findings), findings


TRAITS = """#include "kernel_operator.h"
using namespace AscendC;
struct Info {
    LocalTensor<float> acc;
};
template <typename T>
class K {
public:
    __aicore__ inline void Init(GM_ADDR x, uint32_t n) {
        xGm.SetGlobalBuffer((__gm__ T*)x, n);
        pipe.InitBuffer(accQ, 1, 256 * sizeof(float));
        pipe.InitBuffer(inQ, 2, 256 * sizeof(T));
    }
    __aicore__ inline void Process() {
        LocalTensor<float> acc;
        if (std::is_same<T, half>::value) {
            acc = accQ.AllocTensor<float>();
        }
        for (int i = 0; i < 4; i++) {
            Step(i, acc);
        }
        if (std::is_same<T, half>::value) {
            accQ.FreeTensor(acc);
        }
    }
private:
    __aicore__ inline void Step(int i, LocalTensor<float>& acc) {
        Info info;
        info.acc = acc;
        LocalTensor<T> x = inQ.AllocTensor<T>();
        DataCopy(x, xGm[i * 256], 256);
        inQ.EnQue(x);
        x = inQ.DeQue<T>();
        Use(x, info);
        inQ.FreeTensor(x);
    }
    __aicore__ inline void Use(LocalTensor<T>& x, Info& info) {
        Duplicate(info.acc, 0.0f, 8);
    }
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> accQ;
    TQue<QuePosition::VECIN, 2> inQ;
    GlobalTensor<T> xGm;
};
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    K<half> op; op.Init(x, 1024); op.Process();
}
"""


def test_type_trait_conditions_go_together_and_a_struct_copy_keeps_the_tensor() -> None:
    # The allocation and the free are under the same `is_same<T, half>`: one instantiation takes both or
    # neither; the tensor copied into `info.acc` is still the variable's to give back.
    assert queue_findings(TRAITS) == []
    free = "            accQ.FreeTensor(acc);\n"
    planted = line_of(TRAITS, free)
    findings = queue_findings(blank(TRAITS, free))
    assert any(f.code == "ASC008" and near(f, planted) for f in findings), findings


def test_a_missing_deque_assignment_is_placed_before_the_first_use() -> None:
    late = PIPELINE.replace(
        "        LocalTensor<half> y = outQ.DeQue<half>();\n        DataCopy(yGm",
        "        LocalTensor<half> y;\n" + "        PipeBarrier<PIPE_ALL>();\n" * 8
        + "        y = outQ.DeQue<half>();\n        DataCopy(yGm")
    assert queue_findings(late) == []
    deque = "        y = outQ.DeQue<half>();\n"
    planted = line_of(late, deque)
    findings = queue_findings(blank(late, deque))
    assert any(f.code == "ASC009" and near(f, planted) for f in findings), findings


def test_a_missing_enque_is_placed_at_the_last_use_when_the_next_give_back_is_far() -> None:
    far = PIPELINE.replace("    TQue<QuePosition::VECOUT, 2> outQ;\n",
                           "    TQue<QuePosition::VECOUT, 2> outQ;\n    TQue<QuePosition::VECCALC, 1> auxQ;\n")
    far = far.replace("        pipe.InitBuffer(outQ, 2, 256 * sizeof(half));\n",
                      "        pipe.InitBuffer(outQ, 2, 256 * sizeof(half));\n"
                      "        pipe.InitBuffer(auxQ, 1, 256 * sizeof(half));\n")
    far = far.replace("        inQ.EnQue(x);\n", "        inQ.EnQue(x);\n" + "        PipeBarrier<PIPE_ALL>();\n" * 14
                      + "        LocalTensor<half> a = auxQ.AllocTensor<half>();\n        auxQ.FreeTensor(a);\n")
    assert queue_findings(far) == []
    enque = "        inQ.EnQue(x);\n"
    planted = line_of(far, enque)
    findings = queue_findings(blank(far, enque))
    assert any(f.code in ("ASC008", "ASC009") and near(f, planted) for f in findings), findings
