#!/usr/bin/env bash
# Every test: type-check and lint, unit, web components, API tests against DynamoDB Local,
# infrastructure assertions, and end-to-end tests in headless Chromium against the local platform.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED=true
echo "== check (types, lint)"
npm run check --silent
echo "== unit, web, api (DynamoDB Local)"
mkdir -p test-results
rm -f test-results/vitest-*.json
summary() { node scripts/test-summary.mjs test-results/vitest-main.json test-results/vitest-e2e.json; }
trap summary EXIT
npx vitest run --project unit --project web --project int --reporter=default --reporter=json --outputFile=test-results/vitest-main.json
echo "== end-to-end (headless Chromium)"
bash scripts/e2e.sh --reporter=default --reporter=json --outputFile=test-results/vitest-e2e.json
