#!/bin/sh
# The test suite never writes into the home it runs in.  make check gives
# every test HOME=tests/home (RR_TEST_HOME), emptied when the run starts,
# and runs this test after all the others (Makefile.am): whatever a test
# wrote into "its" home, ~/.reflexion/cache, ~/.claude/settings.json, the
# database, would be there now.  The shell tests make a home of their own
# (tests/lib.sh); this catches those that do not, and the unit tests.
given=${RR_TEST_HOME:-}
. "$SRCDIR/tests/lib.sh"

if [ -z "$given" ]; then
	echo "1..0 # SKIP run by make check, which sets RR_TEST_HOME"
	exit 0
fi

# The guard can see a write: a command that keeps a cache writes one into
# the home it is given, when nothing else says where.
probe=$TMPROOT/probe-home
mkdir -p "$probe"
HOME=$probe "$RR" test "$SRCDIR/rules/examples.yaml" >/dev/null 2>&1
if [ -n "$(ls -A "$probe" 2>/dev/null)" ]; then
	ok "a test left to the default home writes into it (the guard can see it)"
else
	not_ok "a test left to the default home writes into it: nothing written to $probe"
fi

if [ ! -d "$given" ]; then
	not_ok "the tests' home $given is there"
elif [ -z "$(ls -A "$given")" ]; then
	ok "no test wrote into its home ($given)"
else
	not_ok "no test wrote into its home: $given holds"
	(cd "$given" && find . -print | sed -n '2,40p') | diag
fi
done_testing
