#!/usr/bin/env bash
# Installs what the platform and its tests need when it is missing: npm packages, a Java 17 runtime
# (DynamoDB Local), Debian's Chromium (end-to-end tests). Safe to run again: it only installs what is absent.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
if ! command -v java >/dev/null 2>&1 || ! java -version 2>&1 | grep -Eq 'version "(1[7-9]|2[0-9])'; then
  need_apt+=(openjdk-17-jdk-headless)
elif ! command -v javac >/dev/null 2>&1; then
  # javac compiles the launcher that keeps DynamoDB Local on loopback (infra/local/java)
  need_apt+=(openjdk-17-jdk-headless)
fi
if [ "${SKIP_CHROMIUM:-}" != "1" ] && [ ! -x /usr/bin/chromium ]; then
  need_apt+=(chromium)
fi
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "setup: installing ${need_apt[*]} (Debian packages)"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: installing npm packages"
  npm ci --no-audit --no-fund --loglevel=error
fi
