"""What "generate a kernel" works from: a spec file (a path, relative to the workspace) or an inline spec object, and where the kernel goes. When the kernel is written away from its spec,
a copy of the spec naming it is written beside it (so `run` finds the pair); an inline spec is written as YAML.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from ascendc_lsp import safeio
from ascendc_lsp.toolchain.spec import KernelSpec, SpecError, load_spec, spec_from_dict


class SpecInputError(ValueError):
    """The spec cannot be used (missing, unreadable or invalid); the message says why."""


@dataclass(frozen=True)
class GenerationTarget:
    spec: KernelSpec
    out: Path  # the kernel source to write
    write_spec: Path | None  # where to write the spec beside it (None: it is already there)
    spec_text: str | None  # the YAML to write there


def _path(raw: str, workspace: Path) -> Path:
    path = Path(raw)
    return path if path.is_absolute() else workspace / path


def generation_target(
    spec_path: str | None, inline: dict[str, Any] | None, folder: str | None, out: str | None, workspace: Path
) -> GenerationTarget:
    """The spec and the files to write for a generate request (SpecInputError when the spec is unusable)."""
    if inline is None and not spec_path:
        raise SpecInputError("generateKernel needs specPath or an inline spec")
    spec_text: str | None = None
    write_spec: Path | None = None
    try:
        if inline is None:
            path = _path(str(spec_path), workspace)
            spec = load_spec(path)
            base = path.parent
        else:
            where = folder or (str(Path(spec_path).parent) if spec_path else None)
            base = Path(where) if where else workspace
            kernel = str(inline.get("kernel") or "kernel")
            data = dict(inline)
            data.setdefault("source", f"{kernel}.cpp")
            spec_text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
            write_spec = base / f"{kernel}.spec.yaml"
            spec = spec_from_dict(data, base_dir=base, path=write_spec, origin=str(write_spec))
    except SpecError as exc:
        raise SpecInputError(str(exc)) from None
    target = Path(out) if out else (spec.source or base / f"{spec.kernel}.cpp")
    if not target.is_absolute():
        target = base / target
    if write_spec is None and target.parent.resolve() != base.resolve():
        try:
            text = safeio.read_text(Path(str(spec.path)), safeio.MAX_SPEC_BYTES, "spec file") if spec.path else ""
            data = safeio.load_yaml(text) if text else {}
        except (OSError, ValueError, yaml.YAMLError) as exc:
            raise SpecInputError(f"{spec.path}: {exc}") from None
        if isinstance(data, dict):
            data["source"] = target.name
            spec_text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
            write_spec = target.parent / f"{spec.kernel}.spec.yaml"
    return GenerationTarget(spec, target, write_spec, spec_text)
