#!/usr/bin/env bash
# `pnpm lint:openapi`: dumps both OpenAPI documents (public-api.json, admin-api.json) and lints them with Redocly's
# rules (redocly.yaml; the per-operation exceptions, each with its reason, are in .redocly.lint-ignore.yaml, whose
# keys are the dump paths below). Offline: telemetry and the update check are off (redocly.yaml, env).
set -euo pipefail
cd "$(dirname "$0")/.."
out=node_modules/.cache/openapi-lint
rm -rf "$out"
pnpm --silent --filter @risk/sdk exec tsx scripts/dump-openapi.ts "$PWD/$out"
export REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true
pnpm exec redocly lint --config redocly.yaml "$out/public-api.json" "$out/admin-api.json"
