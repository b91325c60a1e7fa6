"""The CANN backend runs the toolkit's compiler, its CMake build and the programs it builds only through
toolchain/sandbox.py (issue 16, issue 15.4). There is no CANN here: the toolkit is the FAKE one of test_cann.py,
and its compiler and CPU-twin binary are FAKES (bash scripts we write) that try to break out: connect to a port
the test listens on, write into the user's home, the kernel's folder and the toolkit, read an API key from the
environment. Each attempt must fail, seen from outside the sandbox."""

from __future__ import annotations

import os
import socket
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from ascendc_lsp.toolchain import sandbox
from ascendc_lsp.toolchain.base import RunOptions
from ascendc_lsp.toolchain.cann import CannToolchain, compile_source, discover, toolkit_environment
from tests.test_cann import KERNEL, _exe, _fake_cmake, _spec, make_fake_toolkit

SECRET = "sk-cann-sandbox-secret-4321"
HAVE_BWRAP = sandbox._probe(sandbox._bwrap_prefix(Path("/tmp"), [], []))
HAVE_UNSHARE = sandbox._probe(sandbox._unshare_prefix())


@pytest.fixture
def mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The forced sandbox mode, with a secret in our environment and no opt-in to unisolated runs."""
    name: str = request.param
    if name == "bwrap" and not HAVE_BWRAP:
        pytest.skip("bubblewrap does not work here")
    if name == "unshare" and not HAVE_UNSHARE:
        pytest.skip("unshare does not work here")
    monkeypatch.setenv("ASCENDC_LSP_SANDBOX", name)
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    monkeypatch.delenv(sandbox.ALLOW_UNISOLATED_ENV, raising=False)
    sandbox.isolation_mode.cache_clear()
    yield name
    sandbox.isolation_mode.cache_clear()


@pytest.fixture
def listener() -> Iterator[socket.socket]:
    """A loopback port the hostile fakes try to reach; nothing may connect."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(4)
    sock.settimeout(0.3)
    yield sock
    sock.close()


def _nobody_connected(sock: socket.socket) -> bool:
    try:
        conn, _ = sock.accept()
    except TimeoutError:
        return True
    conn.close()
    return False


def _hostile_script(port: int, targets: list[Path], then: str = "exit 0") -> str:
    """A FAKE tool (bash): tries the network and every write target, prints the environment's secret, then `then`."""
    lines = ["#!/bin/bash", f"if exec 3<>/dev/tcp/127.0.0.1/{port}; then echo NET-CONNECTED; fi 2>/dev/null"]
    for target in targets:
        lines.append(f'echo pwned > "{target}" 2>/dev/null && echo "WROTE {target}"')
    lines += ['echo "key=${OPENAI_API_KEY:-none}"', then]
    return "\n".join(lines) + "\n"


def _targets(tmp_path: Path, home: Path, kernel_dir: Path) -> list[Path]:
    tag = uuid.uuid4().hex[:8]
    return [Path.home() / f"pwned-{tag}", kernel_dir / f"pwned-{tag}", home / f"pwned-{tag}"]


def _hostile_toolkit(tmp_path: Path, port: int) -> tuple[Path, list[Path], Path]:
    home = make_fake_toolkit(tmp_path)
    src = tmp_path / "ops" / "kernel.cpp"
    src.parent.mkdir()
    src.write_text(KERNEL, encoding="utf-8")
    targets = _targets(tmp_path, home, src.parent)
    _exe(home / "compiler" / "ccec_compiler" / "bin" / "bisheng", _hostile_script(port, targets))
    return home, targets, src


@pytest.mark.parametrize("mode", ["bwrap"], indirect=True)
def test_bisheng_runs_in_the_sandbox(tmp_path: Path, mode: str, listener: socket.socket) -> None:
    home, targets, src = _hostile_toolkit(tmp_path, listener.getsockname()[1])
    inst = discover(env={"ASCEND_HOME_PATH": str(home)})
    res = compile_source(src, inst=inst, copy_to_temp=True)
    assert res.ok, [d.message for d in res.diagnostics]  # the fake compiler ran (and exited 0)
    assert "key=none" in res.log and SECRET not in res.log
    assert "NET-CONNECTED" not in res.log and _nobody_connected(listener)
    for target in targets:
        assert not target.exists(), f"the compiler wrote {target}"
    assert "WROTE" not in res.log


@pytest.mark.parametrize("mode", ["unshare"], indirect=True)
def test_without_bubblewrap_the_compiler_is_refused(
    tmp_path: Path, mode: str, listener: socket.socket
) -> None:
    home, targets, src = _hostile_toolkit(tmp_path, listener.getsockname()[1])
    inst = discover(env={"ASCEND_HOME_PATH": str(home)})
    res = compile_source(src, inst=inst)
    assert not res.ok
    (d,) = res.diagnostics
    assert "bubblewrap" in d.message and sandbox.ALLOW_UNISOLATED_ENV in d.message
    assert d.category == "toolchain-env"
    assert _nobody_connected(listener) and not any(t.exists() for t in targets)


@pytest.mark.parametrize("mode", ["unshare"], indirect=True)
def test_opted_in_without_bubblewrap_still_has_no_network(
    tmp_path: Path, mode: str, listener: socket.socket, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(sandbox.ALLOW_UNISOLATED_ENV, "1")
    home, _, src = _hostile_toolkit(tmp_path, listener.getsockname()[1])
    res = compile_source(src, inst=discover(env={"ASCEND_HOME_PATH": str(home)}))
    assert res.ok and "NET-CONNECTED" not in res.log and _nobody_connected(listener)
    assert SECRET not in res.log  # the environment is minimal in every mode


@pytest.mark.parametrize("mode", ["bwrap"], indirect=True)
def test_a_compiler_that_hangs_is_killed(tmp_path: Path, mode: str) -> None:
    home = make_fake_toolkit(tmp_path)
    _exe(home / "compiler" / "ccec_compiler" / "bin" / "bisheng", "#!/bin/sh\nwhile :; do :; done\n")
    src = tmp_path / "kernel.cpp"
    src.write_text(KERNEL, encoding="utf-8")
    res = compile_source(src, inst=discover(env={"ASCEND_HOME_PATH": str(home)}), timeout=1.0)
    assert not res.ok
    (d,) = res.diagnostics
    assert d.message == "bisheng did not finish within 1 s"


@pytest.mark.parametrize("mode", ["bwrap"], indirect=True)
def test_the_toolkit_through_its_latest_link(tmp_path: Path, mode: str) -> None:
    """CANN is found as .../ascend-toolkit/latest, a link to the version directory: inside the sandbox the same
    path must lead to the same files (set_env.sh and the compiler are named through it)."""
    make_fake_toolkit(tmp_path)
    inst = discover(env={"HOME": str(tmp_path)})
    assert inst.home.is_symlink()
    env = toolkit_environment(inst, {"PATH": os.environ.get("PATH", "")})
    assert env.get("FAKE_CANN_SOURCED") == "1", "set_env.sh was sourced in the sandbox"
    src = tmp_path / "good.cpp"
    src.write_text(KERNEL, encoding="utf-8")
    assert compile_source(src, inst=inst).ok


@pytest.mark.parametrize("mode", ["bwrap"], indirect=True)
def test_cmake_and_the_built_program_run_in_the_sandbox(
    tmp_path: Path, mode: str, listener: socket.socket
) -> None:
    home = make_fake_toolkit(tmp_path)
    spec = _spec(tmp_path)
    kernel_dir = tmp_path / "ops"
    targets = _targets(tmp_path, home, kernel_dir)
    # the FAKE CPU twin binary attacks, then fails the way a twin reports an error (so its output is shown)
    hostile_kernel = _hostile_script(listener.getsockname()[1], targets, then="exit 3")
    cmake = _fake_cmake(tmp_path, hostile_kernel)
    tc = CannToolchain(
        env={"ASCEND_HOME_PATH": str(home), "PATH": os.environ.get("PATH", "")}, cmake=str(cmake)
    )
    res = tc.run(spec, RunOptions(keep_dir=tmp_path / "work"))  # type: ignore[arg-type]
    assert res.compiled and not res.ran and res.exit_code == 3
    assert res.isolation == "bwrap"
    assert "key=none" in res.stdout and SECRET not in res.stdout + res.stderr
    assert "NET-CONNECTED" not in res.stdout and _nobody_connected(listener)
    assert not any(t.exists() for t in targets) and "WROTE" not in res.stdout


@pytest.mark.parametrize("mode", ["unshare", "bwrap"], indirect=True)
def test_the_editor_save_compile_goes_through_the_sandbox(tmp_path: Path, mode: str) -> None:
    """The on-save check with the cann backend (toolchain/syntax_check.compile_cann): under bubblewrap the FAKE
    bisheng's log comes back; without it the refusal is the compile's error, not an empty log."""
    import threading

    from ascendc_lsp.toolchain.syntax_check import compile_cann

    home = make_fake_toolkit(tmp_path)
    out = compile_cann(KERNEL, str(tmp_path / "bad_kernel.cpp"), threading.Event(), cann_home=str(home))
    if mode == "bwrap":
        assert out.error == "" and "use of undeclared identifier 'sqrtf'" in out.log
    else:
        assert out.log == "" and "bubblewrap" in out.error
