# Sourced by the shell tests: TAP output and a scratch directory.
# Each test script runs with RR (the program) and SRCDIR (the source tree)
# from the harness; run by hand: RR=src/reflexion-rules SRCDIR=. sh tests/x.sh
set -u
: "${RR:?RR must name the reflexion-rules program}"
: "${SRCDIR:?SRCDIR must name the source tree}"
LC_ALL=C
export LC_ALL
unset CLAUDE_PROJECT_DIR REFLEXION_HOME SKIP_DB_VERIFICATION
# Sanitizer and valgrind builds are many times slower than the real one:
# the hook's deadline must not decide the tests that are not about it.
REFLEXION_DEADLINE_MS=${REFLEXION_DEADLINE_MS:-120000}
export REFLEXION_DEADLINE_MS

tap_n=0
tap_failed=0

ok() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $1"
}

not_ok() {
	tap_n=$((tap_n + 1))
	tap_failed=$((tap_failed + 1))
	echo "not ok $tap_n - $1"
}

# todo STATUS DESCRIPTION: a TODO point ("ok" or "not ok"); the harness
# counts a failing TODO as expected and a passing one as unexpected.
todo() {
	tap_n=$((tap_n + 1))
	echo "$1 $tap_n - $2 # TODO known gap"
}

skip() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - # SKIP $1"
}

# check DESCRIPTION COMMAND...: one test point from a command's status.
check() {
	desc=$1
	shift
	if "$@"; then ok "$desc"; else not_ok "$desc"; fi
}

diag() {
	sed 's/^/# /'
}

done_testing() {
	echo "1..$tap_n"
	# Failures are in the TAP stream; the exit status only reports crashes.
	return 0
}

TMPROOT=$(mktemp -d "${TMPDIR:-/tmp}/rr-test.XXXXXX")
# Never the real home: a test's ~/.reflexion, ~/.claude, ~/.gemini ... are
# its own (tests/home-guard-test.sh checks the home the harness gives).
# The agent clients' download cache stays where the real home keeps it.
if [ -z "${REFLEXION_AGENTS_CACHE:-}" ]; then
	if [ -n "${XDG_CACHE_HOME:-}" ]; then
		REFLEXION_AGENTS_CACHE=$XDG_CACHE_HOME/reflexion-rules/agents
		export REFLEXION_AGENTS_CACHE
	elif [ -n "${HOME:-}" ]; then
		REFLEXION_AGENTS_CACHE=$HOME/.cache/reflexion-rules/agents
		export REFLEXION_AGENTS_CACHE
	fi
fi
HOME=$TMPROOT/testhome
mkdir "$HOME"
export HOME
# The system layer's rules are the machine's (/etc/reflexion-rules): none
# in the tests, unless a test makes them.
REFLEXION_SYSTEM_DIR=$TMPROOT/system
export REFLEXION_SYSTEM_DIR
cleanup() {
	if [ "${KEEP_TMP:-0}" = 1 ]; then
		echo "# kept $TMPROOT" >&2
	else
		chmod -R u+w "$TMPROOT" 2>/dev/null
		rm -rf "$TMPROOT"
	fi
}
trap cleanup EXIT
