"""Two (here three) servers indexing a fresh knowledge cache at once: each ends on the shared store, none stays on
an in-memory index (issue 17 item 13: "table collections already exists" made one fall back for its whole life)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

SCRIPT = """
import json
from ascendc_lsp.knowledge.retrieval import Retriever
from ascendc_lsp.settings import Settings
r = Retriever.default(Settings())
r.ensure_indexed()
print(json.dumps({"kind": r.store.kind, "warnings": r.warnings}))
"""


def test_concurrent_first_opens_all_end_on_the_shared_store(tmp_path: Path) -> None:
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"), "HOME": str(tmp_path)}
    procs = [
        subprocess.Popen([sys.executable, "-c", SCRIPT], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        for _ in range(3)
    ]
    results = []
    for p in procs:
        out, err = p.communicate(timeout=600)
        assert p.returncode == 0, err.decode()[-2000:]
        results.append(json.loads(out.decode().strip().splitlines()[-1]))
    assert all(r["kind"] != "memory" for r in results), results
    assert not any(r["warnings"] for r in results), results
