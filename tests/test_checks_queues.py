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
