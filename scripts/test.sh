#!/usr/bin/env bash
# Set up what is missing, then run every test tier (check, unit, host, UI).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
npm test
