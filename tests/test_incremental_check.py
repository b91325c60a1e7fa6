"""The incremental check (checks/incremental.py) gives exactly the findings of a fresh check, edit after edit.

Each sequence mixes the edits an editor sends: a number changed inside a function, a top-level constant changed
(read by other units), a comment typed, a line break (every later line moves), an identifier renamed into another
top-level name (a dependency appears or goes), a unit copied in and removed again, a line deleted (often a syntax
error), an undo. After every step the incremental findings must equal a fresh `check_document` of the same text,
and over a sequence some steps must have been answered partially (else this would test nothing).
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pytest

from ascendc_lsp.checks import incremental
from ascendc_lsp.checks.engine import CheckOptions, check_document, check_incrementally, finding_order
from ascendc_lsp.checks.incremental import CheckedVersion, units_of
from ascendc_lsp.syntax.document import SourceDocument
from tests.public_sources import tree_or_skip

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
OPTIONS = CheckOptions(use_project=False)

# Public op kernels with several top-level units (classes, constants, entries), from two unrelated repositories.
PUBLIC = {
    "Hayden727+cann-ops": [
        "src/math/matmul_leakyrelu/op_kernel/matmul_leakyrelu.cpp",
        "src/math/gcd/op_kernel/gcd.cpp",
        "src/math/sin/op_kernel/sin.cpp",
        "src/math/heaviside/op_kernel/heaviside.cpp",
    ],
    "weich97+NPUKernelBench": [
        "tasks/level2/TensorMove/ReverseSequence/answer/0/op_kernel/reverse_sequence.cpp",
        "tasks/level2/Activation/SwiGluGrad/answer/0/op_kernel/swi_glu_grad.cpp",
        "tasks/level2/TensorMove/CoalesceSparse/answer/0/op_kernel/coalesce_sparse.cpp",
        "tasks/level1/Math/Sscal/answer/0/op_kernel/sscal.cpp",
    ],
}

_NUMBER = re.compile(r"(?<![\w.])\d+(?![\w.])")
_IDENTIFIER = re.compile(r"\b[A-Za-z_]\w*\b")
_VALUES = ["1", "3", "8", "81", "4096", "65536", "0", "2"]


def _code_lines(text: str) -> list[int]:
    """Indices of lines that hold code (not blank, not only a comment, not a directive)."""
    out = []
    for index, line in enumerate(text.split("\n")):
        stripped = line.strip()
        if stripped and not stripped.startswith(("//", "/*", "*", "#")):
            out.append(index)
    return out


def _declared_names(text: str) -> list[str]:
    return sorted({name for unit in units_of(SourceDocument(text)) for name in unit.declares if name.isidentifier()})


def _replace_match(text: str, match: re.Match[str], replacement: str) -> str:
    return text[: match.start()] + replacement + text[match.end() :]


def _edit(text: str, kind: str, rng: random.Random, added: list[str]) -> str:
    lines = text.split("\n")
    code = _code_lines(text) or [0]
    if kind == "number":
        matches = [m for i in code for m in _NUMBER.finditer(lines[i]) if "//" not in lines[i][: m.start()]]
        if not matches:
            return text
        match = rng.choice(matches)
        line = next(i for i in code if lines[i] == match.string)
        lines[line] = _replace_match(lines[line], match, rng.choice(_VALUES))
        return "\n".join(lines)
    if kind == "constant":
        constants = [i for i, line in enumerate(lines) if re.match(r"\s*(static\s+)?constexpr\b.*=\s*\d+\s*;", line)]
        if not constants:
            return _edit(text, "number", rng, added)
        line = rng.choice(constants)
        lines[line] = re.sub(r"=\s*\d+\s*;", f"= {rng.choice(_VALUES)};", lines[line])
        return "\n".join(lines)
    if kind == "comment":
        line = rng.choice(code)
        lines[line] += " // typed"
        return "\n".join(lines)
    if kind == "newline":
        line = rng.randrange(len(lines))
        lines.insert(line, "")
        return "\n".join(lines)
    if kind == "rename":
        names = _declared_names(text)
        line = rng.choice(code)
        matches = [m for m in _IDENTIFIER.finditer(lines[line]) if "//" not in lines[line][: m.start()]]
        if not names or not matches:
            return text
        lines[line] = _replace_match(lines[line], rng.choice(matches), rng.choice(names))
        return "\n".join(lines)
    if kind == "add_unit":
        document = SourceDocument(text)
        units = [u for u in units_of(document) if u.declares and u.kind != "declaration"]
        if not units:
            return text
        unit = rng.choice(units)
        copy = document.data[unit.start : unit.end].decode("utf-8", "replace")
        for name in unit.declares:
            copy = re.sub(rf"\b{re.escape(name)}\b", f"{name}_copy", copy)
        added.append("\n" + copy + ("" if copy.rstrip().endswith(";") else ";") + "\n")
        return text + added[-1]
    if kind == "remove_unit":
        if added and text.endswith(added[-1]):
            return text[: -len(added.pop())]
        return text
    if kind == "delete_line":
        del lines[rng.choice(code)]
        return "\n".join(lines)
    raise AssertionError(kind)


_KINDS = ["number", "constant", "comment", "newline", "rename", "add_unit", "remove_unit", "delete_line"]


def _replay(text: str, steps: int, seed: int, path: str = "") -> tuple[int, int]:
    """Edits `text` `steps` times; after each step incremental == fresh. (partial steps, steps)."""
    rng = random.Random(seed)
    document = SourceDocument(text, path=path, version=1)
    checked: CheckedVersion = check_incrementally(None, document, OPTIONS)
    history = [text]
    added: list[str] = []
    partial = 0
    for step in range(steps):
        kind = rng.choice(_KINDS)
        if kind == "delete_line" and rng.random() < 0.5:
            kind = "number"  # keep most versions free of syntax errors: those are always checked whole
        if step % 5 == 4 and len(history) > 1:
            text, kind = history[-2], "undo"
        else:
            text = _edit(text, kind, rng, added)
        history.append(text)
        document = SourceDocument(text, path=path, version=step + 2, previous=document)
        before = checked
        checked = check_incrementally(before, document, OPTIONS)
        fresh = sorted(check_document(SourceDocument(text, path=path), OPTIONS), key=finding_order)
        assert [f.to_json() for f in checked.findings] == [f.to_json() for f in fresh], (
            f"step {step} ({kind}) of seed {seed}: incremental findings differ from a fresh check"
        )
        partial += checked.incremental
    return partial, steps


def _example_pair(name: str) -> str:
    """An example and its buggy twin in one file, the twin's top-level names renamed: two independent halves."""
    good = (EXAMPLES / name / f"{name}.cpp").read_text(encoding="utf-8")
    buggy = (EXAMPLES / name / f"{name}_buggy.cpp").read_text(encoding="utf-8")
    for unit_name in _declared_names(buggy):
        buggy = re.sub(rf"\b{re.escape(unit_name)}\b", f"{unit_name}_b", buggy)
    return good + "\n" + buggy


@pytest.mark.parametrize(
    "name", ["add_double_buffer", "softmax_rows", "leaky_relu_tail", "cast_hypot", "reduce_rows", "matmul_cube",
             "tbuf_manual_sync"],
)  # fmt: skip
def test_examples_edit_after_edit(name: str) -> None:
    text = _example_pair(name)
    partial, steps = _replay(text, steps=16, seed=len(name))
    assert partial > 0, f"no step of {steps} reused anything"


@pytest.mark.parametrize("tree,relative", [(t, p) for t, paths in PUBLIC.items() for p in paths])
def test_public_kernels_edit_after_edit(tree: str, relative: str) -> None:
    source = tree_or_skip(tree) / relative
    if not source.is_file():
        pytest.skip(f"{relative} is not in this snapshot of {tree}")
    text = source.read_text(encoding="utf-8", errors="replace")
    _replay(text, steps=12, seed=len(relative), path="")


def test_bench_kernel_code_edits_are_partial() -> None:
    """The latency bench's edit (a constant read by one class, 8 <-> 81) never re-checks the whole file."""
    sys.path.insert(0, str(ROOT / "bench"))
    from lsp_latency import edit_place, generate_kernel

    lines = generate_kernel(400).splitlines()
    text = "\n".join(lines)
    line, column = edit_place(lines, "code")
    document = SourceDocument(text, version=1)
    checked = check_incrementally(None, document, OPTIONS)
    for k in range(4):
        edited = list(lines)
        if k % 2 == 0:
            edited[line] = edited[line][:column] + "1" + edited[line][column:]
        document = SourceDocument("\n".join(edited), version=k + 2, previous=document)
        before = checked
        checked = check_incrementally(before, document, OPTIONS)
        assert checked.incremental and checked.partial is not None and checked.partial is not before.partial
        assert re.fullmatch(r"partial: \d+ of \d+ units", checked.how), checked.how
        fresh = sorted(check_document(SourceDocument(document.text), OPTIONS), key=finding_order)
        assert [f.to_json() for f in checked.findings] == [f.to_json() for f in fresh]
        blanked = checked.partial.text
        assert len(blanked.split()) < len(document.text.split()) / 3, "most of the file was blanked"


def test_a_dependency_through_a_constant_is_followed() -> None:
    """Changing constants that only another unit reads changes that unit's findings (its UB overflows); the
    copies that do not read them are reused."""
    sys.path.insert(0, str(ROOT / "bench"))
    from lsp_latency import generate_kernel

    kernel = "\n".join(generate_kernel(300).splitlines())
    document = SourceDocument(kernel, version=1)
    checked = check_incrementally(None, document, OPTIONS)
    bigger = kernel.replace("TOTAL_LENGTH_1 = 8 * 2048;", "TOTAL_LENGTH_1 = 8 * 2048 * 1024;")
    assert bigger != kernel
    document = SourceDocument(bigger, version=2, previous=document)
    after = check_incrementally(checked, document, OPTIONS)
    fresh = sorted(check_document(SourceDocument(bigger), OPTIONS), key=finding_order)
    assert [f.to_json() for f in after.findings] == [f.to_json() for f in fresh]
    assert len(fresh) > len(checked.findings), "the edit must change the findings"
    assert after.incremental, "only the copy reading the constant is checked again"


def test_unknown_top_level_shapes_declare_what_they_mention() -> None:
    """A node of a shape the unit cutter does not know may declare anything it names (more dependencies)."""
    document = SourceDocument("FOO_MACRO(Alpha, Beta)\nint Gamma = Alpha;\n")
    units = [u for u in units_of(document) if u.kind not in ("comment", ";")]
    assert units and all(units), units
    components = incremental._components(units)
    assert len(set(components)) == 1, "Gamma reads Alpha, which the macro call may declare"


def _two_kernels() -> tuple[str, str, str]:
    """The bench's kernel copies 0 and 1 (same member names, different classes), as (whole, copy 0, copy 1)."""
    sys.path.insert(0, str(ROOT / "bench"))
    from lsp_latency import generate_kernel

    text = "\n".join(generate_kernel(120).splitlines())
    split = text.index("constexpr int32_t TOTAL_LENGTH_1")
    return text, text[:split], text[split:]


def _assert_edit_matches(before: str, after: str) -> CheckedVersion:
    first = SourceDocument(before, version=1)
    checked = check_incrementally(None, first, OPTIONS)
    second = SourceDocument(after, version=2, previous=first)
    result = check_incrementally(checked, second, OPTIONS)
    fresh = sorted(check_document(SourceDocument(after), OPTIONS), key=finding_order)
    assert [f.to_json() for f in result.findings] == [f.to_json() for f in fresh]
    return result


@pytest.mark.parametrize("where", ["escape", "deque"])
def test_queues_matched_by_name_across_classes(where: str) -> None:
    """The queue rules match a queue's name across the whole file: a class passing `inQueueX` to other code, or
    dequeuing it, changes what is said about another class's `inQueueX`. Those classes are checked together."""
    _, zero, one = _two_kernels()
    leak = "        inQueueX.FreeTensor(xLocal);\n"
    assert leak in one
    one = one.replace(leak, "", 1)  # copy 1 loses a tensor of inQueueX
    if where == "escape":
        zero = zero.replace("            CopyIn(i);\n", "            Inspect(inQueueX);\n            CopyIn(i);\n", 1)
    else:
        one = one.replace("inQueueX.DeQue<half>()", "inQueueX.AllocTensor<half>()", 1)
    before = zero + one
    after = before.replace("TILE_NUM_1 = 8;", "TILE_NUM_1 = 4;")
    assert after != before
    _assert_edit_matches(before, after)


def test_a_method_another_class_defines_counts_as_the_files_own() -> None:
    """Rules read "the functions this file defines" with every class's methods (sync.py: a call to one may
    synchronise): copy 1 calling a name only copy 0 defines as a method is checked with copy 0."""
    _, zero, one = _two_kernels()
    zero = zero.replace("private:\n    TPipe pipe;", "public:\n    __aicore__ inline void Settle() {}\nprivate:\n    TPipe pipe;", 1)
    one = one.replace("            CopyIn(i);\n", "            Settle();\n            CopyIn(i);\n", 1)
    assert "void Settle()" in zero and "Settle();" in one
    before = zero + one
    result = _assert_edit_matches(before, before.replace("TILE_NUM_1 = 8;", "TILE_NUM_1 = 4;"))
    assert not result.incremental, "the two copies are one component: the whole file (both) is checked"
    assert result.how == "full: most of the file is reached by the edit"


def test_namespace_findings_are_about_the_whole_file() -> None:
    """ASC031 counts an API name's uses across the file: never reused, never taken from a partial check."""
    _, zero, one = _two_kernels()
    before = zero.replace("using namespace AscendC;", "") + one
    assert any(f.code == "ASC031" for f in check_document(SourceDocument(before), OPTIONS))
    result = _assert_edit_matches(before, before.replace("TILE_NUM_1 = 8;", "TILE_NUM_1 = 4;"))
    assert not result.incremental
    assert result.how == "full: a file-level finding"


def test_a_launch_anywhere_is_read_by_every_kernel_entry() -> None:
    """Whether a kernel entry must be extern "C" depends on a `<<<` launch anywhere in the file."""
    _, zero, one = _two_kernels()
    one = one.replace('extern "C" __global__', "__global__", 1)
    launch = "\nvoid launch_zero(uint8_t* x, uint8_t* y, uint8_t* z)\n{\n    add_custom_0<<<8, nullptr, nullptr>>>(x, y, z);\n}\n"
    before = zero + one + launch
    after = before.replace("TILE_NUM_0 = 8;", "TILE_NUM_0 = 4;")
    _assert_edit_matches(before, after)
    _assert_edit_matches(after, after.replace(launch, "\n"))


def test_tail_code_anywhere_silences_a_block_split() -> None:
    """ASC030 stays silent on a split over GetBlockNum() when tail code is anywhere in the file."""
    _, zero, one = _two_kernels()
    zero = zero.replace("            CopyIn(i);\n", "            int32_t tailLength = i;\n            CopyIn(i);\n", 1)
    one = one.replace("        pipe.InitBuffer(inQueueX", "        int32_t share = TOTAL_LENGTH_1 / GetBlockNum();\n"
                      "        pipe.InitBuffer(inQueueX", 1)
    assert "tailLength" in zero and "GetBlockNum()" in one
    before = zero + one
    without_tail = zero.replace("tailLength", "length") + one
    assert any(f.code == "ASC030" for f in check_document(SourceDocument(without_tail), OPTIONS))
    _assert_edit_matches(before, before.replace("TILE_NUM_1 = 8;", "TILE_NUM_1 = 4;"))


def test_each_check_says_how_its_findings_were_found() -> None:
    """`how` (reported per edit by the server's edit trace and bench/lsp_latency.py) names the path taken."""
    text, _, _ = _two_kernels()
    first = SourceDocument(text, version=1)
    checked = check_incrementally(None, first, OPTIONS)
    assert checked.how == "full: no previous check" and not checked.incremental
    commented = text + "\n// a note at the end\n"
    second = SourceDocument(commented, version=2, previous=first)
    reused = check_incrementally(checked, second, OPTIONS)
    assert reused.how == "reused" and reused.incremental
    broken = SourceDocument(commented.replace("TILE_NUM_1 = 8;", "TILE_NUM_1 = ;"), version=3, previous=second)
    assert check_incrementally(reused, broken, OPTIONS).how == "full: a syntax error"


def test_components_are_reused_only_when_every_unit_names_the_same() -> None:
    """A value edit keeps every unit's names: the previous components are taken as they are (and equal a fresh
    computation); an edit that makes one copy mention another copy's constant joins their components."""
    text, _, _ = _two_kernels()
    first = SourceDocument(text, version=1)
    before = check_incrementally(None, first, OPTIONS)
    valued = SourceDocument(text.replace("TILE_NUM_1 = 8;", "TILE_NUM_1 = 4;"), version=2, previous=first)
    after = check_incrementally(before, valued, OPTIONS)
    assert after.components is before.components
    assert after.components == incremental._components(units_of(valued))
    joined_text = valued.text.replace("TILE_NUM_1 = 4;", "TILE_NUM_1 = TILE_NUM_0;")
    joined = SourceDocument(joined_text, version=3, previous=valued)
    rejoined = check_incrementally(after, joined, OPTIONS)
    assert rejoined.components == incremental._components(units_of(joined))
    assert len(set(rejoined.components)) < len(set(after.components))
    fresh = sorted(check_document(SourceDocument(joined_text), OPTIONS), key=finding_order)
    assert [f.to_json() for f in rejoined.findings] == [f.to_json() for f in fresh]
