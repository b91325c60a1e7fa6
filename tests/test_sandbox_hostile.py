"""Hostile code against the sandbox (issue 16 part 5, issue 17 items 1-5): each attack is blocked or killed with
a clear message, under bubblewrap and without it (ASCENDC_LSP_SANDBOX=unshare|none: refused unless the user
opts in with ASCENDC_LSP_ALLOW_UNISOLATED=1, and then the limits still hold), kernels' programs and the spec's
reference alike."""

from __future__ import annotations

import os
import socket
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from ascendc_lsp.toolchain import sandbox
from ascendc_lsp.toolchain.emulator import data
from ascendc_lsp.toolchain.sandbox import Limits, SandboxResult, run_python, run_sandboxed
from ascendc_lsp.toolchain.spec import spec_from_dict

PROJECT = Path(__file__).resolve().parents[1]
SECRET = "sk-hostile-test-secret-9876"
HAVE_BWRAP = sandbox._probe(sandbox._bwrap_prefix(Path("/tmp"), [], []))
HAVE_UNSHARE = sandbox._probe(sandbox._unshare_prefix())
needs_bwrap = pytest.mark.skipif(not HAVE_BWRAP, reason="bubblewrap does not work here")


@pytest.fixture
def mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The forced sandbox mode (as ASCENDC_LSP_SANDBOX does), with the key in our environment."""
    name: str = request.param
    if name == "bwrap" and not HAVE_BWRAP:
        pytest.skip("bubblewrap does not work here")
    if name == "unshare" and not HAVE_UNSHARE:
        pytest.skip("unshare does not work here")
    monkeypatch.setenv("ASCENDC_LSP_SANDBOX", "none" if name == "rlimits" else name)
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    monkeypatch.delenv(sandbox.ALLOW_UNISOLATED_ENV, raising=False)
    sandbox.isolation_mode.cache_clear()
    yield name
    sandbox.isolation_mode.cache_clear()


def _py(code: str, workdir: Path, limits: Limits | None = None) -> SandboxResult:
    (workdir / "hostile.py").write_text(textwrap.dedent(code), encoding="utf-8")
    return run_python(["hostile.py"], workdir, limits or Limits(timeout=20))


# ------------------------------------------------------------------------------------------------ refusal


@pytest.mark.parametrize("mode", ["unshare", "rlimits"], indirect=True)
def test_untrusted_code_is_refused_without_bubblewrap(tmp_path: Path, mode: str) -> None:
    marker = tmp_path / "ran"
    r = run_sandboxed(["sh", "-c", f"touch {marker}"], tmp_path, Limits(timeout=10))
    assert r.error is not None and "bubblewrap" in r.error and sandbox.ALLOW_UNISOLATED_ENV in r.error
    assert not marker.exists()
    # the spec's reference goes the same way, reported as the reference's failure
    with pytest.raises(data.DataError, match="reference failed: refusing to run untrusted code"):
        data.evaluate_reference(_ref_spec(tmp_path, "y = x"), {"x": np.zeros(8, np.float32)})  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------------------ bubblewrap


def _loopback_listener() -> tuple[socket.socket, list[bool]]:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    server.settimeout(0.2)
    accepted: list[bool] = []

    def serve() -> None:
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            accepted.append(True)
            conn.close()

    threading.Thread(target=serve, daemon=True).start()
    return server, accepted


@pytest.mark.parametrize("mode", ["bwrap"], indirect=True)
def test_bwrap_blocks_files_network_secrets_and_runs_as_nobody(tmp_path: Path, mode: str) -> None:
    home = Path(os.environ["HOME"])
    (home / ".ssh").mkdir(exist_ok=True)
    (home / ".ssh" / "id_test").write_text("PRIVATE KEY", encoding="utf-8")
    server, accepted = _loopback_listener()
    port = server.getsockname()[1]
    outside_tmp = Path("/tmp") / f"ascendc-hostile-{os.getpid()}"
    code = f"""
        import os, socket, subprocess
        def attempt(name, fn):
            try:
                fn(); print(name, "ALLOWED")
            except Exception as e:
                print(name, "blocked", type(e).__name__)
        def connect():
            s = socket.socket(); s.settimeout(2); s.connect(("127.0.0.1", {port}))
        attempt("net", connect)
        attempt("shadow", lambda: open("/etc/shadow").read())
        attempt("ssh", lambda: open({str(home / ".ssh" / "id_test")!r}).read())
        attempt("home", lambda: open({str(home / "written")!r}, "w").write("x"))
        attempt("project", lambda: open({str(PROJECT / "hostile-written")!r}, "w").write("x"))
        open({str(outside_tmp)!r}, "w").write("x")  # the sandbox's own /tmp: gone afterwards
        print("uid", os.getuid())
        print("key", os.environ.get("OPENAI_API_KEY", "none"))
        print("sh", subprocess.run(["/bin/sh", "-c", "id -u; cat /etc/shadow"], capture_output=True).stdout)
    """
    try:
        r = _py(code, tmp_path)
    finally:
        server.close()
    out = r.stdout
    assert r.isolation == "bwrap" and r.returncode == 0, r.stderr
    for name in ("net", "shadow", "ssh", "home", "project"):
        assert f"{name} blocked" in out, out
    assert not accepted
    assert not (home / "written").exists() and not (PROJECT / "hostile-written").exists()
    assert not outside_tmp.exists()
    assert f"uid {sandbox.SANDBOX_UID}" in out and "key none" in out and SECRET not in out
    assert "sh b'65534\\n'" in out  # the exec'd shell is as confined: nobody, no shadow


@pytest.mark.parametrize("mode", ["bwrap", "unshare"], indirect=True)
def test_namespaced_modes_kill_a_setsid_daemon(tmp_path: Path, mode: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(sandbox.ALLOW_UNISOLATED_ENV, "1")  # unshare: the user trusts the code; limits still hold
    marker = tmp_path / "daemon-wrote"
    script = f"setsid sh -c 'sleep 2; touch {marker}' >/dev/null 2>&1 & echo started"
    r = run_sandboxed(["sh", "-c", script], tmp_path, Limits(timeout=10))
    assert "started" in r.stdout
    time.sleep(3)
    assert not marker.exists()


@pytest.mark.parametrize("mode", ["bwrap", "unshare", "rlimits"], indirect=True)
def test_limits_hold_in_every_mode(tmp_path: Path, mode: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(sandbox.ALLOW_UNISOLATED_ENV, "1")
    # infinite loop: killed at the timeout
    t0 = time.monotonic()
    r = run_sandboxed(["sh", "-c", "while :; do :; done"], tmp_path, Limits(timeout=1))
    assert r.timed_out and time.monotonic() - t0 < 8
    # 20 GB malloc: refused by the address-space limit
    r = _py("bytearray(20 << 30)", tmp_path, Limits(timeout=20, memory_bytes=2 << 30))
    assert r.returncode != 0 and "MemoryError" in r.stderr
    # the key in our environment never reaches the child
    r = run_sandboxed(["sh", "-c", "echo ${OPENAI_API_KEY:-none}"], tmp_path, Limits(timeout=10))
    assert r.stdout.strip() == "none"


@pytest.mark.parametrize("mode", ["bwrap", "unshare", "rlimits"], indirect=True)
def test_memory_is_limited_for_the_whole_sandbox(tmp_path: Path, mode: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(sandbox.ALLOW_UNISOLATED_ENV, "1")
    # three children holding 400 MiB each stay under a per-process limit of 1 GiB, not under 1 GiB together
    code = """
        import os, time
        for _ in range(3):
            if os.fork() == 0:
                block = bytearray(400 << 20)
                for i in range(0, len(block), 4096):
                    block[i] = 1
                time.sleep(30)
                os._exit(0)
        time.sleep(30)
    """
    t0 = time.monotonic()
    r = _py(code, tmp_path, Limits(timeout=25, memory_bytes=1 << 30))
    assert r.memory_exceeded and not r.timed_out and time.monotonic() - t0 < 20
    assert "memory limit" in r.stderr


@pytest.mark.parametrize("mode", ["bwrap", "unshare", "rlimits"], indirect=True)
def test_shared_pages_count_once(tmp_path: Path, mode: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Four forked children share their parent's 300 MiB copy-on-write: summed RSS sees 1.5 GiB, the memory held
    is 300 MiB. Under a 1 GiB limit the sandbox lives (the watcher counts PSS), and finishes on its own."""
    if sandbox._proportional_bytes(os.getpid()) is None:
        pytest.skip("no /proc/PID/smaps_rollup here: the watcher falls back to summed RSS")
    monkeypatch.setenv(sandbox.ALLOW_UNISOLATED_ENV, "1")
    code = """
        import os, time
        block = bytearray(300 << 20)
        for i in range(0, len(block), 4096):
            block[i] = 1
        children = []
        for _ in range(4):
            pid = os.fork()
            if pid == 0:
                total = 0
                for i in range(0, len(block), 4096):  # read every page: resident in the child too, still shared
                    total += block[i]
                time.sleep(2)
                os._exit(0 if total == len(block) // 4096 else 3)
            children.append(pid)
        codes = [os.waitpid(pid, 0)[1] for pid in children]
        print("children", codes)
    """
    r = _py(code, tmp_path, Limits(timeout=40, memory_bytes=1 << 30))
    assert not r.memory_exceeded, r.stderr
    assert r.returncode == 0 and "children [0, 0, 0, 0]" in r.stdout, (r.returncode, r.stdout, r.stderr)


def test_tree_memory_counts_pss_with_an_rss_fallback() -> None:
    page = os.sysconf("SC_PAGE_SIZE")
    me = os.getpid()
    table = sandbox._proc_table()
    rss = table[me][1] * page
    held = sandbox.tree_memory_bytes([me], table, page)
    assert 0 < held <= rss
    gone = 2**22 + 12345  # no such process: counted with the RSS the table gives
    assert sandbox.tree_memory_bytes([gone], {gone: (1, 10)}, page) == 10 * page


@pytest.mark.parametrize("mode", ["bwrap", "unshare", "rlimits"], indirect=True)
def test_fork_bomb_is_bounded(tmp_path: Path, mode: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(sandbox.ALLOW_UNISOLATED_ENV, "1")
    # a bounded bomb (at most 2^9 processes, so a broken sandbox cannot take the machine down)
    code = """
        import os, time
        for _ in range(9):
            os.fork()
        time.sleep(20)
    """
    t0 = time.monotonic()
    r = _py(code, tmp_path, Limits(timeout=25, max_processes=64))
    assert r.processes_exceeded and time.monotonic() - t0 < 15
    assert "too many processes" in r.stderr


# ------------------------------------------------------------------------------------------------ the reference


def _ref_spec(tmp_path: Path, reference: str) -> object:
    return spec_from_dict(
        {
            "kernel": "k",
            "block_dim": 1,
            "inputs": [{"name": "x", "shape": [8], "dtype": "float32"}],
            "outputs": [{"name": "y", "shape": [8], "dtype": "float32"}],
            "reference": reference,
        },
        base_dir=tmp_path,
    )


HOSTILE_REFERENCES = {
    "exit0": ("import sys\nsys.exit(0)", "SystemExit"),
    "os_exit0": ("import os\nos._exit(0)", "exited with status 0 before returning the outputs"),
    "raise": ("y = x\nraise ValueError('boom')", "line 2: ValueError: boom"),
    "shadow": ("import pathlib\ny = x\npathlib.Path('/etc/shadow').read_text()", "FileNotFoundError"),
    "home": ("import pathlib\npathlib.Path('HOMEPATH/ref-written').write_text('x')", "Error"),
    "project": ("import pathlib\npathlib.Path('PROJECTPATH/ref-written').write_text('x')", "OSError"),
    "network": ("import socket\ns = socket.socket(); s.settimeout(2); s.connect(('127.0.0.1', PORT))", "Error"),
    "key": ("import os\nraise RuntimeError(os.environ.get('OPENAI_API_KEY', 'no key'))", "RuntimeError: no key"),
    "forged-fifo": ("import os, json, pathlib\nos.makedirs('out', exist_ok=True)\nos.mkfifo('out/0.npy')\n"
                    "pathlib.Path('result.json').write_text(json.dumps({'ok': True, 'outputs': {'y': 'out/0.npy'}}))\n"
                    "os._exit(0)", "no usable result file"),
    "forged-symlink": ("import os, json, pathlib\nos.makedirs('out', exist_ok=True)\nos.symlink('/etc/shadow', 'out/0.npy')\n"
                       "pathlib.Path('result.json').write_text(json.dumps({'ok': True, 'outputs': {'y': 'out/0.npy'}}))\n"
                       "os._exit(0)", "no usable result file"),
    "system": ("import os\nraise RuntimeError(str(os.system('cat /etc/shadow > /dev/null 2>&1')))", "RuntimeError: 256"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE_REFERENCES))
@pytest.mark.parametrize("mode", ["bwrap"], indirect=True)
def test_hostile_references_fail_as_references(tmp_path: Path, mode: str, name: str) -> None:
    server, accepted = _loopback_listener()
    code, expected = HOSTILE_REFERENCES[name]
    home = Path(os.environ["HOME"])
    code = code.replace("PORT", str(server.getsockname()[1])).replace("HOMEPATH", str(home))
    code = code.replace("PROJECTPATH", str(PROJECT))
    try:
        with pytest.raises(data.DataError) as info:
            data.evaluate_reference(_ref_spec(tmp_path, code), {"x": np.zeros(8, np.float32)}, timeout=20)  # type: ignore[arg-type]
    finally:
        server.close()
    message = str(info.value)
    assert "reference failed" in message and expected in message, message
    assert SECRET not in message and not accepted
    assert not (home / "ref-written").exists() and not (PROJECT / "ref-written").exists()


@pytest.mark.parametrize("mode", ["bwrap"], indirect=True)
def test_reference_that_never_ends_is_killed(tmp_path: Path, mode: str) -> None:
    t0 = time.monotonic()
    with pytest.raises(data.DataError, match=r"reference failed: did not finish within 2 s"):
        data.evaluate_reference(_ref_spec(tmp_path, "while True:\n    pass"), {"x": np.zeros(8, np.float32)},  # type: ignore[arg-type]
                                timeout=2)
    assert time.monotonic() - t0 < 10


@pytest.mark.parametrize("mode", ["bwrap"], indirect=True)
def test_reference_results_still_come_back(tmp_path: Path, mode: str) -> None:
    spec = spec_from_dict(
        {
            "kernel": "k",
            "block_dim": 1,
            "inputs": [{"name": "a", "shape": [4], "dtype": "float16"}, {"name": "b", "shape": [4], "dtype": "int32"}],
            "outputs": [{"name": "y", "shape": [2, 2], "dtype": "float32"}, {"name": "z", "shape": [4], "dtype": "int32"}],
            "tiling": {"struct": "T", "fields": {"n": 4, "f": 0.5}},
            "reference": "y = (a * tiling['f']).reshape(2, 2)\nz = b + tiling['n']",
        },
        base_dir=tmp_path,
    )
    inputs = {"a": np.arange(4, dtype=np.float16), "b": np.arange(4, dtype=np.int32)}
    ref = data.evaluate_reference(spec, inputs)
    assert ref["y"].tolist() == [[0.0, 0.5], [1.0, 1.5]] and ref["z"].tolist() == [4, 5, 6, 7]


# ------------------------------------------------------------------------------------------------ a real kernel

HOSTILE_KERNEL = r"""
#include "kernel_operator.h"
#include <cstdio>
#include <cstdlib>
#include <unistd.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>

static void attempt_all() {
    FILE* f = fopen("/etc/shadow", "r");
    fprintf(stderr, "shadow=%s\n", f ? "READ" : "blocked");
    FILE* h = fopen("HOMEPATH/kernel-written", "w");
    fprintf(stderr, "home=%s\n", h ? "WRITTEN" : "blocked");
    FILE* p = fopen("PROJECTPATH/kernel-written", "w");
    fprintf(stderr, "project=%s\n", p ? "WRITTEN" : "blocked");
    const char* key = getenv("OPENAI_API_KEY");
    fprintf(stderr, "key=%s\n", key ? key : "none");
    fprintf(stderr, "uid=%d\n", (int)getuid());
    int s = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(PORT);
    a.sin_addr.s_addr = inet_addr("127.0.0.1");
    fprintf(stderr, "net=%s\n", connect(s, (sockaddr*)&a, sizeof a) == 0 ? "CONNECTED" : "blocked");
}

extern "C" __global__ __aicore__ void hostile(GM_ADDR x, GM_ADDR y) {
    if (AscendC::GetBlockIdx() == 0) attempt_all();
}
"""


@pytest.mark.parametrize("mode", ["bwrap"], indirect=True)
def test_a_hostile_kernel_is_confined_and_its_includes_too(tmp_path: Path, mode: str) -> None:
    from ascendc_lsp.toolchain.base import RunOptions
    from ascendc_lsp.toolchain.emulator.runner import EmulatorToolchain

    home = Path(os.environ["HOME"])
    server, accepted = _loopback_listener()
    source = (HOSTILE_KERNEL.replace("HOMEPATH", str(home)).replace("PROJECTPATH", str(PROJECT))
              .replace("PORT", str(server.getsockname()[1])))  # fmt: skip
    (tmp_path / "hostile.cpp").write_text(source, encoding="utf-8")
    spec = spec_from_dict(
        {"kernel": "hostile", "source": "hostile.cpp", "block_dim": 1,
         "inputs": [{"name": "x", "shape": [8], "dtype": "float32"}],
         "outputs": [{"name": "y", "shape": [8], "dtype": "float32"}], "reference": "y = x"},
        base_dir=tmp_path,
    )  # fmt: skip
    try:
        result = EmulatorToolchain().run(spec, RunOptions(timeout=120, use_cache=False))  # type: ignore[arg-type]
    finally:
        server.close()
    assert result.compiled, [d.message for d in result.diagnostics]
    err = result.stderr
    for line in ("shadow=blocked", "home=blocked", "project=blocked", "key=none", "net=blocked",
                 f"uid={sandbox.SANDBOX_UID}"):  # fmt: skip
        assert line in err, err
    assert not accepted and SECRET not in err
    assert not (home / "kernel-written").exists() and not (PROJECT / "kernel-written").exists()
    # compiling is sandboxed too: an #include of a secret file does not quote it back
    (tmp_path / "leak.cpp").write_text('#include "/etc/shadow"\n' + source, encoding="utf-8")
    compiled = EmulatorToolchain().compile(  # type: ignore[arg-type]
        spec, RunOptions(source=tmp_path / "leak.cpp", timeout=120, use_cache=False)
    )
    messages = " ".join(d.message for d in compiled.diagnostics) + (compiled.log or "")
    assert not compiled.ok and "/etc/shadow" in messages
    first_token = Path("/etc/shadow").read_text(errors="replace").split(":")[0] if os.access("/etc/shadow", os.R_OK) else ""
    if first_token:
        assert f"'{first_token}'" not in messages and f"‘{first_token}’" not in messages


@pytest.mark.parametrize("mode", ["bwrap"], indirect=True)
def test_links_and_fifos_left_for_the_caller_are_removed(tmp_path: Path, mode: str) -> None:
    (tmp_path / "sub").mkdir()
    script = "ln -s /etc/shadow y.bin; ln -s sub inside; mkfifo report.jsonl; mkfifo sub/p; echo ok > out.bin"
    r = run_sandboxed(["sh", "-c", script], tmp_path, Limits(timeout=10))
    assert r.returncode == 0, r.stderr
    assert not (tmp_path / "y.bin").is_symlink() and not (tmp_path / "report.jsonl").exists()
    assert not (tmp_path / "sub" / "p").exists()
    assert (tmp_path / "inside").is_symlink() and (tmp_path / "out.bin").read_text() == "ok\n"  # harmless: kept
    assert "removed 3 link(s) or special file(s)" in r.stderr
