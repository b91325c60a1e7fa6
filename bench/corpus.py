"""Build the public-kernel corpus used by `bench/parse_rate.py`.

The corpus is a local cache, never part of this repository: kernel files (`.cpp .h .hpp .asc .cce`
containing `__aicore__`) extracted from bare git mirrors of public AscendC repositories into

    ~/.cache/ascendc-lsp/corpus/<owner+name>/<path in the repository>

(or `$ASCENDC_CORPUS/...`). Files are de-duplicated by content hash across all repositories: a file
already taken from an earlier repository is skipped. A `MANIFEST.json` records the repository, commit
and counts.

Usage:
    python bench/corpus.py                         # discover mirrors under /work/.mirror/*/repo
    python bench/corpus.py /work/.mirror/A+B/repo  # or name the git directories
    python bench/corpus.py --mirror-root DIR       # discover under another folder

Beside the de-duplicated kernel files, every repository's source tree (sources, headers, build files and
Python scripts, no binaries; `TREE_EXTENSIONS`) is extracted whole into

    ~/.cache/ascendc-lsp/public/<owner+name>/<path in the repository>

(or `$ASCENDC_PUBLIC_TREES/...`): op projects (`op_host/` + `op_kernel/`) and direct-launch samples need their
neighbours (host code, tiling headers, data scripts) to build and run. `public_tree(name)` finds one.

The mirrors are bare snapshots brought by the project's `fetch` tool (github:owner/name); see
`corpus_missing_message()` for what to do when neither mirrors nor corpus exist.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

EXTENSIONS = (".cpp", ".h", ".hpp", ".asc", ".cce")
# What a project needs to build and run: sources, build files, data-generation and verification scripts.
TREE_EXTENSIONS = (
    *EXTENSIONS, ".cc", ".c", ".inc", ".py", ".txt", ".json", ".sh", ".ini", ".yaml", ".yml", ".cmake",
    ".md",  # a sample's README is its build recipe (toolchain/program); marker files such as AGENTS.md find roots
)
TREE_MAX_FILE_BYTES = 4 << 20
MARKER = b"__aicore__"
DEFAULT_MIRROR_ROOT = Path("/work/.mirror")

# Repositories of /work/shared/reference/kernel-sources.md first, then others with many real kernels.
# The order decides which copy of a duplicated file is kept.
PREFERRED_ORDER = (
    "LnickOne+Ascend",
    "cannmirror+asc-devkit",
    "Ascend+samples",
    "KernelHive+ascendc-skill",
    "weich97+NPUKernelBench",
    "wangdengkai+AscendOpGenAgent",
    "duoduoyi6+ascendC_debug_agent",
    "bigorange1024+ascendc",
    "Sunye1213106+AscendC-Pilot",
)

# Library code, not kernels: the devkit's API headers, implementation, tests and docs.
EXCLUDED_PREFIXES = {
    "cannmirror+asc-devkit": ("include/", "impl/", "tests/", "docs/"),
}


def corpus_dir() -> Path:
    # the one cache directory rule (a relative XDG_CACHE_HOME is ignored)
    from ascendc_lsp.paths import cache_dir

    env = os.environ.get("ASCENDC_CORPUS")
    return Path(env) if env else cache_dir("corpus")


def trees_dir() -> Path:
    # op test cases resolve public trees there too: one rule
    from ascendc_lsp.toolchain.opproject.discovery import public_trees_dir

    return public_trees_dir()


def public_tree(name: str) -> Path | None:
    """The extracted source tree of a public repository (`owner+name`), or None when it was not built."""
    tree = trees_dir() / name
    return tree if tree.is_dir() else None


def corpus_missing_message() -> str:
    return (
        f"The public-kernel corpus is missing ({corpus_dir()} has no MANIFEST.json).\n"
        "It is a local cache, not part of the repository. To build it:\n"
        "  1. bring bare mirrors of the public repositories with the `fetch` tool, e.g.\n"
        "     github:LnickOne/Ascend, github:cannmirror/asc-devkit, github:Ascend/samples,\n"
        "     github:KernelHive/ascendc-skill, github:weich97/NPUKernelBench,\n"
        "     github:wangdengkai/AscendOpGenAgent, github:duoduoyi6/ascendC_debug_agent,\n"
        "     github:bigorange1024/ascendc, github:Sunye1213106/AscendC-Pilot\n"
        "     (they land in /work/.mirror/<owner+name>/repo);\n"
        "  2. run: .venv/bin/python bench/corpus.py   (or pass the git directories as arguments)."
    )


def repo_name(git_dir: Path) -> str:
    """`/work/.mirror/owner+name/repo` -> `owner+name`."""
    git_dir = git_dir.resolve()
    return git_dir.parent.name if git_dir.name in ("repo", ".git") else git_dir.name.removesuffix(".git")


def discover(root: Path) -> list[Path]:
    found = [p.parent for p in sorted(root.glob("*/repo/HEAD"))]
    found += [p.parent for p in sorted(root.glob("*/HEAD")) if p.parent not in found]
    return found


def _order(name: str) -> tuple[int, str]:
    return (PREFERRED_ORDER.index(name), name) if name in PREFERRED_ORDER else (len(PREFERRED_ORDER), name)


def _git(git_dir: Path, *args: str) -> bytes:
    return subprocess.run(["git", f"--git-dir={git_dir}", *args], check=True, capture_output=True).stdout


def kernel_blobs(git_dir: Path, name: str) -> list[tuple[str, str]]:
    """(path, blob id) of candidate files at HEAD, after the per-repository exclusions."""
    excluded = EXCLUDED_PREFIXES.get(name, ())
    return [(p, b) for p, b in tree_blobs(git_dir, EXTENSIONS) if not p.startswith(excluded)]


def tree_blobs(git_dir: Path, extensions: tuple[str, ...]) -> list[tuple[str, str]]:
    """(path, blob id) of the regular files at HEAD whose names end in one of `extensions` (or CMakeLists.txt)."""
    out: list[tuple[str, str]] = []
    for line in _git(git_dir, "ls-tree", "-r", "-z", "HEAD").split(b"\0"):
        if not line:
            continue
        meta, _, path_b = line.partition(b"\t")
        mode, kind, blob = meta.split()
        path = path_b.decode("utf-8", errors="surrogateescape")
        if kind != b"blob" or mode == b"120000" or not path.lower().endswith(extensions):
            continue
        out.append((path, blob.decode()))
    return out


def read_blobs(git_dir: Path, blobs: list[str]) -> dict[str, bytes]:
    """Contents of many blobs through one `git cat-file --batch`."""
    proc = subprocess.run(
        ["git", f"--git-dir={git_dir}", "cat-file", "--batch"],
        input="".join(b + "\n" for b in blobs).encode(),
        check=True,
        capture_output=True,
    )
    data, pos, result = proc.stdout, 0, {}
    for blob in blobs:
        nl = data.index(b"\n", pos)
        header = data[pos:nl].split()
        if len(header) < 3 or header[1] == b"missing":
            pos = nl + 1
            continue
        size = int(header[2])
        result[blob] = data[nl + 1 : nl + 1 + size]
        pos = nl + 1 + size + 1
    return result


def extract_tree(git_dir: Path, out: Path) -> int:
    """Write the repository's source tree (TREE_EXTENSIONS) under out; blobs missing from the snapshot are skipped."""
    if out.exists():
        shutil.rmtree(out)
    blobs = tree_blobs(git_dir, TREE_EXTENSIONS)
    contents = read_blobs(git_dir, sorted({b for _, b in blobs}))
    written = 0
    for path, blob in blobs:
        data = contents.get(blob)
        if data is None or len(data) > TREE_MAX_FILE_BYTES or ".." in Path(path).parts:
            continue
        target = out / path
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        except OSError:
            continue
        written += 1
    return written


def build(git_dirs: list[Path], out: Path, trees: Path | None = None) -> dict[str, dict[str, object]]:
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    seen: set[str] = set()
    manifest: dict[str, dict[str, object]] = {}
    for git_dir in sorted(git_dirs, key=lambda d: _order(repo_name(d))):
        name = repo_name(git_dir)
        commit = _git(git_dir, "rev-parse", "HEAD").decode().strip()
        candidates = kernel_blobs(git_dir, name)
        contents = read_blobs(git_dir, sorted({b for _, b in candidates}))
        kernels = dupes = 0
        for path, blob in candidates:
            data = contents.get(blob)
            if data is None or MARKER not in data:
                continue
            digest = hashlib.sha256(data).hexdigest()
            if digest in seen:
                dupes += 1
                continue
            seen.add(digest)
            target = out / name / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            kernels += 1
        tree_files = extract_tree(git_dir, trees / name) if trees is not None else 0
        manifest[name] = {
            "git_dir": str(git_dir),
            "tree_files": tree_files,
            "commit": commit,
            "candidates": len(candidates),
            "kernel_files": kernels,
            "duplicates_skipped": dupes,
        }
        print(
            f"{name:34} {commit[:12]}  candidates {len(candidates):5}  kernels {kernels:5}  duplicates {dupes:5}"
        )
    (out / "MANIFEST.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    total = sum(int(m["kernel_files"]) for m in manifest.values())  # type: ignore[call-overload]
    print(f"{'total':34} {'':12}  {'':16}  kernels {total:5}   -> {out}")
    return manifest


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("git_dirs", nargs="*", type=Path, help="bare git directories (default: discover)")
    ap.add_argument("--mirror-root", type=Path, default=DEFAULT_MIRROR_ROOT)
    ap.add_argument("--out", type=Path, default=None, help=f"corpus folder (default {corpus_dir()})")
    ap.add_argument("--no-trees", action="store_true", help=f"skip the whole source trees ({trees_dir()})")
    args = ap.parse_args(argv)
    git_dirs = args.git_dirs or (discover(args.mirror_root) if args.mirror_root.is_dir() else [])
    if not git_dirs:
        print(f"No git mirrors given or found under {args.mirror_root}.", file=sys.stderr)
        existing = args.out or corpus_dir()
        if (existing / "MANIFEST.json").is_file():
            print(f"The corpus built earlier is kept: {existing}", file=sys.stderr)
        else:
            print(corpus_missing_message(), file=sys.stderr)
        return 2
    build(git_dirs, args.out or corpus_dir(), None if args.no_trees else trees_dir())
    return 0


if __name__ == "__main__":
    sys.exit(main())
