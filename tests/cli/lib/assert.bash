# Assertions for the command-line contract tests. Each test script sources
# this with the binary as $1 and the source tree as $2.
set -u
HB="$1"
SRC="$2"
export HEXBATTLE_DATA="$SRC/data"
MAPS="$SRC/tests/cli/maps"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# "${ORPHAN_GUARD[@]}" CMD...: run CMD so that it gets SIGTERM when this
# script dies, even by SIGKILL (a test runner's timeout), where no trap runs:
# for servers and windows a test starts in the background (orphaned Xvfb
# servers were once left on the test machine). Empty without setpriv.
ORPHAN_GUARD=()
if command -v setpriv >/dev/null && setpriv --pdeathsig TERM true 2>/dev/null; then
    ORPHAN_GUARD=(setpriv --pdeathsig TERM)
fi
FAILS=0
PASSES=0

# expect_out NAME EXPECTED_STDOUT CMD...: exit 0 and stdout exactly EXPECTED.
expect_out() {
    local name="$1" want="$2"
    shift 2
    local got rc
    got=$("$@" 2>"$TMP/err")
    rc=$?
    if [ "$rc" -eq 0 ] && [ "$got" = "$want" ]; then
        PASSES=$((PASSES + 1))
    else
        FAILS=$((FAILS + 1))
        printf 'FAIL %s\n  cmd: %s\n  want: %s\n  got:  %s (exit %d)\n  stderr: %s\n' \
            "$name" "$*" "$want" "$got" "$rc" "$(cat "$TMP/err")"
    fi
}

# expect_fail NAME STATUS STDERR_SUBSTRING CMD...: exit STATUS, nothing on
# stdout, and stderr containing the substring.
expect_fail() {
    local name="$1" want_rc="$2" want_err="$3"
    shift 3
    local got rc
    got=$("$@" 2>"$TMP/err")
    rc=$?
    if [ "$rc" -eq "$want_rc" ] && [ -z "$got" ] && grep -qF -- "$want_err" "$TMP/err"; then
        PASSES=$((PASSES + 1))
    else
        FAILS=$((FAILS + 1))
        printf 'FAIL %s\n  cmd: %s\n  want exit %d with stderr containing: %s\n  got exit %d, stdout: %s\n  stderr: %s\n' \
            "$name" "$*" "$want_rc" "$want_err" "$rc" "$got" "$(cat "$TMP/err")"
    fi
}

# check NAME CONDITION-COMMAND...: the command succeeds.
check() {
    local name="$1"
    shift
    if "$@"; then
        PASSES=$((PASSES + 1))
    else
        FAILS=$((FAILS + 1))
        printf 'FAIL %s\n  check: %s\n' "$name" "$*"
    fi
}

finish() {
    echo "$PASSES passed, $FAILS failed"
    [ "$FAILS" -eq 0 ]
}
