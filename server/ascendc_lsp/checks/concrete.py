"""Concrete values from an op test case: the tiling fields, block_dim and tensor sizes the op's own host
TilingFunc computes for that case (toolchain/opproject runs it on the CPU), as a `KnownValues` record the
rules fold in (checks/project.py attaches it to the op's kernel file).

Running the host program takes a compile the first time, so it never happens on an edit: `check` (the CLI)
and the editor's save ask for it (`run_host=True`); every other check reads the last answer from the disk
cache, keyed by the content of the test case and the op_host sources and by the kernel's path (an edit to the
case or the host code makes the old values stale, and they are then not used).
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import struct
from pathlib import Path
from typing import Any

from ascendc_lsp.checks.reads import watch
from ascendc_lsp.checks.values import KnownValues, known_values
from ascendc_lsp.paths import atomic_write, cache_dir

log = logging.getLogger(__name__)

_FORMATS = {
    "int8_t": "b", "uint8_t": "B", "int16_t": "h", "uint16_t": "H", "int32_t": "i", "uint32_t": "I",
    "int64_t": "q", "uint64_t": "Q", "float": "f", "double": "d", "bool": "?", "char": "b", "int": "i",
    "unsigned": "I", "unsigned int": "I", "short": "h", "long": "q", "size_t": "Q",
}
_MAX_CASE_BYTES = 256 * 1024


def _cache_dir() -> Path:
    return cache_dir("check-values")


def _digest(paths: list[Path]) -> str | None:
    h = hashlib.sha256()
    for path in paths:
        try:
            h.update(str(path).encode())
            h.update(path.read_bytes())
        except OSError:
            return None
    return h.hexdigest()[:32]


def is_op_test_case(text: str) -> bool:
    from ascendc_lsp.toolchain.opproject.testcase import is_test_case
    from ascendc_lsp.toolchain.spec import parse_yaml

    try:
        data = parse_yaml(text, "test case")
    except Exception:  # a YAML file that is not ours: not a test case
        return False
    return bool(is_test_case(data))


def decode_fields(raw: bytes, struct_name: str, classes: list[Any]) -> dict[str, int | float]:
    """Scalar fields of the tiling struct (and of structs nested in it, by their own names) from its bytes."""
    by_name = {c.name: c for c in classes}
    values: dict[str, int | float] = {}

    def walk(name: str, base: int, depth: int) -> None:
        cls = by_name.get(name) or by_name.get(name.split("::")[-1])
        if cls is None or depth > 4:
            return
        for f in cls.fields:
            offset = base + f.offset
            if f.kind == "scalar":
                fmt = _FORMATS.get(f.type.split("::")[-1].strip())
                if fmt is None or offset + struct.calcsize(fmt) > len(raw):
                    continue
                (value,) = struct.unpack_from("<" + fmt, raw, offset)
                values.setdefault(f.name, int(value) if fmt == "?" else value)
            elif f.kind == "struct":
                walk(f.type, offset, depth + 1)

    walk(struct_name, 0, 0)
    return values


_STRUCT = r"\b(?:struct|class)\s+{name}\s*\{{(.*?)\}}\s*;"
_MEMBER = re.compile(r"^\s*(?:alignas\(\d+\)\s*)?([A-Za-z_][\w:]*(?:\s+int)?)\s+([A-Za-z_]\w*)\s*(?:\[\s*(\d+)\s*\])?\s*(?:=[^;]*)?;")


def decode_plain_struct(raw: bytes, struct_name: str, folders: list[Path]) -> dict[str, int | float]:
    """A standard C++ tiling struct of scalars (shared by host and kernel through a header): its layout with
    natural alignment, read from the first header in `folders` that defines it."""
    from ascendc_lsp.syntax.constfold import SCALAR_SIZES

    pattern = re.compile(_STRUCT.format(name=re.escape(struct_name.split("::")[-1])), re.S)
    for folder in folders:
        for path in sorted(folder.glob("*.h"))[:32] if folder.is_dir() else []:
            try:
                text = path.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            match = pattern.search(text)
            if match is None:
                continue
            values: dict[str, int | float] = {}
            offset = 0
            for line in re.sub(r"//[^\n]*|/\*.*?\*/", "", match.group(1), flags=re.S).split(";"):
                member = _MEMBER.match(line + ";")
                if member is None:
                    if line.strip():
                        return values  # a member this reader does not size: the layout after it is unknown
                    continue
                type_name = member.group(1).split("::")[-1]
                size = SCALAR_SIZES.get(type_name)
                fmt = _FORMATS.get(type_name)
                if size is None:
                    return values
                offset = (offset + size - 1) // size * size
                count = int(member.group(3)) if member.group(3) else 1
                if count == 1 and fmt is not None and offset + size <= len(raw):
                    (value,) = struct.unpack_from("<" + fmt, raw, offset)
                    values[member.group(2)] = int(value) if fmt == "?" else value
                offset += size * count
            return values
    return {}


def test_case_values(case_path: Path, kernel_file: Path, run_host: bool = False) -> KnownValues | None:
    """The values the host TilingFunc computes for the test case, when its kernel is `kernel_file`."""
    from ascendc_lsp.toolchain.opproject.discovery import OpProjectError, find_project
    from ascendc_lsp.toolchain.opproject.testcase import load_test_case
    from ascendc_lsp.toolchain.spec import SpecError

    watch(case_path)
    try:
        case = load_test_case(case_path)
        from ascendc_lsp.toolchain.opproject.opbuild import resolve_case_project

        project_root = resolve_case_project(case)
        watch(project_root)
        project = find_project(project_root)
    except (SpecError, OpProjectError, OSError, ValueError):
        return None
    # The values depend on the host code (a file added to op_host too) and on the cached answer appearing.
    watch(project.op_host)
    for source in project.host_sources():
        watch(source)
    # The kernel's path, not its text: the host's values do not change while the kernel is edited.
    key = _digest([case_path, *project.host_sources()])
    key = key and hashlib.sha256(f"{key}:{kernel_file.resolve()}".encode()).hexdigest()[:32]
    if key is None:
        return None
    cached = _cache_dir() / f"{key}.json"
    watch(cached)
    if cached.is_file():
        return _from_json(cached)
    if not run_host:
        return None
    record = _run_host(case, kernel_file)
    try:
        atomic_write(cached, json.dumps(record), durable=False)
    except OSError:
        log.warning("cannot write %s", cached)
    return _from_record(record)


def _run_host(case: Any, kernel_file: Path) -> dict[str, Any]:
    """Run the op's host program for the case: {} when it fails or the case is for another kernel."""
    from ascendc_lsp.toolchain.opproject import opbuild
    from ascendc_lsp.toolchain.opproject.discovery import OpProjectError, find_project

    try:
        prepared = opbuild.prepare(case)
        if not isinstance(prepared, opbuild.Prepared):
            return {}
        spec = prepared.spec
        if spec.source is None or spec.source.resolve() != kernel_file.resolve():
            return {}
        described = opbuild.describe_project(find_project(opbuild.resolve_case_project(case)))
        classes = getattr(described, "classes", [])
        tiling = spec.tiling
        fields: dict[str, int | float] = {}
        if tiling is not None and tiling.raw and tiling.struct:
            fields = decode_fields(tiling.raw, tiling.struct, classes)
            if not fields:
                folders = [kernel_file.parent, described.project.op_host] if hasattr(described, "project") else [kernel_file.parent]
                fields = decode_plain_struct(tiling.raw, tiling.struct, folders)
        for name, value in case.tiling_fields.items():
            if isinstance(value, int | float):
                fields[name] = value
        return {
            "origin": case_path_name(case),
            "fields": fields,
            "block_dim": spec.block_dim,
            "tensors": {t.name: t.size for t in (*spec.inputs, *spec.outputs)},
            "kernel": spec.kernel,
        }
    except (OpProjectError, OSError, ValueError) as exc:
        log.info("no tiling values for %s: %s", kernel_file, exc)
        return {}


def case_path_name(case: Any) -> str:
    return f"{Path(case.path).name} (its host TilingFunc)" if case.path else "the test case"


def _from_json(path: Path) -> KnownValues | None:
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return _from_record(record) if isinstance(record, dict) else None


def _from_record(record: dict[str, Any]) -> KnownValues | None:
    if not record:
        return None
    tensors = record.get("tensors") or {}
    return known_values(
        origin=str(record.get("origin", "the test case")),
        fields=record.get("fields") or {},
        block_dim=record.get("block_dim") if isinstance(record.get("block_dim"), int) else None,
        tensor_elements={str(k): int(v) for k, v in tensors.items() if isinstance(v, int)},
        kernel=record.get("kernel"),
    )


def attached_test_case_values(file: Path, run_host: bool = False) -> KnownValues | None:
    """Values of the first op test case (`*.yaml` with `op:` or `project:` and `inputs:`) next to the kernel, in
    its op project folder, or in that folder's `tests/` or `testcases/`, whose kernel is this file."""
    folders = [file.parent, file.parent.parent, file.parent.parent / "tests", file.parent.parent / "testcases"]
    seen = 0
    for folder in folders:
        watch(folder)
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.yaml"))[:16]:
            seen += 1
            watch(path)
            try:
                if path.stat().st_size > _MAX_CASE_BYTES:
                    continue
                text = path.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            if "inputs" not in text or ("op:" not in text and "project:" not in text) or "kernel:" in text:
                continue
            if not is_op_test_case(text):
                continue
            values = test_case_values(path, file, run_host)
            if values is not None:
                return values
        if seen > 48:
            break
    return None
