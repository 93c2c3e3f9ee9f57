#!/bin/sh
# The benchmark (make bench): reflexion-rules hook calls against a bare C
# program that reads stdin and parses it with cJSON, run alternately in the
# same process tree so machine noise hits both.  Prints a table and writes
# bench/RESULTS.md.  Usage: run.sh BUILDDIR SRCDIR [ITERATIONS]
set -eu
B=$1
S=$2
N=${3:-40}
RR=$B/src/reflexion-rules
T=$B/bench/timer
BASE=$B/bench/baseline
GEN=$B/bench/gen
W=$(mktemp -d "${TMPDIR:-/tmp}/rr-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT
export REFLEXION_HOME=$W/home
unset CLAUDE_PROJECT_DIR

events="pre-bash user-prompt-submit post-edit pre-multiedit"
out=$W/table
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
ms() { awk -v a="$1" 'BEGIN { printf "%.2f", a / 1000 }'; }

{
echo "| rules | hook p50 ms | hook p95 ms | baseline p50 ms | p50 ratio | p95 ratio | hook RSS KB | baseline RSS KB | RSS ratio |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
} >"$out"
for n in 10 100 1000 10000; do
	"$GEN" rules "$n" >"$W/r$n.yaml"
	hp50=0 hp95=0 bp50=0 bp95=0 hrss=0 brss=0 k=0
	for e in $events; do
		"$T" "$N" "$S/tests/events/$e.json" -- "$RR" hook --rules \
		    "$W/r$n.yaml" -- "$BASE" >"$W/t"
		set -- $(sed -n 1p "$W/t") $(sed -n 2p "$W/t")
		hp50=$((hp50 + $1)) hp95=$((hp95 + $2))
		bp50=$((bp50 + $4)) bp95=$((bp95 + $5))
		[ "$3" -gt "$hrss" ] && hrss=$3
		[ "$6" -gt "$brss" ] && brss=$6
		k=$((k + 1))
	done
	hp50=$((hp50 / k)) hp95=$((hp95 / k)) bp50=$((bp50 / k)) bp95=$((bp95 / k))
	echo "| $n | $(ms $hp50) | $(ms $hp95) | $(ms $bp50) | $(ratio $hp50 $bp50) | $(ratio $hp95 $bp95) | $hrss | $brss | $(ratio $hrss $brss) |" >>"$out"
	echo "measured $n rules" >&2
done

# Compiling 1,000 rules: every call does it today (there is no cache yet),
# so it is the lint of that file.
"$T" 20 /dev/null -- "$RR" lint "$W/r1000.yaml" -- "$BASE" >"$W/t"
set -- $(sed -n 1p "$W/t") $(sed -n 2p "$W/t")
compile="| compile 1,000 rules (lint) | $(ms $1) ms p50 | $(ms $2) ms p95 | baseline $(ms $4) ms |"

"$GEN" content-rules 100 >"$W/c100.yaml"
"$GEN" write-event 10 >"$W/w10.json"
"$T" 10 "$W/w10.json" -- "$RR" hook --rules "$W/c100.yaml" -- "$BASE" >"$W/t"
set -- $(sed -n 1p "$W/t") $(sed -n 2p "$W/t")
scan="| 10 MB Write vs 100 content rules | $(ms $1) ms p50 | $(ms $2) ms p95 | baseline $(ms $4) ms (ratio $(ratio $1 $4)); RSS $3 KB vs $6 KB |"

{
echo "# Benchmark results"
echo
echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') on $(uname -srm), $(nproc) cores,"
echo "$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //' || echo 'unknown CPU'),"
echo "$(awk '/MemTotal/ { printf "%.0f GB", $2 / 1048576 }' /proc/meminfo) RAM; $("$RR" --version)."
echo "Each figure is the mean over the hook-protocol.md §8 events (PreToolUse Bash,"
echo "UserPromptSubmit, PostToolUse Edit, PreToolUse MultiEdit) of $N calls each,"
echo "alternating with the baseline (read stdin, cJSON parse, exit) in the same run."
echo
cat "$out"
echo
echo "| other | | | |"
echo "|---|---:|---:|---|"
echo "$compile"
echo "$scan"
} >"$W/RESULTS.md"
cat "$W/RESULTS.md"
cp "$W/RESULTS.md" "$S/bench/RESULTS.md" 2>/dev/null ||
    cp "$W/RESULTS.md" "$B/bench/RESULTS.md"
