"""Command line: `ascendc-lsp serve|check|run|explain|generate|kb`.

Each subcommand lives in its own module and is imported only when used, so `serve` and `check`
never pay for chromadb, openai or numpy.

Exit codes (every command): 0 success; 1 findings / an incorrect kernel / nothing found; 2 bad usage or bad
input (one line on stderr naming the file and the problem); 70 an internal error (a bug of ours: one line on
stderr, the traceback only with ASCENDC_LSP_DEBUG=1; never a clean result); 130 interrupted.
"""

from __future__ import annotations

import argparse
import importlib
import math
import os
import sys
import traceback
from collections.abc import Callable, Sequence

from ascendc_lsp.hardware.limits import DEFAULT_SOC

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 70  # sysexits EX_SOFTWARE: distinct from every verdict a command gives
EXIT_INTERRUPTED = 130

# subcommand -> "module:function"; the function takes the parsed arguments and returns an exit code.
_HANDLERS: dict[str, str] = {
    "serve": "ascendc_lsp.lsp.server:command",
    "check": "ascendc_lsp.checks.command:command",
    "run": "ascendc_lsp.toolchain.command:command",
    "explain": "ascendc_lsp.knowledge.explain:command",
    "generate": "ascendc_lsp.llm.generate:command",
    "kb": "ascendc_lsp.knowledge.command:command",
}


MAX_TIMEOUT_SECONDS = 24 * 3600.0
MAX_COUNT = 10_000


def seconds(text: str) -> float:
    """An argparse type: a finite number of seconds, > 0 and at most a day (nan, inf, 0 and negatives refused)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not math.isfinite(value) or value <= 0 or value > MAX_TIMEOUT_SECONDS:
        raise argparse.ArgumentTypeError(
            f"expected seconds > 0 and at most {MAX_TIMEOUT_SECONDS:g}, got {text!r}"
        )
    return value


def _count(minimum: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if not minimum <= value <= MAX_COUNT:
            raise argparse.ArgumentTypeError(f"expected a number from {minimum} to {MAX_COUNT}, got {text!r}")
        return value

    parse.__name__ = "count"
    return parse


class _Parser(argparse.ArgumentParser):
    """argparse that exits with EXIT_USAGE (2) and a one-line hint (exit codes: docs/architecture.md)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def _check_epilog() -> str:
    try:
        from ascendc_lsp.hardware.soc import soc_names

        socs = ", ".join(soc_names(with_variants=False))
    except Exception as exc:  # the help must print even when the profiles do not load
        socs = f"(the SoC profiles do not load: {exc})"
    return (
        f"SoCs: {socs}\n"
        "exit codes: 0 no error diagnostics, 1 error diagnostics found, 2 bad usage or an unreadable input"
    )


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="ascendc-lsp", description=__doc__)
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    # vscode-languageclient appends a bare --stdio to the server command line.
    parser.add_argument("--stdio", action="store_true", help=argparse.SUPPRESS)
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)

    serve = sub.add_parser("serve", help="run the language server")
    transport = serve.add_mutually_exclusive_group()
    transport.add_argument("--stdio", action="store_true", help="talk LSP over stdin/stdout (default)")
    transport.add_argument("--tcp", type=int, metavar="PORT", help="listen for one LSP client on 127.0.0.1:PORT")
    transport.add_argument("--ws", type=int, metavar="PORT", help="listen for WebSocket LSP clients on PORT")
    serve.add_argument("--host", default="127.0.0.1", help="address for --tcp/--ws (default 127.0.0.1)")
    serve.add_argument("--log-file", help="also write the server log to this file")

    check = sub.add_parser(
        "check", help="statically check kernel sources", epilog=_check_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )  # fmt: skip
    check.add_argument("paths", nargs="+", metavar="PATH", help="kernel files or folders to search")
    check.add_argument(
        "--soc",
        help="SoC profile (default: ascendc-lsp.toml, else the project's: CMake, op_host AddConfig; else "
        f"{DEFAULT_SOC}; "
        "the list below)",
    )
    check.add_argument("--format", choices=["text", "json", "sarif"], default="text")
    check.add_argument("--jobs", type=int, default=0, help="worker processes for many files (default: one per core)")

    run = sub.add_parser(
        "run",
        help="compile, run, verify and estimate a kernel from its spec, an op project from a test case, or a "
        "direct-launch program",
    )
    run.add_argument(
        "spec", metavar="SPEC.yaml|CASE.yaml|OP_PROJECT|PROGRAM",
        help="a kernel spec, an op test case (or the op project with --case), or an .asc / main.cpp / sample folder",
    )
    run.add_argument("--case", metavar="CASE.yaml", help="op test case, when the first argument is the op project")
    run.add_argument("--source", help="kernel source (overrides the spec's source)")
    run.add_argument("--backend", choices=["emulator", "cann"], default=None)
    run.add_argument("--soc", help="SoC profile (overrides the spec's soc)")
    run.add_argument("--format", choices=["text", "json"], default="text")
    run.add_argument("--trace", metavar="OUT.json", help="write a Chrome/Perfetto trace of the pipes")
    run.add_argument("--block-order", choices=["sequential", "reverse", "interleaved"], default="sequential")
    run.add_argument("--timeout", type=seconds, default=60.0, help="seconds for compile and for run (default 60)")
    run.add_argument(
        "--run-mode",
        choices=["npu", "cpu"],
        default="npu",
        help="program: build its NPU branch (<<<>>>, acl; default) or its CPU-debug branch (ICPU_RUN_KF)",
    )
    run.add_argument(
        "-D",
        "--define",
        action="append",
        metavar="NAME=VALUE",
        help="program: a CMake cache value, as `cmake -DNAME=VALUE` (e.g. SCENARIO_NUM=2)",
    )
    modes = run.add_argument_group("modes", "the defaults model the NPU build; each flag selects a stricter CPU-debug check")
    modes.add_argument("--strict", action="store_true", help="every stricter mode below, and DataCopy truncation as an error")
    modes.add_argument("--strict-sync", action="store_true", help="report the syncs bisheng's auto-sync inserts (--cce-auto-sync=off)")
    modes.add_argument("--strict-ub", action="store_true", help="reject InitBuffer totals beyond UB (minus the AscendC UB reserve)")
    modes.add_argument("--strict-gm", action="store_true", help="GM accesses past the requested bytes are errors (no runtime padding)")
    modes.add_argument("--strict-assert", action="store_true", help="ASSERT/ASCENDC_ASSERT trap (compiled out on the NPU)")
    modes.add_argument("--ub-reserve", choices=["auto", "always", "off"], default="auto",
                       help="the 8 KB AscendC UB reserve: taken when an API uses it (auto), always, or off")

    explain = sub.add_parser("explain", help="map a compiler or runtime log to knowledge entries")
    explain.add_argument("log", nargs="?", default="-", metavar="LOGFILE", help="log file, or - for stdin")
    explain.add_argument("--format", choices=["text", "json"], default="text")
    explain.add_argument("--top", type=_count(1), default=3, metavar="K")
    explain.add_argument("--source", help="the kernel source the log refers to: code context, static checks and, "
                         "with a kernel spec next to it, an emulator run (triage)")
    explain.add_argument("--soc", help=f"SoC for the static checks of --source (default {DEFAULT_SOC})")
    explain.add_argument("--no-run", action="store_true", help="with --source: static checks only, no emulator run")

    generate = sub.add_parser("generate", help="generate a kernel from a spec with an LLM, checked by the toolchain")
    generate.add_argument("spec", metavar="SPEC.yaml")
    generate.add_argument("--out", metavar="FILE")
    generate.add_argument("--max-iterations", type=_count(1), default=5, metavar="N")
    generate.add_argument("--no-knowledge", action="store_true", help="ablation: do not retrieve knowledge")
    generate.add_argument("--refine", type=_count(0), default=0, metavar="N", help="optimisation rounds after the first pass")

    kb = sub.add_parser("kb", help="knowledge base: stats, search, validate, import, export, distill")
    kb_sub = kb.add_subparsers(dest="kb_command", required=True, parser_class=_Parser)
    kb_sub.add_parser("stats", help="entry counts, values and index state")
    kb_search = kb_sub.add_parser("search", help="retrieve entries for a query")
    kb_search.add_argument("query", nargs="+")
    kb_search.add_argument("--top", type=_count(1), default=5)
    kb_validate = kb_sub.add_parser("validate", help="check entry files against the schema")
    kb_validate.add_argument("paths", nargs="*", help="entry files or folders (default: the shipped ones)")
    kb_import = kb_sub.add_parser("import", help="import a failure-and-fix record as a candidate entry")
    kb_import.add_argument("record", metavar="RECORD.json")
    kb_export = kb_sub.add_parser("export", help="write candidate entries as reviewable files")
    kb_export.add_argument("--out", required=True, metavar="DIR")
    kb_distill = kb_sub.add_parser("distill", help="merge near-duplicates and retire low-value entries")
    kb_distill.add_argument("--dry-run", action="store_true")
    for p in (kb_search, kb_validate, kb_import, kb_export, kb_distill):
        p.add_argument("--format", choices=["text", "json"], default="text")
    return parser


def _load_handler(spec: str) -> Callable[[argparse.Namespace], int]:
    module_name, _, function_name = spec.partition(":")
    module = importlib.import_module(module_name)
    handler: Callable[[argparse.Namespace], int] = getattr(module, function_name)
    return handler


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.version:
        from ascendc_lsp import __version__

        print(f"ascendc-lsp {__version__}")
        return EXIT_OK
    command = args.command
    if command is None:
        if args.stdio:  # `ascendc-lsp --stdio`, as vscode-languageclient starts it
            args = parser.parse_args(["serve", "--stdio"])
            command = "serve"
        else:
            parser.print_help(sys.stderr)
            return EXIT_USAGE
    try:
        handler = _load_handler(_HANDLERS[command])
    except (ImportError, AttributeError) as exc:
        print(f"ascendc-lsp {command}: this command is not available in this build ({exc})", file=sys.stderr)
        return EXIT_USAGE
    try:
        return handler(args)
    except KeyboardInterrupt:
        print(f"ascendc-lsp {command}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return EXIT_OK
    except MemoryError:
        print(f"ascendc-lsp {command}: internal error: out of memory", file=sys.stderr)
        return EXIT_INTERNAL
    except Exception as exc:  # a bug of ours: one line and a distinct code, never a traceback or a clean result
        return internal_error(command, exc)


def internal_error(command: str, exc: BaseException) -> int:
    """Report an unexpected exception as one line (the traceback with ASCENDC_LSP_DEBUG=1); EXIT_INTERNAL."""
    if os.environ.get("ASCENDC_LSP_DEBUG", "").strip() not in ("", "0"):
        traceback.print_exception(exc, file=sys.stderr)
    where = ""
    tb = traceback.extract_tb(exc.__traceback__)
    if tb:
        frame = tb[-1]
        where = f" at {os.path.basename(frame.filename)}:{frame.lineno}"
    detail = str(exc)[:300]
    print(
        f"ascendc-lsp {command}: internal error{where}: {type(exc).__name__}"
        f"{': ' + detail if detail else ''} (a bug of ours; ASCENDC_LSP_DEBUG=1 shows the traceback)",
        file=sys.stderr,
    )
    return EXIT_INTERNAL
