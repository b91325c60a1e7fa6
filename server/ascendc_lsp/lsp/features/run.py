"""`ascendc.server.runKernel`: run a kernel spec, an op project's test case or a direct-launch program on the
configured backend, with work-done progress; the typed contract is protocol.RunKernelParams / RunKernelResult."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import tempfile
import threading
import uuid
from pathlib import Path
from typing import Any, ClassVar

from lsprotocol import types
from pygls.uris import to_fs_path

from ascendc_lsp.lsp.features.base import LanguageFeature
from ascendc_lsp.lsp.protocol import (
    RUN_KERNEL,
    CommandError,
    ErrorCode,
    RunKernelParams,
    RunKernelResult,
    RunKind,
)
from ascendc_lsp.settings import Settings

log = logging.getLogger(__name__)

DEFAULT_TIMEOUT = 120.0


def _path(value: str, what: str) -> Path:
    """A client path or file URI as an existing path (CommandError naming `what` otherwise)."""
    path = Path(to_fs_path(value) or value) if value.startswith("file:") else Path(value).expanduser()
    if not path.exists():
        raise CommandError(f"{what} {value}: no such file or directory", command=RUN_KERNEL.id)
    return path


def target_of(params: RunKernelParams) -> tuple[RunKind, Path]:
    given = {"specPath": params.spec_path, "testCase": params.test_case, "program": params.program}
    named = [k for k, v in given.items() if v]
    if len(named) != 1:
        what = ", ".join(named) if named else "none"
        raise CommandError(
            f"runKernel needs exactly one target: specPath, testCase or program (got {what})",
            ErrorCode.INVALID_PARAMS,
            RUN_KERNEL.id,
        )
    key = named[0]
    kind: RunKind = "spec" if key == "specPath" else "testCase" if key == "testCase" else "program"
    return kind, _path(str(given[key]), key)


def summary_line(correct: bool, stage: str, run: dict[str, Any]) -> str:
    if correct:
        est = run.get("estimate") or {}
        us = est.get("microseconds") if isinstance(est, dict) else None
        return "CORRECT" + (f" (estimate {us:.2f} us, uncalibrated)" if isinstance(us, int | float) else "")
    errors = [d for d in run.get("diagnostics") or [] if isinstance(d, dict) and d.get("severity") == "error"]
    why = f": {str(errors[0].get('message', '')).splitlines()[0][:200]}" if errors else ""
    return f"NOT CORRECT (stage {stage}){why}"


def run_target(
    params: RunKernelParams, settings: Settings, trace_dir: Path, cancel: threading.Event | None = None
) -> RunKernelResult:
    """Load, build and run one target (blocking; called in a worker thread). Setting `cancel` stops a spec's or
    test case's kernel run early (the client cancelled the request)."""
    from ascendc_lsp.toolchain.base import RunOptions, RunResult, ToolchainUnavailable
    from ascendc_lsp.toolchain.command import get_toolchain, load_target
    from ascendc_lsp.toolchain.opproject.discovery import OpProjectError
    from ascendc_lsp.toolchain.opproject.opbuild import run_case
    from ascendc_lsp.toolchain.opproject.testcase import TestCase, load_test_case
    from ascendc_lsp.toolchain.program.cmake import CMakeError
    from ascendc_lsp.toolchain.program.discover import DiscoveryError
    from ascendc_lsp.toolchain.program.run import ProgramOptions, run_program
    from ascendc_lsp.toolchain.spec import SpecError

    kind, path = target_of(params)
    source = _path(params.source, "source") if params.source else None
    timeout = params.timeout if params.timeout and params.timeout > 0 else DEFAULT_TIMEOUT
    backend = params.backend or settings.toolchain.backend or "emulator"
    trace = (
        trace_dir / f"ascendc-trace-{path.stem}-{os.getpid()}-{uuid.uuid4().hex[:6]}.json"
        if params.trace
        else None
    )
    result: RunResult
    kernel = ""
    try:
        if kind == "program":
            if source is not None:
                raise CommandError("source applies to a spec or test case; a program's sources come from its folder",
                                   ErrorCode.INVALID_PARAMS, RUN_KERNEL.id)  # fmt: skip
            if backend != "emulator":
                raise CommandError(f"direct-launch programs run on the emulator backend only (got {backend})",
                                   command=RUN_KERNEL.id)  # fmt: skip
            opts = ProgramOptions(soc=params.soc or None, timeout=timeout, trace_out=trace)
            result = run_program(path, opts)
            kernel = result.kernel
        else:
            target = (
                load_test_case(path, project=_path(params.project, "project") if params.project else None)
                if kind == "testCase"
                else load_target(str(path))
            )
            run_opts = RunOptions(source=source, timeout=timeout, trace_out=trace, cancel=cancel)
            if isinstance(target, TestCase):
                kind = "testCase"
                if backend != "emulator":
                    raise CommandError(f"op test cases run on the emulator backend only (got {backend})",
                                       command=RUN_KERNEL.id)  # fmt: skip
                run_opts.soc = params.soc or target.soc or settings.soc
                result = run_case(target, run_opts)
                kernel = result.kernel or (target.op or "")
            else:
                run_opts.soc = params.soc or target.soc or settings.soc
                result = get_toolchain(backend).run(target, run_opts)
                kernel = target.kernel
    except (SpecError, OpProjectError, DiscoveryError, CMakeError, ToolchainUnavailable, OSError) as exc:
        raise CommandError(str(exc), command=RUN_KERNEL.id) from None
    run = result.to_json()
    stage = str(run.get("stage_reached") or "")
    return RunKernelResult(
        kind=kind,
        target=str(path),
        kernel=kernel or str(run.get("kernel") or ""),
        soc=str(run.get("soc") or ""),
        correct=bool(result.correct),
        stage=stage,
        summary=summary_line(bool(result.correct), stage, run),
        trace=str(trace) if trace is not None and trace.is_file() else None,
        run=run,
    )


class RunFeature(LanguageFeature):
    commands: ClassVar[dict[str, str]] = {RUN_KERNEL.id: "run_kernel"}

    async def run_kernel(self, params: RunKernelParams) -> RunKernelResult:
        _kind, path = target_of(params)  # bad params fail before any progress is shown
        token = str(uuid.uuid4())
        progress = self.server.work_done_progress
        shown = False
        with contextlib.suppress(Exception):
            await asyncio.wait_for(progress.create_async(token), 5)
            progress.begin(token, types.WorkDoneProgressBegin(title="AscendC: run", message=path.name))
            shown = True
        cancel = threading.Event()
        try:
            return await asyncio.to_thread(
                run_target, params, self.server.settings, Path(tempfile.gettempdir()), cancel
            )
        except asyncio.CancelledError:  # $/cancelRequest: stop the kernel too, not only the answer
            cancel.set()
            raise
        finally:
            if shown:
                progress.end(token, types.WorkDoneProgressEnd(message="done"))
