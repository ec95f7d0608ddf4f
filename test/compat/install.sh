#!/usr/bin/env bash
# Installs one compat folder into its own node_modules, leaving the root install alone:
# test/compat/vscode-1.139 (code-server 4.139.1 = VS Code 1.139.1, the newest, the default of the
# host/UI tiers and the demo) or test/compat/vscode-1.104 (code-server 4.104.0 = VS Code 1.104.0, the
# oldest VS Code Stratus supports). Called by scripts/setup.sh after the root install, vscode-1.139
# first; idempotent (skips an install newer than its lock).
#
# code-server 4.104.0's VS Code still depends on @vscode/ripgrep 1.15.14, whose postinstall fetches
# the rg binary from api.github.com (unreachable on machines that only reach the npm registry).
# Its download cache is $TMPDIR/vscode-ripgrep-cache-1.15.14/<asset>: we seed it with the rg binary
# of an npm package already installed (code-server 4.139.1's @vscode/ripgrep-universal in
# test/compat/vscode-1.139), or the machine's rg, so nothing is fetched from GitHub. (VS Code 1.139
# itself ships rg inside @vscode/ripgrep-universal and fetches nothing.)
set -euo pipefail
cd "$(dirname "$0")/../.."
dir="${1:?usage: test/compat/install.sh test/compat/<folder>}"

if [ -f "$dir/node_modules/.package-lock.json" ] && [ ! "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
  exit 0
fi

case "$(uname -m)" in
  x86_64) target=x86_64-unknown-linux-musl; platform=linux-x64 ;;
  aarch64 | arm64) target=aarch64-unknown-linux-musl; platform=linux-arm64 ;;
  *) echo "[setup] $dir: no ripgrep for $(uname -m)" >&2; exit 1 ;;
esac
rg="test/compat/vscode-1.139/node_modules/code-server/lib/vscode/node_modules/@vscode/ripgrep-universal/bin/$platform/rg"
[ -x "$rg" ] || rg="$(command -v rg || true)"
if [ -z "$rg" ] || [ ! -x "$rg" ]; then
  echo "[setup] $dir: no rg binary to seed @vscode/ripgrep with (install test/compat/vscode-1.139 first, or Debian's ripgrep)" >&2
  exit 1
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/vscode-ripgrep-cache-1.15.14"
cp "$rg" "$tmp/rg"
tar -czf "$tmp/vscode-ripgrep-cache-1.15.14/ripgrep-v13.0.0-13-$target.tar.gz" -C "$tmp" rg

# Native addons are N-API: built under the machine's Node, they load under the folder's own Node
# (the `node` devDependency: Node 24 for code-server 4.139.1, Node 22 for 4.104.0). code-server's
# postinstall refuses to run as root without unsafe-perm; node-pty's postinstall runs
# `npx node-gyp`, which must not stop at npx's install prompt (npm_config_yes).
echo "[setup] npm ci in $dir"
(
  cd "$dir"
  TMPDIR="$tmp" npm_config_unsafe_perm=true npm_config_yes=true FORCE_NODE_VERSION="$(node -p 'process.versions.node.split(".")[0]')" \
    npm ci --no-audit --no-fund --loglevel=error
)
