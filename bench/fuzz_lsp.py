"""Fuzz the language server over stdio (LSP part): seeded random documents and protocol messages.

Each round sends a burst of mutated kernel documents (didOpen / full and incremental didChange with valid and
broken ranges, deep nesting, long lines, astral and lone-surrogate characters) and hostile frames (wrong
Content-Length, bytes that are not headers, bodies that are not JSON, unknown methods, params of the wrong type),
then a hover request that must be answered: no answer within --hang seconds is a hang, a dead process a crash.
Reports crashes, hangs, Python tracebacks in the server's log, and the RSS slope over the rounds. With
--memory-report FILE the server writes, at exit, the live count of document states, documents and models (gc-tracked
objects, uncollected cycles included); ASCENDC_LSP_TRACE_FRAMES=N adds the biggest tracemalloc sites (slow: keep the
run short, and the report may outlast the 10 s the client waits after `exit`).

    python bench/fuzz_lsp.py [--seed 1] [--seconds 60] [--messages 0] [--hang 30] [--memory-report FILE]

Measured (seed 1, 60 s, 2 shared cores): before the fixes RSS 51 -> 232 MB, 340.6 KB/round (449 rounds; 90 s:
51 -> 304 MB, 406.6 KB/round); with the periodic full collection only, 51 -> 165 MB, 53.9 KB/round; with pygls'
done futures dropped too, 51 -> 112 MB, 23.0 KB/round over 701 rounds (the last 200 between 120 and 112 MB);
again with a test run sharing the cores, 51 -> 104 MB, 5.1 KB/round over 522 rounds.
Seed 16, --messages 10000 (1,332 rounds, 2 cores at load 8-18): 0 crashes, 0 hangs, 0 tracebacks; RSS 52 -> 99 MB
by round 100, 130 MB at round 500, then 121-141 MB to the end (128 MB): 14.4 KB/round, 1.9 MB per 1,000 messages
over the last two thirds, noise around a plateau. The exit report after the last close and a quiet pause: 0 states,
documents and models.
Before/after the server's malloc_trim after each full collection (lsp/memory.py), seed 16, --messages 3000 (399
rounds), both runs at load 5-10, main's server vs this one: 0 crashes, hangs, tracebacks in both; RSS by round
(MB) 40: 74 / 72, 80: 88 / 85, 120: 87 / 83, 160: 93 / 87, 200: 99 / 87, 240: 95 / 87, 280: 123 / 121,
320: 117 / 124, 360: 117 / 115, end 120 / 113 (slopes over the last two thirds 143 / 175 KB per round, dominated
by the step at round ~270). The trim keeps the server 2-12 MB lower between high-water steps; it does not undo the
step itself (memory in use then, or pymalloc arenas a trim cannot shrink). 3,000 messages end before the plateau
the 10,000-message run reached from round 500 on: the slope here is not the long-session one.
One hour (seed 16, --seconds 3600, with the server's pinned mmap threshold, lsp/memory.py; sharing the 2 cores
with a test-suite run): 15,422 rounds, 115,984 messages, 0 crashes, 0 hangs, 0 tracebacks; RSS 59 -> 121 MB, by
thirds of the rounds 63-204 (mean 109), 107-126 (mean 112.5), 111-135 MB (mean 118.3); slope over the last two
thirds 1.1 KB/round, 141.8 KB per 1,000 messages. The exit report after the last close: 0 document states,
documents and models. Every round's documents are new (no pass repeats them, unlike bench/fuzz.py), so a
rarer, larger input can still set a new high-water mark late in the run.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from tests.lsp_wire import Peer, frame, notification, request  # noqa: E402

from ascendc_lsp.lsp.server import MEMORY_REPORT_ENV  # noqa: E402

KERNEL = (REPO / "examples" / "add_double_buffer" / "add_double_buffer.cpp").read_text(encoding="utf-8")
SNIPPETS = [
    "{", "}", "(", ")", ";", "#if 1\n", "#endif\n", "#define X(a) a\n", "<<<8, nullptr, s>>>", "template <typename T>",
    "pipe.InitBuffer(q, 2, 1 << 30);", "DataCopy(x, y, 7);", "中文注释", "\U0001f600", "\udce9", "\t", "\r\n",
    "a" * 5000, "+ 1" * 2000, "(" * 300, "\x00", "__aicore__", "TQue<TPosition::VECIN, 2> q;", "\\\n",
]  # fmt: skip
QUIET_SECONDS = 10.0  # after the last close, before `exit`: in-flight rules runs end, so the report shows leaks only
METHODS = [
    "textDocument/hover", "textDocument/completion", "textDocument/codeAction", "textDocument/codeLens",
    "textDocument/documentSymbol", "textDocument/inlayHint", "workspace/executeCommand", "no/such/method",
]  # fmt: skip


@dataclass
class Report:
    rounds: int = 0
    messages: int = 0
    crashes: int = 0
    hangs: int = 0
    tracebacks: int = 0
    rss_kb: list[int] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    traceback_kinds: dict[str, int] = field(default_factory=dict)  # "Error: message at File ..., line N" -> count

    def rss_slope_kb_per_1000_messages(self) -> float:
        per_round = self.messages / self.rounds if self.rounds else 0.0
        return self.rss_slope_kb_per_round() / per_round * 1000 if per_round else 0.0

    def rss_slope_kb_per_round(self) -> float:
        ys = self.rss_kb[len(self.rss_kb) // 3 :]  # after warm-up
        if len(ys) < 3:
            return 0.0
        n = len(ys)
        mean_x, mean_y = (n - 1) / 2, sum(ys) / n
        num = sum((i - mean_x) * (y - mean_y) for i, y in enumerate(ys))
        den = sum((i - mean_x) ** 2 for i in range(n))
        return num / den if den else 0.0


def mutate(rng: random.Random, text: str) -> str:
    for _ in range(rng.randint(1, 6)):
        at = rng.randint(0, len(text))
        if rng.random() < 0.35 and len(text) > 10:
            end = min(len(text), at + rng.randint(1, 200))
            text = text[:at] + text[end:]
        else:
            text = text[:at] + rng.choice(SNIPPETS) + text[at:]
    return text[:2_000_000]


def random_position(rng: random.Random) -> dict[str, int]:
    line = rng.choice([0, 1, 5, 40, 10_000, -1, 2**31])
    return {"line": line, "character": rng.choice([0, 3, 80, -2, 2**31])}


def hostile_frame(rng: random.Random, uri: str, msg_id: int) -> bytes:
    kind = rng.randrange(7)
    params = {"textDocument": {"uri": uri}, "position": random_position(rng)}
    if kind == 0:
        return frame(request(msg_id, rng.choice(METHODS), params))
    if kind == 1:
        return frame(request(msg_id, rng.choice(METHODS), rng.choice([[], 7, "x", None, {"textDocument": 3}])))
    if kind == 2:
        body = json.dumps(request(msg_id, "textDocument/hover", params)).encode()
        return frame(body, length=len(body) + rng.choice([-5, 3, 40, 10**12]))
    if kind == 3:
        return bytes(rng.randrange(256) for _ in range(rng.randint(1, 300)))
    if kind == 4:
        return frame(b"{" + bytes(rng.randrange(32, 127) for _ in range(50)))
    if kind == 5:
        return frame(request(msg_id, "workspace/executeCommand",
                             {"command": "ascendc.server.runKernel", "arguments": [rng.choice([{}, "x", {"spec": 1}])]}))  # fmt: skip
    return frame(notification("textDocument/didChange", {"textDocument": {"uri": uri, "version": rng.randint(-3, 9)},
                 "contentChanges": [{"range": {"start": random_position(rng), "end": random_position(rng)},
                                     "text": rng.choice(SNIPPETS)}]}), newline=rng.choice([b"\r\n", b"\n"]))  # fmt: skip


def fuzz(
    seed: int, seconds: float, hang: float, log: bool = True, memory_report: str = "", messages: int = 0
) -> Report:
    """Rounds until `seconds` have passed or (when `messages` > 0) that many messages were sent."""
    rng = random.Random(seed)
    report = Report()
    peer = Peer(env={MEMORY_REPORT_ENV: memory_report} if memory_report else None)
    peer.initialize()
    uri = Path("/tmp/ascendc-lsp-fuzz/kernel.cpp").as_uri()
    text = KERNEL
    version = 1
    item = {"uri": uri, "languageId": "cpp", "version": version, "text": text}
    peer.send_message(notification("textDocument/didOpen", {"textDocument": item}))
    msg_id = 100
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline and not (messages and report.messages >= messages):
            report.rounds += 1
            for _ in range(rng.randint(3, 12)):
                msg_id += 1
                report.messages += 1
                if rng.random() < 0.5:
                    text = mutate(rng, text if rng.random() < 0.9 else KERNEL)
                    version += 1
                    change = {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]}
                    peer.send_message(notification("textDocument/didChange", change))
                else:
                    peer.send(hostile_frame(rng, uri, msg_id))
            # resynchronise the document (a hostile change may have made the server forget it), then probe
            version += 1
            item = {"uri": uri, "languageId": "cpp", "version": version, "text": text}
            peer.send_message(notification("textDocument/didClose", {"textDocument": {"uri": uri}}))
            peer.send_message(notification("textDocument/didOpen", {"textDocument": item}))
            msg_id += 1
            probe = msg_id
            peer.send_message(request(probe, "textDocument/hover", {"textDocument": {"uri": uri},
                                                                    "position": {"line": 3, "character": 4}}))  # fmt: skip
            try:
                peer.response(probe, timeout=hang)
            except TimeoutError:
                if not peer.alive():
                    report.crashes += 1
                    report.notes.append(f"round {report.rounds}: the server died (exit {peer.proc.returncode})")
                else:
                    report.hangs += 1
                    report.notes.append(f"round {report.rounds}: no answer within {hang:g} s")
                break
            report.rss_kb.append(peer.rss_kb())
            if log and report.rounds % 10 == 0:
                print(f"  round {report.rounds}: {report.messages} messages, RSS {report.rss_kb[-1] // 1024} MB")
    finally:
        # every document closed before exit: the memory report's counts are then of what a closed document left
        peer.send_message(notification("textDocument/didClose", {"textDocument": {"uri": uri}}))
        if peer.alive():
            time.sleep(QUIET_SECONDS)  # a rules run already in a worker thread cannot be stopped: let it end
        code = peer.close()
        if code not in (0, None) and report.crashes == 0 and report.hangs == 0:
            report.notes.append(f"exit code {code} after shutdown/exit")
        stderr = b"".join(peer.stderr).decode("utf-8", "replace")
        report.tracebacks = stderr.count("Traceback (most recent call last)")
        kinds = report.traceback_kinds
        for block in stderr.split("Traceback (most recent call last)")[1:]:
            lines = [ln for ln in block.splitlines() if ln.strip()]
            where = next((ln.strip() for ln in reversed(lines) if ln.strip().startswith("File ")), "?")
            last = next((ln.strip() for ln in lines if re.match(r"^\s*[\w.]+(Error|Exception|Group)\b", ln)), "?")
            key = f"{last[:100]} at {where[-90:]}"
            kinds[key] = kinds.get(key, 0) + 1
        for key, n in sorted(kinds.items(), key=lambda kv: -kv[1])[:8]:
            report.notes.append(f"traceback x{n}: {key}")
    return report


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--messages", type=int, default=0, help="stop after this many messages (0: only --seconds)")
    ap.add_argument("--hang", type=float, default=30.0, help="seconds a probe may wait before it is a hang")
    ap.add_argument("--memory-report", default="", metavar="FILE",
                    help="the server traces allocations and writes its biggest live sites and object counts here at exit")  # fmt: skip
    args = ap.parse_args()
    r = fuzz(args.seed, args.seconds, args.hang, memory_report=args.memory_report, messages=args.messages)
    print(f"rounds {r.rounds}, messages {r.messages}: crashes {r.crashes}, hangs {r.hangs}, tracebacks {r.tracebacks}")
    if r.rss_kb:
        print(f"RSS {r.rss_kb[0] // 1024} -> {r.rss_kb[-1] // 1024} MB, slope {r.rss_slope_kb_per_round():.1f} KB/round"
              f" ({r.rss_slope_kb_per_1000_messages():.1f} KB per 1,000 messages, after the first third)")
    for note in r.notes:
        print(f"  {note}")
    return 1 if r.crashes or r.hangs else 0


if __name__ == "__main__":
    sys.exit(main())
