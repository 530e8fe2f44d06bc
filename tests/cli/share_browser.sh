#!/usr/bin/env bash
# The players' page in a real browser (docs/sharing.md): Debian's headless
# Chromium through chromedriver and python3-selenium (tests/cli/share_browser.py).
# Skipped (exit 77) only where those are not installed; `make test` installs them.
source "$(dirname "$0")/lib/assert.bash"
PY=/usr/bin/python3
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null ||
    ! "$PY" -c 'import selenium' 2>/dev/null; then
    echo "SKIPPED: needs chromium, chromium-driver and python3-selenium (make deps)"
    exit 77
fi
# Bounded: the script waits at most 20 s for each step; this caps the whole.
timeout -k 5 180 "${ORPHAN_GUARD[@]}" "$PY" "$(dirname "$0")/share_browser.py" "$HB" "$SRC"
