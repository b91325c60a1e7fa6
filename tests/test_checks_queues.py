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


def with_compute(body: str) -> str:
    """PIPELINE with a third queue `tmpQ` and Compute() replaced by `body` (its statements, 8 spaces in)."""
    text = PIPELINE.replace("    TQue<QuePosition::VECOUT, 2> outQ;\n",
                            "    TQue<QuePosition::VECOUT, 2> outQ;\n    TQue<QuePosition::VECCALC, 1> tmpQ;\n")
    text = text.replace("        pipe.InitBuffer(outQ, 2, 256 * sizeof(half));\n",
                        "        pipe.InitBuffer(outQ, 2, 256 * sizeof(half));\n"
                        "        pipe.InitBuffer(tmpQ, 1, 256 * sizeof(half));\n")
    start = text.index("    __aicore__ inline void Compute(int i) {\n")
    end = text.index("    __aicore__ inline void CopyOut(int i) {")
    return text[:start] + "    __aicore__ inline void Compute(int i) {\n" + body + "    }\n" + text[end:]


BARRIERS = "        PipeBarrier<PIPE_ALL>();\n" * 14
FREE_T = "        tmpQ.FreeTensor(t);\n"
STAGE_RUN = FREE_T + "        outQ.EnQue(y);\n" + FREE_X
STAGE_HEAD = ("        LocalTensor<half> x = inQ.DeQue<half>();\n        LocalTensor<half> y = outQ.AllocTensor<half>();\n"
              "        Adds(y, x, (half)1, 256);\n        LocalTensor<half> t = tmpQ.AllocTensor<half>();\n")


def assert_placed(text: str, deleted: str) -> None:
    assert queue_findings(text) == []
    planted = line_of(text, deleted)
    findings = queue_findings(blank(text, deleted))
    assert any(f.code == "ASC008" and near(f, planted) for f in findings), findings


def test_a_tensor_filled_in_a_loop_goes_back_with_the_stage_s_run_after_it() -> None:
    # deep_norm.cpp: `for (...) { rstd[rid].SetValue(0, v); ... }` then, far below, the EnQue run.
    loop = "        for (int k = 0; k < 8; k++) {\n            t.SetValue(k, (half)1);\n        }\n"
    assert_placed(with_compute(STAGE_HEAD + loop + BARRIERS + STAGE_RUN), FREE_T)


def test_a_tensor_never_used_goes_back_with_the_stage_s_run() -> None:
    # select_reduce_max...real_div.cpp: a temporary allocated with the stage's others and never used.
    assert_placed(with_compute(STAGE_HEAD + BARRIERS + STAGE_RUN), FREE_T)


def test_a_tensor_held_with_one_the_run_gives_back_goes_with_that_run() -> None:
    # add_layer_norm.cpp / matmul_mx_ub_tscm_nz.asc: y was allocated before t's last use; both go back in one run.
    use = "        Muls(t, y, (half)2, 256);\n"
    assert_placed(with_compute(STAGE_HEAD + use + BARRIERS + STAGE_RUN), FREE_T)


def test_a_dequeued_tensor_is_not_given_back_inside_a_later_loop() -> None:
    # add_layer_norm_kernel.h: the run nearest the last use is inside a loop that began after the DeQue.
    body = ("        LocalTensor<half> x = inQ.DeQue<half>();\n        LocalTensor<half> t = tmpQ.AllocTensor<half>();\n"
            "        for (int k = 0; k < 2; k++) {\n            LocalTensor<half> y = outQ.AllocTensor<half>();\n"
            "            Adds(y, x, (half)1, 256);\n            outQ.EnQue(y);\n            Compute2(k);\n        }\n"
            + BARRIERS + FREE_X + FREE_T)
    text = with_compute(body).replace("    __aicore__ inline void CopyOut(int i) {", """    __aicore__ inline void Compute2(int i) {
        LocalTensor<half> y = outQ.DeQue<half>();
        DataCopy(yGm[i * 256], y, 256);
        outQ.FreeTensor(y);
    }
    __aicore__ inline void CopyOut(int i) {""").replace("            Compute(i);\n            CopyOut(i);\n",
                                                        "            Compute(i);\n")
    assert_placed(text, FREE_X)


def test_uses_in_an_untaken_else_branch_count_as_the_last_use() -> None:
    # deep_norm_grad_large_n_small_d.h: the analysis follows the `#if` branch; the `#else` one uses x later.
    branches = PIPELINE.replace(
        "        DataCopy(x, xGm[i * 256], 256);\n",
        "#if !defined(ASCEND_SLOW_COPY)\n        DataCopy(x, xGm[i * 256], 256);\n#else\n" + BARRIERS
        + "        DataCopy(x, xGm[i * 256], 256);\n#endif\n", 1)
    assert_placed(branches, "        inQ.EnQue(x);\n")


def test_an_enque_deleted_in_one_branch_is_reported_for_that_path() -> None:
    # Each path of an if/else must give the tensor back: deleting the EnQue of one branch leaks on that path.
    enque = "            inQ.EnQue(x);\n"
    branches = PIPELINE.replace(
        "        DataCopy(x, xGm[i * 256], 256);\n        inQ.EnQue(x);\n",
        "        if (i % 2 == 0) {\n            DataCopy(x, xGm[i * 256], 256);\n" + enque + "        } else {\n"
        "            DataCopy(x, xGm[i * 256], 128);\n" + enque + "        }\n")
    assert queue_findings(branches) == []
    for which in (branches.index(enque), branches.rindex(enque)):
        planted = branches[:which].count("\n")
        mutant = branches[:which] + " " * (len(enque) - 1) + "\n" + branches[which + len(enque):]
        findings = queue_findings(mutant)
        assert any(f.code == "ASC008" and near(f, planted) and "on some paths" in f.message for f in findings), findings


def test_a_malformed_or_deeply_nested_type_condition_stays_undecided() -> None:
    """Two traits side by side, or 300 nested parentheses, must not raise out of the check (no verdict instead)."""
    from ascendc_lsp.checks.rules._lifecycle import _decide_traits

    trait = "std::is_same<T, half>::value"
    assert _decide_traits(f"{trait} && !std::is_same<T, float>::value", {"T": "half"}) is True
    assert _decide_traits(f"{trait} ({trait})", {"T": "half"}) is None
    assert _decide_traits("(" * 300 + trait + ")" * 300, {"T": "half"}) is None


def test_a_block_s_tensors_die_at_its_end_after_an_if_inside_it() -> None:
    # add_layer_norm_special_kernel.h: `{ x = AllocTensor; if constexpr (...) {...} EnQue(x) ... }`: the branches
    # ran on copies of the frame, so the block's end did not see x die; it was reported far below.
    block = PIPELINE.replace(
        "        LocalTensor<half> x = inQ.AllocTensor<half>();\n        DataCopy(x, xGm[i * 256], 256);\n"
        "        inQ.EnQue(x);\n",
        "        {\n            LocalTensor<half> x = inQ.AllocTensor<half>();\n            if (n > 3) {\n"
        "                DataCopy(x, xGm[i * 256], 256);\n            }\n" + "            PipeBarrier<PIPE_ALL>();\n" * 5
        + "            inQ.EnQue(x);\n        }\n"
        + BARRIERS + "        LocalTensor<half> z = outQ.AllocTensor<half>();\n        outQ.FreeTensor(z);\n")
    assert_placed(block, "            inQ.EnQue(x);\n")


def test_an_out_of_line_method_of_a_template_spelled_over_two_lines_is_followed() -> None:
    # weight_quant_batch_matmul_v2_common.h: `Kernel<T,\n U>::Method()` and `Kernel<T>::\n    Method()`.
    from ascendc_lsp.syntax.model import build_model

    text = TWO_LINE_TEMPLATE
    names = {f.name for f in build_model(SourceDocument(text, path="k.cpp")).functions}
    assert {"Init", "Process", "CopyIn", "Compute"} <= names, names
    assert queue_findings(text) == []
    enque = "    inQ.EnQue(x);\n"
    planted = line_of(text, enque)
    findings = queue_findings(blank(text, enque))
    assert any(near(f, planted) for f in findings), findings


TWO_LINE_TEMPLATE = """#include "kernel_operator.h"
using namespace AscendC;
template <typename T, typename U>
class K {
public:
    __aicore__ inline void Init(GM_ADDR x, uint32_t n);
    __aicore__ inline void Process();
private:
    __aicore__ inline void CopyIn(int i);
    __aicore__ inline void Compute(int i);
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ;
    GlobalTensor<T> xGm;
};
template <typename T, typename U>
__aicore__ inline void K<T,
    U>::Init(GM_ADDR x, uint32_t n) {
    xGm.SetGlobalBuffer((__gm__ T*)x, n);
    pipe.InitBuffer(inQ, 2, 256 * sizeof(T));
}
template <typename T, typename U>
__aicore__ inline void K<T,
    U>::Process() {
    for (int i = 0; i < 4; i++) {
        CopyIn(i);
        Compute(i);
    }
}
template <typename T, typename U>
__aicore__ inline void K<T,
    U>::
    CopyIn(int i) {
    LocalTensor<T> x = inQ.AllocTensor<T>();
    DataCopy(x, xGm[i * 256], 256);
    inQ.EnQue(x);
}
template <typename T, typename U>
__aicore__ inline void K<T,
    U>::Compute(int i) {
    LocalTensor<T> x = inQ.DeQue<T>();
    Abs(x, x, 256);
    inQ.FreeTensor(x);
}
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    K<half, float> op; op.Init(x, 1024); op.Process();
}
"""


def test_an_assignment_of_a_new_tensor_is_no_use_of_the_old_one() -> None:
    # layer_norm_grad_v3_common.h: member `buf = q.AllocTensor()` in CopyIn, EnQue deleted, `buf = q.DeQue()` far
    # below in Compute: the missing EnQue goes after the last use in CopyIn, not at the DeQue that overwrites.
    members = PIPELINE.replace("LocalTensor<half> x = inQ.AllocTensor<half>();", "xm = inQ.AllocTensor<half>();")
    members = members.replace("        DataCopy(x, xGm[i * 256], 256);\n        inQ.EnQue(x);\n",
                              "        DataCopy(xm, xGm[i * 256], 256);\n        inQ.EnQue(xm);\n")
    members = members.replace("    __aicore__ inline void Compute(int i) {\n        LocalTensor<half> x = inQ.DeQue<half>();\n",
                              "    __aicore__ inline void Compute(int i) {\n" + BARRIERS + "        xm = inQ.DeQue<half>();\n"
                              "        LocalTensor<half> x = xm;\n")
    members = members.replace("    GlobalTensor<half> xGm, yGm;\n", "    GlobalTensor<half> xGm, yGm;\n    LocalTensor<half> xm;\n")
    assert_placed_any(members, "        inQ.EnQue(xm);\n")


def assert_placed_any(text: str, deleted: str) -> None:
    """Like assert_placed, for a finding of either code (a missing EnQue may show as the DeQue waiting)."""
    assert queue_findings(text) == []
    planted = line_of(text, deleted)
    findings = queue_findings(blank(text, deleted))
    assert any(near(f, planted) for f in findings), findings


def test_a_deque_waiting_for_a_held_tensor_spans_from_its_last_use() -> None:
    # instance_norm_nchw_kernel_cut_reduce.h: alloc, a branch, EnQue (deleted), DeQue in one function.
    # t is never used: its last use is its AllocTensor, 11 lines above the DeQue that waits for it.
    body = ("        LocalTensor<half> x = inQ.DeQue<half>();\n        LocalTensor<half> t = tmpQ.AllocTensor<half>();\n"
            + "        PipeBarrier<PIPE_V>();\n" * 10 + "        tmpQ.EnQue(t);\n        LocalTensor<half> u = tmpQ.DeQue<half>();\n"
            + "        Abs(u, u, 16);\n" * 4 + "        tmpQ.FreeTensor(u);\n        LocalTensor<half> y = outQ.AllocTensor<half>();\n"
            "        Adds(y, x, (half)1, 256);\n        outQ.EnQue(y);\n" + FREE_X)
    assert_placed_any(with_compute(body), "        tmpQ.EnQue(t);\n")


def test_a_give_back_in_each_preprocessor_branch_keeps_the_finding_on_the_followed_one() -> None:
    # softmaxgrad.asc: `#ifdef A ... q.EnQue(y); #else ... q.EnQue(y); #endif`, the first branch's EnQue deleted.
    branches = PIPELINE.replace(
        "        outQ.EnQue(y);\n        inQ.FreeTensor(x);\n",
        "#ifdef FRONT_MODE\n        Abs(y, x, 256);\n        outQ.EnQue(y);\n        inQ.FreeTensor(x);\n#else\n"
        + "        Abs(y, x, 128);\n" * 4 + "        outQ.EnQue(y);\n        inQ.FreeTensor(x);\n#endif\n")
    assert_placed_any(branches, "        outQ.EnQue(y);\n")


def test_a_missing_enque_goes_with_the_stage_s_enqueues_after_a_free_run() -> None:
    # layernorm_v2.asc: last use, a FreeTensor run, a blank line, then the EnQue run the deleted one was in.
    body = (STAGE_HEAD + "        LocalTensor<half> v = outQ.AllocTensor<half>();\n        Muls(v, x, (half)2, 256);\n"
            + "        PipeBarrier<PIPE_V>();\n" * 12 + "        Adds(v, v, (half)1, 256);\n        Adds(t, y, (half)1, 256);\n"
            "        tmpQ.FreeTensor(t);\n\n        // results\n\n        outQ.EnQue(y);\n        outQ.EnQue(v);\n\n" + FREE_X + BARRIERS)
    text = with_compute(body).replace("        LocalTensor<half> y = outQ.DeQue<half>();\n        DataCopy(yGm[i * 256], y, 256);\n"
                                      "        outQ.FreeTensor(y);\n",
                                      "        LocalTensor<half> y = outQ.DeQue<half>();\n        DataCopy(yGm[i * 256], y, 256);\n"
                                      "        outQ.FreeTensor(y);\n        y = outQ.DeQue<half>();\n        outQ.FreeTensor(y);\n")
    assert_placed(text, "        outQ.EnQue(v);\n")


def test_a_give_back_missing_from_one_branch_is_placed_in_that_branch() -> None:
    # upsample_bicubic2d_aa_grad.h: `if (c) { ...; q.FreeTensor(t); } else { q.EnQue(t); }` far below t's last use.
    body = (STAGE_HEAD + "        for (int k = 0; k < 8; k++) {\n            t.SetValue(k, (half)1);\n        }\n" + BARRIERS
            + "        if (n > 3) {\n            Abs(y, x, 256);\n            tmpQ.FreeTensor(t);\n        } else {\n"
            "            tmpQ.EnQue(t);\n            t = tmpQ.DeQue<half>();\n            tmpQ.FreeTensor(t);\n        }\n"
            "        outQ.EnQue(y);\n" + FREE_X)
    text = with_compute(body)
    assert queue_findings(text) == []
    enque = "            tmpQ.EnQue(t);\n            t = tmpQ.DeQue<half>();\n            tmpQ.FreeTensor(t);\n"
    planted = line_of(text, enque)
    findings = queue_findings(text.replace(enque, " " * 20 + "\n" * 3, 1))
    assert any(f.code == "ASC008" and near(f, planted) for f in findings), findings


def test_an_empty_tensor_made_a_view_by_a_base_class_helper_extends_the_last_use() -> None:
    # diag_v2_b32.h: `LocalTensor<int16_t> v; this->ToView(v, y);` then v used for many lines; y's EnQue deleted.
    body = ("        LocalTensor<half> x = inQ.DeQue<half>();\n        LocalTensor<half> y = outQ.AllocTensor<half>();\n"
            "        LocalTensor<int16_t> v;\n        this->ToView(v, y);\n        Abs(y, x, 256);\n" + FREE_X
            + "        for (int k = 2; k < 256; k = k * 2) {\n            PipeBarrier<PIPE_V>();\n"
            + "            Or(v, v, v, 16);\n" * 10 + "        }\n        outQ.EnQue(y);\n")
    assert_placed(with_compute(body), "        outQ.EnQue(y);\n")


def test_a_missing_sync_deque_is_placed_between_the_enque_and_the_first_use() -> None:
    # weight_quant_batch_matmul_v2_common.h: `q.EnQue(t); t = q.DeQue<T>();` (deleted) then uses well below.
    body = ("        LocalTensor<half> x = inQ.DeQue<half>();\n        LocalTensor<half> t = tmpQ.AllocTensor<half>();\n"
            "        Duplicate(t, (half)0, 256);\n        tmpQ.EnQue(t);\n        t = tmpQ.DeQue<half>();\n"
            + "        PipeBarrier<PIPE_V>();\n" * 5 + "        Abs(t, t, 16);\n" * 3 + "        PipeBarrier<PIPE_V>();\n" * 4
            + FREE_T + "        LocalTensor<half> y = outQ.AllocTensor<half>();\n        Adds(y, x, (half)1, 256);\n"
            "        outQ.EnQue(y);\n" + FREE_X)
    text = with_compute(body)
    assert queue_findings(text) == []
    deque = "        t = tmpQ.DeQue<half>();\n"
    planted = line_of(text, deque)
    findings = queue_findings(blank(text, deque))
    assert any(("frees a tensor that is still in tmpQ" in f.message or "while it is in tmpQ" in f.message)
               and near(f, planted) for f in findings), findings


CALLEE_ENQUEUES = """#include "kernel_operator.h"
using namespace AscendC;
class K {
public:
    __aicore__ inline void Init(GM_ADDR x, uint32_t n) {
        xGm.SetGlobalBuffer((__gm__ float*)x, n);
        pipe.InitBuffer(inQ, 1, 256 * sizeof(float));
        pipe.InitBuffer(accQ, 1, 256 * sizeof(float));
    }
    __aicore__ inline void Process() {
        LocalTensor<float> acc = accQ.AllocTensor<float>();
        for (int i = 0; i < 4; i++) {
            Step(i, acc);
        }
        accQ.FreeTensor(acc);
    }
private:
    __aicore__ inline void CopyIn(int i, LocalTensor<float> t) {
        DataCopy(t, xGm[i * 256], 256);
        inQ.EnQue(t);
    }
    __aicore__ inline void Step(int i, LocalTensor<float>& acc) {
        LocalTensor<float> x = inQ.AllocTensor<float>();
        PipeBarrier<PIPE_ALL>();
        CopyIn(i, x);
        x = inQ.DeQue<float>();
        float a = 1.0f;
        float b = 2.0f;
        float c = 3.0f;
        float d = 4.0f;
        Muls(acc, x, a, 64);
        Muls(acc, x, b, 64);
        Muls(acc, x, c, 64);
        Muls(acc, x, d, 64);
        PipeBarrier<PIPE_V>();
        PipeBarrier<PIPE_V>();
        PipeBarrier<PIPE_V>();
        PipeBarrier<PIPE_V>();
        inQ.FreeTensor(x);
    }
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ;
    TQue<QuePosition::VECCALC, 1> accQ;
    GlobalTensor<float> xGm;
};
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    K op; op.Init(x, 1024); op.Process();
}
"""


def test_a_tensor_a_callee_enqueued_and_the_caller_frees_without_deque_is_reported() -> None:
    # roi_align_rotated.h: `CopyIn(i, x);` enqueues its by-value copy of x; the caller's `x = q.DeQue()` deleted.
    assert queue_findings(CALLEE_ENQUEUES) == []
    deque = "        x = inQ.DeQue<float>();\n"
    planted = line_of(CALLEE_ENQUEUES, deque)
    findings = queue_findings(blank(CALLEE_ENQUEUES, deque))
    assert any(f.code == "ASC009" and near(f, planted) for f in findings), findings


def test_an_empty_tensor_freed_after_a_callee_enqueued_is_placed_after_that_call() -> None:
    # upsample_nearest.h: `LocalTensor<T> x;` far above, `CopyIn(...)` enqueues, `x = q.DeQue()` deleted, free.
    text = CALLEE_ENQUEUES.replace(
        "        LocalTensor<float> x = inQ.AllocTensor<float>();\n        PipeBarrier<PIPE_ALL>();\n"
        "        CopyIn(i, x);\n",
        "        LocalTensor<float> x;\n" + "        PipeBarrier<PIPE_ALL>();\n" * 8
        + "        CopyIn(i, inQ.AllocTensor<float>());\n")
    text = text.replace("        Muls(acc, x, a, 64);\n        Muls(acc, x, b, 64);\n        Muls(acc, x, c, 64);\n"
                        "        Muls(acc, x, d, 64);\n", "")
    text = text.replace("        inQ.FreeTensor(x);\n", "        inQ.FreeTensor(x);\n        Muls(acc, x, a, 64);\n")
    deque = "        x = inQ.DeQue<float>();\n"
    planted = line_of(text, deque)
    findings = queue_findings(blank(text, deque))
    assert any(f.code == "ASC009" and near(f, planted) for f in findings), findings


def test_a_deque_into_a_view_gives_the_buffer_back_to_every_alias() -> None:
    # batch_norm_v3_welford.h: `q.EnQue(view); view = q.DeQue<T>();` in a helper, and the caller frees the tensor
    # under its own name: no tensor is lost.
    text = CALLEE_ENQUEUES.replace(
        "    __aicore__ inline void CopyIn(int i, LocalTensor<float> t) {\n        DataCopy(t, xGm[i * 256], 256);\n"
        "        inQ.EnQue(t);\n    }\n",
        "    __aicore__ inline void CopyIn(int i, LocalTensor<float>& t) {\n"
        "        LocalTensor<float> v = t.ReinterpretCast<float>();\n        DataCopy(v, xGm[i * 256], 256);\n"
        "        inQ.EnQue(v);\n        v = inQ.DeQue<float>();\n        Adds(t, v[128], 1.0f, 128);\n    }\n")
    text = text.replace("        x = inQ.DeQue<float>();\n", "")
    assert queue_findings(text) == []


def test_has_tensor_in_que_is_decided_when_the_queue_s_contents_are_known() -> None:
    # pad_v3_grad_replicate_h.h: `if (q.HasTensorInQue()) { a = q.DeQue(); } else { a = q.AllocTensor(); ... }`
    # accumulates over calls; the first call allocates, the next ones dequeue (no DeQue on an empty queue).
    body = ("        LocalTensor<half> x = inQ.DeQue<half>();\n        LocalTensor<half> t;\n"
            "        if (tmpQ.HasTensorInQue()) {\n            t = tmpQ.DeQue<half>();\n        } else {\n"
            "            t = tmpQ.AllocTensor<half>();\n            Duplicate(t, (half)0, 256);\n        }\n"
            "        Add(t, t, x, 256);\n        tmpQ.EnQue(t);\n" + FREE_X)
    text = with_compute(body).replace("            CopyOut(i);\n        }\n",
                                      "        }\n        Flush();\n").replace(
        "    __aicore__ inline void CopyOut(int i) {", """    __aicore__ inline void Flush() {
        LocalTensor<half> t = tmpQ.DeQue<half>();
        DataCopy(yGm, t, 256);
        tmpQ.FreeTensor(t);
    }
    __aicore__ inline void CopyOut(int i) {""")
    assert queue_findings(text) == []
    deque = "            t = tmpQ.DeQue<half>();\n"
    planted = line_of(text, deque)
    findings = queue_findings(blank(text, deque))
    assert any(f.code == "ASC009" and near(f, planted) for f in findings), findings


def test_namespace_qualified_type_traits_decide_their_branches() -> None:
    # `if constexpr (AscendC::IsSameType<T, half>::value)` and a kernel's own `IsSame<T, float>`.
    text = TRAITS.replace("std::is_same<T, half>::value", "AscendC::IsSameType<T, half>::value", 1).replace(
        "std::is_same<T, half>::value", "IsSame<T, half>::value", 1)
    assert queue_findings(text) == []
    free = "            accQ.FreeTensor(acc);\n"
    planted = line_of(text, free)
    findings = queue_findings(blank(text, free))
    assert any(f.code == "ASC008" and near(f, planted) for f in findings), findings


def test_an_empty_tensor_passed_with_others_to_a_base_class_helper_is_not_made_a_view() -> None:
    # ascend_quant_v2_fp32.h: `LocalTensor<int8_t> out;` (its DeQue deleted) then `this->MoveOutY(out, yGm, tmp,
    # ...)`: a helper taking more than the two tensors reads out; the free of out is still reported.
    text = with_compute(STAGE_HEAD + "        Adds(t, y, (half)1, 256);\n" + STAGE_RUN).replace(
        "        LocalTensor<half> y = outQ.DeQue<half>();\n        DataCopy(yGm[i * 256], y, 256);\n",
        "        LocalTensor<half> y = outQ.DeQue<half>();\n        LocalTensor<half> t = tmpQ.AllocTensor<half>();\n"
        "        this->MoveOut(y, yGm, t, 256);\n        tmpQ.FreeTensor(t);\n")
    assert queue_findings(text) == []
    deque = "LocalTensor<half> y = outQ.DeQue<half>();\n        LocalTensor<half> t"
    planted = line_of(text, deque)
    findings = queue_findings(text.replace(deque, "LocalTensor<half> y;                     \n        LocalTensor<half> t"))
    assert any(f.code == "ASC009" and near(f, planted) for f in findings), findings


def test_a_tensor_declared_empty_and_used_by_an_api_is_reported_at_its_declaration() -> None:
    # add_layer_norm_single_row_less_tensor.h: `LocalTensor<float> t = q.DeQue<float>();` became `LocalTensor<float>
    # t;` and t is only read (Cast, GetValue), never given back: the empty tensor's use is the bug.
    body = ("        LocalTensor<half> x = inQ.DeQue<half>();\n        LocalTensor<half> t = tmpQ.AllocTensor<half>();\n"
            "        tmpQ.EnQue(t);\n        LocalTensor<half> u = tmpQ.DeQue<half>();\n        Abs(u, x, 256);\n"
            "        half first = u.GetValue(0);\n        LocalTensor<half> y = outQ.AllocTensor<half>();\n"
            "        Adds(y, x, first, 256);\n        tmpQ.FreeTensor(u);\n        outQ.EnQue(y);\n" + FREE_X)
    text = with_compute(body)
    assert queue_findings(text) == []
    mutant = text.replace("        LocalTensor<half> u = tmpQ.DeQue<half>();\n", "        LocalTensor<half> u;\n").replace(
        "        tmpQ.FreeTensor(u);\n", "")
    planted = line_of(mutant, "        LocalTensor<half> u;\n")
    findings = queue_findings(mutant)
    assert any("declared without a tensor and Abs() uses it" in f.message and near(f, planted) for f in findings), findings


def test_an_empty_tensor_a_type_branch_may_fill_is_not_reported() -> None:
    # `LocalTensor<float> g; if constexpr (is_same<T, half>) { g = q.DeQue<float>(); } Mul(..., g, ...)`: the
    # run where T is not half leaves g empty, but that instantiation may never exist.
    text = TRAITS.replace("        Info info;\n", "        Info info;\n        LocalTensor<float> g;\n"
                          "        if (std::is_same<T, half>::value) {\n            g = accQ.AllocTensor<float>();\n"
                          "        }\n        Abs(g, g, 8);\n        if (std::is_same<T, half>::value) {\n"
                          "            accQ.FreeTensor(g);\n        }\n")
    assert queue_findings(text) == []


OVERLOADS_BY_TYPE = """#include "kernel_operator.h"
using namespace AscendC;
template <typename T>
class K {
public:
    __aicore__ inline void Init(GM_ADDR x, uint32_t n) {
        xGm.SetGlobalBuffer((__gm__ T*)x, n);
        pipe.InitBuffer(inQ, 1, 256 * sizeof(float));
        pipe.InitBuffer(fp32Buf, 256 * sizeof(float));
    }
    __aicore__ inline void Process() {
        LocalTensor<T> g = fp32Buf.Get<T>();
        for (int i = 0; i < 4; i++) {
            CopyIn(i);
            Compute(i, g);
        }
    }
private:
    __aicore__ inline void CopyIn(int i) {
        LocalTensor<T> x = inQ.AllocTensor<T>();
        DataCopy(x, xGm[i * 256], 256);
        inQ.EnQue(x);
        if constexpr (IsSame<T, half>::value) {
            LocalTensor<T> h = inQ.DeQue<T>();
            Abs(h, h, 256);
            inQ.FreeTensor(h);
        }
    }
    __aicore__ inline void Compute(int i, LocalTensor<half>& g) {
        Abs(g, g, 256);
    }
    __aicore__ inline void Compute(int i, LocalTensor<float>& g) {
        LocalTensor<float> x = inQ.DeQue<float>();
        Add(g, g, x, 256);
        inQ.FreeTensor(x);
    }
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ;
    TBuf<TPosition::VECCALC> fp32Buf;
    GlobalTensor<T> xGm;
};
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    K<float> op; op.Init(x, 1024); op.Process();
}
"""


def test_an_overload_is_chosen_by_the_instantiated_element_type() -> None:
    # add_rms_norm_split_d.h: CopyIn dequeues itself when T is half; ComputeY(LocalTensor<float>&) dequeues when
    # it is float. Each instantiation runs its own overload (a run where T is neither has none and says nothing).
    assert queue_findings(OVERLOADS_BY_TYPE) == []
    free = "        inQ.FreeTensor(x);\n    }\n    TPipe"
    planted = line_of(OVERLOADS_BY_TYPE, free)
    findings = queue_findings(OVERLOADS_BY_TYPE.replace(free, "                          \n    }\n    TPipe"))
    assert any(f.code == "ASC008" and near(f, planted) for f in findings), findings


def test_a_later_stage_s_deque_does_not_give_the_producer_s_name_back() -> None:
    # mmad_custom.h: Process allocates c, enqueues it and calls CopyOut, whose `c = q.DeQue()` (FreeTensor deleted)
    # loses it at CopyOut's end, not at Process's.
    text = PIPELINE.replace("            Compute(i);\n            CopyOut(i);\n", "            Compute(i);\n            Stage(i);\n")
    text = text.replace("    __aicore__ inline void CopyOut(int i) {", """    __aicore__ inline void Stage(int i) {
        LocalTensor<half> y = outQ.DeQue<half>();
        LocalTensor<half> z = outQ.AllocTensor<half>();
        Abs(z, y, 256);
        outQ.FreeTensor(y);
        outQ.EnQue(z);
""" + BARRIERS + """        CopyOut(i);
    }
    __aicore__ inline void CopyOut(int i) {""")
    free = "        outQ.FreeTensor(y);\n    }\n    TPipe"
    assert queue_findings(text) == []
    planted = line_of(text, free)
    findings = queue_findings(text.replace(free, "                          \n    }\n    TPipe"))
    assert any(f.code == "ASC008" and near(f, planted) for f in findings), findings


def test_a_helper_returning_alloc_tensor_hands_the_tensor_to_its_caller() -> None:
    # gather_v3_tmpl_0.h: `LocalTensor<T> GetTensorData() { return q.template AllocTensor<T>(); }`.
    text = PIPELINE.replace("        LocalTensor<half> x = inQ.AllocTensor<half>();\n        DataCopy(x,",
                            "        LocalTensor<half> x = NewX();\n        DataCopy(x,").replace(
        "    __aicore__ inline void Helper(", "    __aicore__ inline LocalTensor<half> NewX() {\n"
        "        return inQ.AllocTensor<half>();\n    }\n    __aicore__ inline void Helper(")
    assert_placed(text, "        inQ.EnQue(x);\n")


def test_a_tensor_used_while_it_is_in_its_queue_is_reported_at_the_use() -> None:
    # batch_norm_v3_welford.h: `q.EnQue(view); view = q.DeQue<T>();` (deleted) then `Cast(x, view[n], ...)` in a
    # helper; the caller frees x far away.
    text = CALLEE_ENQUEUES.replace(
        "    __aicore__ inline void CopyIn(int i, LocalTensor<float> t) {\n        DataCopy(t, xGm[i * 256], 256);\n"
        "        inQ.EnQue(t);\n    }\n",
        "    __aicore__ inline void CopyIn(int i, LocalTensor<float>& t) {\n"
        "        LocalTensor<float> v = t.ReinterpretCast<float>();\n        DataCopy(v, xGm[i * 256], 256);\n"
        "        inQ.EnQue(v);\n        v = inQ.DeQue<float>();\n        Adds(t, v[128], 1.0f, 128);\n    }\n")
    text = text.replace("        x = inQ.DeQue<float>();\n", "")
    assert queue_findings(text) == []
    deque = "        v = inQ.DeQue<float>();\n"
    planted = line_of(text, deque)
    findings = queue_findings(blank(text, deque))
    assert any("while it is in inQ" in f.message and near(f, planted) for f in findings), findings


def test_an_empty_tensor_an_api_fills_or_the_function_assigns_is_not_reported() -> None:
    # moe_v2_init_routing_fullload.h: `LocalTensor<float> c; Concat(c, src, tmp, n);` (Concat's non-const
    # reference output gives c its buffer); `LocalTensor<float> b; if (...) { b = buf.Get<float>(); } Add(.., b, ..)`.
    body = ("        LocalTensor<half> x = inQ.DeQue<half>();\n        LocalTensor<half> t = tmpQ.AllocTensor<half>();\n"
            "        LocalTensor<half> c;\n        Concat(c, x, t, 1);\n        LocalTensor<half> b;\n"
            "        if (n > 3) {\n            b = t.ReinterpretCast<half>();\n        }\n"
            "        LocalTensor<half> y = outQ.AllocTensor<half>();\n        Add(y, c, b, 256);\n"
            + STAGE_RUN)
    assert queue_findings(with_compute(body)) == []


def test_a_tensor_touched_after_its_enque_and_dequeued_later_is_not_reported() -> None:
    # roi_align_rotated.h / add_rms_norm_cast.h: `q.EnQue(y); PipeBarrier<PIPE_ALL>(); Muls(y, y, ...)` then a later
    # stage dequeues it: real kernels do this; only a tensor then freed still in its queue is reported.
    touched = PIPELINE.replace("        outQ.EnQue(y);\n", "        outQ.EnQue(y);\n        PipeBarrier<PIPE_ALL>();\n"
                               "        Muls(y, y, (half)2, 256);\n")
    assert queue_findings(touched) == []


def test_a_deque_in_a_called_stage_waiting_for_nothing_points_at_the_call() -> None:
    # inplace_index_add_with_sorted_avg.h: `outQ.EnQue(o); CopyOut(i);` with a tensor the analysis does not follow;
    # the EnQue deleted, CopyOut's DeQue waits: the EnQue belongs before the call, far from CopyOut's body.
    text = PIPELINE.replace("            Compute(i);\n            CopyOut(i);\n",
                            "            Compute(i);\n            outQ.EnQue(Scratch());\n            CopyOut(i);\n")
    text = text.replace("        LocalTensor<half> y = outQ.AllocTensor<half>();\n", "").replace(
        "            Adds(y, x, (half)1, 256);\n", "            Adds(x, x, (half)1, 256);\n").replace(
        "            Helper(y, x);\n", "            Helper(x, x);\n").replace("        outQ.EnQue(y);\n", "")
    text = text.replace("class K {\n", "__aicore__ LocalTensor<half> Scratch();\nclass K {\n")
    assert queue_findings(text) == []
    enque = "            outQ.EnQue(Scratch());\n"
    planted = line_of(text, enque)
    findings = queue_findings(blank(text, enque))
    assert any(f.code == "ASC009" and near(f, planted) for f in findings), findings


OUT_OF_LINE = """#include "kernel_operator.h"
using namespace AscendC;
template <typename T, bool A, bool B>
class K {
public:
    __aicore__ inline void Init(GM_ADDR x, uint32_t n);
    __aicore__ inline void Process();
private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ;
    GlobalTensor<T> xGm;
};
template <typename T, bool A, bool B>
__aicore__ inline void K<T,
                         A, B>::Init(GM_ADDR x, uint32_t n) {
    xGm.SetGlobalBuffer((__gm__ T*)x, n);
    pipe.InitBuffer(inQ, 2, 256 * sizeof(T));
}
template <typename T, bool A, bool B>
__aicore__ inline void K<T,
                         A, B>::Process() {
    for (int i = 0; i < 4; i++) {
        LocalTensor<T> x = inQ.AllocTensor<T>();
        DataCopy(x, xGm[i * 256], 256);
        inQ.EnQue(x);
        x = inQ.DeQue<T>();
        Abs(x, x, 256);
        inQ.FreeTensor(x);
    }
}
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    K<half, true, false> op; op.Init(x, 1024); op.Process();
}
"""


def test_methods_defined_out_of_line_with_template_arguments_over_several_lines_are_followed() -> None:
    # weight_quant_batch_matmul_v2_msd_group.h: `K<xType, ...,\n ...>::LaunchMatmul` belongs to class K.
    assert_placed(OUT_OF_LINE, "        inQ.FreeTensor(x);\n")


def test_a_tensor_overwritten_in_the_next_iteration_is_placed_after_its_last_use() -> None:
    # weight_quant_batch_matmul_v2_msd_multicore.h: the member is overwritten by the next iteration's DeQue,
    # above its last use in the text; the give-back belongs after that last use, not at the overwrite.
    member = (PIPELINE.replace("    TQue<QuePosition::VECOUT, 2> outQ;\n",
                               "    TQue<QuePosition::VECOUT, 2> outQ;\n    LocalTensor<half> xm;\n")
              .replace("        LocalTensor<half> x = inQ.DeQue<half>();\n", "        xm = inQ.DeQue<half>();\n")
              .replace("            Adds(y, x, (half)1, 256);\n", "            Adds(y, xm, (half)1, 256);\n")
              .replace("            Helper(y, x);\n", "            Helper(y, xm);\n")
              .replace("        outQ.EnQue(y);\n        inQ.FreeTensor(x);\n",
                       "        outQ.EnQue(y);\n" + BARRIERS + "        Abs(xm, xm, 256);\n        inQ.FreeTensor(xm);\n"))
    assert_placed(member, "        inQ.FreeTensor(xm);\n")


def test_a_member_handed_out_through_a_reference_parameter_and_used_in_a_method_is_placed_after_that_call() -> None:
    # batch_norm_v3_welford.h: `CopyOut(member)` enqueues and dequeues into its reference parameter (the
    # member), and a later method reads the member; the free belongs after that method's call.
    member = (PIPELINE.replace("    TQue<QuePosition::VECOUT, 2> outQ;\n",
                               "    TQue<QuePosition::VECOUT, 2> outQ;\n    LocalTensor<half> xm;\n")
              .replace("        LocalTensor<half> x = inQ.DeQue<half>();\n", "        xm = inQ.DeQue<half>();\n        Pass(xm);\n")
              .replace("            Adds(y, x, (half)1, 256);\n", "            Adds(y, y, (half)1, 256);\n")
              .replace("        if (n > 3) {\n            Helper(y, x);\n        }\n", BARRIERS)
              .replace("        outQ.EnQue(y);\n        inQ.FreeTensor(x);\n",
                       "        outQ.EnQue(y);\n        UseXm();\n        inQ.FreeTensor(xm);\n")
              .replace("    __aicore__ inline void CopyOut(int i) {",
                       "    __aicore__ inline void Pass(LocalTensor<half>& t) {\n        inQ.EnQue(t);\n"
                       "        t = inQ.DeQue<half>();\n    }\n"
                       "    __aicore__ inline void UseXm() {\n        Abs(xm, xm, 256);\n    }\n"
                       "    __aicore__ inline void CopyOut(int i) {"))
    assert_placed(member, "        inQ.FreeTensor(xm);\n")


def test_a_tensor_handed_out_under_a_condition_is_given_back_under_the_same_condition() -> None:
    # scatter_list_rlble.h: `if (!noMask) m = maskQ.DeQue();` ... `if (!noMask) maskQ.FreeTensor(m);`: the two
    # ifs go together (a plain merge of the branches made m unknown, so a deleted free went unseen).
    text = PIPELINE.replace("    TQue<QuePosition::VECOUT, 2> outQ;\n",
                            "    TQue<QuePosition::VECOUT, 2> outQ;\n    TQue<QuePosition::VECIN, 1> maskQ;\n    bool noMask;\n")
    text = text.replace("        this->n = n;\n", "        this->n = n;\n        noMask = n > 5;\n"
                        "        pipe.InitBuffer(maskQ, 1, 256);\n")
    text = text.replace("        inQ.EnQue(x);\n    }\n", "        inQ.EnQue(x);\n        if (!noMask) {\n"
                        "            LocalTensor<uint8_t> m = maskQ.AllocTensor<uint8_t>();\n            maskQ.EnQue(m);\n"
                        "        }\n    }\n", 1)
    text = text.replace("        LocalTensor<half> y = outQ.DeQue<half>();\n",
                        "        LocalTensor<half> y = outQ.DeQue<half>();\n        LocalTensor<uint8_t> m;\n"
                        "        if (!noMask) {\n            m = maskQ.DeQue<uint8_t>();\n        }\n"
                        "        if (noMask || m.GetValue(0) == 1) {\n            Abs(y, y, 256);\n        }\n")
    text = text.replace("        outQ.FreeTensor(y);\n",
                        "        outQ.FreeTensor(y);\n        if (!noMask) {\n            maskQ.FreeTensor(m);\n        }\n")
    assert_placed(text, "            maskQ.FreeTensor(m);\n")
    # The condition's variable written between the two ifs: they no longer go together, nothing is claimed.
    rewritten = text.replace("        if (noMask || m.GetValue(0) == 1) {\n",
                             "        noMask = !noMask;\n        if (noMask || m.GetValue(0) == 1) {\n")
    assert queue_findings(rewritten) == []
    assert queue_findings(blank(rewritten, "            maskQ.FreeTensor(m);\n")) == []


def test_a_member_still_holding_a_dequeued_tensor_when_the_kernel_ends_is_reported() -> None:
    # foreach_norm.h: Init enqueues a tensor once, Process dequeues it into a member and frees it at its end.
    text = PIPELINE.replace("    TQue<QuePosition::VECOUT, 2> outQ;\n",
                            "    TQue<QuePosition::VECOUT, 2> outQ;\n    TQue<QuePosition::VECCALC, 1> accQ;\n"
                            "    LocalTensor<float> acc;\n")
    text = text.replace("        this->n = n;\n", "        this->n = n;\n        pipe.InitBuffer(accQ, 1, 256);\n"
                        "        LocalTensor<float> a = accQ.AllocTensor<float>();\n        accQ.EnQue(a);\n")
    text = text.replace("    __aicore__ inline void Process() {\n",
                        "    __aicore__ inline void Process() {\n        acc = accQ.DeQue<float>();\n")
    text = text.replace("            CopyOut(i);\n        }\n", "            CopyOut(i);\n            Duplicate(acc, 0.0f, 8);\n"
                        "        }\n" + BARRIERS + "        accQ.FreeTensor(acc);\n")
    assert_placed(text, "        accQ.FreeTensor(acc);\n")


def test_an_out_of_line_method_whose_name_starts_a_new_line_is_followed() -> None:
    # quant_group_matmul_custom.asc: `K<...>::\n    Compute(...)` is K's `Compute`; not following it, the
    # kernel's correct EnQue/DeQue looked unpaired (two errors on a known-correct file).
    text = OUT_OF_LINE.replace("        x = inQ.DeQue<T>();\n        Abs(x, x, 256);\n        inQ.FreeTensor(x);\n",
                               "        Compute();\n")
    text = text.replace("    __aicore__ inline void Process();\n",
                        "    __aicore__ inline void Process();\n    __aicore__ inline void Compute();\n")
    text = text.replace('extern "C"', """template <typename T, bool A, bool B>
__aicore__ inline void K<T, A, B>::
    Compute() {
    LocalTensor<T> x = inQ.DeQue<T>();
    Abs(x, x, 256);
    inQ.FreeTensor(x);
}
extern "C\"""")
    assert_placed(text, "    inQ.FreeTensor(x);\n")


def test_a_tensor_declared_in_a_block_with_an_if_inside_is_lost_at_the_block_s_end() -> None:
    # rms_norm_grad_whole_reduce_d.h: the main loop and then the tail block (`if (tail != 0) { t = Alloc ...
    # if (...) {...} FreeTensor(t); }`) each declare t; an `if` inside the block hid the block's end.
    block = ("            LocalTensor<half> t = tmpQ.AllocTensor<half>();\n            if (n > 3) {\n"
             "                Abs(t, x, 256);\n            }\n            tmpQ.FreeTensor(t);\n")
    body = ("        LocalTensor<half> x = inQ.DeQue<half>();\n        for (int k = 0; k < 2; k++) {\n" + block
            + "        }\n        if (n > 1) {\n" + block + "        }\n" + BARRIERS + "        inQ.FreeTensor(x);\n"
            "        LocalTensor<half> y = outQ.AllocTensor<half>();\n        outQ.EnQue(y);\n")
    text = with_compute(body)
    assert queue_findings(text) == []
    free = "            tmpQ.FreeTensor(t);\n"
    at = text.rindex(free)
    planted = text[:at].count("\n")
    mutant = text[:at] + " " * (len(free) - 1) + "\n" + text[at + len(free):]
    findings = [f for f in queue_findings(mutant) if f.code == "ASC008" and near(f, planted)]
    assert findings, queue_findings(mutant)
    lost = [r for r in findings[0].related if "is lost here" in r.message]
    assert lost and lost[0].span.start.line == planted + 1, findings  # the tail block's closing brace


def test_a_give_back_on_the_last_iteration_of_a_loop_is_a_give_back() -> None:
    # rms_norm_grad_split_n.h: `for (i = 0; i < n; i++) { ... if (i == n - 1) { inQ.FreeTensor(x); } }`
    # gives x back once, on the last iteration: no "on some paths" warning for it.
    body = ("        LocalTensor<half> x = inQ.DeQue<half>();\n        LocalTensor<half> y = outQ.AllocTensor<half>();\n"
            "        for (uint32_t k = 0; k < n; k++) {\n            Adds(y, x, (half)1, 256);\n"
            "            if (k == n - 1) {\n                inQ.FreeTensor(x);\n            }\n        }\n"
            "        outQ.EnQue(y);\n")
    assert queue_findings(with_compute(body)) == []


def test_a_missing_free_inside_a_called_helper_is_placed_with_the_helper_s_give_backs() -> None:
    # deep_norm_grad_cut_d.h: Compute passes x and t to a helper that uses both and frees them; the free of x
    # deleted there is lost when Compute ends, but belongs in the helper after x's last use.
    helper = ("    __aicore__ inline void Finish(LocalTensor<half>& x, LocalTensor<half>& t) {\n"
              "        Adds(t, x, (half)1, 256);\n        inQ.FreeTensor(x);\n        tmpQ.FreeTensor(t);\n    }\n")
    body = ("        LocalTensor<half> x = inQ.DeQue<half>();\n        LocalTensor<half> t = tmpQ.AllocTensor<half>();\n"
            "        LocalTensor<half> y = outQ.AllocTensor<half>();\n        Adds(y, y, (half)1, 256);\n"
            + BARRIERS + "        Finish(x, t);\n" + BARRIERS + "        outQ.EnQue(y);\n")
    text = with_compute(body).replace("    __aicore__ inline void CopyOut(int i) {", helper + "    __aicore__ inline void CopyOut(int i) {")
    assert_placed(text, "        inQ.FreeTensor(x);\n")


def test_a_free_missing_from_one_branch_is_placed_in_that_branch() -> None:
    # group_norm_grad.h: `if (dx) { ...; q.FreeTensor(t); } else { q.FreeTensor(t); }`, far below t's last
    # use: the else's free deleted belongs in the else, not at the last use.
    body = ("        LocalTensor<half> x = inQ.DeQue<half>();\n        LocalTensor<half> y = outQ.AllocTensor<half>();\n"
            "        Adds(y, x, (half)1, 256);\n" + BARRIERS + "        if (n > 3) {\n" + BARRIERS
            + "            inQ.FreeTensor(x);\n            outQ.EnQue(y);\n        } else {\n"
            "            outQ.EnQue(y);\n            inQ.FreeTensor(x);\n        }\n" + BARRIERS)
    text = with_compute(body)
    assert queue_findings(text) == []
    free = "            inQ.FreeTensor(x);\n        }\n"
    at = text.index(free)
    planted = text[:at].count("\n")
    mutant = text[:at] + " " * 30 + "\n        }\n" + text[at + len(free):]
    findings = queue_findings(mutant)
    assert any(f.code == "ASC008" and near(f, planted) and "on some paths" in f.message for f in findings), findings


def test_a_free_missing_from_a_stage_s_free_helper_is_placed_in_that_helper() -> None:
    # dequant_swiglu_quant_dynamic_base.hpp: `TakeBuffers()` dequeues members, the loop body uses them and
    # calls `FreeBuffers()`; a free deleted there is found where the next TakeBuffers() overwrites the member,
    # and belongs in FreeBuffers() with the others.
    text = (PIPELINE.replace("    TQue<QuePosition::VECOUT, 2> outQ;\n",
                             "    TQue<QuePosition::VECOUT, 2> outQ;\n    TQue<QuePosition::VECIN, 1> sQ;\n"
                             "    LocalTensor<half> xm;\n    LocalTensor<half> sm;\n")
            .replace("        this->n = n;\n", "        this->n = n;\n        pipe.InitBuffer(sQ, 1, 256 * sizeof(half));\n")
            .replace("        inQ.EnQue(x);\n    }\n", "        inQ.EnQue(x);\n        LocalTensor<half> s = sQ.AllocTensor<half>();\n"
                     "        sQ.EnQue(s);\n    }\n", 1)
            .replace("        LocalTensor<half> x = inQ.DeQue<half>();\n", "        TakeBuffers();\n")
            .replace("            Adds(y, x, (half)1, 256);\n", "            Add(y, xm, sm, 256);\n")
            .replace("            Helper(y, x);\n", "            Helper(y, xm);\n")
            .replace("        outQ.EnQue(y);\n        inQ.FreeTensor(x);\n", "        outQ.EnQue(y);\n        FreeBuffers();\n")
            .replace("    __aicore__ inline void CopyOut(int i) {",
                     "    __aicore__ inline void TakeBuffers() {\n        xm = inQ.DeQue<half>();\n        sm = sQ.DeQue<half>();\n    }\n"
                     "    __aicore__ inline void FreeBuffers() {\n        sQ.FreeTensor(sm);\n        inQ.FreeTensor(xm);\n    }\n"
                     "    __aicore__ inline void CopyOut(int i) {"))
    assert_placed(text, "        inQ.FreeTensor(xm);\n")


ACCUMULATOR = """#include "kernel_operator.h"
using namespace AscendC;
class K {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y) {
        xGm.SetGlobalBuffer((__gm__ float*)x, 1024);
        yGm.SetGlobalBuffer((__gm__ float*)y, 8);
        pipe.InitBuffer(inQ, 1, 256 * sizeof(float));
        pipe.InitBuffer(outQ, 1, 32);
        acc = outQ.AllocTensor<float>();
        Duplicate<float>(acc, 0.f, 8);
    }
    __aicore__ inline void Process() {
        for (int i = 0; i < 4; i++) {
            CopyIn(i);
            Compute();
        }
        CopyOut();
    }
private:
    __aicore__ inline void CopyIn(int i) {
        LocalTensor<float> x = inQ.AllocTensor<float>();
        DataCopy(x, xGm[i * 256], 256);
        inQ.EnQue(x);
    }
    __aicore__ inline void Compute() {
        LocalTensor<float> x = inQ.DeQue<float>();
        Accumulate(x);
        inQ.FreeTensor(x);
    }
    __aicore__ inline void Accumulate(const LocalTensor<float>& x) {
        Add<float>(acc, x, acc, 8);
    }
    __aicore__ inline void CopyOut() {
""" + "        PipeBarrier<PIPE_ALL>();\n" * 8 + """        outQ.EnQue<float>(acc);
        acc = outQ.DeQue<float>();
        DataCopy(yGm, acc, 8);
""" + "        PipeBarrier<PIPE_ALL>();\n" * 8 + """        outQ.FreeTensor(acc);
    }
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    LocalTensor<float> acc;
    GlobalTensor<float> xGm, yGm;
};
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR y) {
    K op; op.Init(x, y); op.Process();
}
"""


def test_a_tensor_lost_in_the_method_called_after_its_last_use_is_placed_where_it_is_lost() -> None:
    # mse_loss_v2_sum.h: a member accumulator used inside a helper of the loop, then `q.EnQue(acc); acc =
    # q.DeQue<T>();` in CopyOut() called after the loop; that EnQue deleted loses acc at the DeQue. CopyOut's
    # own FreeTensor, far below, is no free helper of the loop: the finding stays at the DeQue.
    assert_placed_any(ACCUMULATOR, "        outQ.EnQue<float>(acc);\n")


def test_a_free_missing_under_else_of_a_preprocessor_if_is_found() -> None:
    # group_norm_silu_b32.h: `#if __CCE_AICORE__ == 220 ... FreeTensor(y) #else ... FreeTensor(y) #endif`: the
    # `#else` configuration is followed too.
    text = PIPELINE.replace(
        "        DataCopy(yGm[i * 256], y, 256);\n        outQ.FreeTensor(y);\n",
        "#if __CCE_AICORE__ == 220\n        DataCopy(yGm[i * 256], y, 256);\n        outQ.FreeTensor(y);\n#else\n"
        "        if (n > 2) {\n            DataCopy(yGm[i * 256], y, 256);\n        }\n        outQ.FreeTensor(y);\n"
        "        PipeBarrier<PIPE_ALL>();\n#endif\n")
    at = text.rindex("        outQ.FreeTensor(y);\n")
    planted = text[:at].count("\n")
    assert queue_findings(text) == []
    mutant = text[:at] + " " * 26 + "\n" + text[at + len("        outQ.FreeTensor(y);\n"):]
    findings = queue_findings(mutant)
    assert any(f.code == "ASC008" and near(f, planted) for f in findings), findings


STAGED_IN_INIT = """#include "kernel_operator.h"
using namespace AscendC;
class K {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y) {
        xGm.SetGlobalBuffer((__gm__ float*)x, 1024);
        yGm.SetGlobalBuffer((__gm__ float*)y, 1024);
        pipe.InitBuffer(scratchQ, 1, 256 * sizeof(float));
        LocalTensor<float> s = scratchQ.AllocTensor<float>();
        scratchQ.EnQue(s);
""" + "        PipeBarrier<PIPE_ALL>();\n" * 8 + """    }
    __aicore__ inline void Process() {
        scratch = scratchQ.DeQue<float>();
        for (int i = 0; i < 4; i++) {
            DataCopy(scratch, xGm[i * 256], 256);
            PipeBarrier<PIPE_ALL>();
            DataCopy(yGm[i * 256], scratch, 256);
            PipeBarrier<PIPE_ALL>();
        }
        scratchQ.FreeTensor(scratch);
    }
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> scratchQ;
    LocalTensor<float> scratch;
    GlobalTensor<float> xGm, yGm;
};
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR y) {
    K op; op.Init(x, y); op.Process();
}
"""


def test_a_tensor_enqueued_by_init_and_never_dequeued_points_at_the_next_stage() -> None:
    # foreach_norm.h: Init allocates and enqueues a member's tensor, Process() starts with its DeQue; that
    # DeQue deleted leaves the tensor in its queue, and the finding points at Process(), where the DeQue belongs.
    deleted = "        scratch = scratchQ.DeQue<float>();\n"
    assert queue_findings(STAGED_IN_INIT) == []
    planted = line_of(STAGED_IN_INIT, deleted)
    findings = queue_findings(blank(STAGED_IN_INIT, deleted))
    assert any(f.code == "ASC009" and near(f, planted) and "Process()" in f.message for f in findings), findings
