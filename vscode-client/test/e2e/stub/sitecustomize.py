"""E2E-only stand-ins for server commands that do not exist yet (loaded via PYTHONPATH by run-e2e.sh
when E2E_STUB_COMMANDS=1, and only then: it does nothing unless ASCENDC_E2E_STUB_COMMANDS=1).

It registers `ascendc.runKernel`, `ascendc.generateKernel` and `ascendc.explainLog` on the pygls server
*only when the real server does not define them*, returning canned results marked as such, so the
client's side of those flows (arguments, progress, webviews, opening the generated file) can be
exercised in real VS Code before the server features land. Screenshots made in this mode carry
"-stub" in their names.
"""

from __future__ import annotations

import os

if os.environ.get("ASCENDC_E2E_STUB_COMMANDS") == "1":
    try:
        import json
        import re
        import tempfile
        import urllib.request

        from pygls.lsp.server import LanguageServer

        NOTE = "canned result from the e2e stub (vscode-client/test/e2e/stub), not from the real server"

        def _trace(blocks: int = 8, tiles: int = 8) -> dict:
            events: list[dict] = []
            pipes = ["MTE2", "V", "MTE3"]
            for b in range(blocks):
                events.append({"ph": "M", "name": "process_name", "pid": b, "args": {"name": f"block {b}"}})
                for t, p in enumerate(pipes):
                    events.append({"ph": "M", "name": "thread_name", "pid": b, "tid": t, "args": {"name": p}})
                skew = 0.07 * b
                mte2_end, v_end, mte3_end = [0.0] * tiles, [0.0] * tiles, [0.0] * tiles
                for i in range(tiles):
                    free = v_end[i - 2] if i >= 2 else 0.0
                    s = max(mte2_end[i - 1] if i else skew, free)
                    mte2_end[i] = s + 1.6
                    events.append({"ph": "X", "name": "DataCopy GM->UB", "pid": b, "tid": 0, "ts": s, "dur": 1.6})
                    s = max(mte2_end[i], v_end[i - 1] if i else 0.0, mte3_end[i - 2] if i >= 2 else 0.0)
                    v_end[i] = s + 0.5
                    events.append({"ph": "X", "name": "Add", "pid": b, "tid": 1, "ts": s, "dur": 0.5})
                    s = max(v_end[i], mte3_end[i - 1] if i else 0.0)
                    mte3_end[i] = s + 0.8
                    events.append({"ph": "X", "name": "DataCopy UB->GM", "pid": b, "tid": 2, "ts": s, "dur": 0.8})
            return {"traceEvents": events, "displayTimeUnit": "us"}

        def run_kernel(ls, *args):
            arg = args[0] if args else {}
            result = {
                "stage_reached": "done", "compiled": True, "ran": True, "correct": True,
                "diagnostics": [], "max_abs_error": 0.000488, "mismatches": 0,
                "estimate": {"cycles": 25830, "microseconds": 14.35, "bottleneck": "mte2",
                             "pipes": {"mte2": 23040, "vector": 7200, "mte3": 11520, "scalar": 1900}},
                "note": NOTE,
                "request": arg,
            }
            if isinstance(arg, dict) and arg.get("trace"):
                fd, path = tempfile.mkstemp(prefix="ascendc-stub-trace-", suffix=".json")
                with os.fdopen(fd, "w") as f:
                    json.dump(_trace(), f)
                result["trace"] = path
            return result

        def generate_kernel(ls, *args):
            arg = args[0] if args else {}
            base = os.environ.get("OPENAI_BASE_URL", "http://127.0.0.1:8792/v1").rstrip("/")
            body = json.dumps({"model": "fake-model", "messages": [{"role": "user", "content": json.dumps(arg)}]}).encode()
            req = urllib.request.Request(f"{base}/chat/completions", data=body, headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(req, timeout=30) as r:
                content = json.load(r)["choices"][0]["message"]["content"]
            m = re.search(r"```(?:cpp|c\+\+)?\n(.*?)```", content, re.S)
            source = m.group(1) if m else content
            out = arg.get("out") if isinstance(arg, dict) else None
            if out:
                os.makedirs(os.path.dirname(out), exist_ok=True)
                with open(out, "w", encoding="utf-8") as f:
                    f.write(source)
            return {"path": out, "source": source, "iterations": 1, "message": NOTE}

        def _event(text: str) -> None:
            path = os.environ.get("ASCENDC_E2E_STUB_LOG")
            if path:
                with open(path, "a", encoding="utf-8") as f:
                    f.write(text + "\n")

        async def explain_log(ls, *args):
            import asyncio

            arg = args[0] if args else {}
            if isinstance(arg, dict) and "SLOW" in str(arg.get("log", "")):
                # for the cancellation check: wait until the client cancels ($/cancelRequest cancels this task)
                _event("explainLog: slow request started")
                try:
                    await asyncio.sleep(60)
                except asyncio.CancelledError:
                    _event("explainLog: cancelled by the client")
                    raise
                _event("explainLog: slow request finished without cancellation")
            return {"matches": [{"id": "stub-entry", "category": "runtime", "title": "Stub match", "score": 0.5, "fix": NOTE}]}

        STUBS = {"ascendc.runKernel": run_kernel, "ascendc.generateKernel": generate_kernel, "ascendc.explainLog": explain_log}
        _start_io = LanguageServer.start_io

        def start_io(self, *a, **kw):
            for name, fn in STUBS.items():
                if name not in self.protocol.fm.commands:
                    self.command(name)(fn)
            # Record $/cancelRequest arrivals. (pygls 2 runs executeCommand handlers through a generator,
            # so cancelling the request does not cancel the handler's own task; we log both.)
            handle_cancel = getattr(self.protocol, "_handle_cancel_notification", None)
            if handle_cancel is not None:
                def _logged_cancel(msg_id, _orig=handle_cancel):
                    _event(f"$/cancelRequest received for request {msg_id}")
                    return _orig(msg_id)

                self.protocol._handle_cancel_notification = _logged_cancel
            return _start_io(self, *a, **kw)

        LanguageServer.start_io = start_io
    except Exception as exc:  # never break the interpreter
        import sys

        print(f"e2e stub not installed: {exc!r}", file=sys.stderr)
