#!/usr/bin/env bash
# Build the libFuzzer targets and run each of them.
#   tests/fuzz/fuzz.sh BUILD_DIR SECONDS            fuzz each target for SECONDS
#   tests/fuzz/fuzz.sh BUILD_DIR SECONDS --smoke    every seed once, then SECONDS of fuzzing
# Without clang + libFuzzer it prints why and exits 0 (skipped), so a machine
# that cannot fuzz can still run `make test`. New inputs go to a scratch
# folder, never into the committed seed corpus; crashes go to BUILD_DIR/fuzz-artifacts/.
set -u
BUILD="$1"
SECONDS_EACH="$2"
MODE="${3:-}"
SRC="$(cd "$(dirname "$0")/../.." && pwd)"
CC_FUZZ="${FUZZ_CC:-clang}"

if ! command -v "$CC_FUZZ" >/dev/null 2>&1; then
    echo "fuzz: SKIPPED - no '$CC_FUZZ' on this machine (Debian: apt-get install clang libclang-rt-dev)"
    exit 0
fi
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' > "$probe/p.c"
if ! "$CC_FUZZ" -fsanitize=fuzzer,address,undefined "$probe/p.c" -o "$probe/p" 2>"$probe/err"; then
    echo "fuzz: SKIPPED - $CC_FUZZ cannot link libFuzzer (Debian: apt-get install libclang-rt-dev):"
    sed 's/^/  /' "$probe/err" | head -5
    exit 0
fi

# Warnings are the gcc builds' job (-Werror there); here only crashes matter.
CC="$CC_FUZZ" cmake -S "$SRC" -B "$BUILD" -DCMAKE_BUILD_TYPE=Debug -DHB_FUZZ=ON -DHB_WERROR=OFF \
    >"$probe/cmake.log" 2>&1 || { cat "$probe/cmake.log"; exit 1; }
cmake --build "$BUILD" --target fuzz_targets -j "$(nproc 2>/dev/null || echo 2)" >"$probe/build.log" 2>&1 ||
    { cat "$probe/build.log"; exit 1; }

export HEXBATTLE_DATA="$SRC/data"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
# UBSan halts on its first report (an int overflow fails the fuzzer as a
# crash does), whatever else the caller put in UBSAN_OPTIONS: the last
# setting of a flag wins. The build also passes -fno-sanitize-recover=all.
export UBSAN_OPTIONS="print_stacktrace=1:${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}halt_on_error=1"
mkdir -p "$BUILD/fuzz-artifacts"
status=0
for corpus in "$SRC"/tests/fuzz/corpus/*/; do
    name=$(basename "$corpus")
    bin="$BUILD/tests/fuzz/fuzz_$name"
    [ -x "$bin" ] || { echo "fuzz: no target fuzz_$name for corpus $corpus"; status=1; continue; }
    scratch="$BUILD/fuzz-scratch/$name"
    mkdir -p "$scratch"
    log="$BUILD/fuzz-artifacts/$name.log"
    common=(-timeout=10 -rss_limit_mb=2048 -artifact_prefix="$BUILD/fuzz-artifacts/$name-"
            -print_final_stats=1)
    dict="$SRC/tests/fuzz/$name.dict"
    [ -f "$dict" ] && common+=(-dict="$dict")
    if [ "$MODE" = "--smoke" ]; then
        # -runs=0 over the seeds runs each of them exactly once.
        if ! "$bin" "${common[@]}" -runs=0 "$corpus" >"$log" 2>&1; then
            echo "fuzz_$name: FAILED on its seed corpus (log: $log)"; tail -30 "$log"; status=1; continue
        fi
    fi
    if "$bin" "${common[@]}" -max_total_time="$SECONDS_EACH" "$scratch" "$corpus" >>"$log" 2>&1; then
        execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$')
        echo "fuzz_$name: ok (${SECONDS_EACH}s, ${execs:-?} runs)"
    else
        echo "fuzz_$name: FAILED (log: $log; the input is in $BUILD/fuzz-artifacts/)"
        tail -40 "$log"
        status=1
    fi
done
exit $status
