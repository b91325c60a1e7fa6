"""Cues: coarse, stable facts about where a log comes from, for the knowledge layer's stage and category priors.

Which tool printed it (compiler, linker, CMake, pip, TBE, the runtime), which side of an operator project failed
(op_host, op_kernel), what kind of failure it reports (a device exception, a timeout, a precision mismatch).
The names are a fixed vocabulary; what each cue says about the causes is learned by the knowledge layer from
its entries' example messages, not decided here. Plain regexes, compiled on first use.
"""

from __future__ import annotations

import functools
import re

# Coarse, stable facts about a log (which tool printed it, which side of an operator project failed), for the
# knowledge layer's stage and category priors. The names are a fixed vocabulary; what each cue says about the
# causes is learned there (from the entries' example messages), not decided here.
CUE_PATTERNS: tuple[tuple[str, str], ...] = (
    ("host-compile", r"(?:^|[\s/])op_host/[^\s:]+\.(?:cpp|cc|h|hpp):\d+(?::\d+)?:|tiling\w*\.(?:cpp|h):\d+:\d+: (?:fatal )?error"),
    ("kernel-compile", r"(?:^|[\s/])op_kernel/[^\s:]+\.(?:cpp|h|hpp):\d+:\d+:|AscendcCompiler|ascendc_compiler|\bccec\b|\bbisheng\b"),
    ("cann-header", r"(?:tikcpp|tikcfw|/asc/impl|/asc/include|basic_api/|adv_api/)[^\s:]*\.h:\d+:\d+: (?:fatal )?error"),
    ("gcc", r"‘[^’\n]{1,200}’"),
    ("compile", r":\d+:\d+: (?:fatal )?error:|\berror: (?:use of undeclared|no matching|unknown type)|errors? generated"),
    ("link", r"undefined (?:symbol|reference)|ld(?:\.lld)?: error|cannot find -l|collect2|cannot open shared object"),
    ("cmake", r"CMake Error|CMakeLists\.txt|\.cmake:\d+|Configuring incomplete"),
    ("make", r"\bg?make(?:\[\d+\])?: \*\*\*|ninja: build stopped|\bbuild\.sh\b"),
    ("python", r"Traceback \(most recent call last\)|File \"[^\"\n]+\.py\", line \d+|^\w+Error: "),
    ("import", r"ModuleNotFoundError|ImportError|No module named|has no attribute|cannot import name|undefined symbol: \w+"),
    ("pip", r"\bpip3? install|Failed to build wheel|setup\.py|bdist_wheel|building '[^'\n]+' extension|pybind11?"),
    ("torch-ops", r"_OpNamespace|torch\.ops\.|EXEC_NPU_CMD|torch_npu"),
    ("aclnn", r"\baclnn\w*|AclNN_\w+|Nnopbase|GetWorkspaceSize|\bopapi\b|libopapi"),
    ("tbe", r"TBE\(\d+|op_compilation\.py|opc_common|\bopc\b|CompileStage|repository_manager"),
    ("op-project", r"\bmsopgen\b|ir template|AI Core operator files|input_desc|output_desc|op_proto|custom_opp|vendors/|OpDef|build_out"),
    ("device-exception", r"core id is|errorStr|device_error\w*proc|(?:aicore|aivec|aivector|aic|aiv) error|vector core exception|"
                         r"aicore exception|fftsplus|MTE instruction|VEC instruction|mte error info|retCode=0x(?:26|31)\b"),
    ("device-timeout", r"timeout or trap|aicore timeout|vector core timeout|execution times? out|timed out|\b5070(?:14|34|46)\b|超时"),
    ("runtime-code", r"(?<![\w.])(?:50[0-9]\d{3}|56\d{4}|10[07]\d{3}|20\d{4}|36\d{4})(?![\w.])|\bE[ZEHLIK]\d{4}\b"),
    ("precision", r"mismatch|allclose|assert_close|not close|max (?:abs )?diff|精度|accuracy|error ratio|result error|"
                  r"Greatest (?:absolute|relative) difference"),
    ("perf", r"\bperformance\b|\blatency\b|throughput|\bslow\b|\bcycles\b|timeout after \d+|性能"),
    ("cpu-twin", r"\[ERROR\]\[Core_\d|tikicpulib|kern_fwk|_cpu:|Assertion .* failed"),
    ("sanitizer", r"={4,} ?(?:ERROR|WARNING)|mssanitizer|memcheck|racecheck"),
    ("chinese", r"[\u4e00-\u9fff]"),
)


@functools.cache
def _cue_regexes() -> tuple[tuple[str, re.Pattern[str]], ...]:
    return tuple((name, re.compile(rx, re.IGNORECASE | re.MULTILINE)) for name, rx in CUE_PATTERNS)


def log_cues(text: str, limit: int = 200_000) -> list[str]:
    """The cue names (CUE_PATTERNS order) whose pattern occurs in the first `limit` characters of a log."""
    head = text[:limit]
    return [name for name, rx in _cue_regexes() if rx.search(head)]
