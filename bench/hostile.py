"""Every row of issue 16's table, re-run: exit code, seconds, peak RSS and the first line of stderr per probe.

    python bench/hostile.py [--only SUBSTRING] [--guard 300]

Each CLI probe runs `ascendc-lsp` in a fresh process (peak RSS from wait4 of that process); the LSP probe sends a
frame announcing a terabyte body to `ascendc-lsp serve` over stdio, then a hover, and reports whether the server
answered and how it ended. A probe still running after --guard seconds is killed and shown as "killed". What the
issue asks of each row: a clear one-line error (exit 2) or a bounded result (exit 0/1), never a traceback or a
hang. A row showing "Traceback" in its first stderr line, exit 70 or "killed" is a failure; the script exits 1
then.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
EXAMPLE = ROOT / "examples" / "add_double_buffer"
KERNEL_HEAD = '#include "kernel_operator.h"\nextern "C" __global__ __aicore__ void k(GM_ADDR x) {\n int a = 0;\n'


@dataclass
class Outcome:
    exit: str
    seconds: float
    rss_mb: float
    stderr: str


def run_cli(argv: list[str], guard: float, cwd: Path) -> Outcome:
    """`ascendc-lsp argv` in a fresh process; its own peak RSS (wait4), not the largest child so far."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.monotonic()
        proc = subprocess.Popen([sys.executable, "-m", "ascendc_lsp", *argv], stdout=out, stderr=err, cwd=cwd,
                                stdin=subprocess.DEVNULL)  # fmt: skip
        killed = threading.Event()

        def kill() -> None:
            killed.set()
            proc.kill()

        timer = threading.Timer(guard, kill)
        timer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            timer.cancel()
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait again
        seconds = time.monotonic() - t0
        err.seek(0)
        text = err.read().decode("utf-8", "replace")
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    # argparse prints its usage before the error: show the line that says what is wrong
    first = next((line for line in lines if "error" in line.lower()), lines[0] if lines else "")
    if "Traceback (most recent call last)" in text:
        first = "Traceback: " + (text.strip().splitlines() or [""])[-1][:150]
    code = "killed" if killed.is_set() else str(proc.returncode)
    return Outcome(code, seconds, usage.ru_maxrss / 1024, first[:160])


def huge_content_length(guard: float) -> Outcome:
    from tests.lsp_wire import Peer, notification, request

    peer = Peer()
    t0 = time.monotonic()
    peer.initialize()
    peer.send(b'Content-Length: 1000000000000\r\n\r\n{"jsonrpc": "2.0", "id": 7, "method": "shutdown"}')
    item = {"uri": (EXAMPLE / "add_double_buffer.cpp").as_uri(), "languageId": "cpp", "version": 1,
            "text": (EXAMPLE / "add_double_buffer.cpp").read_text(encoding="utf-8")}  # fmt: skip
    peer.send_message(notification("textDocument/didOpen", {"textDocument": item}))
    peer.send_message(request(8, "textDocument/hover", {"textDocument": {"uri": item["uri"]},
                                                        "position": {"line": 3, "character": 4}}))  # fmt: skip
    try:
        peer.response(8, timeout=guard)
        answered = "answered the next request"
    except TimeoutError:
        answered = "no answer to the next request"
    rss = peer.rss_kb() / 1024 if peer.alive() else 0.0
    code = peer.close()
    stderr = b"".join(peer.stderr).decode("utf-8", "replace")
    lines = [ln.strip() for ln in stderr.splitlines() if ln.strip()]
    first = next((ln for ln in lines if "Content-Length" in ln or "length" in ln.lower()), lines[0] if lines else "")
    if "Traceback (most recent call last)" in stderr:
        first = "Traceback: " + lines[-1][:150]
    return Outcome(f"{code} ({answered})", time.monotonic() - t0, rss, first[:160])


def _spec_copy(tmp: Path, name: str, reference: str | None = None, **replace: str) -> Path:
    folder = tmp / name
    shutil.copytree(EXAMPLE, folder)
    text = (folder / "spec.yaml").read_text(encoding="utf-8")
    if reference is not None:
        body = "".join(f"  {line}\n" for line in reference.splitlines())
        text = text.replace("reference: |\n  z = x + y\n", f"reference: |\n{body}")
    for old, new in replace.items():
        text = text.replace(old, new)
    path = folder / "spec.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _write(tmp: Path, name: str, text: str, repeat: int = 1, tail: str = "") -> Path:
    """`text` written `repeat` times then `tail`, without building the whole file in memory: a child's peak RSS
    (ru_maxrss) starts from this process's own at fork, so this process must stay small."""
    path = tmp / name
    with path.open("w", encoding="utf-8") as out:
        for _ in range(repeat):
            out.write(text)
        out.write(tail)
    return path


def probes(tmp: Path) -> list[tuple[str, Callable[[float], Outcome]]]:
    """(row of the issue's table, how to run it) in the table's order, then the fuzz bench's finds."""
    from bench.check_large import make_source

    def cli(*argv: str) -> Callable[[float], Outcome]:
        return lambda guard: run_cli(list(argv), guard, tmp)

    nested_ifs = _write(tmp, "ifs.cpp", KERNEL_HEAD + "if (a) {\n" * 400 + "a++;\n" + "}\n" * 400 + "}\n")
    long_sum = _write(tmp, "sum.cpp", KERNEL_HEAD + " int b = " + " + ".join(["a"] * 80000) + ";\n}\n")
    deep_spec = _write(tmp, "deep.yaml", "a: " + "[" * 50000 + "]" * 50000 + "\n")
    deep_blocks = _write(tmp, "blocks.yaml", "".join(f"{' ' * i}k{i}:\n" for i in range(1000)))
    big_source = _write(tmp, "big50.cpp", "int a;\n" * (1 << 17), repeat=50)
    big_record = _write(tmp, "record.json", '{"error": "')
    with big_record.open("a", encoding="utf-8") as out:  # 50 MiB inside one string
        for _ in range(50):
            out.write("x" * (1 << 20))
        out.write('"}')
    five_mb = _write(tmp, "five.cpp", make_source(5))
    template_run = _write(tmp, "template.cpp", "template<", repeat=22000)
    spec = str(EXAMPLE / "spec.yaml")
    return [
        ("check: 400 nested if blocks", cli("check", str(nested_ifs))),
        ("check: 80,000-term expression", cli("check", str(long_sum))),
        ("run: spec nested 50,000 brackets deep", cli("run", str(deep_spec))),
        ("generate: spec nested 50,000 brackets deep", cli("generate", str(deep_spec))),
        ("run: spec of 1,000 nested blocks", cli("run", str(deep_blocks))),
        ("run --timeout nan", cli("run", spec, "--timeout", "nan")),
        ("run --timeout inf", cli("run", spec, "--timeout", "inf")),
        ("run /dev/zero", cli("run", "/dev/zero")),
        ("generate /dev/zero", cli("generate", "/dev/zero")),
        ("kb import /dev/zero", cli("kb", "import", "/dev/zero")),
        ("check /dev/zero", cli("check", "/dev/zero")),
        ("run: shape [1000000000]", cli("run", str(_spec_copy(tmp, "shape", **{"shape: [8, 2048]": "shape: [1000000000]"})))),
        ("run: reference loops forever (--timeout 3)",
         cli("run", str(_spec_copy(tmp, "loops", "while True:\n    pass")), "--timeout", "3")),
        ("run: reference raises", cli("run", str(_spec_copy(tmp, "raises", "raise ValueError('bad reference')")))),
        ("check: 50 MB source", cli("check", str(big_source))),
        ("kb import: 50 MB record", cli("kb", "import", str(big_record))),
        ("check: 5 MB of kernels (issue: in seconds)", cli("check", str(five_mb))),
        ("check: 200 KB run of `template<` (fuzz hang)", cli("check", str(template_run))),
        ("LSP: Content-Length 10^12", huge_content_length),  # last: it imports the server into this process
    ]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", default="", help="run the rows whose name holds this text")
    ap.add_argument("--guard", type=float, default=300.0, help="seconds before a probe is killed (a hang)")
    args = ap.parse_args()
    failed = 0
    print("| input | exit | seconds | peak RSS MB | first line of stderr |\n|---|---|---|---|---|")
    with tempfile.TemporaryDirectory(prefix="ascendc-hostile-") as tmp_name:
        tmp = Path(tmp_name)
        home = tmp / "home"
        home.mkdir()
        os.environ["XDG_CACHE_HOME"] = str(home / ".cache")  # kb import writes candidates: never the user's store
        for name, probe in probes(tmp):
            if args.only and args.only not in name:
                continue
            r = probe(args.guard)
            bad = r.exit.startswith(("70", "killed")) or r.stderr.startswith("Traceback")
            failed += bad
            stderr = r.stderr.replace("|", "\\|")
            print(f"| {name} | {r.exit} | {r.seconds:.1f} | {r.rss_mb:.0f} | {stderr}{' **FAIL**' if bad else ''} |",
                  flush=True)  # fmt: skip
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
