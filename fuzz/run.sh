#!/usr/bin/env bash
# Run every fuzz target for SECONDS each (default 60) on the committed
# corpus, without adding to it; crashes go to fuzz/artifacts/TARGET/ and
# fail the run. Usage: bash fuzz/run.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-60}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(channel_analyze channel_route switchbox solution_verify layout_verify kiss2_fsm def_verify)
fi
command -v cargo-fuzz >/dev/null || cargo install --locked cargo-fuzz
# libFuzzer's instrumentation wants a nightly compiler; without one, the
# stable compiler is let use it and the sanitizer is left out.
if rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
  fuzz=(cargo +nightly fuzz)
  sanitizer=()
else
  export RUSTC_BOOTSTRAP=1
  fuzz=(cargo fuzz)
  sanitizer=(--sanitizer none)
fi
"${fuzz[@]}" build -O "${sanitizer[@]}"
for t in "${targets[@]}"; do
  scratch=$(mktemp -d)
  mkdir -p "artifacts/$t"
  echo "-- $t: ${seconds} s"
  "${fuzz[@]}" run -O "${sanitizer[@]}" "$t" "$scratch" "corpus/$t" -- \
    -max_total_time="$seconds" -max_len=4096 -rss_limit_mb=2048 -timeout=30 \
    -artifact_prefix="artifacts/$t/" 2>&1 | grep -E '^Done [0-9]+ runs|^==.*ERROR|panicked|SUMMARY' || true
  rm -rf "$scratch"
  # Slow units are kept for a look but fail nothing; crashes, timeouts
  # and out-of-memory inputs do.
  if ls "artifacts/$t" | grep -qE '^(crash|timeout|oom|leak)-'; then
    echo "fuzz target $t found a failing input: fuzz/artifacts/$t/" >&2
    exit 1
  fi
done
