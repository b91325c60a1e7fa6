"""Kernel spec (YAML) loading and validation, for `ascendc-lsp run` and `generate`.

The format is fixed by docs/kernel-spec.md. Every problem is raised as a
`SpecError` whose message names the file and the field (`spec.yaml: inputs[1].dtype: ...`); callers print it on
one line. Unknown keys are not fatal: they become `KernelSpec.warnings` ("did you mean ...").

Light module: yaml is imported only when a file is loaded; no numpy.
"""

from __future__ import annotations

import difflib
import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# dtype -> (bytes per element, C++ type in the emulator headers)
DTYPES: dict[str, tuple[int, str]] = {
    "float16": (2, "half"),
    "bfloat16": (2, "bfloat16_t"),
    "float32": (4, "float"),
    "int8": (1, "int8_t"),
    "uint8": (1, "uint8_t"),
    "int16": (2, "int16_t"),
    "uint16": (2, "uint16_t"),
    "int32": (4, "int32_t"),
    "uint32": (4, "uint32_t"),
    "int64": (8, "int64_t"),
    "bool": (1, "bool"),
}
DTYPE_ALIASES: dict[str, str] = {
    "half": "float16",
    "fp16": "float16",
    "bf16": "bfloat16",
    "float": "float32",
    "fp32": "float32",
    "int": "int32",
}
FLOAT_DTYPES = frozenset({"float16", "bfloat16", "float32"})
INIT_KINDS = ("uniform", "normal", "randint", "arange", "zeros", "ones", "values", "file")

# Default tolerances per output dtype: Huawei's "double thousandth / double ten-thousandth" criterion as the
# samples' verify_result.py applies it (emulator memo 1.5): fp16 rtol 1e-3, fp32 rtol 1e-4, atol 1e-5.
# bf16 keeps 8 significant bits, so its rtol is one bf16 ulp (2**-8 ~ 4e-3). Integers must match exactly.
DEFAULT_TOLERANCE: dict[str, tuple[float, float]] = {
    "float16": (1e-3, 1e-5),
    "bfloat16": (4e-3, 1e-5),
    "float32": (1e-4, 1e-5),
}
# Named tolerance profiles (`tolerance: multikernelbench`).
TOLERANCE_PROFILES: dict[str, tuple[float, float]] = {
    "multikernelbench": (1e-2, 1e-2),  # np.allclose(atol=1e-2, rtol=1e-2), as LLM kernel benchmarks use
}

TOP_KEYS = (
    "kernel",
    "source",
    "soc",
    "block_dim",
    "include_dirs",
    "inputs",
    "outputs",
    "workspace_bytes",
    "tiling",
    "params",
    "reference",
    "tolerance",
    "seed",
    "description",
    "defines",
    "name",
    "category",
    "strict",
    "ub_reserve",
)
# Stricter emulator modes a spec may ask for (`strict: true` = all of them; PROTOCOL.md "Modes").
STRICT_MODES = ("sync", "ub", "gm", "assert", "truncation")
UB_RESERVE_MODES = ("auto", "always", "off")
TENSOR_KEYS = ("name", "shape", "dtype", "init", "inject", "tolerance", "compare", "description")
TILING_KEYS = ("struct", "pass", "fields", "header", "key")
RESERVED_PARAMS = ("workspace", "tiling")
MAX_TOTAL_BYTES = 1 << 31  # 2 GiB of GM tensors: beyond this the emulator is the wrong tool

_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_CXX_TYPE = re.compile(r"^(::)?[A-Za-z_][A-Za-z0-9_]*(::[A-Za-z_][A-Za-z0-9_]*)*(<[A-Za-z0-9_:, <>]*>)?$")
_CXX_KEYWORDS = frozenset(
    [
        "alignas",
        "alignof",
        "and",
        "asm",
        "auto",
        "bool",
        "break",
        "case",
        "catch",
        "char",
        "class",
        "const",
        "constexpr",
        "continue",
        "decltype",
        "default",
        "delete",
        "do",
        "double",
        "else",
        "enum",
        "explicit",
        "export",
        "extern",
        "false",
        "float",
        "for",
        "friend",
        "goto",
        "if",
        "inline",
        "int",
        "long",
        "mutable",
        "namespace",
        "new",
        "noexcept",
        "not",
        "nullptr",
        "operator",
        "or",
        "private",
        "protected",
        "public",
        "register",
        "return",
        "short",
        "signed",
        "sizeof",
        "static",
        "struct",
        "switch",
        "template",
        "this",
        "throw",
        "true",
        "try",
        "typedef",
        "typeid",
        "typename",
        "union",
        "unsigned",
        "using",
        "virtual",
        "void",
        "volatile",
        "while",
    ]
)


class SpecError(Exception):
    """A spec problem, worded for a one-line error message naming the file and the field."""


@dataclass
class Tolerance:
    rtol: float
    atol: float
    error_ratio: float = 0.0  # fraction of elements allowed to fail (0: every element must pass)


@dataclass
class InitSpec:
    kind: str  # one of INIT_KINDS
    args: Any = None  # [lo, hi], [mean, std], list of values, Path for file, [start, step] for arange


@dataclass
class TensorSpec:
    name: str
    shape: tuple[int, ...]
    dtype: str
    init: InitSpec | None = None
    inject: list[tuple[int, float]] = field(default_factory=list)
    tolerance: Tolerance | None = None
    compare: bool = True

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def itemsize(self) -> int:
        return DTYPES[self.dtype][0]

    @property
    def nbytes(self) -> int:
        return self.size * self.itemsize

    @property
    def ctype(self) -> str:
        return DTYPES[self.dtype][1]


@dataclass
class TilingSpec:
    struct: str  # "" when only raw bytes are passed (no GET_TILING_DATA struct known)
    pass_mode: str = "pointer"  # pointer | value
    fields: dict[str, Any] = field(default_factory=dict)
    header: Path | None = None
    key: int | None = None
    raw: bytes | None = None  # tiling bytes from an op's host TilingFunc; `fields` are then applied on top


@dataclass
class KernelSpec:
    kernel: str
    block_dim: int
    inputs: list[TensorSpec]
    outputs: list[TensorSpec]
    reference: str | None
    base_dir: Path
    path: Path | None = None
    source: Path | None = None
    soc: str | None = None
    include_dirs: list[Path] = field(default_factory=list)
    workspace_bytes: int = 0
    tiling: TilingSpec | None = None
    params: list[str] | None = None
    tolerance: Tolerance | None = None
    seed: int = 0
    description: str = ""
    defines: dict[str, str | None] = field(default_factory=dict)
    strict: tuple[str, ...] = ()  # stricter emulator modes (STRICT_MODES) this kernel is checked under
    ub_reserve: str | None = None  # auto | always | off
    warnings: list[str] = field(default_factory=list)
    reference_vars: dict[str, Any] = field(default_factory=dict)  # extra names for the reference (op attributes)
    # kernel parameters that are tensor lists (an op's dynamic inputs/outputs): name -> member tensor names
    tensor_lists: dict[str, list[str]] = field(default_factory=dict)
    # AIV blocks per logical AI core (2 for a mix AIC:AIV 1:2 kernel): block_dim counts the AIV blocks run, and
    # GetBlockNum returns block_dim / task_ratio (GetBlockNum.md / GetTaskRatio.md)
    task_ratio: int = 1

    @property
    def origin(self) -> str:
        return str(self.path) if self.path else "<spec>"

    def tensor(self, name: str) -> TensorSpec | None:
        for t in (*self.inputs, *self.outputs):
            if t.name == name:
                return t
        return None

    def param_order(self) -> list[str]:
        """Kernel parameters in call order: the spec's `params`, else inputs, outputs, workspace, tiling."""
        if self.params is not None:
            return list(self.params)
        order = [t.name for t in self.inputs] + [t.name for t in self.outputs]
        if self.workspace_bytes > 0:
            order.append("workspace")
        if self.tiling is not None:
            order.append("tiling")
        return order

    def tolerance_for(self, out: TensorSpec) -> Tolerance:
        if out.tolerance is not None:
            return out.tolerance
        if self.tolerance is not None:
            return self.tolerance
        rtol, atol = DEFAULT_TOLERANCE.get(out.dtype, (0.0, 0.0))
        return Tolerance(rtol=rtol, atol=atol)


# ----------------------------------------------------------------------------------------------------------------
# loading


def read_yaml_file(path: Path, what: str) -> tuple[str, Any]:
    """The text and parsed YAML of a spec-like file (`what` names it in messages: "spec file", "test case").
    Raises SpecError, naming the file and the problem, for anything unreadable."""
    origin = str(path)
    from ascendc_lsp import safeio

    try:
        text = safeio.read_text(path, safeio.MAX_SPEC_BYTES, what)
    except safeio.InputError as exc:
        raise SpecError(str(exc)) from None
    except FileNotFoundError:
        raise SpecError(f"{origin}: no such file") from None
    except IsADirectoryError:
        raise SpecError(f"{origin}: is a directory, not a {what}") from None
    except UnicodeDecodeError as exc:
        raise SpecError(f"{origin}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except OSError as exc:
        raise SpecError(f"{origin}: cannot read ({exc.strerror or exc})") from None
    return text, parse_yaml(text, origin)


def load_spec(path: str | Path) -> KernelSpec:
    """Read and validate a spec file. Raises SpecError (never another exception) on any problem."""
    p = Path(path)
    text, data = read_yaml_file(p, "spec file")
    return spec_from_dict(data, base_dir=p.resolve().parent, path=p.resolve(), origin=str(p), text=text)


def parse_yaml(text: str, origin: str) -> Any:
    import yaml

    from ascendc_lsp import safeio

    try:
        return safeio.load_yaml(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark is not None else "somewhere"
        raise SpecError(f"{origin}: invalid YAML at {where}: {exc.problem or exc}") from None
    except yaml.YAMLError as exc:
        raise SpecError(f"{origin}: invalid YAML: {exc}") from None


def spec_from_dict(
    data: Any,
    base_dir: str | Path = ".",
    path: Path | None = None,
    origin: str | None = None,
    text: str | None = None,
) -> KernelSpec:
    """Validate an already-parsed spec (e.g. the `spec:` of a knowledge entry). Relative paths use base_dir;
    `text`, the YAML the data came from, lets messages about keys name their line."""
    org = origin or (str(path) if path else "<spec>")
    v = _Validator(org, Path(base_dir).resolve(), text)
    return v.spec(data, path)


class _Validator:
    def __init__(self, origin: str, base_dir: Path, text: str | None = None) -> None:
        self.origin = origin
        self.base = base_dir
        self.text = text or ""
        self.warnings: list[str] = []

    def fail(self, where: str, problem: str) -> SpecError:
        return SpecError(f"{self.origin}: {where}: {problem}" if where else f"{self.origin}: {problem}")

    def check_options(self, data: dict[str, Any], target: Any) -> None:
        """The keys a kernel spec and an op test case share for checking a run: `tolerance`, `seed` (0..2^32-1),
        `description`, set on `target` when given."""
        if data.get("tolerance") is not None:
            target.tolerance = self.tolerance("tolerance", data["tolerance"])
        if data.get("seed") is not None:
            target.seed = self.integer("seed", data["seed"], lo=0, hi=2**32 - 1)
        if data.get("description") is not None:
            target.description = str(data["description"])

    def key_origin(self, key: str) -> str:
        """The file, with the line where `key:` is first written when the YAML text is known ("spec.yaml:3")."""
        m = re.search(rf"(?m)(?:^|[{{,\s])['\"]?{re.escape(key)}['\"]?[ \t]*:", self.text) if self.text else None
        return f"{self.origin}:{self.text.count(chr(10), 0, m.end()) + 1}" if m else self.origin

    def unknown_keys(self, where: str, d: dict[str, Any], known: tuple[str, ...]) -> None:
        for k in d:
            if k not in known and not str(k).startswith(("x-", "x_")):
                close = difflib.get_close_matches(str(k), known, n=1)
                hint = f" (did you mean '{close[0]}'?)" if close else ""
                self.warnings.append(
                    f"{self.key_origin(str(k))}: {where}{'.' if where else ''}{k}: unknown key, ignored{hint}"
                )

    def missing(self, where: str, d: dict[str, Any], key: str, known: tuple[str, ...], why: str = "") -> SpecError:
        """A required key is absent: when an unknown key of the same mapping looks like it, one message names
        both and the misspelling's line."""
        at = f"{where}.{key}" if where else key
        unknown = [str(k) for k in d if k not in known]
        close = difflib.get_close_matches(key, unknown, n=1)
        detail = f"missing ({why})" if why else "missing"
        if not close:
            return self.fail(at, detail)
        return SpecError(f"{self.key_origin(close[0])}: {at}: {detail}; did you mean '{key}' instead of '{close[0]}'?")

    # -- scalars --------------------------------------------------------------------------------------------
    def integer(self, where: str, x: Any, lo: int | None = None, hi: int | None = None) -> int:
        if isinstance(x, bool) or not isinstance(x, int):
            if isinstance(x, float) and x.is_integer():
                x = int(x)
            elif isinstance(x, str) and re.fullmatch(r"[+-]?(0x[0-9a-fA-F]+|\d+)", x.strip()):
                x = int(x.strip(), 0)
            else:
                raise self.fail(where, f"expected an integer, got {_show(x)}")
        if lo is not None and x < lo:
            raise self.fail(where, f"must be >= {lo}, got {x}")
        if hi is not None and x > hi:
            raise self.fail(where, f"must be <= {hi}, got {x}")
        return int(x)

    def number(self, where: str, x: Any) -> float:
        if isinstance(x, bool):
            return float(x)
        if isinstance(x, int | float):
            return float(x)
        if isinstance(x, str):  # PyYAML reads 1e-3 (no dot) and .inf variants as strings
            s = x.strip().lower()
            table = {".inf": math.inf, "+.inf": math.inf, "-.inf": -math.inf, ".nan": math.nan}
            if s in table:
                return table[s]
            try:
                return float(s)
            except ValueError:
                pass
        raise self.fail(where, f"expected a number, got {_show(x)}")

    def string(self, where: str, x: Any) -> str:
        if not isinstance(x, str) or not x.strip():
            raise self.fail(where, f"expected a non-empty string, got {_show(x)}")
        return x.strip()

    def identifier(self, where: str, x: Any) -> str:
        s = self.string(where, x)
        if not _IDENT.match(s):
            raise self.fail(where, f"'{s}' is not a C identifier")
        if s in _CXX_KEYWORDS:
            raise self.fail(where, f"'{s}' is a C++ keyword")
        return s

    def path(self, where: str, x: Any, must_exist: bool = True, kind: str = "file") -> Path:
        s = self.string(where, x)
        try:  # a lone surrogate or a NUL cannot name a file: the OS calls below would raise, not say so
            if "\0" in s:
                raise ValueError
            os.fsencode(s)
        except (UnicodeEncodeError, ValueError):
            raise self.fail(where, f"{s!r} is not a usable path (a NUL or a lone surrogate character)") from None
        p = Path(s).expanduser()
        p = p if p.is_absolute() else self.base / p
        p = p.resolve()
        if must_exist:
            if kind == "dir" and not p.is_dir():
                raise self.fail(where, f"directory not found: {s} (resolved to {p})")
            if kind == "file" and not p.is_file():
                raise self.fail(where, f"file not found: {s} (resolved to {p})")
        return p

    # -- parts ------------------------------------------------------------------------------------------------
    def reference(self, ref: Any) -> str:
        """The `reference:` NumPy code: text that compiles as Python (it runs later, in the sandbox)."""
        if not isinstance(ref, str):
            raise self.fail("reference", f"expected Python source text (use `reference: |`), got {_show(ref)}")
        try:
            compile(ref, f"{self.origin}:reference", "exec")
        except SyntaxError as exc:
            raise self.fail("reference", f"Python syntax error at line {exc.lineno}: {exc.msg}") from None
        return ref

    def tolerance(self, where: str, x: Any) -> Tolerance:
        if isinstance(x, str):
            prof = TOLERANCE_PROFILES.get(x.strip().lower())
            if prof is None:
                raise self.fail(
                    where, f"unknown tolerance profile '{x}' (known: {', '.join(TOLERANCE_PROFILES)})"
                )
            return Tolerance(rtol=prof[0], atol=prof[1])
        if not isinstance(x, dict):
            raise self.fail(where, f"expected a mapping like {{rtol: 1.0e-3, atol: 1.0e-3}}, got {_show(x)}")
        self.unknown_keys(where, x, ("rtol", "atol", "error_ratio"))
        rtol = self.number(f"{where}.rtol", x.get("rtol", 0.0))
        atol = self.number(f"{where}.atol", x.get("atol", 0.0))
        ratio = self.number(f"{where}.error_ratio", x.get("error_ratio", 0.0))
        for n, val in (("rtol", rtol), ("atol", atol), ("error_ratio", ratio)):
            if not (val >= 0 and math.isfinite(val)):
                raise self.fail(f"{where}.{n}", f"must be a finite number >= 0, got {val}")
        if ratio > 1:
            raise self.fail(f"{where}.error_ratio", f"is a fraction of the elements (0..1), got {ratio}")
        return Tolerance(rtol=rtol, atol=atol, error_ratio=ratio)

    def dtype(self, where: str, x: Any) -> str:
        s = self.string(where, x).lower()
        s = DTYPE_ALIASES.get(s, s)
        if s not in DTYPES:
            raise self.fail(where, f"unknown dtype '{x}' (known: {', '.join(DTYPES)})")
        return s

    def shape(self, where: str, x: Any) -> tuple[int, ...]:
        if isinstance(x, int) and not isinstance(x, bool):
            x = [x]
        if not isinstance(x, list) or not x:
            raise self.fail(
                where, f"expected a list of dimensions like [8, 2048] ([1] for a scalar), got {_show(x)}"
            )
        return tuple(self.integer(f"{where}[{i}]", d, lo=1) for i, d in enumerate(x))

    def pair(self, where: str, x: Any) -> tuple[float, float]:
        if not isinstance(x, list) or len(x) != 2:
            raise self.fail(where, f"expected a list of two numbers, got {_show(x)}")
        return self.number(f"{where}[0]", x[0]), self.number(f"{where}[1]", x[1])

    def init(self, where: str, x: Any, t: TensorSpec) -> tuple[InitSpec, list[tuple[int, float]]]:
        inject: list[tuple[int, float]] = []
        if isinstance(x, str):
            x = {x: None}
        if not isinstance(x, dict):
            raise self.fail(where, f"expected a mapping like {{uniform: [-1, 1]}}, got {_show(x)}")
        kinds = [k for k in x if k in INIT_KINDS]
        self.unknown_keys(where, x, (*INIT_KINDS, "inject"))
        if "inject" in x:
            inject = self.inject(f"{where}.inject", x["inject"], t)
        if len(kinds) != 1:
            if not kinds and inject:
                return InitSpec("default"), inject
            raise self.fail(
                where, f"give exactly one of {', '.join(INIT_KINDS)}; got {', '.join(map(str, x)) or 'none'}"
            )
        kind = kinds[0]
        arg = x[kind]
        w = f"{where}.{kind}"
        if kind in ("uniform", "normal", "randint"):
            lo, hi = self.pair(w, arg)
            if kind == "uniform" and not lo <= hi:
                raise self.fail(w, f"needs lo <= hi, got [{lo}, {hi}]")
            if kind == "normal" and not hi >= 0:
                raise self.fail(w, f"standard deviation must be >= 0, got {hi}")
            if kind == "randint":
                ilo, ihi = self.integer(f"{w}[0]", lo), self.integer(f"{w}[1]", hi)
                if ihi <= ilo:
                    raise self.fail(w, f"is [lo, hi) and needs hi > lo, got [{ilo}, {ihi})")
                return InitSpec(kind, (ilo, ihi)), inject
            return InitSpec(kind, (lo, hi)), inject
        if kind in ("zeros", "ones"):
            return InitSpec(kind), inject
        if kind == "arange":
            if arg is None or arg is True:
                return InitSpec(kind, (0.0, 1.0)), inject
            if isinstance(arg, int | float) and not isinstance(arg, bool):
                return InitSpec(kind, (float(arg), 1.0)), inject
            if isinstance(arg, list) and 1 <= len(arg) <= 2:
                start = self.number(f"{w}[0]", arg[0])
                step = self.number(f"{w}[1]", arg[1]) if len(arg) == 2 else 1.0
                return InitSpec(kind, (start, step)), inject
            raise self.fail(w, f"expected nothing, a start, or [start, step], got {_show(arg)}")
        if kind == "values":
            if not isinstance(arg, list):
                arg = [arg]
            flat = _flatten(arg)
            vals = [self.number(f"{w}[{i}]", v) for i, v in enumerate(flat)]
            if len(vals) != t.size:
                raise self.fail(
                    w, f"has {len(vals)} values but the tensor has {t.size} elements (shape {list(t.shape)})"
                )
            return InitSpec(kind, vals), inject
        # file
        p = self.path(w, arg)
        if p.suffix not in (".npy", ".bin"):
            raise self.fail(w, f"expected a .npy file (or raw .bin of the tensor's dtype), got {p.name}")
        return InitSpec(kind, p), inject

    def inject(self, where: str, x: Any, t: TensorSpec) -> list[tuple[int, float]]:
        if not isinstance(x, list):
            raise self.fail(where, f"expected a list of [flat_index, value] pairs, got {_show(x)}")
        out: list[tuple[int, float]] = []
        for i, item in enumerate(x):
            if not isinstance(item, list) or len(item) != 2:
                raise self.fail(f"{where}[{i}]", f"expected [flat_index, value], got {_show(item)}")
            idx = self.integer(f"{where}[{i}][0]", item[0], lo=0)
            if idx >= t.size:
                raise self.fail(f"{where}[{i}][0]", f"index {idx} is outside the tensor ({t.size} elements)")
            out.append((idx, self.number(f"{where}[{i}][1]", item[1])))
        return out

    def tensor(self, where: str, x: Any, is_output: bool) -> TensorSpec:
        if not isinstance(x, dict):
            raise self.fail(
                where, f"expected a mapping like {{name: x, shape: [1024], dtype: float16}}, got {_show(x)}"
            )
        self.unknown_keys(where, x, TENSOR_KEYS)
        for req in ("name", "shape", "dtype"):
            if req not in x:
                raise self.missing(where, x, req, TENSOR_KEYS)
        name = self.identifier(f"{where}.name", x["name"])
        if name in RESERVED_PARAMS:
            raise self.fail(
                f"{where}.name", f"'{name}' is reserved for the {name} parameter; pick another name"
            )
        t = TensorSpec(
            name=name,
            shape=self.shape(f"{where}.shape", x["shape"]),
            dtype=self.dtype(f"{where}.dtype", x["dtype"]),
        )
        if "init" in x and x["init"] is not None:
            if is_output:
                self.warnings.append(
                    f"{self.origin}: {where}.init: outputs start as the harness's poison pattern; init ignored"
                )
            else:
                t.init, t.inject = self.init(f"{where}.init", x["init"], t)
        if "inject" in x and x["inject"] is not None and not is_output:
            t.inject = t.inject + self.inject(f"{where}.inject", x["inject"], t)
        if "tolerance" in x and x["tolerance"] is not None:
            if not is_output:
                self.warnings.append(f"{self.origin}: {where}.tolerance: only outputs are compared; ignored")
            else:
                t.tolerance = self.tolerance(f"{where}.tolerance", x["tolerance"])
        if "compare" in x:
            if not isinstance(x["compare"], bool):
                raise self.fail(f"{where}.compare", f"expected true or false, got {_show(x['compare'])}")
            t.compare = x["compare"]
        return t

    def tensors(self, where: str, x: Any, is_output: bool) -> list[TensorSpec]:
        if x is None:
            return []
        if not isinstance(x, list):
            raise self.fail(where, f"expected a list of tensors, got {_show(x)}")
        return [self.tensor(f"{where}[{i}]", item, is_output) for i, item in enumerate(x)]

    def tiling_fields(self, where: str, x: Any) -> dict[str, Any]:
        if x is None:
            return {}
        if not isinstance(x, dict):
            raise self.fail(where, f"expected a mapping of field: value, got {_show(x)}")
        out: dict[str, Any] = {}
        for k, val in x.items():
            key = self.identifier(f"{where}.{k}", str(k))
            out[key] = self.tiling_value(f"{where}.{key}", val)
        return out

    def tiling_value(self, where: str, val: Any) -> Any:
        if isinstance(val, dict):
            return self.tiling_fields(where, val)
        if isinstance(val, list):
            return [self.tiling_value(f"{where}[{i}]", v) for i, v in enumerate(val)]
        if isinstance(val, bool):
            return val
        if isinstance(val, int):
            if not -(2**63) <= val < 2**64:  # no C++ integer type holds it: the harness could not be compiled
                raise self.fail(where, f"{val} does not fit in a 64-bit integer field")
            return val
        return self.number(where, val)

    def tiling(self, where: str, x: Any) -> TilingSpec:
        if not isinstance(x, dict):
            raise self.fail(where, f"expected a mapping with struct, pass, fields, got {_show(x)}")
        self.unknown_keys(where, x, TILING_KEYS)
        if "struct" not in x:
            raise self.missing(where, x, "struct", TILING_KEYS, "the C++ name of the tiling struct")
        struct = self.string(f"{where}.struct", x["struct"])
        if not _CXX_TYPE.match(struct):
            raise self.fail(f"{where}.struct", f"'{struct}' is not a C++ type name")
        mode = str(x.get("pass", "pointer")).strip().lower()
        if mode not in ("pointer", "value"):
            raise self.fail(f"{where}.pass", f"expected pointer or value, got {_show(x.get('pass'))}")
        header = self.path(f"{where}.header", x["header"]) if x.get("header") is not None else None
        key = self.integer(f"{where}.key", x["key"]) if x.get("key") is not None else None
        return TilingSpec(
            struct=struct,
            pass_mode=mode,
            fields=self.tiling_fields(f"{where}.fields", x.get("fields")),
            header=header,
            key=key,
        )

    # -- whole spec -----------------------------------------------------------------------------------------
    def spec(self, data: Any, path: Path | None) -> KernelSpec:
        if data is None:
            raise self.fail("", "the spec is empty")
        if not isinstance(data, dict):
            raise self.fail("", f"expected a YAML mapping at the top level, got {_show(data)}")
        self.unknown_keys("", data, TOP_KEYS)
        if "kernel" not in data:
            raise self.missing("", data, "kernel", TOP_KEYS, "the name of the kernel entry function")
        kernel = self.identifier("kernel", data["kernel"])
        if "block_dim" not in data:
            raise self.missing("", data, "block_dim", TOP_KEYS, "the number of blocks to launch, e.g. 8")
        block_dim = self.integer("block_dim", data["block_dim"], lo=1, hi=65535)
        inputs = self.tensors("inputs", data.get("inputs"), is_output=False)
        outputs = self.tensors("outputs", data.get("outputs"), is_output=True)
        if not outputs:
            if "outputs" not in data:
                raise self.missing("", data, "outputs", TOP_KEYS, "a kernel needs at least one output")
            raise self.fail("outputs", "empty: a kernel needs at least one output")
        seen: dict[str, str] = {}
        for where, ts in (("inputs", inputs), ("outputs", outputs)):
            for i, t in enumerate(ts):
                if t.name in seen:
                    raise self.fail(f"{where}[{i}].name", f"'{t.name}' is already used in {seen[t.name]}")
                seen[t.name] = f"{where}[{i}]"
        total = sum(t.nbytes for t in (*inputs, *outputs))
        if total > MAX_TOTAL_BYTES:
            raise self.fail(
                "inputs/outputs",
                f"the tensors need {total:,} B; the emulator's limit is {MAX_TOTAL_BYTES:,} B",
            )

        spec = KernelSpec(
            kernel=kernel,
            block_dim=block_dim,
            inputs=inputs,
            outputs=outputs,
            reference=None,
            base_dir=self.base,
            path=path,
        )
        if data.get("source") is not None:
            spec.source = self.path("source", data["source"], must_exist=False)
        if data.get("soc") is not None:
            spec.soc = self.string("soc", data["soc"])
        inc = data.get("include_dirs")
        if inc is not None:
            if isinstance(inc, str):
                inc = [inc]
            if not isinstance(inc, list):
                raise self.fail("include_dirs", f"expected a list of directories, got {_show(inc)}")
            spec.include_dirs = [self.path(f"include_dirs[{i}]", d, kind="dir") for i, d in enumerate(inc)]
        if data.get("workspace_bytes") is not None:
            spec.workspace_bytes = self.integer(
                "workspace_bytes", data["workspace_bytes"], lo=0, hi=MAX_TOTAL_BYTES
            )
        if data.get("tiling") is not None:
            spec.tiling = self.tiling("tiling", data["tiling"])
        if data.get("params") is not None:
            spec.params = self.params(data["params"], spec)
        ref = data.get("reference")
        if ref is not None:
            spec.reference = self.reference(ref)
        elif any(o.compare for o in outputs):
            raise self.missing("", data, "reference", TOP_KEYS, "give NumPy code that assigns every compared output")
        self.check_options(data, spec)
        if data.get("defines") is not None:
            spec.defines = self.defines(data["defines"])
        if data.get("strict") is not None:
            spec.strict = self.strict_modes(data["strict"])
        if data.get("ub_reserve") is not None:
            mode = self.string("ub_reserve", data["ub_reserve"])
            if mode not in UB_RESERVE_MODES:
                raise self.fail("ub_reserve", f"'{mode}' is not one of {', '.join(UB_RESERVE_MODES)}")
            spec.ub_reserve = mode
        spec.warnings = self.warnings
        return spec

    def params(self, x: Any, spec: KernelSpec) -> list[str]:
        if not isinstance(x, list):
            raise self.fail("params", f"expected a list of parameter names, got {_show(x)}")
        names = {t.name for t in (*spec.inputs, *spec.outputs)}
        out: list[str] = []
        for i, p in enumerate(x):
            n = self.identifier(f"params[{i}]", p)
            if n not in names and n not in RESERVED_PARAMS:
                raise self.fail(f"params[{i}]", f"'{n}' is not an input, an output, 'workspace' or 'tiling'")
            if n == "tiling" and spec.tiling is None:
                raise self.fail(f"params[{i}]", "'tiling' is listed but the spec has no tiling section")
            if n in out:
                raise self.fail(f"params[{i}]", f"'{n}' is listed twice")
            out.append(n)
        return out

    def strict_modes(self, x: Any) -> tuple[str, ...]:
        if isinstance(x, bool):
            return STRICT_MODES if x else ()
        if isinstance(x, str):
            x = [x]
        if not isinstance(x, list):
            raise self.fail("strict", f"expected true or a list of {', '.join(STRICT_MODES)}, got {_show(x)}")
        out: list[str] = []
        for i, m in enumerate(x):
            name = self.string(f"strict[{i}]", m)
            if name not in STRICT_MODES:
                raise self.fail(f"strict[{i}]", f"'{name}' is not one of {', '.join(STRICT_MODES)}")
            out.append(name)
        return tuple(out)

    def defines(self, x: Any) -> dict[str, str | None]:
        if not isinstance(x, dict):
            raise self.fail("defines", f"expected a mapping of MACRO: value, got {_show(x)}")
        out: dict[str, str | None] = {}
        for k, val in x.items():
            name = self.identifier(f"defines.{k}", str(k))
            if val is None:
                out[name] = None
            elif isinstance(val, bool):
                out[name] = "1" if val else "0"
            elif isinstance(val, int | float | str):
                s = str(val)
                if "\n" in s or "\0" in s:
                    raise self.fail(f"defines.{name}", "the value must be on one line")
                out[name] = s
            else:
                raise self.fail(f"defines.{name}", f"expected a scalar value, got {_show(val)}")
        return out


def _flatten(x: list[Any]) -> list[Any]:
    out: list[Any] = []
    for v in x:
        if isinstance(v, list):
            out.extend(_flatten(v))
        else:
            out.append(v)
    return out


def _show(x: Any) -> str:
    s = repr(x)
    return s if len(s) <= 60 else s[:57] + "..."
