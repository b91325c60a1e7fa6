"""The regular expressions and small field helpers the line parsers share."""

from __future__ import annotations

import re

_PATH = r"(?:[A-Za-z]:[\\/])?[^\s:()\[\]<>'\"`][^:\n()\[\]<>\"`]*?"


# file:line[:col]: severity: message  (clang, bisheng, ccec, g++)
_DIAG_RE = re.compile(
    rf"^(?P<file>{_PATH}):(?P<line>\d+)(?::(?P<col>\d+))?:\s*"
    r"(?P<sev>fatal error|error|warning|note|remark|Error|Warning)\s*:\s*(?P<msg>.*)$"
)


# file(line): error ...   (rare, MSVC-ish / some wrappers)
_DIAG_PAREN_RE = re.compile(
    rf"^(?P<file>{_PATH})\((?P<line>\d+)(?:,(?P<col>\d+))?\)\s*:\s*(?P<sev>fatal error|error|warning|note)\s*:?\s*(?P<msg>.*)$"
)


# tool: severity: message  (location-less)
_TOOL_DIAG_RE = re.compile(
    r"^(?:(?P<tool>[A-Za-z_][\w.+-]*(?:\[\d+\])?)\s*:\s*)?(?P<sev>fatal error|error|warning)\s*:\s*(?P<msg>\S.*)$"
)


_INCLUDED_RE = re.compile(
    rf"^(?:In file included from|\s*from)\s+(?P<file>{_PATH}):(?P<line>\d+)(?::(?P<col>\d+))?[:,]?\s*$"
)


_GCC_CONTEXT_RE = re.compile(
    rf"^(?P<file>{_PATH}):\s*(?P<msg>In (?:function|member function|static member function|constructor|destructor|instantiation of|lambda function|substitution of)\b.*|At global scope:.*)$"
)


_GCC_REQUIRED_RE = re.compile(
    rf"^(?P<file>{_PATH}):(?P<line>\d+):(?:(?P<col>\d+):)?\s+(?P<msg>(?:required|recursively required|in (?:expansion|instantiation)) .*)$"
)


_ERRORS_GENERATED_RE = re.compile(
    r"^\d+ (?:errors?|warnings?)(?: and \d+ (?:errors?|warnings?))? generated\.?$"
)


_CARET_RE = re.compile(r"^\s*[\^~]+[~^\s]*$|^\s*\d*\s*\|")


_UNDEF_SYMBOL_RE = re.compile(
    r"undefined (?:symbol|reference)(?: due to [\w-]+)?:?\s*[`'\"]?(?P<sym>[^`'\"\n]+?)[`'\"]?\s*$"
)


_GNU_UNDEF_RE = re.compile(
    rf"^(?P<file>{_PATH}):(?:(?P<line>\d+)|\([^)]*\)):\s*undefined reference to [`'](?P<sym>[^`']+)'"
)


_REFERENCED_RE = re.compile(r"^>>>\s+(?:referenced by\s+)?(?P<what>.*)$")


_CANNOT_FIND_RE = re.compile(r"cannot find (?P<lib>-l[\w.+-]+|[\w./+-]+\.(?:so|a|o))")


_MAKE_RE = re.compile(r"^(?P<tool>g?make(?:\[\d+\])?):\s+\*\*\*\s+(?P<msg>.*?Error\s+(?P<rc>\d+).*)$")


_NINJA_RE = re.compile(r"^(?P<tool>ninja):\s+build stopped:\s*(?P<msg>.*)$|^FAILED:\s+(?P<target>.*)$")


_CMAKE_HEAD_RE = re.compile(
    rf"^CMake (?P<sev>Error|Warning|Deprecation Warning)(?: \((?P<kind>dev)\))?(?: at (?P<file>{_PATH}):(?P<line>\d+)(?: \((?P<cmd>[^)]*)\))?)?\s*:\s*(?P<msg>.*)$"
)


# CANN plog / host log lines: [ERROR] MODULE(pid,proc):time [file.cc:123]tid func:message
_PLOG_RE = re.compile(
    r"^\[(?P<sev>ERROR|WARNING|WARN|INFO|DEBUG|EVENT)\]\s+(?P<mod>[A-Z][A-Z0-9_]*)\((?P<pid>\d*),(?P<proc>[^)]*)\):\s*"
    r"(?P<ts>\S+)\s+\[(?P<src>[^\]:]+):(?P<srcline>\d+)\]\s*(?:\d+\s+)?(?P<msg>.*)$"
)


_TBE_SHORT_RE = re.compile(
    r"^\[(?P<sev>ERROR|WARNING)\]\s+(?P<mod>TBE|ASCENDC|ASCENDC_COMPILE|OP_COMPILE|CCEC)\b[^\]]*?[:\]]\s*(?P<msg>.*)$"
)


_BISHENG_RUNTIME_RE = re.compile(
    r"^\[(?P<sev>ERROR|WARNING)\]\s+\[(?P<mod>Bisheng|BiSheng|bisheng)\]\s*(?P<msg>.*)$"
)


_FUNC_TRAILER_RE = re.compile(r"\[FUNC:(?P<func>[^\]]*)\]\[FILE:(?P<file>[^\]]*)\]\[LINE:(?P<line>\d+)\]")


_ECODE_RE = re.compile(r"(?<![0-9A-Za-z_])(E[0-9A-Z]\d{4}|W[0-9A-Z]\d{4}|ERR\d{5})(?![0-9A-Za-z])")


_ACL_CODE_CTX_RE = re.compile(
    r"(?:failed:?|error code(?: is|:|=)?|runtime result\s*=|result\s*=|\bret(?:urn)?(?: code)?\s*(?:is|=|:)?|"
    r"\berrno\s*[=:]|code\s*[=:]|[（(]|\bret\b|Error:?)\s*(?P<code>[1-5]\d{5})\b"
)


_ACL_CODE_ANY_RE = re.compile(
    r"(?<![\w.:/-])(?P<code>(?:1070|1000|2070|2000|5070|5071|5000|5610|1450|3610)\d{2})(?![\w.])"
)


_PID_CTX_RE = re.compile(r"(?:pid|PID|tid|TID|id|number is|serial)\W{0,3}$")


_RETCODE_RE = re.compile(r"retCode\s*=\s*(?P<rc>0x[0-9a-fA-F]+|\d+)")


_CORE_ID_RE = re.compile(r"core id is (?P<core>\d+)")


_HW_ERRCODE_RE = re.compile(r"error code = (?P<ec>0x[0-9a-fA-F]+|\d+)")


_ERRCODE_TUPLE_RE = re.compile(r"errcode:\((?P<ec>[^)]*)\)")


_ERRORSTR_RE = re.compile(
    r"errorStr:\s*(?P<s>.*?)(?:\s+fixp_error0 info:.*|\s*\[FUNC:.*|\s+subErrType:.*|\s*$)"
)


_EXC_TYPE_RE = re.compile(
    r"there is an? (?:exception of )?(?P<exc>(?:fftsplus )?(?:aivector|aivec|aicore|aicpu|aic|aiv|sdma|vector core)(?: error)?(?: exception)?)"
)


_TASK_EXC_RE = re.compile(r"Kernel task happen error, retCode=\S+,?\s*\[(?P<what>[^\]]+)\]")


_KERNEL_NAME_RE = re.compile(r"(?:fault kernel_name|kernel name|kernel_name)\s*[=:]\s*(?P<k>[\w.$-]+)")


_BLK_RE = re.compile(r"\bblk:(?P<blk>\d+)")


_ACL_API_RE = re.compile(r"\b(?P<api>(?:aclrt|aclnn|acl|rt)[A-Z]\w+)\b")


_HOST_LOC_RE = re.compile(rf"\((?P<file>/{_PATH}\.(?:cpp|cc|cxx|c|h|hpp|py)):(?P<line>\d+)\)")


_PY_LOC_RE = re.compile(r"\b(?P<file>[\w./-]+\.(?:cpp|cc|cxx|c|ts)):(?P<line>\d+)\s+NPU function error")


_RUNTIME_TRIGGER_RE = re.compile(
    r"NPU function error|error code is \d|aclrt\w*\(?[^)]*\)? (?:execution )?failed|\bfailed: [1-5]\d{5}\b|"
    r"there is an? (?:exception|aivec|aicore|aic|aiv|aicpu)|The extend info|errorStr:|Kernel task happen error|"
    r"retCode=|kernel execute failed|fault kernel_name|execution is abnormal|Inner Error|runtime result\s*=|"
    r"RecentErrMsg|AclNN_\w+_Error|do tiling failed|\baclnn\w+ failed|Root cause conclusion|ERR\d{5}|"
    r"rtKernelLaunch|rtRegister\w*|aicore (?:exception|timeout|error)|vector core exception|"
    r"Kernel binary register failure|wait for compute device|synchroniz\w+ (?:failed|timeout)|"
    r"流同步超时|同步超时"
)


_TIMEOUT_RE = re.compile(
    r"(?:Execution )?time(?:d)?\s?out(?: after)? (?P<secs>\d+(?:\.\d+)?) ?(?:s|sec|seconds)\b|timed out after (?P<secs2>\d+(?:\.\d+)?)",
    re.I,
)


# CPU twin
_TWIN_RE = re.compile(
    r"^\[(?P<sev>ERROR|WARN|WARNING|INFO|SUCCESS|DEBUG)\](?P<tags>(?:\[[^\]]*\])+)\s*(?P<msg>.*)$"
)


_ASSERT_RE = re.compile(
    rf"^(?:(?P<prog>[^:\s]+):\s+)?(?P<file>{_PATH}):(?P<line>\d+):\s+(?P<func>[^:][^\n]*?):\s+Assertion [`'](?P<expr>.*)' failed\.?\s*(?P<rest>.*)$"
)


_ASSERT_SHORT_RE = re.compile(r"Assertion [`'](?P<expr>.*?)' failed\.?\s*(?P<rest>.*)$")


_CHECK_VALUE_RE = re.compile(r"Failed to check (?P<what>.+?) in (?P<api>\w+)")


_SIGNAL_RE = re.compile(
    r"\b(SIGABRT|SIGSEGV|SIGBUS|SIGFPE|SIGILL|Segmentation fault|Aborted \(core dumped\))"
)


# msSanitizer
_SAN_LINE_RE = re.compile(r"^={4,}\s?(?P<body>.*)$")


_SAN_HEAD_RE = re.compile(r"^(?P<sev>ERROR|WARNING|WARN)\s*:\s*(?P<msg>.*)$")


_SAN_SPACE_RE = re.compile(r"\bon (?P<space>GM|UB|L1|L0A|L0B|L0C|BT|FB)\b")


_SAN_ADDR_RE = re.compile(r"\bat (?P<addr>0x[0-9a-fA-F]+)")


_SAN_BLOCK_RE = re.compile(
    r"in block (?:(?P<b1>\d+)\s*\((?P<c1>aiv|aic|aicore|aivector)\)|(?P<c2>aiv|aic)\s*\(?(?P<b2>\d+)\)?|(?P<b3>\d+))",
    re.I,
)


_SAN_PIPE_RE = re.compile(r"\b(?P<pipe>PIPE_[A-Z0-9]+)\s+(?P<rw>Read|Write)\b")


_LOC_ANY_RE = re.compile(
    r"(?P<file>(?:[A-Za-z]:[\\/])?[^\s:()\[\]<>'\"`]+\.(?:cpp|cc|cxx|c|h|hpp|hh|asc|inc)):(?P<line>\d+)(?::(?P<col>\d+))?"
)


_SAN_SIZE_RE = re.compile(r"of size (?P<size>\d+)")


# precision
_DATA_INDEX_RE = re.compile(
    r"data index:\s*(?P<idx>\d+),\s*expected:\s*(?P<exp>\S+?),\s*actual:\s*(?P<act>\S+?)(?:,\s*rdiff:\s*(?P<rdiff>\S+))?\s*$"
)


_RESULT_ERROR_RE = re.compile(r"^\[ERROR\]\s+result error\b(?P<rest>.*)$")


_RESULT_ERROR_IDX_RE = re.compile(r"index \[(?P<idx>\d+)\]\s*,\s*expect (?P<exp>\S+) but (?P<act>\S+?)\.?$")


_ERROR_RATIO_RE = re.compile(r"error ratio:\s*(?P<ratio>[\d.eE+-]+),\s*tol(?:e|)rance:\s*(?P<tol>[\d.eE+-]+)")


_TEST_PASS_RE = re.compile(r"^(?:\[?INFO\]?\s*)?test pass(?:ed)?\b", re.I)


_OUTPUT_MISMATCH_RE = re.compile(r"(?:Output|Result|Results) mismatch(?:ed)?\b(?P<rest>.*)$", re.I)


_MAX_DIFF_RE = re.compile(
    r"max(?:imum)?[ _](?:abs(?:olute)?[ _])?diff(?:erence)?\s*[:=]\s*(?P<v>[-\d.eE+]+|nan|inf)", re.I
)


_LOCATION_TUPLE_RE = re.compile(r"location:\s*(?P<loc>\([^)]*\)|\[[^\]]*\]|\d+)")


_DIFF_COUNT_RE = re.compile(r"^Diff count:\s*(?P<n>\d+)")


_TORCH_MISMATCH_RE = re.compile(r"Mismatched elements:\s*(?P<n>\d+)\s*/\s*(?P<total>\d+)")


_TORCH_GREATEST_RE = re.compile(
    r"Greatest (?P<which>absolute|relative) difference:\s*(?P<v>\S+) at index (?P<idx>\([^)]*\)|\d+)"
)


_NOT_CLOSE_RE = re.compile(
    r"Tensor-likes are not close|Not equal to tolerance|Arrays are not (?:almost )?equal"
)


_PRECISION_GATE_RE = re.compile(
    r"data index|error ratio|result error|test pass|mismatch|Diff count|Tensor-likes|Greatest|Not equal|not (?:almost )?equal",
    re.I,
)


_FALLBACK_RE = re.compile(
    r"\b(?:error|failed|failure|exception|timeout|abort(?:ed)?)\b|报错|失败|超时|错误|异常", re.I
)


_SEVERITY_MAP = {
    "fatal error": "error",
    "error": "error",
    "Error": "error",
    "warning": "warning",
    "Warning": "warning",
    "note": "note",
    "remark": "note",
    "ERROR": "error",
    "WARN": "warning",
    "WARNING": "warning",
    "INFO": "info",
    "DEBUG": "info",
    "EVENT": "info",
    "SUCCESS": "info",
}


_LINK_TOOLS = {"ld", "ld.lld", "lld", "ld.bfd", "ld.gold", "collect2", "cceld", "/usr/bin/ld"}


def _sev(s: str) -> str:
    return _SEVERITY_MAP.get(s, "error")


def _int(s: str | None) -> int | None:
    if s is None or s == "":
        return None
    try:
        return int(s)
    except ValueError:
        return None


def _clean_trailers(msg: str) -> tuple[str, str | None]:
    """Remove `[FUNC:..][FILE:..][LINE:..]` trailers; return (message, 'file:line' origin)."""
    origin = None
    m = _FUNC_TRAILER_RE.search(msg)
    if m:
        origin = f"{m.group('file')}:{m.group('line')} ({m.group('func')})"
        msg = _FUNC_TRAILER_RE.sub("", msg)
    return msg.strip(), origin


_RT_PREFIX_RE = re.compile(
    r"^(?:\[(?:ERROR|WARNING|Error)\]\s*(?:RecentErrMsg:\s*)?)?"
    r"(?:E[0-9A-Z]\d{4}\s*(?:\[PID:\s*\d+\])?:?\s*(?:\[PID:\s*\d+\])?\s*)?"
    r"(?:\d{4}-\d\d-\d\d-\d\d:\d\d:\d\d[.\d]*\s*)?"
    r"(?:[\w ]*\(E[0-9A-Z]\d{4}\):\s*)?"
)


_HEADLINE_KEYS: tuple[tuple[str, int], ...] = (
    ("Op has no infershape func", 60),
    ("do tiling failed", 60),
    ("Compile operator failed", 60),
    ("msg:", 55),
    ("reason=", 55),
    ("Failed call", 50),
    ("execution is abnormal", 30),
    ("Root cause conclusion", 30),
    ("memory access may be out of bounds", 35),
    ("failure", 20),
    ("failed", 15),
)


def _headline_priority(msg: str, has_error_str: bool) -> int:
    """How good a line of a runtime block is as the event's headline."""
    if has_error_str:
        return 100
    for key, prio in _HEADLINE_KEYS:
        if key in msg:
            return prio
    if _ECODE_RE.search(msg) is None and "Inner Error" not in msg:
        return 5
    return 1


def _clean_runtime_message(msg: str) -> str:
    out = _RT_PREFIX_RE.sub("", msg, count=1).strip()
    return out or msg.strip()


def _acl_codes(line: str) -> list[str]:
    """Numeric ACL/runtime codes in a line, skipping PIDs, serial numbers and ids."""
    found: list[str] = []
    for m in _ACL_CODE_CTX_RE.finditer(line):
        found.append(m.group("code"))
    for m in _ACL_CODE_ANY_RE.finditer(line):
        prefix = line[max(0, m.start() - 16) : m.start()]
        if _PID_CTX_RE.search(prefix):
            continue
        found.append(m.group("code"))
    out: list[str] = []
    for c in found:
        if c not in out:
            out.append(c)
    return out


def _ecodes(line: str) -> list[str]:
    out: list[str] = []
    for m in _ECODE_RE.finditer(line):
        c = m.group(1)
        if c not in out:
            out.append(c)
    return out
