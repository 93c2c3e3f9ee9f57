#!/bin/sh
# Lint golden tests: `reflexion-rules lint NAME.yaml`, run in tests/lint,
# must print exactly NAME.err (carets included) and exit 1 when it holds
# an error, 0 otherwise.  UPDATE_GOLDEN=1 rewrites the .err files.
. "$SRCDIR/tests/lib.sh"

cd "$SRCDIR/tests/lint" || exit 99
for y in *.yaml *.json; do
	[ -f "$y" ] || continue
	name=${y%.*}
	"$RR" lint "$y" >"$TMPROOT/out" 2>"$TMPROOT/err"
	status=$?
	if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
		cp "$TMPROOT/out" "$name.err"
		ok "$y (updated)"
		continue
	fi
	want=0
	grep -q ': error: ' "$name.err" && want=1
	if cmp -s "$name.err" "$TMPROOT/out" && [ "$status" = "$want" ] &&
	    [ ! -s "$TMPROOT/err" ]; then
		ok "lint $y"
	else
		not_ok "lint $y"
		{ echo "status $status, want $want"; diff -u "$name.err" "$TMPROOT/out";
		  cat "$TMPROOT/err"; } | diag
	fi
done
done_testing
