#!/bin/sh
# Reads the automake harness's .trs files of the given tests and prints the
# closing line "N passed, N failed" (skips and expected failures apart).
pass=0; fail=0; skip=0
for t in "$@"; do
	trs=${t%.sh}.trs
	[ -f "$trs" ] || trs=$t.trs
	if [ ! -f "$trs" ]; then
		fail=$((fail + 1))
		echo "no result for $t" >&2
		continue
	fi
	p=$(grep -c '^:test-result: PASS' "$trs")
	x=$(grep -c '^:test-result: XFAIL' "$trs")
	f=$(grep -c -E '^:test-result: (FAIL|XPASS|ERROR)' "$trs")
	s=$(grep -c '^:test-result: SKIP' "$trs")
	pass=$((pass + p + x)); fail=$((fail + f)); skip=$((skip + s))
done
if [ "$skip" -gt 0 ]; then
	echo "$pass passed, $fail failed, $skip skipped"
else
	echo "$pass passed, $fail failed"
fi
[ "$fail" -eq 0 ]
