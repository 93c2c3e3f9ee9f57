#!/bin/sh
# Lint golden tests: `reflexion-rules lint NAME.yaml`, run in tests/lint,
# must print exactly NAME.err (carets included) and exit 1 when it holds
# an error, 0 otherwise.  UPDATE_GOLDEN=1 rewrites the .err files.  Then
# the shipped packs must lint without an error or a warning.
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

# The shipped packs and the rule tests hold no rule that can never fire:
# not an error, not a warning either.
for f in "$SRCDIR"/rules/*.yaml "$SRCDIR"/tests/rules/*.yaml; do
	"$RR" lint "$f" >"$TMPROOT/out" 2>&1
	status=$?
	if [ $status = 0 ] && grep -q '^ok: ' "$TMPROOT/out" &&
	    ! grep -q 'warning' "$TMPROOT/out"; then
		ok "lint ${f#"$SRCDIR"/}: no error, no warning"
	else
		not_ok "lint ${f#"$SRCDIR"/}: no error, no warning"
		diag <"$TMPROOT/out"
	fi
done
done_testing
