"""Large inputs stay linear: structural checks (counts, not timings) on inputs written here, one per super-linear
path found by bench/large_input.py."""

from __future__ import annotations

from ascendc_lsp.checks.base import CheckContext
from ascendc_lsp.checks.engine import CheckOptions, check_document
from ascendc_lsp.checks.rules import _lifecycle
from ascendc_lsp.syntax.document import SourceDocument
from ascendc_lsp.syntax.model import build_model

CLASS = """class Kernel{n} {{
public:
    __aicore__ inline void Init(GM_ADDR x) {{
        xGm.SetGlobalBuffer((__gm__ half*)x, 1024);
        pipe.InitBuffer(inQ, 2, 256 * sizeof(half));
    }}
    __aicore__ inline void Process() {{
        for (int i = 0; i < 4; i++) {{
            LocalTensor<half> x = inQ.AllocTensor<half>();
            DataCopy(x, xGm[i * 256], 256);
            inQ.EnQue(x);
            LocalTensor<half> y = inQ.DeQue<half>();
            Abs(y, y, 256);
            {free}
        }}
    }}
private:
    TPipe pipe;
    TQue<TPosition::VECIN, 2> inQ;
    GlobalTensor<half> xGm;
}};
"""


def dispatching_kernel(classes: int, leaking: int = -1) -> str:
    """One kernel entry choosing its class by tiling key, an `op` per branch (cann-ops' dequant_swiglu_quant
    does this with 26 branches), each class its own queue pipeline; class `leaking` never frees its tensor."""
    parts = ['#include "kernel_operator.h"\nusing namespace AscendC;\n']
    for n in range(classes):
        parts.append(CLASS.format(n=n, free="" if n == leaking else "inQ.FreeTensor(y);"))
    parts.append('extern "C" __global__ __aicore__ void dispatch(GM_ADDR x, GM_ADDR tiling) {\n')
    for n in range(classes):
        parts.append(f"    if (TILING_KEY_IS({n})) {{\n        Kernel{n} op;\n        op.Init(x);\n"
                     "        op.Process();\n    }\n")  # fmt: skip
    parts.append("}\n")
    return "".join(parts)


def test_each_class_runs_the_calls_on_its_own_object_only() -> None:
    """Init/Process of each class run once, not once per branch of the dispatch (which made the lifecycle
    analysis quadratic in the branches and gave up past its step budget: 190 s on a 98 KB real kernel)."""
    document = SourceDocument(dispatching_kernel(12), path="dispatch.cpp")
    model = build_model(document)
    context = CheckContext(document, model)
    for owner in model.classes:
        functions = [f for f in model.functions if f.class_name == owner.name]
        driven = _lifecycle._driven(context, owner, functions)
        assert [f.name for f in driven] == ["Init", "Process"], owner.name
        assert all(f.class_name == owner.name for f in driven)


def test_a_leak_in_one_branch_of_a_wide_dispatch_is_still_found() -> None:
    findings = check_document(SourceDocument(dispatching_kernel(30, leaking=17), path="dispatch.cpp"),
                              CheckOptions(soc_name="Ascend910B"))  # fmt: skip
    lifecycle = [d for d in findings if "never freed" in d.message]
    assert lifecycle, [d.message for d in findings]
    text = dispatching_kernel(30, leaking=17)
    leaking_class = text.index("class Kernel17 ")
    next_class = text.index("class Kernel18 ")
    lines = [d.span.start.line for d in lifecycle]
    first, last = text.count("\n", 0, leaking_class), text.count("\n", 0, next_class)
    assert all(first <= line < last for line in lines), [(d.span.start.line, d.message) for d in lifecycle]
