#!/bin/sh
# Golden CLI tests: tests/golden/NAME.cmd is a shell snippet run in a fresh
# directory; its stdout, stderr and exit status must equal NAME.out,
# NAME.err (absent: empty) and NAME.status (absent: 0), byte for byte.
# Paths of the scratch directory and the source tree print as @TMP@ and
# @SRCDIR@.  UPDATE_GOLDEN=1 rewrites the expected files (review them!).
# GOLDEN_SKIP="NAME ..." skips those tests, each with a SKIP point: the
# valgrind run (.ci/run) skips the ones whose answer depends on a
# deadline, which a call thirty times slower may miss.
. "$SRCDIR/tests/lib.sh"

EV=$SRCDIR/tests/events
RULES=$SRCDIR/rules
FIX=$SRCDIR/tests/fixtures
export RR SRCDIR EV RULES FIX

for cmdfile in "$SRCDIR"/tests/golden/*.cmd; do
	name=$(basename "$cmdfile" .cmd)
	base=${cmdfile%.cmd}
	case " ${GOLDEN_SKIP:-} " in
	*" $name "*)
		skip "$name: skipped here (GOLDEN_SKIP)"
		continue ;;
	esac
	work=$TMPROOT/$name
	mkdir -p "$work/home"
	(
		cd "$work" || exit 99
		HOME=$work REFLEXION_HOME=$work/home
		REFLEXION_SYSTEM_DIR=$work/system
		export HOME REFLEXION_HOME REFLEXION_SYSTEM_DIR
		sh "$cmdfile" >"$work.out" 2>"$work.err"
		echo $? >"$work.status"
	) </dev/null
	for f in out err; do
		sed -e "s|$work|@TMP@|g" -e "s|$SRCDIR|@SRCDIR@|g" "$work.$f" \
		    >"$work.$f.n"
	done
	want_status=0
	[ -f "$base.status" ] && want_status=$(cat "$base.status")
	got_status=$(cat "$work.status")
	if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
		cp "$work.out.n" "$base.out"
		if [ -s "$work.err.n" ]; then cp "$work.err.n" "$base.err"
		else rm -f "$base.err"; fi
		if [ "$got_status" != 0 ]; then echo "$got_status" >"$base.status"
		else rm -f "$base.status"; fi
		ok "$name (updated)"
		continue
	fi
	[ -f "$base.err" ] || : >"$work.want_err"
	want_err=$base.err
	[ -f "$base.err" ] || want_err=$work.want_err
	if cmp -s "$base.out" "$work.out.n" && cmp -s "$want_err" "$work.err.n" &&
	    [ "$want_status" = "$got_status" ]; then
		ok "$name"
	else
		not_ok "$name"
		{
			echo "status: want $want_status, got $got_status"
			diff -u "$base.out" "$work.out.n"
			diff -u "$want_err" "$work.err.n"
		} | diag
	fi
done
done_testing
