#!/bin/sh
# The error markers beside the database (reflexion-rules(1), FILES:
# reflexion.db.errors): a Bash PreToolUse of pre-tool-guide's
# session-error-kb in a session without errors never opens SQLite; a
# failure journaled and not folded yet is found by the next PreToolUse; a
# database from before the markers (or written around the recorder) still
# gives the right answer; parallel hooks lose no marker.
. "$SRCDIR/tests/lib.sh"
: "${SQLRUN:?SQLRUN must name tests/sqlrun}"

cd "$TMPROOT" || exit 99
export REFLEXION_HOME=$TMPROOT/home
export REFLEXION_PACKS_DIR=$SRCDIR/rules
unset REFLEXION_NO_JOURNAL REFLEXION_DB_READONLY
DB=$REFLEXION_HOME/data/reflexion.db
J=$DB.pending
S=$DB.errors
mkdir -p home
printf 'packs: [pre-tool-guide, observe]\n' >home/config.yaml

fail() {
	printf '{"session_id":"%s","hook_event_name":"PostToolUseFailure","cwd":"/w","tool_name":"Bash","tool_input":{"command":"make x"},"error":"make: *** No rule to make target x"}' "$1"
}
post() {
	printf '{"session_id":"%s","hook_event_name":"PostToolUse","cwd":"/w","tool_name":"Bash","tool_input":{"command":"make x"},"tool_response":{"stdout":"ok","stderr":""}}' "$1"
}
pre() {
	printf '{"session_id":"%s","hook_event_name":"PreToolUse","cwd":"/w","tool_name":"Bash","tool_input":{"command":"make x"}}' "$1"
}
stamped() { ls -a "$S" 2>/dev/null | grep -q '^\.complete-'; }
CONTEXT='Bash 에러 발생 이력: make: \*\*\* No rule to make target x'

# ---- the knowledge: an error of session s0 and its fix --------------------
fail s0 | "$RR" hook 2>err
post s0 | "$RR" hook 2>>err
"$RR" kb list >out 2>>err
if grep -q 'No rule to make target x' out && [ ! -s err ] && stamped; then
	ok "the fix is knowledge; the first open made the markers' stamp"
else
	not_ok "the knowledge and the stamp"; diag <out; diag <err; ls -la "$S" | diag
fi

# ---- (a) no error in the session: the database is not opened ---------------
# The file is overwritten in place with garbage (same inode, so the stamp
# still holds): a hook that opened it would say it is corrupt and set it
# aside.  With strace, the opens are counted as well.
# The WAL is emptied first: pages there would hide the garbage.
"$SQLRUN" --raw "$DB" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
cp "$DB" db.saved
printf 'not a database%.0s' 1 2 3 4 5 6 7 8 >db.garbage
cat db.garbage >"$DB"
pre s1 | "$RR" hook >out 2>err
if [ $? = 0 ] && [ ! -s out ] && [ ! -s err ] && cmp -s db.garbage "$DB"; then
	ok "a session without errors: no answer, the database not opened"
else
	not_ok "a session without errors"; diag <out; diag <err
fi
cat db.saved >"$DB"
if command -v strace >/dev/null 2>&1 &&
    strace -f -o trace -e trace=openat true 2>/dev/null; then
	pre s1 | strace -f -o trace -e trace=openat "$RR" hook >out 2>err
	if [ ! -s out ] && ! grep -q 'reflexion\.db"' trace &&
	    ! grep -q 'reflexion\.db-' trace; then
		ok "strace: no open of the database, its WAL or its -shm"
	else
		not_ok "strace shows the database opened"; grep reflexion trace | diag
	fi
else
	skip "strace is not installed (or not allowed here)"
fi

# ---- (b) a failure journaled, not folded: found at once --------------------
fail s1 | "$RR" hook 2>err
rows=$("$SQLRUN" --raw "$DB" "SELECT count(*) FROM events WHERE session_id = 's1'")
if [ -s "$J" ] && [ "$rows" = 0 ] && [ -f "$S/s1.Bash" ] && [ ! -s err ]; then
	ok "the failure is in the journal only, its marker beside"
else
	not_ok "the journaled failure ($rows rows)"; diag <err; ls -la "$S" | diag
fi
pre s1 | "$RR" hook >out 2>err
if grep -q "$CONTEXT" out && [ ! -s err ]; then
	ok "the next PreToolUse of the session gives the KB context"
else
	not_ok "the context after a journaled failure"; diag <out; diag <err
fi
pre s9 | "$RR" hook >out 2>err
check "another session still has none" [ ! -s out ]

# ---- REFLEXION_NO_JOURNAL: the direct write notes it too ------------------
fail s2 | REFLEXION_NO_JOURNAL=1 "$RR" hook 2>err
pre s2 | "$RR" hook >out 2>>err
if [ -f "$S/s2.Bash" ] && grep -q "$CONTEXT" out && [ ! -s err ]; then
	ok "REFLEXION_NO_JOURNAL: marked, and found"
else
	not_ok "the direct write"; diag <out; diag <err
fi

# ---- (c) a database from before the markers ------------------------------
rm -rf "$S"
"$SQLRUN" --raw "$DB" "INSERT INTO events (ts, session_id, type, data) VALUES ('2026-01-01T00:00:00.000Z', 's3', 'tool_error', '{\"tool\":\"Bash\",\"error\":\"make: *** No rule to make target x\"}')"
pre s3 | "$RR" hook >out 2>err
if grep -q "$CONTEXT" out && [ ! -s err ]; then
	ok "no store: the database answers (a row written around the recorder)"
else
	not_ok "the fallback without a store"; diag <out; diag <err
fi
if stamped && [ -f "$S/s3.Bash" ] && [ -f "$S/s1.Bash" ] &&
    [ ! -e "$S/s9.Bash" ]; then
	ok "that open made the store again, from the rows"
else
	not_ok "the store made from the rows"; ls -la "$S" | diag
fi
pre s9 | "$RR" hook >out 2>err
check "and a session without errors is answered by it" [ ! -s out ]

# ---- hostile: a symlink planted as a marker -------------------------------
ln -s /nonexistent "$S/s4.Bash"
fail s4 | "$RR" hook 2>err
if grep -q 'not a regular file' err && ! stamped && [ -L "$S/s4.Bash" ]; then
	ok "a planted symlink: the note fails, the store is distrusted"
else
	not_ok "a planted symlink"; diag <err; ls -la "$S" | diag
fi
pre s4 | "$RR" hook >out 2>err
check "and the failure is found in the database all the same" \
    grep -q "$CONTEXT" out
rm -f "$S/s4.Bash" "$S/.broken"

# ---- (d) parallel hooks ----------------------------------------------------
"$RR" kb list >/dev/null 2>&1
i=0
while [ $i -lt 8 ]; do
	(
		pre "p$i" | "$RR" hook >"pre$i.a" 2>"err$i"
		fail "p$i" | "$RR" hook 2>>"err$i"
		pre "p$i" | "$RR" hook >"pre$i.b" 2>>"err$i"
		post "q$i" | "$RR" hook 2>>"err$i"
	) &
	i=$((i + 1))
done
"$RR" kb list >/dev/null 2>>err.kb &
wait
bad=
i=0
while [ $i -lt 8 ]; do
	[ -s "pre$i.a" ] && bad="$bad p$i:before"
	grep -q "$CONTEXT" "pre$i.b" || bad="$bad p$i:after"
	[ -s "err$i" ] && bad="$bad p$i:stderr"
	i=$((i + 1))
done
if [ -z "$bad" ]; then
	ok "8 parallel sessions: none before their failure, each after it"
else
	not_ok "parallel sessions:$bad"; cat err* | diag
fi
"$RR" kb list >/dev/null 2>&1
n=$(ls "$S" | grep -c '^p[0-7]\.Bash$')
check "every marker is there ($n)" [ "$n" = 8 ]
check "and the stamp" stamped

done_testing
