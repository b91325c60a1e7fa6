"""LLM features, checked by the toolchain: generate a kernel from a spec, rewrite or optimise a kernel.

Commands
- `ascendc.server.generateKernel` ({specPath} or an inline {spec}; {out, folder, maxIterations, refine,
  noKnowledge}, typed in lsp/protocol.py): runs the checked loop with work-done progress per
  iteration (cancellable), writes the kernel and its spec side by side, returns their paths (GenerateOutcome JSON).
- `ascendc.server.rewriteKernel` / `optimiseKernel` ({uri, position, version}): run the loop on the file
  and apply the result as a workspace edit only when it passes (optimise: only when also faster by the cost
  model); otherwise show why, with the best attempt saved under `.ascendc/attempts/`.

Code actions: "Rewrite with LLM (checked)" as a quick fix on our diagnostics and as `refactor.rewrite` (and
`source`) on request; "Optimise with LLM (checked)" likewise; the core merges them with the quick fixes
(code_actions.py).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import uuid
from pathlib import Path
from typing import Any, ClassVar

from lsprotocol import types
from pygls.uris import from_fs_path, to_fs_path

from ascendc_lsp.lsp.convert import SOURCE
from ascendc_lsp.lsp.features.base import LanguageFeature, Method
from ascendc_lsp.lsp.protocol import (
    GENERATE_KERNEL,
    OPTIMISE_KERNEL,
    REWRITE_KERNEL,
    CommandError,
    ErrorCode,
    GenerateKernelParams,
    GenerateKernelResult,
    RewriteKernelParams,
    RewriteKernelResult,
)
from ascendc_lsp.syntax.positions import utf16_len

log = logging.getLogger(__name__)

GENERATE = GENERATE_KERNEL.id
REWRITE = REWRITE_KERNEL.id
OPTIMISE = OPTIMISE_KERNEL.id

KIND_REWRITE = "refactor.rewrite.ascendc.llm"
KIND_OPTIMISE = "refactor.rewrite.ascendc.llmOptimise"
KIND_SOURCE_REWRITE = "source.ascendc.llmRewrite"
KIND_SOURCE_OPTIMISE = "source.ascendc.llmOptimise"

REWRITE_TITLE = "Rewrite with LLM (checked)"
OPTIMISE_TITLE = "Optimise with LLM (checked)"


def _wants(only: list[str] | None, kind: str) -> bool:
    if not only:
        return True
    return any(kind == o or kind.startswith(o + ".") for o in only)


class LlmFeature(LanguageFeature):
    methods: ClassVar[dict[str, Method]] = {
        types.TEXT_DOCUMENT_CODE_ACTION: Method(
            "code_actions",
            options=types.CodeActionOptions(
                code_action_kinds=[
                    types.CodeActionKind.QuickFix,
                    types.CodeActionKind.RefactorRewrite,
                    types.CodeActionKind.Source,
                    KIND_REWRITE,
                    KIND_OPTIMISE,
                ]
            ),
        )
    }
    commands: ClassVar[dict[str, str]] = {
        GENERATE: "generate_kernel",
        REWRITE: "rewrite_kernel",
        OPTIMISE: "optimise_kernel",
    }

    # -- code actions ------------------------------------------------------------------------------

    def code_actions(self, params: types.CodeActionParams) -> list[types.CodeAction]:
        uri = params.text_document.uri
        state = self.server.documents.get(uri)
        if state is None:
            return []
        only = [str(k.value if hasattr(k, "value") else k) for k in (params.context.only or [])]
        start = params.range.start
        function = self._function_at(state, start.line, start.character)
        kernels = [f.name for f in state.model.kernels]
        if function is None and not kernels:
            return []
        args: list[Any] = [
            {"uri": uri, "position": {"line": start.line, "character": start.character}, "version": state.version}
        ]
        where = f" `{function}`" if function else ""
        ours = [d for d in params.context.diagnostics if d.source == SOURCE]
        out: list[types.CodeAction] = []
        if ours and _wants(only, types.CodeActionKind.QuickFix.value):
            out.append(
                types.CodeAction(
                    title=REWRITE_TITLE,
                    kind=types.CodeActionKind.QuickFix,
                    diagnostics=ours,
                    command=types.Command(title=REWRITE_TITLE, command=REWRITE, arguments=args),
                )
            )
        if function is not None:
            if _wants(only, KIND_REWRITE) and not ours:
                out.append(
                    types.CodeAction(
                        title=f"{REWRITE_TITLE}{where}",
                        kind=KIND_REWRITE,
                        command=types.Command(title=REWRITE_TITLE, command=REWRITE, arguments=args),
                    )
                )
            if _wants(only, KIND_OPTIMISE):
                out.append(
                    types.CodeAction(
                        title=f"{OPTIMISE_TITLE}{where}",
                        kind=KIND_OPTIMISE,
                        command=types.Command(title=OPTIMISE_TITLE, command=OPTIMISE, arguments=args),
                    )
                )
        if only and any(o == "source" or o.startswith("source.") for o in only):
            file_args: list[Any] = [{"uri": uri, "version": state.version}]
            if _wants(only, KIND_SOURCE_REWRITE):
                out.append(types.CodeAction(
                    title=f"{REWRITE_TITLE}: whole file", kind=KIND_SOURCE_REWRITE,
                    command=types.Command(title=REWRITE_TITLE, command=REWRITE, arguments=file_args)))
            if _wants(only, KIND_SOURCE_OPTIMISE):
                out.append(types.CodeAction(
                    title=f"{OPTIMISE_TITLE}: whole file", kind=KIND_SOURCE_OPTIMISE,
                    command=types.Command(title=OPTIMISE_TITLE, command=OPTIMISE, arguments=file_args)))
        return out

    @staticmethod
    def _function_at(state: Any, line: int, character: int) -> str | None:
        best = None
        for f in state.model.functions:
            s, e = f.span.start, f.span.end
            inside = (s.line, s.character) <= (line, character) <= (e.line, e.character)
            if inside and (best is None or (s.line, s.character) >= (best.span.start.line, best.span.start.character)):
                best = f
        return best.qualified_name if best is not None else None

    # -- helpers ------------------------------------------------------------------------------------

    def _show(self, kind: types.MessageType, message: str) -> None:
        try:
            self.server.window_show_message(types.ShowMessageParams(type=kind, message=f"ascendc-lsp: {message}"))
        except Exception:
            log.exception("cannot show a message")

    def _workspace_root(self, fallback: Path) -> Path:
        try:
            root = self.server.workspace.root_path
        except Exception:
            root = None
        if root:
            return Path(root)
        from ascendc_lsp.llm.generate import workspace_for

        return workspace_for(fallback)

    def _client_and_config(self, command: str) -> tuple[Any, Any]:
        from ascendc_lsp.llm.client import ChatClient, LlmNotConfigured, resolve_config

        try:
            config = resolve_config(self.server.settings.llm)
        except LlmNotConfigured as exc:
            raise CommandError(str(exc), ErrorCode.NOT_AVAILABLE, command) from None
        return ChatClient(config), config

    async def _with_progress(self, title: str, work: Any) -> Any:
        """Run `work(progress, cancel)` in a thread with work-done progress; cancellable from the client."""
        from ascendc_lsp.llm.loop import Progress

        cancel = threading.Event()
        token = f"ascendc-llm-{uuid.uuid4().hex[:12]}"
        progress_ok = False
        loop = asyncio.get_running_loop()
        try:
            await asyncio.wait_for(self.server.work_done_progress.create_async(token), timeout=5)
            self.server.work_done_progress.begin(
                token, types.WorkDoneProgressBegin(title=title, cancellable=True, percentage=0)
            )
            future = self.server.work_done_progress.tokens.get(token)
            if future is not None:
                future.add_done_callback(lambda f: cancel.set() if f.cancelled() else None)
            progress_ok = True
        except Exception as exc:  # a client without window/workDoneProgress: run without a progress bar
            log.info("no work-done progress (%s)", exc)

        def report(p: Progress) -> None:
            if not progress_ok:
                return
            value = types.WorkDoneProgressReport(message=p.message, percentage=p.percentage, cancellable=True)
            loop.call_soon_threadsafe(self.server.work_done_progress.report, token, value)

        try:
            return await asyncio.to_thread(work, report, cancel)
        except asyncio.CancelledError:
            cancel.set()
            raise
        finally:
            if progress_ok:
                self.server.work_done_progress.end(token, types.WorkDoneProgressEnd(message="done"))
                self.server.work_done_progress.tokens.pop(token, None)

    # -- generateKernel ------------------------------------------------------------------------

    async def generate_kernel(self, params: GenerateKernelParams) -> GenerateKernelResult:
        from ascendc_lsp.llm.generate import Services, generate_kernel
        from ascendc_lsp.llm.loop import LoopConfig
        from ascendc_lsp.llm.spec_input import SpecInputError, generation_target

        if params.spec is None and not params.spec_path:
            raise CommandError("generateKernel needs specPath or an inline spec", ErrorCode.INVALID_PARAMS, GENERATE)
        spec_path = params.spec_path
        if spec_path and spec_path.startswith("file:"):
            spec_path = to_fs_path(spec_path) or spec_path
        try:
            target = generation_target(spec_path, params.spec, params.folder, params.out, self._workspace_root(Path.cwd()))
        except SpecInputError as exc:
            raise CommandError(str(exc), command=GENERATE) from None
        spec, out, write_spec, spec_text = target.spec, target.out, target.write_spec, target.spec_text
        client, _config = self._client_and_config(GENERATE)
        config = LoopConfig(
            max_iterations=max(1, params.max_iterations), refine=max(0, params.refine), use_knowledge=not params.no_knowledge
        )
        settings = self.server.settings
        workspace = self._workspace_root(out)

        def work(report: Any, cancel: threading.Event) -> Any:
            return generate_kernel(
                spec, Services(client=client), out=out, config=config, settings=settings, workspace=workspace,
                progress=report, cancel=cancel, write_spec=write_spec, spec_text=spec_text,
            )

        outcome = await self._run_loop(f"Generating {spec.kernel}", work, client, GENERATE, f"Generate {spec.kernel}")
        payload: dict[str, Any] = outcome.to_json()
        return GenerateKernelResult(
            status=str(payload.get("status") or ""),
            correct=bool(payload.get("correct")),
            message=str(payload.get("message") or ""),
            kernel=payload.get("kernel"),
            spec=payload.get("spec"),
            best_attempt=payload.get("bestAttempt"),
            iterations=int(payload.get("iterations") or 0),
            attempts=int(payload.get("attempts") or 0),
            estimate_microseconds=payload.get("estimateMicroseconds"),
            notes=[str(n) for n in payload.get("notes") or []],
        )

    async def _run_loop(self, title: str, work: Any, client: Any, command: str, failure: str) -> Any:
        """Run a generate/rewrite loop in a worker with progress; its failures become the command's JSON-RPC
        errors (`failure: reason`, or RequestCancelled); the endpoint client is closed either way."""
        from ascendc_lsp.llm.client import Cancelled, LlmError
        from ascendc_lsp.llm.loop import LoopSetupError

        try:
            return await self._with_progress(title, work)
        except Cancelled:
            raise CommandError("cancelled", ErrorCode.REQUEST_CANCELLED, command) from None
        except (LlmError, LoopSetupError) as exc:
            raise CommandError(f"{failure}: {exc}", command=command) from None
        finally:
            client.close()

    # -- rewriteKernel / optimiseKernel -----------------------------------------------------

    async def rewrite_kernel(self, params: RewriteKernelParams) -> RewriteKernelResult:
        return await self._rewrite(params, "correct")

    async def optimise_kernel(self, params: RewriteKernelParams) -> RewriteKernelResult:
        return await self._rewrite(params, "faster")

    async def _rewrite(self, params: RewriteKernelParams, goal: str) -> RewriteKernelResult:
        from ascendc_lsp.llm.generate import Services, find_spec_for, rewrite_kernel
        from ascendc_lsp.llm.loop import LoopConfig

        what = "Rewrite" if goal == "correct" else "Optimise"
        command = REWRITE if goal == "correct" else OPTIMISE
        uri, position, version = params.uri, params.position, params.version
        state = self.server.documents.get(uri)
        path_text = to_fs_path(uri)
        if state is None or not path_text:
            raise CommandError(f"{what} with LLM: the document is not open", ErrorCode.NOT_AVAILABLE, command)
        path = Path(path_text)
        text = state.document.text
        kernels = [f.name for f in state.model.kernels]
        focus = None
        if position is not None:
            focus = self._function_at(state, position.line, position.character)
        found = find_spec_for(path, kernels)
        if found is None:
            names = ", ".join(kernels) or "this kernel"
            message = (
                f"{what} with LLM needs a kernel spec to check the result against: put a spec.yaml (or "
                f"<name>.spec.yaml) naming {names} beside {path.name} (see the kernel spec format in the docs)."
            )
            raise CommandError(message, command=command)
        spec_path, spec = found
        client, _config = self._client_and_config(command)
        config = LoopConfig(max_iterations=5, refine=0)
        settings = self.server.settings
        workspace = self._workspace_root(path)

        def work(report: Any, cancel: threading.Event) -> Any:
            return rewrite_kernel(
                spec, path, text, Services(client=client), goal=goal, config=config, focus=focus,
                settings=settings, workspace=workspace, progress=report, cancel=cancel,
            )

        outcome = await self._run_loop(
            f"{what} {spec.kernel} with LLM (checked)", work, client, command, f"{what} with LLM ({spec_path.name})"
        )
        best = str(outcome.best_attempt) if outcome.best_attempt else None
        result = RewriteKernelResult(
            accepted=bool(outcome.accepted), applied=False, message=outcome.message, spec=str(spec_path), best_attempt=best
        )
        if not outcome.accepted or outcome.new_text is None:
            self._show(types.MessageType.Warning, f"{what} with LLM: {outcome.message}")
            self._show_attempt(outcome.best_attempt)
            result.accepted = False
            return result
        current = self.server.documents.get(uri)
        if current is None or current.document.text != text or (version is not None and current.version != version
                                                                  and current.document.text != text):
            message = (f"{what} with LLM: the file changed while the loop ran; not applying. The checked result is "
                       f"saved at {outcome.best_attempt}.")
            self._show(types.MessageType.Warning, message)
            result.accepted, result.message = False, message
            return result
        lines = text.split("\n")
        end = types.Position(line=len(lines) - 1, character=utf16_len(lines[-1]))
        edit = types.WorkspaceEdit(
            document_changes=[
                types.TextDocumentEdit(
                    text_document=types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=current.version),
                    edits=[types.TextEdit(range=types.Range(start=types.Position(line=0, character=0), end=end),
                                          new_text=outcome.new_text)],
                )
            ]
        )
        try:
            response = await self.server.workspace_apply_edit_async(
                types.ApplyWorkspaceEditParams(edit=edit, label=f"{what} with LLM (checked)")
            )
            applied = bool(getattr(response, "applied", False))
        except Exception as exc:
            log.warning("workspace/applyEdit failed: %s", exc)
            applied = False
        if applied:
            self._show(types.MessageType.Info, f"{what} with LLM: {outcome.message}")
        else:
            self._show(types.MessageType.Warning,
                       f"{what} with LLM: the editor did not apply the edit; the result is at {outcome.best_attempt}")
        result.applied = applied
        return result

    def _show_attempt(self, path: Path | None) -> None:
        if path is None:
            return
        caps = self.server.client_capabilities
        window = getattr(caps, "window", None) if caps is not None else None
        show = getattr(window, "show_document", None) if window is not None else None
        if show is None or not getattr(show, "support", False):
            return
        uri = from_fs_path(str(path))
        if uri is None:
            return
        try:
            self.server.window_show_document(types.ShowDocumentParams(uri=uri, take_focus=False))
        except Exception:
            log.exception("cannot show the best attempt")


__all__ = ["GENERATE", "OPTIMISE", "REWRITE", "LlmFeature"]
