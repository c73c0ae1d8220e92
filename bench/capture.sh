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
# It is also compared with `tee a | sha256sum`: the same bytes written once
# and hashed, which is what the record promises (tee hashes nothing). On a
# machine whose cores the generator and tee already keep busy, the hash
# cannot hide on a spare core, and that side shows what it costs there.
# Each side starts after a sync, so one side's writeback does not land on
# the next. Prints median wall and CPU time and peak RSS per side and the
# ratios; machines here are shared, so read the ratios, not the absolute
# times.
set -euo pipefail
size_mib=${1:-1024}
rounds=${2:-3}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/runledger-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

go build -o "$work/runledger" "$root/cmd/runledger"
# Text like a test log, not zeros: the same line repeated.
gen="yes 'ok  	github.com/example/project/internal/pkg	0.123s coverage: 81.2% of statements' | head -c $((size_mib << 20))"

measure() { # name, command: appends "wall_s rss_kib cpu_s" to $work/name
  sync
  /usr/bin/time -f '%e %M %U %S' -o "$work/t" bash -c "$2" >/dev/null
  cat "$work/t" >> "$work/res.$1"
}

# From the scratch directory, not a git work tree: the effects watch
# (measured on its own by BenchmarkEffects) is a snapshot of a few files
# here, not a `git status` of whatever tree the script was started in.
cd "$work"
# Each side starts from the same state: the files the side before it wrote
# removed and synced (measure syncs). A side following a fresh 1 GiB file
# otherwise pays for the memory that file's pages hold: 5.8 s against 1.8 s
# for the same runledger run here, timed by hand.
fresh() { rm -rf "$work/tee" "$work/store"; mkdir -p "$work/tee"; }
for i in $(seq "$rounds"); do
  fresh; measure tee "$gen | tee $work/tee/a $work/tee/b"
  fresh; measure tee1 "$gen | tee $work/tee/a"
  fresh; measure teesha "$gen | tee $work/tee/a | sha256sum"
  fresh; measure runledger "$work/runledger run --quiet --dir $work/store -- bash -c \"$gen\""
  # Sanity: every byte was counted and stored.
  got=$(grep -m1 -o '"bytes": [0-9]*' "$work"/store/*/record.json | head -1 | grep -o '[0-9]*$')
  [ "$got" = "$((size_mib << 20))" ] || { echo "runledger recorded $got bytes, want $((size_mib << 20))" >&2; exit 1; }
done

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
wall() { cut -d' ' -f1 "$work/res.$1" | median; }
cpu() { awk '{print $3 + $4}' "$work/res.$1" | median; }
rss() { cut -d' ' -f2 "$work/res.$1" | median; }
echo "capture of ${size_mib} MiB, median of $rounds rounds, $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
printf '%-16s %8s %8s %12s\n' side wall_s cpu_s peak_rss_kib
for s in tee:"tee a b" tee1:"tee a" teesha:"tee a | sha256sum" runledger:runledger; do
  printf '%-16s %8s %8s %12s\n' "${s#*:}" "$(wall "${s%%:*}")" "$(cpu "${s%%:*}")" "$(rss "${s%%:*}")"
done
ratio() { awk -v a="$(wall runledger)" -v b="$(wall "$1")" -v c="$(cpu runledger)" -v d="$(cpu "$1")" -v n="$2" \
  'BEGIN {printf "runledger/(%s): wall %.2f, cpu %.2f\n", n, a/b, c/d}'; }
ratio tee "tee a b"; ratio tee1 "tee a"; ratio teesha "tee a | sha256sum"
echo "runledger peak RSS: $(( $(rss runledger) / 1024 )) MiB"
