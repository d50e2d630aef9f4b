#!/usr/bin/env bash
# The one gate (README's `npm test`, CI's .ci/run): types, lint, unused code, unit + Postgres tests, then end-to-end
# tests in Chromium against the built app. Ends with one summary line: "N passed, N failed, N skipped".
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p test-results
status=0
step() { echo; echo "=== $1"; }

# `npm test` puts node_modules/.bin first on PATH, so this is the Node the project installs (package.json).
echo "Node $(node --version) ($(command -v node))"

step "typecheck"; npm run --silent typecheck || status=1
step "format (Prettier)"; npm run --silent format:check || status=1
step "lint (layers, cycles, hooks, accessibility)"; npm run --silent lint || status=1
step "unused files, exports and dependencies (knip)"; npm run --silent knip || status=1
step "unit and Postgres tests (Vitest)"
npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json || status=1
if ls tests/e2e/*.spec.ts >/dev/null 2>&1; then
  step "build"; npm run --silent build || status=1
  step "end-to-end tests (Playwright, Chromium)"
  PLAYWRIGHT_JSON_OUTPUT_NAME=test-results/playwright.json npx playwright test --reporter=list,json || status=1
fi
step "summary"
node scripts/test-summary.mjs test-results/vitest.json test-results/playwright.json || status=1
exit $status
