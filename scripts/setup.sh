#!/usr/bin/env bash
# One-time set-up of a fresh Debian/Ubuntu machine for Stratus: the Debian packages the real
# VS Code (code-server) and the browser tests need, then the npm packages. Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || need+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need+=(libkrb5-dev)
command -v openssl >/dev/null 2>&1 || need+=(openssl)
# Native addons of code-server (kerberos) build with node-gyp.
command -v g++ >/dev/null 2>&1 || need+=(g++ make)
command -v python3 >/dev/null 2>&1 || need+=(python3)
dpkg -s fonts-noto-color-emoji >/dev/null 2>&1 || need+=(fonts-noto-color-emoji)
dpkg -s fonts-dejavu-core >/dev/null 2>&1 || need+=(fonts-dejavu)
# The search benchmark compares the index with a full ripgrep scan.
command -v rg >/dev/null 2>&1 || need+=(ripgrep)
if [ ${#need[@]} -gt 0 ]; then
  echo "[setup] installing Debian packages: ${need[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

# The root install is lean: build, lint, unit tests, packaging. Its `node` devDependency (Node 24)
# is first on npm scripts' PATH.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "[setup] npm ci"
  FORCE_NODE_VERSION="$(node -p 'process.versions.node.split(".")[0]')" npm ci --no-audit --no-fund --loglevel=error
fi

# Real VS Code (code-server), each in its own folder with its own Node so the root install stays
# lean; code-server's native addons are N-API, built under the machine's Node, loaded under the
# folder's. The newest (code-server 4.139.1 = VS Code 1.139.1) for the host, host-fr and UI tiers and
# the demo, about two minutes on a fresh machine; then the oldest supported (code-server 4.104.0 =
# VS Code 1.104.0) for the `host-1.104` tier, seeded with the newest one's ripgrep.
bash test/compat/install.sh test/compat/vscode-1.139
bash test/compat/install.sh test/compat/vscode-1.104
