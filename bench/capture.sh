#!/usr/bin/env bash
# Capture throughput and memory: runledger against tee, in the same run.
#
#   bench/capture.sh [SIZE_MIB] [ROUNDS]     (default 1024 MiB, 3 rounds)
#
# Every side gets the same generator and writes it once to /dev/null.
# runledger leaves two logs, stdout.log and output.log, and hashes both;
# while one stream writes alone it writes the bytes once and output.log
# ends as a hard link. So it is compared with tee writing two files
# (the logs a reader gets) and with tee writing one (the bytes written).
# Prints median wall time and peak RSS per side and the ratios; machines
# here are shared, so read the ratios, not the absolute times.
set -euo pipefail
size_mib=${1:-1024}
rounds=${2:-3}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/runledger-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

go build -o "$work/runledger" "$root/cmd/runledger"
# Text like a test log, not zeros: the same line repeated.
gen="yes 'ok  	github.com/example/project/internal/pkg	0.123s coverage: 81.2% of statements' | head -c $((size_mib << 20))"

measure() { # name, command: appends "wall_s rss_kib" to $work/name
  /usr/bin/time -f '%e %M' -o "$work/t" bash -c "$2" >/dev/null
  cat "$work/t" >> "$work/res.$1"
}

# From the scratch directory, not a git work tree: the effects watch
# (measured on its own by BenchmarkEffects) is a snapshot of a few files
# here, not a `git status` of whatever tree the script was started in.
cd "$work"
for i in $(seq "$rounds"); do
  rm -rf "$work/tee" "$work/store"; mkdir -p "$work/tee"
  measure tee "$gen | tee $work/tee/a $work/tee/b"
  rm -rf "$work/tee"; mkdir -p "$work/tee"
  measure tee1 "$gen | tee $work/tee/a"
  measure runledger "$work/runledger run --dir $work/store -- bash -c \"$gen\""
  # Sanity: every byte was counted and stored.
  got=$(grep -m1 -o '"bytes": [0-9]*' "$work"/store/*/record.json | head -1 | grep -o '[0-9]*$')
  [ "$got" = "$((size_mib << 20))" ] || { echo "runledger recorded $got bytes, want $((size_mib << 20))" >&2; exit 1; }
done

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
tw=$(cut -d' ' -f1 "$work/res.tee" | median); tr=$(cut -d' ' -f2 "$work/res.tee" | median)
t1=$(cut -d' ' -f1 "$work/res.tee1" | median)
rw=$(cut -d' ' -f1 "$work/res.runledger" | median); rr=$(cut -d' ' -f2 "$work/res.runledger" | median)
echo "capture of ${size_mib} MiB, median of $rounds rounds, $(nproc) cores"
printf '%-10s %8s %12s\n' side wall_s peak_rss_kib
printf '%-10s %8s %12s\n' "tee a b" "$tw" "$tr" "tee a" "$t1" "" runledger "$rw" "$rr"
awk -v a="$rw" -v b="$tw" 'BEGIN {printf "wall ratio runledger/(tee a b): %.2f\n", a/b}'
awk -v a="$rw" -v b="$t1" 'BEGIN {printf "wall ratio runledger/(tee a): %.2f\n", a/b}'
echo "runledger peak RSS: $((rr / 1024)) MiB"
