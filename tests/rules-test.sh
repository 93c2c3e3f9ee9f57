#!/bin/sh
# The tests: blocks of the shipped packs and of tests/rules/, one TAP point
# per rule test, through `reflexion-rules test --tap`.
. "$SRCDIR/tests/lib.sh"

for dir in "$SRCDIR/rules" "$SRCDIR/tests/rules"; do
	"$RR" test --tap "$dir" >"$TMPROOT/out" 2>"$TMPROOT/err"
	status=$?
	while IFS= read -r line; do
		case $line in
		"ok "*) ok "${line#ok * - }" ;;
		"not ok "*) not_ok "${line#not ok * - }" ;;
		esac
	done <"$TMPROOT/out"
	if ! grep -q '^1\.\.' "$TMPROOT/out"; then
		not_ok "reflexion-rules test --tap $dir printed a plan"
		diag <"$TMPROOT/out"
	fi
	case $status in
	0) grep -q '^not ok' "$TMPROOT/out" && not_ok "exit 0 despite failures" ;;
	1) grep -q '^not ok' "$TMPROOT/out" || not_ok "exit 1 without a failure" ;;
	*) not_ok "reflexion-rules test $dir exited $status" ;;
	esac
	[ -s "$TMPROOT/err" ] && diag <"$TMPROOT/err"
done
done_testing
