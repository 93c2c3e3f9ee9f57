#!/bin/sh
# The tests: blocks of the shipped packs, of tests/rules/ and of the agent
# tests' rule file (tests/agents/), one TAP point per rule test, through
# `reflexion-rules test --tap`; known gaps are TODO points (a closed gap
# shows up as an unexpected pass).
. "$SRCDIR/tests/lib.sh"

for dir in "$SRCDIR/rules" "$SRCDIR/tests/rules" "$SRCDIR/tests/agents"; do
	"$RR" test --tap "$dir" >"$TMPROOT/out" 2>"$TMPROOT/err"
	status=$?
	while IFS= read -r line; do
		case $line in
		"ok "*"# TODO"*) line=${line% # TODO*}; todo ok "${line#ok * - }" ;;
		"not ok "*"# TODO"*) line=${line% # TODO*}
			todo "not ok" "${line#not ok * - }" ;;
		"ok "*) ok "${line#ok * - }" ;;
		"not ok "*) not_ok "${line#not ok * - }" ;;
		esac
	done <"$TMPROOT/out"
	if ! grep -q '^1\.\.' "$TMPROOT/out"; then
		not_ok "reflexion-rules test --tap $dir printed a plan"
		diag <"$TMPROOT/out"
	fi
	# Failures: "not ok" lines that are not TODO, and closed known gaps.
	grep -E '^not ok|^ok .*# TODO' "$TMPROOT/out" |
	    grep -v '^not ok .*# TODO' >"$TMPROOT/fails"
	case $status in
	0) [ -s "$TMPROOT/fails" ] && not_ok "exit 0 despite failures" ;;
	1) [ -s "$TMPROOT/fails" ] || not_ok "exit 1 without a failure" ;;
	*) not_ok "reflexion-rules test $dir exited $status" ;;
	esac
	[ -s "$TMPROOT/err" ] && diag <"$TMPROOT/err"
done
done_testing
