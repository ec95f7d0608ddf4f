#!/usr/bin/env bash
# Set up what is missing, then run Stratus in a real VS Code in the browser against the sandbox.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec npm start
