"""The op test case (YAML) that runs an op project: which op, the tensors, attributes, the NumPy reference and
tolerances; optional overrides of what the host TilingFunc computes. Format: docs/op-test-case.md.

Tensors, init, tolerances and the reference use the kernel spec's rules and messages (toolchain/spec.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ascendc_lsp.toolchain.spec import (
    DTYPES,
    MAX_TOTAL_BYTES,
    SpecError,
    TensorSpec,
    Tolerance,
    _show,
    _Validator,
    read_yaml_file,
)

CASE_KEYS = (
    "project",
    "repository",
    "op",
    "soc",
    "inputs",
    "outputs",
    "attrs",
    "reference",
    "tolerance",
    "seed",
    "description",
    "name",
    "block_dim",
    "tiling_key",
    "workspace_bytes",
    "tiling_fields",
    "tiling_bytes",
)
CASE_TENSOR_KEYS = ("name", "shape", "dtype", "init", "inject", "tolerance", "compare", "description")
_HEX = re.compile(r"^(0x)?([0-9a-fA-F]{2})*$")


@dataclass
class CaseTensor:
    """A test case tensor; outputs may leave shape (InferShape) and dtype (the OpDef variant) open."""

    name: str
    shape: tuple[int, ...] | None
    dtype: str | None
    spec: TensorSpec | None = (
        None  # inputs: complete (init, inject); outputs: filled once shape and dtype are known
    )
    tolerance: Tolerance | None = None
    compare: bool = True
    group: str | None = None  # the dynamic (tensor list) parameter this tensor is a member of: `<group>_<i>`


@dataclass
class TestCase:
    path: Path | None
    base_dir: Path
    project: Path | None  # the op project folder or a file in it (resolved against repository when given)
    op: str | None
    soc: str | None
    inputs: list[CaseTensor]
    outputs: list[CaseTensor]
    attrs: dict[str, Any]
    reference: str | None
    tolerance: Tolerance | None = None
    seed: int = 0
    description: str = ""
    repository: str | None = None
    block_dim: int | None = None
    tiling_key: int | None = None
    workspace_bytes: int | None = None
    tiling_fields: dict[str, Any] = field(default_factory=dict)
    tiling_bytes: bytes | None = None
    warnings: list[str] = field(default_factory=list)

    __test__ = False  # not a pytest class

    @property
    def origin(self) -> str:
        return str(self.path) if self.path else "<test case>"


def is_test_case(data: Any) -> bool:
    """A YAML mapping is a test case (not a kernel spec) when it names an op project or an op."""
    return isinstance(data, dict) and ("project" in data or "op" in data) and "kernel" not in data


def load_test_case(path: str | Path, project: str | Path | None = None) -> TestCase:
    """Read and validate a test case file; `project` (a path) stands in for a missing `project:` key."""
    p = Path(path)
    _, data = read_yaml_file(p, "test case")
    return case_from_dict(data, base_dir=p.resolve().parent, path=p.resolve(), origin=str(p), project=project)


def case_from_dict(
    data: Any,
    base_dir: str | Path = ".",
    path: Path | None = None,
    origin: str | None = None,
    project: str | Path | None = None,
) -> TestCase:
    org = origin or (str(path) if path else "<test case>")
    v = _CaseValidator(org, Path(base_dir).resolve())
    return v.case(data, path, project)


class _CaseValidator(_Validator):
    def case(self, data: Any, path: Path | None, project_arg: str | Path | None) -> TestCase:
        if data is None:
            raise self.fail("", "the test case is empty")
        if not isinstance(data, dict):
            raise self.fail("", f"expected a YAML mapping at the top level, got {_show(data)}")
        self.unknown_keys("", data, CASE_KEYS)
        repository = None
        if data.get("repository") is not None:
            repository = self.string("repository", data["repository"])
            if not re.fullmatch(r"[\w.-]+[/+][\w.-]+", repository):
                raise self.fail("repository", f"expected owner/name, got {_show(repository)}")
        project: Path | None = None
        if data.get("project") is not None:
            s = self.string("project", data["project"])
            if repository is not None:
                project = Path(s)  # inside the repository tree; resolved by the runner
            else:
                project = self.path("project", s, must_exist=True, kind="any")
        elif project_arg is not None:
            project = Path(project_arg).expanduser().resolve()
        op = self.identifier("op", data["op"]) if data.get("op") is not None else None
        if project is None and op is None:
            raise self.fail("project", "missing: the op project folder (or any file in it)")
        inputs = self.case_tensors("inputs", data.get("inputs"), is_output=False)
        outputs = self.case_tensors("outputs", data.get("outputs"), is_output=True)
        if not outputs:
            raise self.fail("outputs", "missing or empty: name the op's outputs to compare")
        seen: dict[str, str] = {}
        for where, ts in (("inputs", inputs), ("outputs", outputs)):
            for i, t in enumerate(ts):
                if t.name in seen:
                    raise self.fail(
                        f"{where}[{i}].name",
                        f"'{t.name}' is already used in {seen[t.name]} (an output named like an input is "
                        f"'{t.name}_ref', as in the kernel signature)",
                    )
                seen[t.name] = f"{where}[{i}]"
        total = sum(t.spec.nbytes for t in inputs if t.spec is not None)
        if total > MAX_TOTAL_BYTES:
            raise self.fail(
                "inputs", f"the tensors need {total:,} B; the emulator's limit is {MAX_TOTAL_BYTES:,} B"
            )
        attrs = data.get("attrs") or {}
        if not isinstance(attrs, dict):
            raise self.fail("attrs", f"expected a mapping of attribute: value, got {_show(attrs)}")
        attrs = {str(k): self.attr_value(f"attrs.{k}", val) for k, val in attrs.items()}
        case = TestCase(
            path=path,
            base_dir=self.base,
            project=project,
            op=op,
            soc=self.string("soc", data["soc"]) if data.get("soc") is not None else None,
            inputs=inputs,
            outputs=outputs,
            attrs=attrs,
            reference=None,
            repository=repository,
        )
        ref = data.get("reference")
        if ref is not None:
            case.reference = self.reference(ref)
        elif any(o.compare for o in outputs):
            raise self.fail("reference", "missing: give NumPy code that assigns every compared output")
        self.check_options(data, case)
        if data.get("block_dim") is not None:
            case.block_dim = self.integer("block_dim", data["block_dim"], lo=1, hi=65535)
        if data.get("tiling_key") is not None:
            case.tiling_key = self.integer("tiling_key", data["tiling_key"], lo=0, hi=2**64 - 1)
        if data.get("workspace_bytes") is not None:
            case.workspace_bytes = self.integer(
                "workspace_bytes", data["workspace_bytes"], lo=0, hi=MAX_TOTAL_BYTES
            )
        if data.get("tiling_fields") is not None:
            case.tiling_fields = self.tiling_fields("tiling_fields", data["tiling_fields"])
        if data.get("tiling_bytes") is not None:
            hx = re.sub(r"\s+", "", str(data["tiling_bytes"]))
            if not _HEX.match(hx):
                raise self.fail("tiling_bytes", "expected hex bytes like '0040000008000000'")
            case.tiling_bytes = bytes.fromhex(hx[2:] if hx.startswith("0x") else hx)
        case.warnings = self.warnings
        return case

    def path(self, where: str, x: Any, must_exist: bool = True, kind: str = "file") -> Path:
        if kind != "any":
            return super().path(where, x, must_exist, kind)
        s = self.string(where, x)
        p = Path(s).expanduser()
        p = (p if p.is_absolute() else self.base / p).resolve()
        if must_exist and not p.exists():
            raise self.fail(where, f"not found: {s} (resolved to {p})")
        return p

    def attr_value(self, where: str, x: Any) -> Any:
        if isinstance(x, bool | int | str):
            return x
        if isinstance(x, float):
            return x
        if isinstance(x, list):
            return [self.attr_value(f"{where}[{i}]", v) for i, v in enumerate(x)]
        raise self.fail(where, f"expected a number, a string, a boolean or a list of them, got {_show(x)}")

    def case_tensors(self, where: str, x: Any, is_output: bool) -> list[CaseTensor]:
        if x is None:
            return []
        if not isinstance(x, list):
            raise self.fail(where, f"expected a list of tensors, got {_show(x)}")
        out: list[CaseTensor] = []
        for i, item in enumerate(x):
            if isinstance(item, dict) and "list" in item:
                out += self.tensor_list(f"{where}[{i}]", item, is_output)
            else:
                out.append(self.case_tensor(f"{where}[{i}]", item, is_output))
        return out

    def tensor_list(self, where: str, x: dict[str, Any], is_output: bool) -> list[CaseTensor]:
        """A dynamic (tensor list) parameter: `list:` entries are tensors named `<name>_<i>`; keys given beside
        `list` (dtype, init, tolerance...) apply to every entry that does not set its own."""
        self.unknown_keys(where, x, (*CASE_TENSOR_KEYS, "list"))
        if "name" not in x:
            raise self.fail(f"{where}.name", "missing")
        name = self.identifier(f"{where}.name", x["name"])
        items = x["list"]
        if not isinstance(items, list) or not items:
            raise self.fail(f"{where}.list", f"expected a non-empty list of tensors, got {_show(items)}")
        shared = {k: v for k, v in x.items() if k not in ("name", "list")}
        members: list[CaseTensor] = []
        for j, item in enumerate(items):
            if not isinstance(item, dict):
                raise self.fail(f"{where}.list[{j}]", f"expected a mapping like {{shape: [16]}}, got {_show(item)}")
            merged = {**shared, **item, "name": f"{name}_{j}"}
            t = self.case_tensor(f"{where}.list[{j}]", merged, is_output)
            t.group = name
            members.append(t)
        return members

    def case_tensor(self, where: str, x: Any, is_output: bool) -> CaseTensor:
        if not isinstance(x, dict):
            raise self.fail(
                where, f"expected a mapping like {{name: x, shape: [1024], dtype: float16}}, got {_show(x)}"
            )
        if not is_output or ("shape" in x and "dtype" in x):
            spec_t = self.tensor(where, x, is_output)
            return CaseTensor(
                spec_t.name,
                spec_t.shape,
                spec_t.dtype,
                spec_t if not is_output else None,
                spec_t.tolerance,
                spec_t.compare,
            )
        # an output whose shape or dtype the op decides
        self.unknown_keys(where, x, CASE_TENSOR_KEYS)
        if "name" not in x:
            raise self.fail(f"{where}.name", "missing")
        name = self.identifier(f"{where}.name", x["name"])
        shape = self.shape(f"{where}.shape", x["shape"]) if x.get("shape") is not None else None
        dtype = self.dtype(f"{where}.dtype", x["dtype"]) if x.get("dtype") is not None else None
        tol = self.tolerance(f"{where}.tolerance", x["tolerance"]) if x.get("tolerance") is not None else None
        compare = True
        if "compare" in x:
            if not isinstance(x["compare"], bool):
                raise self.fail(f"{where}.compare", f"expected true or false, got {_show(x['compare'])}")
            compare = x["compare"]
        return CaseTensor(name, shape, dtype, None, tol, compare)


def output_spec(t: CaseTensor, shape: tuple[int, ...], dtype: str) -> TensorSpec:
    """The output's TensorSpec once the op decided what the test case left open."""
    if dtype not in DTYPES:
        raise SpecError(f"output '{t.name}': dtype {dtype} cannot be compared by the emulator harness")
    return TensorSpec(name=t.name, shape=shape, dtype=dtype, tolerance=t.tolerance, compare=t.compare)
