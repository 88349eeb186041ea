# Headless Chromium for the browser tests of packages/ui (driven through playwright-core with
# executablePath /usr/bin/chromium; nothing downloads a browser). Sourced by .ci/run.
if ! command -v chromium >/dev/null 2>&1; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
export CHROMIUM_PATH="${CHROMIUM_PATH:-/usr/bin/chromium}"
