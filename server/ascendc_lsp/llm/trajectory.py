"""Trajectory files: every attempt of a generate/rewrite loop as one JSON line under `<workspace>/.ascendc/`.

    .ascendc/trajectories/<kernel>-<UTC time>-<mode>.jsonl   one record per event (start, attempt, learn, end)
    .ascendc/attempts/<kernel>-<UTC time>/attempt-<n>.cpp   the code of each attempt (the best one is also
                                                            copied to best.cpp)

Records are redacted (`client.redact`) before they are written: no API key ever reaches these files.
"""

from __future__ import annotations

import json
import math
import re
import threading
import time
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ascendc_lsp.llm.client import redact

STATE_DIR = ".ascendc"


def workspace_state_dir(workspace: Path) -> Path:
    return workspace / STATE_DIR


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-") or "kernel"


class Trajectory:
    """Append-only JSONL writer for one loop run."""

    def __init__(self, workspace: Path, kernel: str, mode: str, secrets: Iterable[str] = ()) -> None:
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S") + f"-{int(time.time() * 1000) % 1000:03d}"
        self.root = workspace_state_dir(workspace)
        self.path = self.root / "trajectories" / f"{_slug(kernel)}-{stamp}-{mode}.jsonl"
        self.attempts_dir = self.root / "attempts" / f"{_slug(kernel)}-{stamp}"
        self._secrets = tuple(s for s in secrets if s)
        self._lock = threading.Lock()
        self.records = 0

    def _clean(self, value: Any) -> Any:
        if isinstance(value, str):
            return redact(value, self._secrets)
        if isinstance(value, dict):
            return {str(k): self._clean(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [self._clean(v) for v in value]
        if isinstance(value, Path):
            return str(value)
        if isinstance(value, float) and not math.isfinite(value):
            return str(value)
        if isinstance(value, float | int | bool) or value is None:
            return value
        return redact(str(value), self._secrets)

    def write(self, event: str, **fields: Any) -> None:
        record = {"event": event, "time": datetime.now(UTC).isoformat(timespec="milliseconds"), **fields}
        line = json.dumps(self._clean(record), ensure_ascii=False, allow_nan=False, default=str)
        with self._lock:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("a", encoding="utf-8") as handle:
                handle.write(line + "\n")
            self.records += 1

    def save_code(self, name: str, code: str) -> Path:
        self.attempts_dir.mkdir(parents=True, exist_ok=True)
        target = self.attempts_dir / name
        target.write_text(redact(code, self._secrets), encoding="utf-8")
        return target


def read_trajectory(path: Path) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            out.append(json.loads(line))
    return out


__all__ = ["STATE_DIR", "Trajectory", "read_trajectory", "workspace_state_dir"]
