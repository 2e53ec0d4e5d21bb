#!/usr/bin/env bash
# Profiles a runtime in its steady state: starts COMMAND (its stdout to OUT_DIR/out.jsonl),
# waits until it has finished WARM cycles (RemoveContainer events), then samples
# every thread of that one process with `perf record -e cpu-clock -g` for SECONDS, and
# stops it. The plugins (other processes) are not sampled. Needs perf (Debian: linux-perf);
# for JIT frames give node --perf-basic-prof. Prints the data file; OUT_DIR/cycles.txt
# has the cycles finished while sampling (for CPU per call: samples / 4999 Hz / calls).
#   bench/vs-go/perf-steady.sh OUT_DIR WARM SECONDS COMMAND [ARG...]
# Commands for the bench's workloads: bench/vs-go/write-workload.ts.
set -euo pipefail
# One line per finished cycle: refrt's RemoveContainer event, nrictl sim's (-o json) state change.
END='"op":"RemoveContainer"|"state-changed","event":"RemoveContainer"'
out=$1 warm=$2 secs=$3; shift 3
mkdir -p "$out"
"$@" > "$out/out.jsonl" 2> "$out/err.txt" &
pid=$!
until [ "$(grep -cE "$END" "$out/out.jsonl" || true)" -ge "$warm" ]; do
    kill -0 "$pid" 2>/dev/null || { echo "exited before $warm cycles; see $out/err.txt" >&2; exit 1; }
    sleep 0.05
done
before=$(grep -cE "$END" "$out/out.jsonl" || true)
perf record -e cpu-clock -F 4999 -g -p "$pid" -o "$out/perf.data" -- sleep "$secs" 2> "$out/perf-record.txt" >/dev/null
after=$(grep -cE "$END" "$out/out.jsonl" || true)
echo "cycles while sampled: $((after - before))" > "$out/cycles.txt"
kill "$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
echo "$out/perf.data"
