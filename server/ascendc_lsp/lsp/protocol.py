"""The command contract between clients and the server: ids, typed parameters and results, one failure shape.

Every `workspace/executeCommand` command of the server takes exactly one argument, an object structured into
its `*Params` class (unknown keys are an error: a client sending `spec` where `specPath` is meant gets
InvalidParams naming the key), and answers its `*Result` class. Failures are JSON-RPC errors (`CommandError`)
with a code from `ErrorCode` and a one-line message the client shows as is; a cancelled command answers
RequestCancelled. Field names are camelCase on the wire, snake_case here.

Server command ids (`ascendc.server.*`) are distinct from the VS Code client's own command ids (`ascendc.*`),
so vscode-languageclient can register every server command without clashing with the client's.

The TypeScript mirror, vscode-client/src/protocol.ts, is generated from this module
(`python -m ascendc_lsp.lsp.protocol > vscode-client/src/protocol.ts`); tests/test_lsp_protocol.py fails when it
is out of date.
"""

from __future__ import annotations

import enum
import sys
import types as pytypes
import typing
from collections.abc import Callable
from typing import Any, Literal

import attrs
import cattrs
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override
from pygls.exceptions import JsonRpcException

# ---------------------------------------------------------------------------------------------- errors


class ErrorCode(enum.IntEnum):
    """JSON-RPC error codes of command failures (-32000..-32099 is the implementation-defined server range)."""

    INVALID_PARAMS = -32602  # the argument does not fit the command's parameters
    REQUEST_CANCELLED = -32800  # the client cancelled, or a newer request superseded this one
    COMMAND_FAILED = -32001  # the command ran and could not do its job (missing file, bad spec, no toolchain)
    NOT_AVAILABLE = -32002  # a prerequisite is not configured here (no LLM endpoint, document not open)


class CommandError(JsonRpcException):
    """The one failure shape of every command: a JSON-RPC error with a code and a one-line message."""

    CODE = ErrorCode.COMMAND_FAILED.value

    def __init__(self, message: str, code: ErrorCode = ErrorCode.COMMAND_FAILED, command: str = "") -> None:
        super().__init__(message=message, code=int(code), data={"command": command} if command else None)


# ---------------------------------------------------------------------------------------------- shapes


@attrs.define
class TextPosition:
    line: int = attrs.field(validator=attrs.validators.ge(0))
    character: int = attrs.field(validator=attrs.validators.ge(0))


@attrs.define
class RunKernelParams:
    """What to run: exactly one target. `spec_path` is a kernel spec YAML (a YAML that is an op test case is run
    as one); `test_case` an op project's test case (with `project` when the case does not name it); `program` a
    direct-launch program (an `.asc` file, a host `main.cpp` or a sample folder)."""

    spec_path: str | None = None
    test_case: str | None = None
    project: str | None = None
    program: str | None = None
    source: str | None = None  # a kernel file to run instead of the one the spec or case names
    trace: bool = False  # also write a Perfetto trace of the pipes; its path comes back in `trace`
    backend: str | None = None  # "emulator" or "cann"; default: the server's setting
    soc: str | None = None  # default: the target's own SoC, else the server's setting
    timeout: float | None = None  # seconds per compile and per run


RunKind = Literal["spec", "testCase", "program"]


@attrs.define
class RunKernelResult:
    kind: RunKind
    target: str  # the spec, test case or program that ran
    kernel: str
    soc: str
    correct: bool
    stage: str  # how far it got: "load", "compile", "run", "compare"
    summary: str  # one line: CORRECT / NOT CORRECT and why
    trace: str | None = None  # the trace file, when asked for and written
    run: dict[str, Any] = attrs.Factory(
        dict
    )  # the toolchain's result JSON, as `ascendc-lsp run --format json`


@attrs.define
class ExplainLogParams:
    """A log as text (`log`) or a log file (`path`); `source` is the kernel the log is about, for context."""

    log: str | None = None
    path: str | None = None
    source: str | None = None  # a kernel file to triage the log with
    uri: str | None = None  # the open kernel document to triage with (its current text); wins over `source`
    run: bool = True  # triage may run the kernel on the emulator when a spec sits next to it


@attrs.define
class ExplainLogResult:
    matches: list[dict[str, Any]]  # knowledge entries, best first, as `ascendc-lsp explain --format json`
    events: int = 0  # error and warning events the log parser found
    warnings: list[str] = attrs.Factory(list)
    confidence: float | None = None
    uncertain: bool = False
    message: str = ""  # one line: the answer, or why it is uncertain
    families: list[dict[str, Any]] = attrs.Factory(list)  # {category, share}, the likeliest first
    triage: dict[str, Any] | None = None  # with a kernel: its static findings and run joined to the answer


@attrs.define
class ShowEntryFixParams:
    entry_id: str


@attrs.define
class ShowEntryFixResult:
    path: str  # the diff file that was written (and shown)


@attrs.define
class ShowBudgetParams:
    uri: str
    owner: str | None = None  # a class or function name; the whole document when absent


@attrs.define
class ShowBudgetResult:
    markdown: str


@attrs.define
class GenerateKernelParams:
    """A spec file (`spec_path`) or an inline spec object (`spec`, written beside the kernel as YAML)."""

    spec_path: str | None = None
    spec: dict[str, Any] | None = None
    out: str | None = None  # the kernel file to write; default: the spec's `source`
    folder: str | None = None  # where an inline spec lives; default: the workspace
    soc: str | None = None
    max_iterations: int = 5
    refine: int = 0
    no_knowledge: bool = False


@attrs.define
class GenerateKernelResult:
    status: str
    correct: bool
    message: str
    kernel: str | None = None  # the written kernel file (None when no attempt passed)
    spec: str | None = None
    best_attempt: str | None = None
    iterations: int = 0
    attempts: int = 0
    estimate_microseconds: float | None = None
    notes: list[str] = attrs.Factory(list)


@attrs.define
class RewriteKernelParams:
    uri: str
    position: TextPosition | None = None  # the function to focus on; the whole file when absent
    version: int | None = None  # the document version the request was made on


@attrs.define
class RewriteKernelResult:
    accepted: bool  # the loop produced a checked result
    applied: bool  # the editor applied it
    message: str
    spec: str | None = None
    best_attempt: str | None = None


@attrs.define
class ClangdConfigParams:
    """The `.clangd` for a workspace folder: CANN's headers when a toolkit is found, else the emulator's."""

    folder: str
    soc: str | None = None


@attrs.define
class ClangdConfigResult:
    substrate: Literal["cann", "emulator"]
    text: str  # the `.clangd` file's content
    flags: list[str]  # the compile flags it adds
    note: str  # one line: which headers and why


# ---------------------------------------------------------------------------------------------- commands


@attrs.frozen
class CommandSpec:
    name: str  # e.g. "runKernel"; the server id is SERVER_PREFIX + name
    params: type
    result: type
    summary: str

    @property
    def id(self) -> str:
        return SERVER_PREFIX + self.name


SERVER_PREFIX = "ascendc.server."

RUN_KERNEL = CommandSpec(
    "runKernel", RunKernelParams, RunKernelResult, "run a spec, an op test case or a program"
)
EXPLAIN_LOG = CommandSpec(
    "explainLog", ExplainLogParams, ExplainLogResult, "knowledge entries matching a log"
)
SHOW_ENTRY_FIX = CommandSpec(
    "showEntryFix", ShowEntryFixParams, ShowEntryFixResult, "show an entry's fix as a diff"
)
SHOW_BUDGET = CommandSpec(
    "showBudget", ShowBudgetParams, ShowBudgetResult, "the UB budget table of a document"
)
GENERATE_KERNEL = CommandSpec(
    "generateKernel", GenerateKernelParams, GenerateKernelResult, "generate a kernel from a spec (checked)"
)
REWRITE_KERNEL = CommandSpec(
    "rewriteKernel", RewriteKernelParams, RewriteKernelResult, "rewrite a kernel with the LLM (checked)"
)
OPTIMISE_KERNEL = CommandSpec(
    "optimiseKernel",
    RewriteKernelParams,
    RewriteKernelResult,
    "optimise a kernel with the LLM (checked, faster)",
)

CLANGD_CONFIG = CommandSpec(
    "clangdConfig",
    ClangdConfigParams,
    ClangdConfigResult,
    "a .clangd that lets clangd understand AscendC here",
)

COMMANDS: dict[str, CommandSpec] = {
    c.id: c
    for c in (
        RUN_KERNEL,
        EXPLAIN_LOG,
        SHOW_ENTRY_FIX,
        SHOW_BUDGET,
        GENERATE_KERNEL,
        REWRITE_KERNEL,
        OPTIMISE_KERNEL,
        CLANGD_CONFIG,
    )
}


# ---------------------------------------------------------------------------------------------- wire format


def camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def _strict(value: Any, expected: type) -> Any:
    """cattrs converts "1" to 1 and 1 to "1"; a contract check must not."""
    if expected is bool and not isinstance(value, bool):
        raise TypeError(f"expected a boolean, got {type(value).__name__}")
    if expected is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise TypeError(f"expected an integer, got {type(value).__name__}")
    if expected is float and (isinstance(value, bool) or not isinstance(value, int | float)):
        raise TypeError(f"expected a number, got {type(value).__name__}")
    if expected is str and not isinstance(value, str):
        raise TypeError(f"expected a string, got {type(value).__name__}")
    return float(value) if expected is float else value


def _make_converter() -> cattrs.Converter:
    converter = cattrs.Converter(forbid_extra_keys=True)
    for scalar in (bool, int, float, str):
        converter.register_structure_hook(scalar, _strict)
    classes: set[Any] = {t for c in COMMANDS.values() for t in (c.params, c.result)} | {TextPosition}
    for cls in classes:
        renames: dict[str, Any] = {f.name: override(rename=camel(f.name)) for f in attrs.fields(cls)}
        structure: Any = make_dict_structure_fn
        unstructure: Any = make_dict_unstructure_fn
        converter.register_structure_hook(
            cls, structure(cls, converter, _cattrs_forbid_extra_keys=True, **renames)
        )
        converter.register_unstructure_hook(cls, unstructure(cls, converter, **renames))
    return converter


CONVERTER = _make_converter()


def structure_params(spec: CommandSpec, arguments: list[Any] | tuple[Any, ...] | None) -> Any:
    """The command's one argument as its params class; CommandError(INVALID_PARAMS) naming what is wrong."""
    args = list(arguments or [])
    if len(args) > 1:
        raise CommandError(
            f"{spec.id} takes one object argument, got {len(args)} arguments",
            ErrorCode.INVALID_PARAMS,
            spec.id,
        )
    raw = args[0] if args else {}
    if not isinstance(raw, dict):
        raise CommandError(
            f"{spec.id} takes one object argument ({spec.params.__name__}), got {type(raw).__name__}",
            ErrorCode.INVALID_PARAMS,
            spec.id,
        )
    try:
        return CONVERTER.structure(raw, spec.params)
    except Exception as exc:  # cattrs' ClassValidationError is an ExceptionGroup; flatten it to one line
        problems = (
            cattrs.transform_error(exc, path="params", format_exception=_describe)
            if isinstance(exc, cattrs.BaseValidationError)
            else []
        )
        detail = "; ".join(problems) or str(exc)
        raise CommandError(f"{spec.id}: {detail}", ErrorCode.INVALID_PARAMS, spec.id) from None


def _describe(exc: BaseException, expected: type | None) -> str:
    if isinstance(exc, KeyError):
        return "required field missing"
    if isinstance(exc, cattrs.ForbiddenExtraKeysError):
        return f"unknown field {', '.join(sorted(camel(k) for k in exc.extra_fields))}"
    return str(exc) or type(exc).__name__


def unstructure_result(spec: CommandSpec, result: Any) -> Any:
    if not isinstance(result, spec.result):
        raise TypeError(f"{spec.id} returned {type(result).__name__}, not {spec.result.__name__}")
    return CONVERTER.unstructure(result)


# ---------------------------------------------------------------------------------------------- TypeScript


def _ts_type(annotation: Any, names: dict[type, str]) -> str:
    if annotation is Any or annotation is object:
        return "unknown"
    if annotation in names:
        return names[annotation]
    simple = {str: "string", int: "number", float: "number", bool: "boolean", type(None): "null"}
    if annotation in simple:
        return simple[annotation]
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is Literal:
        return " | ".join(f"'{a}'" for a in args)
    if origin in (typing.Union, pytypes.UnionType):
        return " | ".join(_ts_type(a, names) for a in args)
    if origin is list:
        inner = _ts_type(args[0], names)
        return f"({inner})[]" if "|" in inner else f"{inner}[]"
    if origin is dict:
        return f"Record<string, {_ts_type(args[1], names)}>"
    raise TypeError(f"no TypeScript type for {annotation!r}")


def typescript() -> str:
    """vscode-client/src/protocol.ts: the interfaces and ids of COMMANDS, generated (see the module docstring)."""
    classes: list[type] = [TextPosition]
    for c in COMMANDS.values():
        for cls in (c.params, c.result):
            if cls not in classes:
                classes.append(cls)
    names = {cls: cls.__name__ for cls in classes}
    lines = [
        "// Generated by `python -m ascendc_lsp.lsp.protocol` from server/ascendc_lsp/lsp/protocol.py: do not edit.",
        "// The command contract with the language server (tests/test_lsp_protocol.py checks this file is current).",
        "/* eslint-disable */",
        "",
        "export const ErrorCode = {",
        *(f"  {camel(e.name.lower())}: {e.value}," for e in ErrorCode),
        "} as const;",
        "",
        "export type RunKind = 'spec' | 'testCase' | 'program';",
        "",
    ]
    module = sys.modules[__name__]
    for cls in classes:
        hints = typing.get_type_hints(cls, vars(module))
        doc = " ".join((cls.__doc__ or "").split())
        if doc and not doc.startswith(cls.__name__ + "("):
            lines.append(f"/** {doc} */")
        lines.append(f"export interface {cls.__name__} {{")
        for f in attrs.fields(cls):
            annotation = hints[f.name]
            optional = f.default is not attrs.NOTHING
            args = typing.get_args(annotation)
            if optional and type(None) in args:
                rest = tuple(a for a in args if a is not type(None))
                annotation = rest[0] if len(rest) == 1 else typing.Union[rest]  # noqa: UP007
            ts = "RunKind" if annotation == RunKind else _ts_type(annotation, names)
            lines.append(f"  {camel(f.name)}{'?' if optional else ''}: {ts};")
        lines.append("}")
        lines.append("")
    lines.append("/** Server command ids with their parameter and result types. */")
    lines.append("export const ServerCommands = {")
    for c in COMMANDS.values():
        lines.append(f"  {c.name}: '{c.id}',")
    lines.append("} as const;")
    lines.append("")
    lines.append("export interface ServerCommandTypes {")
    for c in COMMANDS.values():
        lines.append(f"  '{c.id}': {{ params: {c.params.__name__}; result: {c.result.__name__} }};")
    lines.append("}")
    lines.append("")
    return "\n".join(lines)


Handler = Callable[[Any], Any]

if __name__ == "__main__":
    sys.stdout.write(typescript())
