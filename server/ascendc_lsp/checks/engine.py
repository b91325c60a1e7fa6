"""Run the syntax check and every registered rule over a document."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ascendc_lsp.checks.base import CheckContext, RuleFunction
from ascendc_lsp.checks.launch import launch_values
from ascendc_lsp.checks.project import KnownValues, ProjectContext, project_context
from ascendc_lsp.diagnostics import Diagnostic
from ascendc_lsp.hardware.limits import DEFAULT_SOC
from ascendc_lsp.syntax.document import SourceDocument, tree_depth
from ascendc_lsp.syntax.model import MAX_ERROR_WIDTH, MAX_TREE_DEPTH, DocumentModel, build_model
from ascendc_lsp.syntax.positions import Position, Span

if TYPE_CHECKING:
    from ascendc_lsp.checks.incremental import CheckedVersion

log = logging.getLogger(__name__)

# A rule or the model crashing is never a clean result: it becomes this error finding (and `check` exits with
# cli.EXIT_INTERNAL), so "0 errors" always means every rule ran.
INTERNAL_CODE = "internal-error"


TOO_DEEP_CODE = "too-deep"  # past syntax.model.MAX_TREE_DEPTH only the syntax is checked (the model is empty)
TOO_WIDE_CODE = "too-wide"  # likewise past syntax.model.MAX_ERROR_WIDTH (one unparsable run of that many tokens)


def internal_finding(what: str, exc: BaseException) -> Diagnostic:
    start = Position(0, 0)
    detail = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    return Diagnostic(
        span=Span(start, start),
        severity="error",
        code=INTERNAL_CODE,
        message=f"internal error in {what} ({detail[:200]}): its findings for this file are missing; please report it",
    )

_SEVERITY_ORDER = {"error": 0, "warning": 1, "information": 2, "hint": 3}




@dataclass
class CheckOptions:
    """`soc_name` None: the SoC of the file's project (checks/project.py), else DEFAULT_SOC. `known`: concrete
    values (tiling fields, block_dim, tensor sizes) to fold in; None: those of a spec attached to the file.
    `use_project` False ignores the file's surroundings (a buffer checked on its own)."""

    soc_name: str | None = None
    disabled_rules: frozenset[str] = frozenset()
    known: KnownValues | None = None
    use_project: bool = True
    run_host: bool = False  # run an attached op test case's host TilingFunc (slow once, then cached): not per keystroke


def syntax_findings(document: SourceDocument) -> list[Diagnostic]:
    return [Diagnostic(span=span, severity="error", code="syntax", message=message) for span, message in document.syntax_errors()]


def load_soc(name: str) -> object | None:
    """The SoC profile, or None when profiles are unavailable (rules then use documented defaults)."""
    try:
        from ascendc_lsp.hardware.soc import get_soc
    except ImportError:
        return None
    return get_soc(name)


def load_catalogue() -> object | None:
    try:
        from ascendc_lsp.hardware.api_catalogue import load_api_catalogue
    except ImportError:
        return None
    return load_api_catalogue()


def registered_rules() -> dict[str, RuleFunction]:
    """Every rule by id; the rule modules are imported on the first check, not with the engine."""
    from ascendc_lsp.checks.rules import registered_rules as every_rule

    return every_rule()


def run_rules(context: CheckContext, disabled: frozenset[str] = frozenset()) -> list[Diagnostic]:
    findings: list[Diagnostic] = []
    try:
        rules = registered_rules()
    except Exception as exc:  # a rule module that fails to import must not take syntax diagnostics down
        log.exception("cannot load the rule modules")
        return [internal_finding("loading the rules", exc)]
    for rule_id, function in sorted(rules.items()):
        if rule_id in disabled:
            continue
        try:
            findings.extend(function(context))
        except Exception as exc:  # one broken rule must not hide the others' findings
            log.exception("rule %s failed on %s", rule_id, context.document.path or "<buffer>")
            findings.append(internal_finding(f"rule {rule_id}", exc))
    return findings


# What a check caches on its context that does not depend on the attached values: a context made to read a
# launch's values (checks/launch.py) hands these to the check of the same document and model.
_VALUE_FREE_CACHES = ("_rule_scan", "_scalar_decls", "_decls_by_scope", "_launches", "_arith_writes")


def check_document(
    document: SourceDocument,
    options: CheckOptions | None = None,
    model: DocumentModel | None = None,
    *,
    scanned: CheckContext | None = None,
) -> list[Diagnostic]:
    """Syntax errors plus every rule's findings, sorted by position then severity. `scanned`: a context of the
    same document and model whose value-free scans are reused."""
    options = options or CheckOptions()
    findings = syntax_findings(document)
    if model is None:
        try:
            model = build_model(document)  # measures the depth first: past the limit, an empty model at once
        except Exception as exc:
            log.exception("cannot model %s", document.path or "<buffer>")
            return [*findings, internal_finding("the document model", exc)]
    if model.too_deep or (model.depth is None and tree_depth(document.tree.root_node, MAX_TREE_DEPTH) > MAX_TREE_DEPTH):
        start = Position(0, 0)
        return [*findings, Diagnostic(
            span=Span(start, start), severity="warning", code=TOO_DEEP_CODE,
            message=f"the code nests more than {MAX_TREE_DEPTH:,} levels deep: only its syntax was checked",
        )]  # fmt: skip
    if model.too_wide:
        start = Position(0, 0)
        return [*findings, Diagnostic(
            span=Span(start, start), severity="warning", code=TOO_WIDE_CODE,
            message=f"a run of more than {MAX_ERROR_WIDTH:,} tokens does not parse as C++: only the syntax was checked",
        )]  # fmt: skip
    project = project_context(document.path) if options.use_project else ProjectContext()
    soc_name = options.soc_name or (project.soc.soc if project.soc is not None else DEFAULT_SOC)
    known = options.known or project.known
    if known is None and options.run_host and options.use_project and document.path:
        from pathlib import Path

        from ascendc_lsp.checks.concrete import attached_test_case_values

        known = attached_test_case_values(Path(document.path), run_host=True)
    context = CheckContext(
        document=document,
        model=model,
        soc_name=soc_name,
        soc=load_soc(soc_name),
        catalogue=load_catalogue(),
        soc_source=None if options.soc_name or project.soc is None else project.soc.describe(),
        soc_firm=bool(options.soc_name) or project.soc is None or project.soc.firm,
        known=known,
    )
    if scanned is not None and scanned.document is document and scanned.model is model:
        context.__dict__.update({k: v for k, v in scanned.__dict__.items() if k in _VALUE_FREE_CACHES})
    if known is None and scanned is None:  # a `scanned` context already read the launch, and found no values
        # A direct-launch sample: its own host code says what the kernel runs with (checks/launch.py).
        context.known = launch_values(context)
    findings.extend(run_rules(context, options.disabled_rules))
    findings.sort(key=finding_order)
    return findings


def finding_order(finding: Diagnostic) -> tuple[int, int, int, str, str]:
    """Findings sort by position, then severity, code and message (the same order however they were found)."""
    start = finding.span.start
    return (start.line, start.character, _SEVERITY_ORDER.get(finding.severity, 9), finding.code, finding.message)


def settings_key(document: SourceDocument, options: CheckOptions) -> object:
    """Everything besides the text that a check's findings depend on (compared between versions)."""
    project = project_context(document.path) if options.use_project else ProjectContext()
    return (options.soc_name, options.disabled_rules, options.known, options.use_project, options.run_host, project)


# A small kernel of our own: checking it loads what a first check would load on the way (the rule modules and the
# modules they import inside functions, the dialect layer's tables, the tree-sitter queries).
_WARM_UP_KERNEL = """#include "kernel_operator.h"
using namespace AscendC;
constexpr int32_t LENGTH = 2048;
class KernelCopy {
public:
    __aicore__ inline void Init(GM_ADDR src, GM_ADDR dst)
    {
        srcGm.SetGlobalBuffer((__gm__ half *)src + LENGTH * GetBlockIdx(), LENGTH);
        dstGm.SetGlobalBuffer((__gm__ half *)dst + LENGTH * GetBlockIdx(), LENGTH);
        pipe.InitBuffer(queue, 2, LENGTH * sizeof(half));
    }
    __aicore__ inline void Process()
    {
        LocalTensor<half> local = queue.AllocTensor<half>();
        DataCopy(local, srcGm, LENGTH);
        queue.EnQue(local);
        LocalTensor<half> ready = queue.DeQue<half>();
        DataCopy(dstGm, ready, LENGTH);
        queue.FreeTensor(ready);
    }
private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> queue;
    GlobalTensor<half> srcGm, dstGm;
};
extern "C" __global__ __aicore__ void copy_custom(GM_ADDR src, GM_ADDR dst)
{
    KernelCopy op;
    op.Init(src, dst);
    op.Process();
}
"""


def warm_up() -> None:
    """Load now what the first checks would load lazily: the rule modules, the rule table (read at a rule's first
    finding: 25-40 ms of YAML, which made the first edit with a new finding the slowest of a session), the API
    catalogue and the default SoC profile. The server calls it at start-up, before it freezes its heap
    (lsp/server.py)."""
    from ascendc_lsp.checks.base import rule_table

    rule_table()
    load_catalogue()
    load_soc(DEFAULT_SOC)
    check_document(SourceDocument(_WARM_UP_KERNEL), CheckOptions(use_project=False))


def check_incrementally(
    previous: CheckedVersion | None,
    document: SourceDocument,
    options: CheckOptions | None = None,
    model_of: Callable[[], DocumentModel] | None = None,
) -> CheckedVersion:
    """The findings of `check_document(document, options)`, reusing those of `previous` (an earlier version of
    the same document) for the top-level units the edit cannot have changed (checks/incremental.py). `model_of`
    gives the document's shared model (asked only when the whole file is checked)."""
    from ascendc_lsp.checks import incremental

    options = options or CheckOptions()
    scanned: CheckContext | None = None
    if options.known is None and b"<<<" in document.data:
        # The values a launch gives come from the host code, which a partial check blanks: read them on the
        # whole document, and let them key the check (a change of values or of their lines is a full check).
        model = model_of() if model_of is not None else build_model(document)
        if not (model.too_deep or model.too_wide):
            project = project_context(document.path) if options.use_project else ProjectContext()
            if project.known is None:
                scanned = CheckContext(document=document, model=model)
                values = launch_values(scanned)
                if values is not None:
                    options = dataclasses.replace(options, known=values)

    def full_check(target: SourceDocument) -> list[Diagnostic]:
        model = model_of() if model_of is not None and target is document else None
        if scanned is not None and target is document:
            return check_document(target, options, model=scanned.model, scanned=scanned)
        return check_document(target, options, model=model)

    return incremental.check_incrementally(previous, document, settings_key(document, options), full_check, finding_order)
