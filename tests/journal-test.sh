#!/bin/sh
# The journal of recorded calls (reflexion-rules(1), MEMORY): a hook that
# only records appends to reflexion.db.pending and never opens SQLite;
# the commands that read the memory fold it first and see every call; a
# lock held on the database or a corrupt file delays the fold, never the
# hook, and loses no call.
. "$SRCDIR/tests/lib.sh"
: "${SQLRUN:?SQLRUN must name tests/sqlrun}"

cd "$TMPROOT" || exit 99
export REFLEXION_HOME=$TMPROOT/home
unset REFLEXION_NO_JOURNAL REFLEXION_DB_READONLY
DB=$REFLEXION_HOME/data/reflexion.db
J=$DB.pending
cat >r.yaml <<'YAML'
version: 1
rules:
  - id: rec
    on: [PostToolUse, PostToolUseFailure]
    action: record
  - id: guide
    on: PostToolUse
    tools: [Edit]
    when: {kb: file_errors}
    action: context
    message: '{{#kb}}past: {{kb.error}}{{/kb}}'
YAML
bash_post() {
	printf '{"session_id":"%s","hook_event_name":"PostToolUse","cwd":"/w","tool_name":"Bash","tool_input":{"command":"%s"},"tool_response":{"stdout":"ok","stderr":""}}' "$1" "$2"
}
bash_fail() {
	printf '{"session_id":"%s","hook_event_name":"PostToolUseFailure","cwd":"/w","tool_name":"Bash","tool_input":{"command":"%s"},"error":"make: *** No rule to make target %s"}' "$1" "$2" "$2"
}
mode() { stat -c %a "$1" 2>/dev/null || stat -f %Lp "$1"; }

# ---- a hook appends, a reader folds -----------------------------------------
bash_post s1 'make lint' | "$RR" hook --rules r.yaml >out 2>err
if [ $? = 0 ] && [ ! -s out ] && [ ! -s err ] && [ ! -e "$DB" ] &&
    [ -s "$J" ] && [ "$(mode "$J")" = 600 ]; then
	ok "a recorded call: no database opened, one journal line (0600)"
else
	not_ok "a recorded call went to the journal"; diag <err; ls -l "$REFLEXION_HOME/data" | diag
fi
bash_fail s1 build | "$RR" hook --rules r.yaml 2>>err
bash_post s1 build | "$RR" hook --rules r.yaml 2>>err
check "three calls, three lines" [ "$(grep -c '^RRJ1 ' "$J")" = 3 ]
"$RR" memory search lint >out 2>err
if grep -q 'make lint' out && [ ! -s err ] && [ ! -s "$J" ]; then
	ok "memory search folds the journal and finds the call"
else
	not_ok "memory search after a journaled call"; diag <out; diag <err
fi
"$RR" kb search 'No rule to make target' >out 2>err
if grep -q 'No rule to make target build' out; then
	ok "the folded failure and its fix are knowledge (kb search)"
else
	not_ok "kb search after the fold"; diag <out; diag <err
fi
got=$("$SQLRUN" "$DB" "SELECT group_concat(type, ' ') FROM (SELECT type FROM events WHERE session_id = 's1' ORDER BY id)")
check "the rows in order: $got" [ "$got" = "tool_use tool_error tool_use error_resolved" ]

# statusline and kb list are readers too.
bash_post s2 'ls' | "$RR" hook --rules r.yaml 2>err
"$RR" kb list >/dev/null 2>>err
check "kb list folds as well" [ ! -s "$J" ]
check "and says nothing" [ ! -s err ]

# ---- a write lock held elsewhere ---------------------------------------------
"$SQLRUN" --hold write "$DB" 30 held >/dev/null 2>&1 &
holder=$!
i=0
while [ ! -f held ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
bash_post lk 'npm test' | REFLEXION_DB_BUDGET_MS=300 "$RR" hook --rules r.yaml >out 2>err
status=$?
alive=no
kill -0 $holder 2>/dev/null && alive=yes
if [ $status = 0 ] && [ ! -s out ] && [ ! -s err ] && [ $alive = yes ] &&
    grep -q 'npm test' "$J"; then
	ok "write lock: the hook journals at once, silently"
else
	not_ok "write lock: status $status, holder alive: $alive"; diag <err
fi
REFLEXION_DB_BUDGET_MS=300 "$RR" memory search npm >out 2>err
if grep -q 'locked' err && grep -q 'wait for a later open' err &&
    grep -q 'npm test' "$J"; then
	ok "write lock: the reader says the journal waits, and it keeps the call"
else
	not_ok "write lock: the reader"; diag <out; diag <err
fi
kill $holder 2>/dev/null
wait $holder 2>/dev/null
rm -f held
"$RR" memory search npm >out 2>err
if grep -q 'npm test' out && [ ! -s "$J" ]; then
	ok "the lock released: the next reader folds the call"
else
	not_ok "after the lock"; diag <out; diag <err
fi

# An exclusive lock: the hook's lookup fails within its budget, and the
# call it could not write goes to the journal instead of being lost.
"$SQLRUN" --hold exclusive "$DB" 30 held >/dev/null 2>&1 &
holder=$!
i=0
while [ ! -f held ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
printf '{"session_id":"ex","hook_event_name":"PostToolUse","cwd":"/w","tool_name":"Edit","tool_input":{"file_path":"/w/src/x.ts","old_string":"a","new_string":"b"},"tool_response":{}}' |
    REFLEXION_DB_BUDGET_MS=300 "$RR" hook --rules r.yaml >out 2>err
status=$?
if [ $status = 0 ] && grep -q 'locked' err && ! grep -q 'not recorded' err &&
    grep -q '/w/src/x.ts' "$J"; then
	ok "exclusive lock: the lookup gives up, the call is journaled"
else
	not_ok "exclusive lock: status $status"; diag <err
fi
kill $holder 2>/dev/null
wait $holder 2>/dev/null
rm -f held
got=$("$SQLRUN" "$DB" "SELECT count(*) FROM events WHERE session_id = 'ex'")
check "and folded once the lock is gone ($got)" [ "$got" = 1 ]

# ---- a corrupt database ------------------------------------------------------
rm -f "$DB" "$DB-wal" "$DB-shm"
head -c 65536 /dev/urandom >"$DB"
bash_post cr 'make' | "$RR" hook --rules r.yaml >out 2>err
status=$?
if [ $status = 0 ] && [ ! -s err ] && [ -s "$J" ]; then
	ok "corrupt database: the hook journals, exit 0, silent"
else
	not_ok "corrupt database: the hook (status $status)"; diag <err
fi
"$RR" memory search make >out 2>err
if grep -q 'is corrupt.*set aside' err && grep -q 'make' out &&
    ls "$REFLEXION_HOME/data" | grep -q 'reflexion.db.corrupt-' &&
    [ ! -s "$J" ]; then
	ok "corrupt database: the reader sets it aside and folds into a new one"
else
	not_ok "corrupt database and the fold"; diag <out; diag <err
fi

# ---- damaged journal lines -------------------------------------------------------
printf 'RRJ1 40 0123456789abcdef torn {"v":1' >>"$J"
bash_post dj 'after-torn' | "$RR" hook --rules r.yaml 2>err
printf 'garbage line\n' >>"$J"
"$RR" memory search after-torn >out 2>err
if grep -q 'after-torn' out && grep -q '2 damaged record(s) skipped' err &&
    [ ! -s "$J" ]; then
	ok "a torn record and garbage: skipped with a note, the call after them folded"
else
	not_ok "damaged journal lines"; diag <out; diag <err
fi

# ---- switched off ------------------------------------------------------------------
bash_post off 'whoami' | REFLEXION_NO_JOURNAL=1 "$RR" hook --rules r.yaml 2>err
if [ ! -s "$J" ] && [ "$("$SQLRUN" --raw "$DB" "SELECT count(*) FROM events WHERE session_id = 'off'")" = 1 ]; then
	ok "REFLEXION_NO_JOURNAL: written to the database directly"
else
	not_ok "REFLEXION_NO_JOURNAL"; diag <err
fi
done_testing
