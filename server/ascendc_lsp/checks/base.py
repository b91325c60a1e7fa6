"""The rule registry and what a rule reads.

A rule is a plain function `(CheckContext) -> Iterable[Diagnostic]` registered under an id of
`knowledge/rules.yaml`, which supplies its severity, category and explaining knowledge entry. A finding (a
`Diagnostic` of `ascendc_lsp.diagnostics`) carries its fixes with it (as ruff-lsp does), so the code-action
handler only reads them back.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any

import yaml

from ascendc_lsp.diagnostics import SEVERITIES, Diagnostic, Fix, Related, Severity, severity_of
from ascendc_lsp.hardware.limits import DEFAULT_SOC
from ascendc_lsp.resources import knowledge_dir
from ascendc_lsp.syntax.document import SourceDocument
from ascendc_lsp.syntax.model import DocumentModel
from ascendc_lsp.syntax.positions import Span

log = logging.getLogger(__name__)

class RuleTableError(ValueError):
    """`knowledge/rules.yaml` is malformed; the message names the rule and field."""


@dataclass(frozen=True, slots=True)
class RuleMeta:
    id: str
    name: str
    severity: Severity
    category: str
    entry: str
    summary: str


@cache
def rule_table() -> dict[str, RuleMeta]:
    path = knowledge_dir() / "rules.yaml"
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise RuleTableError(f"{path}: cannot load the rule table ({exc})") from exc
    if not isinstance(raw, dict) or not isinstance(raw.get("rules"), list):
        raise RuleTableError(f"{path}: expected a mapping with a 'rules' list")
    table: dict[str, RuleMeta] = {}
    for index, item in enumerate(raw["rules"]):
        where = f"{path}: rules[{index}]"
        if not isinstance(item, dict):
            raise RuleTableError(f"{where}: expected a mapping")
        missing = [k for k in ("id", "name", "severity", "category", "entry", "summary") if not item.get(k)]
        if missing:
            raise RuleTableError(f"{where}: missing field(s) {', '.join(missing)}")
        if item["severity"] not in SEVERITIES:
            raise RuleTableError(f"{where}: severity '{item['severity']}' is not one of {', '.join(SEVERITIES)}")
        if item["id"] in table:
            raise RuleTableError(f"{where}: duplicate rule id {item['id']}")
        table[item["id"]] = RuleMeta(
            id=str(item["id"]),
            name=str(item["name"]),
            severity=severity_of(str(item["severity"])),
            category=str(item["category"]),
            entry=str(item["entry"]),
            summary=str(item["summary"]),
        )
    return table


@dataclass
class CheckContext:
    """What a rule may read: the document, its model, the chosen SoC and the API catalogue."""

    document: SourceDocument
    model: DocumentModel
    soc_name: str = DEFAULT_SOC
    soc: Any = None  # ascendc_lsp.hardware.soc.SocProfile, loaded by the caller
    catalogue: Any = None  # ascendc_lsp.hardware.api_catalogue.ApiCatalogue
    soc_source: str | None = None  # where the SoC came from when the project chose it (for messages)
    soc_firm: bool = True  # False: the project's SoC is an overridable build default, not a decision
    known: Any = None  # ascendc_lsp.checks.project.KnownValues: concrete tiling values attached to the file

    def finding(
        self,
        rule_id: str,
        span: Span,
        message: str,
        *,
        severity: Severity | None = None,
        fixes: Iterable[Fix] = (),
        related: Iterable[Related] = (),
    ) -> Diagnostic:
        meta = rule_table()[rule_id]
        if self.soc_source and self.soc_name in message:
            message += f" (SoC {self.soc_source})"  # the project chose it: say where
            if not self.soc_firm and (severity or meta.severity) == "error":
                # A placeholder default decides nothing: the finding holds only if that SoC is the target.
                severity = "warning"
                message += "; set the SoC to make this an error"
        return Diagnostic(
            span=span,
            severity=severity or meta.severity,
            code=meta.id,
            message=message,
            category=meta.category,
            knowledge=[meta.entry],
            fixes=list(fixes),
            related=list(related),
        )


RuleFunction = Callable[[CheckContext], Iterable[Diagnostic]]
_REGISTRY: dict[str, RuleFunction] = {}


def rule(rule_id: str) -> Callable[[RuleFunction], RuleFunction]:
    """Register a rule implementation under an id of rules.yaml."""

    def register(function: RuleFunction) -> RuleFunction:
        if rule_id in _REGISTRY:
            raise RuleTableError(f"rule {rule_id} is implemented twice")
        _REGISTRY[rule_id] = function
        return function

    return register


def rules_registered_so_far() -> dict[str, RuleFunction]:
    """The rules registered by the modules imported so far; `checks.rules.registered_rules()` imports them all."""
    return dict(_REGISTRY)
