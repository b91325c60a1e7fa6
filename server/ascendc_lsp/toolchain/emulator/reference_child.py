"""The child side of the spec's reference run (data.evaluate_reference): a standalone script, copied into the
sandbox's working directory and run there by the sandboxed interpreter. It imports nothing from ascendc_lsp
(the project is not visible inside the sandbox): only the standard library and NumPy.

    python reference_child.py JOB_DIR

JOB_DIR/job.json says what to bind (inputs as .npy files, tiling fields, extra variables, tensor lists) and
which outputs to return; the child writes each output as JOB_DIR/out/<index>.npy (never pickled) and
JOB_DIR/result.json last: {"ok": true, "outputs": {name: file}} or {"error": "...", "line": N}. The parent
treats a missing result.json as a failure, whatever the exit status, so `sys.exit(0)` or `os._exit(0)` in a
reference can never pass for a result.
"""

from __future__ import annotations

import builtins
import json
import math
import os
import sys
from typing import Any

# The sandbox is the security boundary; the small namespace is hygiene (no file, console or code-evaluation
# builtins), as the reference has always had.
_BLOCKED = frozenset({"open", "input", "exec", "eval", "compile", "breakpoint", "help", "exit", "quit"})
_FILENAME_TAIL = ":reference"


def _line_of(exc: BaseException) -> int | None:
    tb = exc.__traceback__
    line = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename.endswith(_FILENAME_TAIL):
            line = tb.tb_lineno
        tb = tb.tb_next
    if line is None and isinstance(exc, SyntaxError):
        line = exc.lineno
    return line


def _finish(job_dir: str, result: dict[str, Any]) -> None:
    tmp = os.path.join(job_dir, "result.json.part")
    with builtins.open(tmp, "w", encoding="utf-8") as f:
        json.dump(result, f)
    os.replace(tmp, os.path.join(job_dir, "result.json"))


def main(job_dir: str) -> int:
    import numpy as np

    with builtins.open(os.path.join(job_dir, "job.json"), encoding="utf-8") as f:
        job = json.load(f)
    safe = {k: v for k, v in vars(builtins).items() if k not in _BLOCKED}
    ns: dict[str, Any] = {"__builtins__": safe, "np": np, "numpy": np, "math": math}
    if job.get("tiling") is not None:
        ns["tiling"] = dict(job["tiling"])
    ns.update(job.get("vars") or {})
    for name, file in job["inputs"]:
        ns[name] = np.load(os.path.join(job_dir, file), allow_pickle=False)
    for group, members in (job.get("tensor_lists") or {}).items():
        if all(m in ns for m in members):
            ns[group] = [ns[m] for m in members]
    try:
        code = compile(job["code"], job["filename"], "exec")
        with np.errstate(all="ignore"):
            exec(code, ns)
    except BaseException as exc:  # the user's code: SystemExit too
        detail = str(exc)
        text = type(exc).__name__ + (f": {detail}" if detail else "")
        _finish(job_dir, {"error": text[:2000], "line": _line_of(exc)})
        return 0
    for group, members in (job.get("tensor_lists") or {}).items():
        value = ns.get(group)
        if isinstance(value, list | tuple) and len(value) == len(members) and not all(m in ns for m in members):
            ns.update(dict(zip(members, value, strict=True)))
    os.makedirs(os.path.join(job_dir, "out"), exist_ok=True)
    outputs: dict[str, str] = {}
    for index, name in enumerate(job["outputs"]):
        if name not in ns:
            _finish(job_dir, {"error": f"does not assign output '{name}'", "line": None})
            return 0
        try:
            arr = np.asarray(ns[name])
        except Exception as exc:
            _finish(job_dir, {"error": f"output '{name}' is not an array ({exc})"[:2000], "line": None})
            return 0
        if arr.dtype == object or arr.dtype.kind not in "biuf":
            _finish(job_dir, {"error": f"output '{name}' has dtype {arr.dtype}, expected numbers", "line": None})
            return 0
        file = os.path.join("out", f"{index}.npy")
        np.save(os.path.join(job_dir, file), arr, allow_pickle=False)
        outputs[name] = file
    _finish(job_dir, {"ok": True, "outputs": outputs})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
