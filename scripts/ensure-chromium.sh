#!/usr/bin/env bash
# Installs Debian's chromium when /usr/bin/chromium is missing: the /docs tests drive it with playwright-core,
# which downloads no browser of its own (services/*/test/docs-site.test.ts, docs/guides/quick-start.md "Docs site").
set -euo pipefail
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then exit 0; fi
echo "ensure-chromium: $CHROMIUM missing, installing Debian's chromium"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends chromium >/dev/null
"$CHROMIUM" --version
