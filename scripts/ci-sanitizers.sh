#!/usr/bin/env bash
# CI stages beyond scripts/test.sh, each built with clang in its own directory:
#   asan  core, articula-cli and the core tests under AddressSanitizer + UndefinedBehaviorSanitizer
#         (build-asan; UBSan does not recover, so any finding fails the stage)
#   tsan  the simulation-thread tests (worker, controller, snapshot history) under ThreadSanitizer
#         (build-tsan; only that test is built)
#   fuzz  the libFuzzer target fuzz/fuzz_project for FUZZ_SECONDS (default 60), seeded with
#         samples/*.json and tests/data/fuzz; reuses build-asan (same flags). Findings are saved as build-asan/crash-*.
# Usage: bash scripts/ci-sanitizers.sh [asan] [tsan] [fuzz]   (no argument: all three)
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
stages=("$@")
[ ${#stages[@]} -gt 0 ] || stages=(asan tsan fuzz)

# clang, its sanitizer runtimes (libclang-rt-14-dev) and llvm-symbolizer for readable reports.
pkgs=(clang libclang-rt-14-dev llvm)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# Qt and glib are not instrumented: their interceptor calls are not checked.
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1:ignore_noninstrumented_modules=1:suppressions=$PWD/scripts/tsan.supp}

# Core only: no Qt, OpenSceneGraph or benchmark in the ASan build (their libraries are not
# instrumented and not under test here). fuzzer-no-link adds libFuzzer's coverage hooks so that
# the fuzz target links against the same core. No Python module either: an ASan-built extension
# cannot be loaded by an uninstrumented python3. -gline-tables-only gives the reports' stacks their
# files and lines without full debug information (quicker to compile and link).
configure_asan() {
  local flags="-fsanitize=address,undefined -fno-sanitize-recover=all -fsanitize=fuzzer-no-link"
  flags+=" -fno-omit-frame-pointer -gline-tables-only -O1"
  cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_COMPILER=clang++ \
    -DCMAKE_CXX_FLAGS="$flags" -DARTICULA_FUZZ=ON -DCMAKE_DISABLE_FIND_PACKAGE_Qt6=ON \
    -DCMAKE_DISABLE_FIND_PACKAGE_PkgConfig=ON -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON \
    -DARTICULA_PYTHON=OFF >/dev/null
}

stage_asan() {
  configure_asan
  cmake --build build-asan -j"$jobs"
  ctest --test-dir build-asan --output-on-failure -j"$jobs"
}

stage_tsan() {
  local flags="-fsanitize=thread -fno-omit-frame-pointer -gline-tables-only -O1"
  cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_COMPILER=clang++ \
    -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON -DARTICULA_PYTHON=OFF \
    >/dev/null
  cmake --build build-tsan -j"$jobs" --target test_ui_threads
  ctest --test-dir build-tsan --output-on-failure -R '^ui:'
}

stage_fuzz() {
  configure_asan
  cmake --build build-asan -j"$jobs" --target fuzz_project
  mkdir -p build-asan/corpus
  # -timeout: an input taking over 10 s is a hang; -rss_limit_mb: a runaway allocation.
  local rc=0
  build-asan/fuzz/fuzz_project build-asan/corpus samples tests/data/fuzz -dict=fuzz/project.dict \
    -max_total_time="${FUZZ_SECONDS:-60}" -timeout=10 -rss_limit_mb=2048 -max_len=16384 \
    -artifact_prefix=build-asan/ -print_final_stats=1 || rc=$?
  if [ "$rc" -ne 0 ]; then  # the log is all a CI run leaves: print the finding to replay it
    for f in build-asan/crash-* build-asan/timeout-* build-asan/oom-*; do
      [ -f "$f" ] || continue
      echo "== fuzz finding $f (base64; decode into tests/data/fuzz/ to replay):"
      base64 -w 100 "$f"
    done
    return "$rc"
  fi
}

for s in "${stages[@]}"; do
  start=$(date +%s)
  echo "== sanitizer stage: $s"
  "stage_$s"
  echo "== sanitizer stage $s passed in $(( $(date +%s) - start )) s"
done
