"""Issue 16 part 5: two processes x 1,000 learned-value updates on one knowledge store, 50 of them killed with
SIGKILL at random moments and restarted: no acknowledged update is lost, none is counted twice, the store is not
corrupted and `kb stats` still works."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from ascendc_lsp.knowledge.store import KnowledgeStore

UPDATES = 1000
KILLS = 50

# One writer: `count` updates of its own entry and of the shared one, each acknowledged (one line appended and
# flushed to the ack file) only after record_outcome returned, so an update in flight at the kill is unacknowledged.
WRITER = """
import sys
from pathlib import Path
from ascendc_lsp.knowledge.learning import record_outcome
from ascendc_lsp.knowledge.store import KnowledgeStore
root, name, count, ack = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4]
store = KnowledgeStore("embedded", root=root)
with open(ack, "a", buffering=1) as out:
    for i in range(count):
        record_outcome(f"entry-{name}", i % 3 != 0, store=store)
        record_outcome("entry-shared", True, store=store)
        out.write("1\\n")
"""


def _acked(path: Path) -> int:
    return path.read_text().count("\n") if path.exists() else 0


def test_concurrent_updates_survive_kill_9(tmp_path: Path) -> None:
    rng = random.Random(16)
    root = tmp_path / "store"
    root.mkdir()
    acks = {name: tmp_path / f"ack-{name}" for name in ("a", "b")}
    kills = {"a": 0, "b": 0}
    procs: dict[str, subprocess.Popen[bytes]] = {}

    def start(name: str) -> None:
        remaining = UPDATES - _acked(acks[name])
        if remaining > 0:
            procs[name] = subprocess.Popen(
                [sys.executable, "-c", WRITER, str(root), name, str(remaining), str(acks[name])],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
            )

    for name in acks:
        start(name)
    deadline = time.monotonic() + 600  # a guard against a wedged writer, not a timing assertion
    total_kills = 0
    while procs and time.monotonic() < deadline:
        time.sleep(rng.uniform(0.02, 0.15))  # 50 kills land before two writers can finish 1,000 updates each
        for name, proc in list(procs.items()):
            if proc.poll() is not None:
                assert proc.returncode == 0, proc.stderr.read().decode() if proc.stderr else ""
                del procs[name]
                start(name)
        if total_kills < KILLS and procs:
            name = rng.choice(sorted(procs))
            os.kill(procs[name].pid, signal.SIGKILL)
            procs[name].wait()
            kills[name] += 1
            total_kills += 1
            del procs[name]
            start(name)
    assert not procs, "writers did not finish"
    assert total_kills == KILLS

    stats = KnowledgeStore("embedded", root=root).stats
    for name in acks:
        acked = _acked(acks[name])
        assert acked == UPDATES
        uses = stats.get(f"entry-{name}").uses
        # every acknowledged update is there; at most one more per kill (applied, killed before its ack)
        assert UPDATES <= uses <= UPDATES + kills[name], (name, uses, kills[name])
    shared = stats.get("entry-shared").uses
    assert 2 * UPDATES <= shared <= 2 * UPDATES + KILLS
    assert 0.0 <= stats.get("entry-a").value <= 1.0

    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "xdg")}
    (tmp_path / "xdg").mkdir()
    os.symlink(root, tmp_path / "xdg" / "ascendc-lsp")
    r = subprocess.run([sys.executable, "-m", "ascendc_lsp", "kb", "stats"], capture_output=True, text=True,
                       env=env, timeout=300, check=False)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr[-2000:]
