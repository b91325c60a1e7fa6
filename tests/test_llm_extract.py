"""Code extraction from model replies the way real models write them."""

from __future__ import annotations

from ascendc_lsp.llm.extract import extract_code, strip_thinking

KERNEL = '''#include "kernel_operator.h"
extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
}
'''


def test_think_block_and_prose_are_dropped() -> None:
    reply = f"<think>Maybe ```cpp\nint wrong;\n``` no.</think>\nSure! Here it is:\n```cpp\n{KERNEL}```\nDone."
    ex = extract_code(reply, "add_custom")
    assert ex.ok and ex.code == KERNEL and "wrong" not in ex.code


def test_picks_the_block_with_the_kernel_entry() -> None:
    reply = (
        "Host side:\n```cpp\nint main() { return 0; }\n```\nBuild:\n```bash\nbash run.sh\n```\n"
        f"Kernel:\n```c++\n{KERNEL}```\n"
    )
    ex = extract_code(reply, "add_custom")
    assert ex.ok and "add_custom(GM_ADDR" in ex.code and "main" not in ex.code and ex.blocks == 3


def test_unterminated_block_is_taken_and_flagged() -> None:
    ex = extract_code(f"Here:\n```cpp\n{KERNEL}", "add_custom")
    assert ex.ok and ex.truncated and "add_custom" in ex.code


def test_unterminated_think_hides_reasoning_unless_code_follows() -> None:
    assert strip_thinking("<think>still thinking about ```cpp") == ""
    assert extract_code("<think>long reasoning", "add_custom").reason.startswith("the reply held only reasoning")
    ex = extract_code(f"<think>plan...\n```cpp\n{KERNEL}```", "add_custom")
    assert ex.ok


def test_closing_think_without_opening_tag() -> None:
    ex = extract_code(f"the prompt opened it... </think>\n```cpp\n{KERNEL}```", "add_custom")
    assert ex.ok and ex.code == KERNEL


def test_no_code_and_empty_replies() -> None:
    assert not extract_code("", "k").ok
    ex = extract_code("I am sorry, I cannot write that kernel.", "k")
    assert not ex.ok and "no code block" in ex.reason
    assert not extract_code("```python\nprint(1)\n```", "k").ok


def test_unfenced_code_is_recovered() -> None:
    ex = extract_code(f"The kernel follows.\n\n{KERNEL}\nThat is all.", "add_custom")
    assert ex.ok and ex.code.startswith("#include") and "That is all" not in ex.code


def test_helper_block_defining_the_class_is_merged() -> None:
    helper = "struct TilingData {\n    uint32_t n;\n};\n"
    entry = (
        '#include "kernel_operator.h"\nextern "C" __global__ __aicore__ void k(GM_ADDR x, TilingData tiling)\n'
        "{\n    TilingData t = tiling;\n}\n"
    )
    ex = extract_code(f"```cpp\n{helper}```\nand\n```cpp\n{entry}```", "k")
    assert ex.ok and ex.code.index("struct TilingData") < ex.code.index("void k(")
