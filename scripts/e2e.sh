#!/usr/bin/env bash
# End-to-end tests: builds the web app, then vitest's e2e project starts the local platform (in memory)
# and drives it in headless Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
npm run build -w web --silent
npx vitest run --project e2e "$@"
