"""Editor latency of ascendc-lsp, with clangd measured side by side in the same run.

On a generated 1,000-line kernel (copies of tests/fixtures/kernels/add_double_buffer.cpp with renamed
symbols), each server gets the same sequence of incremental edits; for each edit we time didChange ->
publishDiagnostics for that version. `--edit comment` types in a trailing comment (ascendc-lsp then keeps the
findings, moved with the text: lsp/state.py); `--edit code` changes a constant's value in the middle of the file
(8 <-> 81), so every edit is checked again. Then hover, documentSymbol and completion requests are timed.
Server RSS (current and peak) is read from /proc at the end.

clangd (Debian's clangd-19) gets a stub kernel_operator.h and a compile_commands.json in a temp folder.
Usage: python bench/lsp_latency.py [--edits 200] [--no-clangd] [--lines 1000] [--edit comment|code] [--split]
                                   [--requests] [--pause MS]
`--requests` follows each publish with what an editor asks then (outline, lenses, inlay hints), unanswered when
the next edit goes out; `--pause` waits that long between an edit's diagnostics and the next edit (typing).
`--split` times the server's stages in process instead (document, model, rules, budgets) for the same edits.
The server traces its edits (lsp/server.py EDIT_TRACE_ENV): after the table, each path the edits took (carried,
reused, partial, full) with its latencies, and the 10 slowest edits with where their time went (to the server,
document sync, waiting for the worker, the check, publishing, back to the client) and what else ran meanwhile
(garbage collections, model builds, requests).
Targets (issues 2 and 3): our didChange->diagnostics p99 <= 50 ms and median <= half of clangd's;
completion p99 <= 30 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fixtures" / "kernels" / "add_double_buffer.cpp"
RENAMED = ["TOTAL_LENGTH", "USE_CORE_NUM", "BLOCK_LENGTH", "TILE_NUM", "BUFFER_NUM", "TILE_LENGTH", "KernelAdd", "add_custom"]

# Enough declarations for clangd to resolve the kernel's names (not an emulator: only signatures).
CLANGD_STUB = """#pragma once
#include <cstdint>
#define __aicore__
#define __global__
#define __gm__
#define GM_ADDR uint8_t*
using half = _Float16;
namespace AscendC {
enum class TPosition { GM, VECIN, VECOUT, VECCALC, A1, B1, A2, B2, CO1, CO2 };
using QuePosition = TPosition;
template <typename T> struct GlobalTensor {
    void SetGlobalBuffer(__gm__ T* buffer, uint64_t size = 0);
    GlobalTensor operator[](uint64_t offset) const;
    T GetValue(uint64_t index) const;
};
template <typename T> struct LocalTensor {
    LocalTensor operator[](uint32_t offset) const;
    T GetValue(uint32_t index) const;
    void SetValue(uint32_t index, T value);
    uint32_t GetSize() const;
};
template <TPosition pos, int32_t depth> struct TQue {
    template <typename T> LocalTensor<T> AllocTensor();
    template <typename T> bool EnQue(const LocalTensor<T>& tensor);
    template <typename T> LocalTensor<T> DeQue();
    template <typename T> void FreeTensor(LocalTensor<T>& tensor);
};
struct TPipe {
    template <typename Q> void InitBuffer(Q& que, uint8_t num, uint32_t len);
};
int64_t GetBlockIdx();
int64_t GetBlockNum();
template <typename T> void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, uint32_t count);
template <typename T> void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count);
template <typename T> void Add(const LocalTensor<T>& dst, const LocalTensor<T>& a, const LocalTensor<T>& b, int32_t count);
}  // namespace AscendC
"""


def generate_kernel(lines: int) -> str:
    block = FIXTURE.read_text(encoding="utf-8")
    # The launch helper uses <<<>>>, which clangd (no CUDA mode here) cannot parse: keep it out of the bench.
    block = block[: block.index("#ifndef ASCENDC_CPU_DEBUG")]
    copies: list[str] = []
    index = 0
    while sum(c.count("\n") + 1 for c in copies) < lines:
        text = block
        for name in RENAMED:
            text = re.sub(rf"\b{name}\b", f"{name}_{index}", text)
        if index:
            text = text.replace('#include "kernel_operator.h"', "").replace("using namespace AscendC;", "")
        copies.append(text)
        index += 1
    return "\n".join(copies)


# -- a minimal LSP client over stdio -------------------------------------------------------------


class LspClient:
    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self._next_id = 0
        self._pending: dict[int, asyncio.Future[Any]] = {}
        self.diagnostics: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._reader = asyncio.create_task(self._read_loop())

    async def _read_loop(self) -> None:
        stdout = self.process.stdout
        assert stdout is not None
        while True:
            header = await stdout.readuntil(b"\r\n\r\n")
            length = int(re.search(rb"Content-Length: (\d+)", header).group(1))  # type: ignore[union-attr]
            message = json.loads(await stdout.readexactly(length))
            if "id" in message and "method" not in message:
                future = self._pending.pop(message["id"], None)
                if future is not None and not future.done():
                    future.set_result(message.get("result"))
            elif message.get("method") == "textDocument/publishDiagnostics":
                self.diagnostics.put_nowait(message["params"])
            elif "id" in message and "method" in message:  # a request from the server: answer null
                await self._send({"jsonrpc": "2.0", "id": message["id"], "result": None})

    async def _send(self, message: dict[str, Any]) -> None:
        body = json.dumps(message).encode()
        stdin = self.process.stdin
        assert stdin is not None
        stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        await stdin.drain()

    async def request(self, method: str, params: Any, timeout: float = 30) -> Any:
        self._next_id += 1
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[self._next_id] = future
        await self._send({"jsonrpc": "2.0", "id": self._next_id, "method": method, "params": params})
        return await asyncio.wait_for(future, timeout)

    async def notify(self, method: str, params: Any) -> None:
        await self._send({"jsonrpc": "2.0", "method": method, "params": params})

    async def diagnostics_for(self, uri: str, version: int, timeout: float = 10) -> float:
        deadline = time.perf_counter() + timeout
        while True:
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                raise TimeoutError
            params = await asyncio.wait_for(self.diagnostics.get(), remaining)
            if params["uri"] == uri and params.get("version", version) >= version:
                return time.perf_counter()

    async def close(self) -> None:
        try:
            await self.request("shutdown", None, timeout=10)
            await self.notify("exit", None)
            await asyncio.wait_for(self.process.wait(), 10)
        except (TimeoutError, ConnectionError):
            self.process.kill()
        self._reader.cancel()


@dataclass
class Result:
    name: str
    change: list[float] = field(default_factory=list)
    hover: list[float] = field(default_factory=list)
    symbols: list[float] = field(default_factory=list)
    completion: list[float] = field(default_factory=list)
    timeouts: int = 0
    rss_mb: float = 0.0
    peak_rss_mb: float = 0.0
    sent: dict[int, tuple[float, float]] = field(default_factory=dict)  # version -> (sent, diagnostics received)


def _rss(pid: int) -> tuple[float, float]:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0.0, 0.0
    values = {k: int(v.split()[0]) / 1024 for k, v in re.findall(r"^(VmRSS|VmHWM):\s+(.+)$", status, re.M)}
    return values.get("VmRSS", 0.0), values.get("VmHWM", 0.0)


def edit_place(lines: list[str], kind: str) -> tuple[int, int]:
    """(line, column) of the edits: the end of a trailing comment, or after a constant's value, mid-file."""
    line = len(lines) // 2
    if kind == "comment":
        while "//" not in lines[line]:
            line += 1
        return line, len(lines[line])
    while not re.search(r"TILE_NUM_\d+ = \d+;", lines[line]):
        line += 1
    return line, lines[line].index(";")


# What an editor asks after a change (VS Code: the outline, the lenses, the inlay hints of the visible range);
# with --requests each publish is followed by these, unanswered when the next edit goes out.
EDITOR_REQUESTS = ("textDocument/documentSymbol", "textDocument/codeLens", "textDocument/inlayHint")


async def measure(
    name: str, command: list[str], workdir: Path, text: str, edits: int, kind: str, env: dict[str, str] | None = None,
    requests: bool = False, pause: float = 0.0,
) -> Result:
    process = await asyncio.create_subprocess_exec(
        *command, cwd=workdir, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL, limit=64 * 1024 * 1024, env={**os.environ, **(env or {})},
    )
    client = LspClient(process)
    result = Result(name)
    uri = (workdir / "kernel.cpp").as_uri()
    await client.request("initialize", {
        "processId": os.getpid(), "rootUri": workdir.as_uri(),
        "capabilities": {"textDocument": {"publishDiagnostics": {"versionSupport": True},
                                          "hover": {"contentFormat": ["markdown", "plaintext"]},
                                          "completion": {"completionItem": {"snippetSupport": True}}}},
    }, timeout=60)
    await client.notify("initialized", {})
    await client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "cpp", "version": 1, "text": text}})
    await client.diagnostics_for(uri, 1, timeout=120)

    lines = text.splitlines()
    edit_line, column = edit_place(lines, kind)
    visible = {"start": {"line": max(0, edit_line - 30), "character": 0}, "end": {"line": edit_line + 30, "character": 0}}
    pending: list[asyncio.Task[Any]] = []
    for k in range(edits):
        version = k + 2
        insert = k % 2 == 0
        change = {
            "range": {"start": {"line": edit_line, "character": column}, "end": {"line": edit_line, "character": column if insert else column + 1}},
            "text": ("x" if kind == "comment" else "1") if insert else "",
        }
        started = time.perf_counter()
        await client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]})
        try:
            finished = await client.diagnostics_for(uri, version)
            result.change.append((finished - started) * 1000)
            result.sent[version] = (started, finished)
        except TimeoutError:
            result.timeouts += 1
        if requests:
            for method in EDITOR_REQUESTS:
                params: dict[str, Any] = {"textDocument": {"uri": uri}}
                if method == "textDocument/inlayHint":
                    params["range"] = visible
                pending.append(asyncio.create_task(client.request(method, params)))
        if pause:
            await asyncio.sleep(pause)
    await asyncio.gather(*pending, return_exceptions=True)
    # Settle: drain late notifications.
    await asyncio.sleep(0.5)
    while not client.diagnostics.empty():
        client.diagnostics.get_nowait()

    hover_line = next(i for i, line in enumerate(lines) if "pipe.InitBuffer(inQueueX" in line)
    hover_char = lines[hover_line].index("inQueueX") + 2
    member_line = next(i for i, line in enumerate(lines) if ".AllocTensor" in line and "inQueueX" in line)
    member_char = lines[member_line].index(".AllocTensor") + 1
    document = {"uri": uri}
    for _ in range(max(20, edits // 4)):
        started = time.perf_counter()
        await client.request("textDocument/hover", {"textDocument": document, "position": {"line": hover_line, "character": hover_char}})
        result.hover.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        await client.request("textDocument/documentSymbol", {"textDocument": document})
        result.symbols.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        await client.request("textDocument/completion", {"textDocument": document, "position": {"line": member_line, "character": member_char}})
        result.completion.append((time.perf_counter() - started) * 1000)
    result.rss_mb, result.peak_rss_mb = _rss(process.pid)
    await client.close()
    return result


def stage_split(text: str, edits: int, kind: str) -> list[tuple[str, list[float]]]:
    """In-process, the same edits through the server's own stages: where an edit's time goes (milliseconds). The
    check is the server's (checks/engine.check_incrementally: the units the edit reaches); the whole file's model
    and budgets are built for the editor's requests (outline, lenses, inlay hints, hover, the status bar), in a
    worker thread after the diagnostics are out (lsp/server.py modelled_state)."""
    from ascendc_lsp.checks.engine import CheckOptions, check_incrementally
    from ascendc_lsp.lsp.state import DocumentStore

    lines = text.splitlines()
    text = "\n".join(lines)
    edit_line, column = edit_place(lines, kind)
    store = DocumentStore()
    uri = "file:///bench/kernel.cpp"
    options = CheckOptions(use_project=False)
    first = store.update(uri, text, 1)
    checked = check_incrementally(None, first.document, options, model_of=lambda s=first: s.model)
    stages: list[tuple[str, list[float]]] = [(name, []) for name in (
        "document (rewrite + parse)", "check (incremental)", "model (for requests, in a worker)", "budgets")]
    paths: dict[str, int] = {}
    for k in range(edits):
        edited = list(lines)
        if k % 2 == 0:
            insert = "x" if kind == "comment" else "1"
            edited[edit_line] = edited[edit_line][:column] + insert + edited[edit_line][column:]
        marks = [time.perf_counter()]
        state = store.update(uri, "\n".join(edited), k + 2)
        marks.append(time.perf_counter())
        checked = check_incrementally(checked, state.document, options, model_of=lambda s=state: s.model)
        path = checked.how.split(":")[0]
        paths[path] = paths.get(path, 0) + 1
        marks.append(time.perf_counter())
        _ = state.model
        marks.append(time.perf_counter())
        _ = state.budgets
        marks.append(time.perf_counter())
        for index, (_, values) in enumerate(stages):
            values.append((marks[index + 1] - marks[index]) * 1000)
    print("paths the checks took: " + ", ".join(f"{path} {count}" for path, count in sorted(paths.items())))
    return stages


# The stages of an edit in the server's trace, in order (lsp/state.py DocumentState.timing), and their labels here.
TRACE_STAGES = [("received", "to server"), ("synced", "sync"), ("check started", "wait"), ("checked", "check"),
                ("published", "publish")]  # fmt: skip


def explain_edits(result: Result, trace: str, slowest: int = 10) -> None:
    """Join the server's edit trace (JSON lines) with the client's times: latencies per path, then the slowest
    edits."""
    records: dict[int, dict[str, Any]] = {}
    for line in trace.splitlines():
        record = json.loads(line)
        records[record["version"]] = record
    joined = [(version, sent, done, records.get(version)) for version, (sent, done) in result.sent.items()]
    if not any(record for *_, record in joined):
        print("\n(no edit trace from the server)")
        return
    by_path: dict[str, list[float]] = {}
    for _, sent, done, record in joined:
        how = record["how"].split(":")[0] if record and record["how"] else "?"
        by_path.setdefault(how, []).append((done - sent) * 1000)
    print("\n| path the edit took | p50 | p95 | p99 | n |")
    print("|---|---:|---:|---:|---:|")
    for how, values in sorted(by_path.items(), key=lambda item: -len(item[1])):
        print(row(how, values))
    stages: dict[str, list[float]] = {label: [] for _, label in TRACE_STAGES}
    stages["to client"] = []
    for _, sent, done, record in joined:
        if record is None:
            continue
        previous = sent
        for stage, label in TRACE_STAGES:
            at = record["timing"].get(stage)
            if at is not None:
                stages[label].append((at - previous) * 1000)
                previous = at
        stages["to client"].append((done - previous) * 1000)
    print("\n| stage of an edit in the server (its trace) | p50 | p95 | p99 | n |")
    print("|---|---:|---:|---:|---:|")
    for label, values in stages.items():
        print(row(label, values))
    print(f"\nThe {slowest} slowest edits (ms; 'wait' is the debounce and the worker hand-off, 'to client' the "
          "publish's way back (below 0 when it arrived before the server's write returned); 'meanwhile' is other "
          "work that overlapped the edit, >= 0.5 ms)\n")
    print("| version | total | " + " | ".join(label for _, label in TRACE_STAGES) + " | to client | how | meanwhile |")
    print("|---:|---:|" + "---:|" * (len(TRACE_STAGES) + 1) + "---|---|")
    for version, sent, done, record in sorted(joined, key=lambda item: item[1] - item[2])[:slowest]:
        if record is None:
            print(f"| {version} | {(done - sent) * 1000:.1f} |" + " |" * (len(TRACE_STAGES) + 1) + " (no trace) | |")
            continue
        timing = record["timing"]
        cells: list[str] = []
        previous = sent
        for stage, _ in TRACE_STAGES:
            at = timing.get(stage)
            cells.append("-" if at is None else f"{(at - previous) * 1000:.1f}")
            previous = at if at is not None else previous
        cells.append(f"{(done - previous) * 1000:.1f}")
        meanwhile = [f"{what} {(end - start) * 1000:.1f}" for what, start, end in record["during"]
                     if end - start >= 0.0005 and end > sent]  # fmt: skip
        debounce = timing.get("debounce")
        how = record["how"] + (f" (debounce {debounce * 1000:.0f})" if debounce else "")
        print(f"| {version} | {(done - sent) * 1000:.1f} | " + " | ".join(cells) + f" | {how} | {'; '.join(meanwhile)} |")


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def row(label: str, values: list[float]) -> str:
    if not values:
        return f"| {label} | - | - | - | - |"
    return f"| {label} | {statistics.median(values):.1f} | {percentile(values, 95):.1f} | {percentile(values, 99):.1f} | {len(values)} |"


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--edits", type=int, default=200)
    parser.add_argument("--lines", type=int, default=1000)
    parser.add_argument("--no-clangd", action="store_true")
    parser.add_argument("--edit", choices=["comment", "code"], default="comment", help="what the edits change")
    parser.add_argument("--requests", action="store_true",
                        help="after each publish, ask what an editor asks (outline, lenses, inlay hints) and go on "
                        "with the next edit without waiting for the answers")
    parser.add_argument("--pause", type=float, default=0.0, metavar="MS",
                        help="milliseconds between an edit's diagnostics and the next edit (typing speed; default 0)")
    parser.add_argument("--split", action="store_true",
                        help="only the in-process time per stage of the same edits (no servers started)")
    args = parser.parse_args()

    text = generate_kernel(args.lines)
    if args.split:
        print(f"\nStages of {args.edits} {args.edit} edits on a {text.count(chr(10)) + 1}-line kernel, in process "
              "(milliseconds; the rules run even where the server would carry a comment edit's findings)\n")
        print("| stage | p50 | p95 | p99 | n |")
        print("|---|---:|---:|---:|---:|")
        for name, values in stage_split(text, args.edits, args.edit):
            print(row(name, values))
        return 0
    results: list[Result] = []
    with tempfile.TemporaryDirectory(prefix="ascendc-lsp-bench-") as tmp:
        work = Path(tmp)
        (work / "kernel.cpp").write_text(text, encoding="utf-8")
        env_home = work / "home"
        env_home.mkdir()
        ours = [sys.executable, "-m", "ascendc_lsp", "serve", "--stdio"]
        from ascendc_lsp.lsp.server import EDIT_TRACE_ENV

        trace = work / "edit-trace.jsonl"
        results.append(await measure("ascendc-lsp", ours, work, text, args.edits, args.edit,
                                     env={EDIT_TRACE_ENV: str(trace)}, requests=args.requests,
                                     pause=args.pause / 1000))  # fmt: skip
        trace_text = trace.read_text(encoding="utf-8") if trace.exists() else ""
        clangd = shutil.which("clangd-19") or shutil.which("clangd")
        if not args.no_clangd and clangd:
            include = work / "stub"
            include.mkdir()
            (include / "kernel_operator.h").write_text(CLANGD_STUB, encoding="utf-8")
            (work / "compile_commands.json").write_text(json.dumps([{
                "directory": str(work), "file": str(work / "kernel.cpp"),
                "arguments": ["clang++", "-std=c++17", f"-I{include}", "-fsyntax-only", str(work / "kernel.cpp")],
            }]), encoding="utf-8")
            results.append(await measure("clangd", [clangd, "--log=error", "--background-index=false", "-j=1"], work,
                                         text, args.edits, args.edit, requests=args.requests, pause=args.pause / 1000))
        elif not args.no_clangd:
            print("clangd not found (apt-get install clangd-19): measuring ascendc-lsp only", file=sys.stderr)

    asked = ", each followed by an editor's outline, lens and inlay-hint requests" if args.requests else ""
    paced = f", {args.pause:g} ms between an edit's diagnostics and the next edit" if args.pause else ""
    print(f"\nLatency on a {text.count(chr(10)) + 1}-line kernel, {args.edits} incremental {args.edit} edits{asked}"
          f"{paced} (milliseconds)\n")
    print("| server / request | p50 | p95 | p99 | n |")
    print("|---|---:|---:|---:|---:|")
    for r in results:
        print(row(f"{r.name} didChange -> diagnostics", r.change))
        print(row(f"{r.name} hover", r.hover))
        print(row(f"{r.name} documentSymbol", r.symbols))
        print(row(f"{r.name} completion", r.completion))
    print("\n| server | RSS MB | peak RSS MB | edits without diagnostics |")
    print("|---|---:|---:|---:|")
    for r in results:
        print(f"| {r.name} | {r.rss_mb:.0f} | {r.peak_rss_mb:.0f} | {r.timeouts} |")
    if len(results) == 2 and results[0].change and results[1].change:
        ratio = statistics.median(results[0].change) / statistics.median(results[1].change)
        print(f"\nmedian didChange->diagnostics ratio ascendc-lsp / clangd: {ratio:.2f} (target <= 0.5)")
    ours_p99 = percentile(results[0].change, 99)
    print(f"ascendc-lsp p99 {ours_p99:.1f} ms (target <= 50 ms); completion p99 {percentile(results[0].completion, 99):.1f} ms (target <= 30 ms)")
    explain_edits(results[0], trace_text)
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
