#!/bin/sh
# The memory under load and faults: parallel hooks of one session lose no
# row; a locked, read-only or corrupt database never blocks the agent nor
# changes its decision, and the hook says on stderr what it skipped; a
# database made by the original reflexion tool is upgraded in place.
. "$SRCDIR/tests/lib.sh"
: "${SQLRUN:?SQLRUN must name tests/sqlrun}"

cd "$TMPROOT" || exit 99
export REFLEXION_HOME=$TMPROOT/home
DB=$REFLEXION_HOME/data/reflexion.db
cat >r.yaml <<'YAML'
version: 1
rules:
  - id: rec
    on: [PostToolUse, PostToolUseFailure]
    action: record
  - id: guide
    on: PreToolUse
    tools: [Edit]
    when: {kb: file_errors}
    action: context
    message: '{{#kb}}past: {{kb.error}}{{/kb}}'
  - id: no-force-push
    on: PreToolUse
    tools: [Bash]
    when: {command: 'push --force'}
    action: deny
    message: no force pushes
YAML
sql() { "$SQLRUN" "$DB" "$1"; }
bash_post() {
	printf '{"session_id":"%s","hook_event_name":"PostToolUse","cwd":"/w","tool_name":"Bash","tool_input":{"command":"%s"},"tool_response":{"stdout":"ok","stderr":""}}' "$1" "$2"
}
read_post() {
	printf '{"session_id":"%s","hook_event_name":"PostToolUse","cwd":"/w","tool_name":"Read","tool_input":{"file_path":"/w/a.txt"},"tool_response":{"file":{"content":"x"}}}' "$1"
}
pre_edit='{"session_id":"e","hook_event_name":"PreToolUse","cwd":"/w","tool_name":"Edit","tool_input":{"file_path":"/w/src/index.ts","old_string":"a","new_string":"b"}}'
pre_push='{"session_id":"e","hook_event_name":"PreToolUse","cwd":"/w","tool_name":"Bash","tool_input":{"command":"git push --force"}}'

# ---- twenty hooks of one session at once ---------------------------------
# A generous budget: this is about losing rows, not about waiting.
for round in 1 2 3; do
	rm -rf "$REFLEXION_HOME"
	i=0
	while [ $i -lt 20 ]; do
		i=$((i + 1))
		bash_post par "cmd $i" | REFLEXION_DB_BUDGET_MS=60000 "$RR" hook \
		    --rules r.yaml >out.$i 2>err.$i &
	done
	wait
	n=$(sql "SELECT count(*) FROM events WHERE session_id = 'par'")
	if [ "$n" = 20 ] && ! cat err.* | grep -q .; then
		ok "round $round: 20 parallel hooks on a new database, 20 rows"
	else
		not_ok "round $round: 20 parallel hooks, $n rows"
		cat err.* | sort | uniq -c | diag
	fi
	i=0
	while [ $i -lt 20 ]; do
		i=$((i + 1))
		read_post rd | REFLEXION_DB_BUDGET_MS=60000 "$RR" hook \
		    --rules r.yaml 2>err.$i &
	done
	wait
	got=$(sql "SELECT count(*), json_extract(data, '\$.count') FROM events WHERE session_id = 'rd'")
	if [ "$got" = "1|20" ]; then
		ok "round $round: 20 parallel Reads of one file, one row counting 20"
	else
		not_ok "round $round: 20 parallel Reads: $got"
		cat err.* | diag
	fi
	rm -f out.* err.*
done

# ---- a lock held by another process ---------------------------------------
"$RR" kb import - >/dev/null <<'JSONL'
{"error":"TS2322 in index.ts","resolution":"use a number","last_used":"2026-01-01"}
JSONL
"$SQLRUN" --hold write "$DB" 30 held >/dev/null 2>&1 &
holder=$!
i=0
while [ ! -f held ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
# Written directly (the journal off, as when it is full or the database
# is open already); journal-test.sh covers the journal under a lock.
bash_post lk 'npm test' | REFLEXION_NO_JOURNAL=1 REFLEXION_DB_BUDGET_MS=300 \
    "$RR" hook --rules r.yaml >out 2>err
status=$?
if kill -0 $holder 2>/dev/null; then
	ok "write lock: the hook returned while the lock was still held"
else
	not_ok "write lock: the hook waited for the lock"
fi
if [ $status = 0 ] && [ ! -s out ] && grep -q 'locked by another process' err &&
    grep -q 'not recorded' err; then
	ok "write lock: exit 0, recording skipped and said so"
else
	not_ok "write lock: status $status"; diag <err
fi
printf '%s' "$pre_edit" | REFLEXION_DB_BUDGET_MS=300 "$RR" hook --rules r.yaml >out 2>err
if grep -q 'past: TS2322 in index.ts' out && [ ! -s err ]; then
	ok "write lock (WAL): lookups still answer"
else
	not_ok "write lock: lookups"; diag <out; diag <err
fi
kill $holder 2>/dev/null
wait $holder 2>/dev/null
rm -f held

"$SQLRUN" --hold exclusive "$DB" 30 held >/dev/null 2>&1 &
holder=$!
i=0
while [ ! -f held ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
printf '%s' "$pre_edit" | REFLEXION_DB_BUDGET_MS=300 "$RR" hook --rules r.yaml >out 2>err
status=$?
alive=no
kill -0 $holder 2>/dev/null && alive=yes
if [ $status = 0 ] && [ ! -s out ] && grep -q 'locked' err &&
    grep -q 'kb conditions do not hold' err && [ $alive = yes ]; then
	ok "exclusive lock: the lookup is skipped within the budget, exit 0"
else
	not_ok "exclusive lock: status $status, holder alive: $alive"
	diag <out; diag <err
fi
printf '%s' "$pre_push" | REFLEXION_DB_BUDGET_MS=300 "$RR" hook --rules r.yaml >out 2>err
if grep -q '"permissionDecision":"deny"' out; then
	ok "exclusive lock: a rule without kb still decides"
else
	not_ok "exclusive lock: the deny is lost"; diag <err
fi
kill $holder 2>/dev/null
wait $holder 2>/dev/null
rm -f held

# ---- read-only databases ---------------------------------------------------
bash_post ro 'ls' | REFLEXION_DB_READONLY=1 "$RR" hook --rules r.yaml >out 2>err
if [ ! -s out ] && grep -q 'read-only.*not recorded' err &&
    [ "$(sql "SELECT count(*) FROM events WHERE session_id = 'ro'")" = 0 ]; then
	ok "REFLEXION_DB_READONLY: nothing written, said so"
else
	not_ok "REFLEXION_DB_READONLY"; diag <err
fi
printf '%s' "$pre_edit" | REFLEXION_DB_READONLY=1 "$RR" hook --rules r.yaml >out 2>err
if grep -q 'past: TS2322' out; then ok "a read-only database still answers lookups"
else not_ok "read-only lookups"; diag <err; fi

# The file itself read-only: chmod for users, chattr +i for root.
protect=""
if [ "$(id -u)" != 0 ]; then
	chmod a-w "$DB" "$REFLEXION_HOME/data" && protect=chmod
elif command -v chattr >/dev/null 2>&1 && chattr +i "$DB" 2>/dev/null; then
	protect=chattr
fi
if [ -n "$protect" ]; then
	bash_post ro2 'ls' | REFLEXION_NO_JOURNAL=1 "$RR" hook --rules r.yaml >out 2>err
	status=$?
	if [ $status = 0 ] && [ ! -s out ] && grep -q 'not recorded' err; then
		ok "a read-only file ($protect): exit 0, recording skipped and said so"
	else
		not_ok "a read-only file ($protect): status $status"; diag <err
	fi
	printf '%s' "$pre_push" | "$RR" hook --rules r.yaml >out 2>err
	if grep -q '"permissionDecision":"deny"' out; then
		ok "a read-only file: the decision is still made"
	else
		not_ok "a read-only file: the decision"; diag <err
	fi
	if [ $protect = chattr ]; then chattr -i "$DB"
	else chmod u+w "$DB" "$REFLEXION_HOME/data"; fi
else
	skip "cannot make the database file read-only here"
	skip "cannot make the database file read-only here"
fi

# ---- corrupt files in the recorder ------------------------------------------
rm -rf "$REFLEXION_HOME"
mkdir -p "$REFLEXION_HOME/data"
head -c 65536 /dev/urandom >"$DB"
# Written directly: journal-test.sh has the journal folded into a corrupt file.
bash_post cr 'make' | REFLEXION_NO_JOURNAL=1 "$RR" hook --rules r.yaml >out 2>err
status=$?
if [ $status = 0 ] && grep -q 'is corrupt.*set aside' err &&
    [ "$(sql "SELECT count(*) FROM events WHERE session_id = 'cr'")" = 1 ]; then
	ok "random bytes: set aside, reported, the call recorded in a new one"
else
	not_ok "random bytes: status $status"; diag <err
fi
ls "$REFLEXION_HOME/data" | grep -q 'reflexion.db.corrupt-' &&
    ok "the corrupt file is kept for inspection" ||
    not_ok "the corrupt file is kept for inspection"
: >"$DB.corrupt-none"
printf 'SQLite format 3\000' >"$DB"
head -c 5000 /dev/zero >>"$DB"
bash_post cr2 'make' | "$RR" hook --rules r.yaml >out 2>err
status=$?
if [ $status = 0 ] && [ ! -s out ]; then
	ok "a header and zeros: exit 0 ($(head -c 60 err))"
else
	not_ok "a header and zeros: status $status"; diag <err
fi

# ---- a database of the original tool -------------------------------------------
rm -rf "$REFLEXION_HOME"
mkdir -p "$REFLEXION_HOME/data"
sql "CREATE TABLE events (id INTEGER PRIMARY KEY AUTOINCREMENT, v INTEGER DEFAULT 1,
    type TEXT NOT NULL, ts TEXT NOT NULL, session_id TEXT NOT NULL, project TEXT,
    project_path TEXT, data JSON NOT NULL);
  CREATE TABLE error_kb (id INTEGER PRIMARY KEY AUTOINCREMENT, ts TEXT NOT NULL,
    error_normalized TEXT NOT NULL, error_raw TEXT, resolution TEXT, resolved_by TEXT,
    tool_sequence TEXT, use_count INTEGER DEFAULT 0, last_used TEXT);
  CREATE UNIQUE INDEX uq ON error_kb(error_normalized);
  CREATE TRIGGER insert_only BEFORE UPDATE ON events BEGIN
    SELECT RAISE(ABORT, 'events table is INSERT-only'); END;
  INSERT INTO events (type, ts, session_id, data) VALUES
    ('tool_error', '2026-01-01T00:00:00.000Z', 'old', '{\"tool\":\"Bash\",\"error\":\"E1\"}');
  INSERT INTO error_kb (ts, error_normalized, resolution, use_count, last_used) VALUES
    ('2026-01-01T00:00:00.000Z', 'Cannot compile index.ts', '{\"resolvedBy\":\"Edit\"}', 3,
     '2026-01-01T00:00:00.000Z');"
printf '%s' "$pre_edit" | "$RR" hook --rules r.yaml >out 2>err
if grep -q 'past: Cannot compile index.ts' out && grep -q 'upgraded to schema 3' err; then
	ok "the original tool's database: upgraded, its KB answers"
else
	not_ok "the original tool's database"; diag <out; diag <err
fi
read_post orig | "$RR" hook --rules r.yaml 2>err
read_post orig | "$RR" hook --rules r.yaml 2>>err
got=$(sql "SELECT count(*), json_extract(data, '\$.count') FROM events WHERE session_id = 'orig'")
if [ "$got" = "1|2" ] && [ ! -s err ]; then
	ok "recording into it never updates events (its trigger forbids it)"
else
	not_ok "recording into the original database: $got events"; diag <err
fi
# ---- a damaged search index -------------------------------------------------
# The FTS index is derived data: damaged, it is dropped and built again
# from error_kb, whose rows are never lost, and the answer is the same.
# 1,000 rows, the one about index.ts oldest, so the lookup needs the index.
rm -rf "$REFLEXION_HOME"
awk 'BEGIN { for (i = 0; i < 1000; i++)
	printf "{\"error\":\"Error %d in module%d.ts\",\"resolution\":{\"resolvedBy\":\"Edit\"},\"last_used\":\"2026-02-%02dT00:00:00.000Z\"}\n", i, i, 2 + i % 20
	print "{\"error\":\"Cannot compile index.ts\",\"resolution\":{\"resolvedBy\":\"Edit\"},\"last_used\":\"2026-01-01T00:00:00.000Z\"}" }' >kb1000.jsonl
"$RR" kb import kb1000.jsonl >/dev/null 2>&1
cp "$DB" good.db
restore() { rm -f "$DB" "$DB-wal" "$DB-shm"; cp good.db "$DB"; }
for damage in "UPDATE error_kb_fts_data SET block = x'00ff00ff00ff' WHERE id > 10" \
    "DELETE FROM error_kb_fts_config" "DELETE FROM error_kb_fts_data" \
    "DROP TABLE error_kb_fts_idx"; do
	restore
	sql "$damage"
	printf '%s' "$pre_edit" | "$RR" hook --rules r.yaml >out 2>err
	status=$?
	printf '%s' "$pre_edit" | "$RR" hook --rules r.yaml >out2 2>err2
	if [ $status = 0 ] && grep -q 'past: Cannot compile index.ts' out &&
	    grep -q "search index of '.*' was damaged (.*); built again from its rows" err &&
	    [ "$(sql 'SELECT count(*) FROM error_kb')" = 1001 ] &&
	    cmp -s out out2 && [ ! -s err2 ]; then
		ok "$damage: same answer, index rebuilt, said once, no row lost"
	else
		not_ok "$damage (status $status)"; diag <out; diag <err; diag <err2
	fi
done

# Read-only, the damage cannot be repaired: the lookup scans instead.
restore
sql 'DELETE FROM error_kb_fts_config'
printf '%s' "$pre_edit" | REFLEXION_DB_READONLY=1 "$RR" hook --rules r.yaml >out 2>err
if grep -q 'past: Cannot compile index.ts' out &&
    grep -q 'is damaged (.*); lookups scan until it is built again: .*read-only' err; then
	ok "a damaged index in a read-only database: the scan answers, said so"
else
	not_ok "a damaged index in a read-only database"; diag <out; diag <err
fi

# Twenty hooks meet the same damage at once: every one answers, the index
# is rebuilt (by whichever gets the lock first, the others see it done).
restore
sql 'DELETE FROM error_kb_fts_config'
i=0
while [ $i -lt 20 ]; do
	i=$((i + 1))
	printf '%s' "$pre_edit" | REFLEXION_DB_BUDGET_MS=60000 "$RR" hook \
	    --rules r.yaml >out.$i 2>err.$i &
done
wait
good=$(grep -l 'past: Cannot compile index.ts' out.* | wc -l)
printf '%s' "$pre_edit" | "$RR" hook --rules r.yaml >out 2>err
if [ "$good" -eq 20 ] && ! cat err.* | grep -v 'was damaged.*built again' | grep -q . &&
    [ "$(sql 'SELECT count(*) FROM error_kb')" = 1001 ] && [ ! -s err ] &&
    grep -q 'past: Cannot compile index.ts' out; then
	ok "20 parallel hooks on a damaged index: 20 answers, one index"
else
	not_ok "20 parallel hooks on a damaged index: $good answers"
	cat err.* | sort | uniq -c | diag
fi
rm -f out.* err.*

# Writers: error_kb's triggers fail on a damaged index; the write is
# repaired and done, not lost.
restore
sql 'DELETE FROM error_kb_fts_config'
printf '{"session_id":"w","hook_event_name":"PostToolUseFailure","cwd":"/w","tool_name":"Bash","tool_input":{"command":"make"},"error":"make: *** No rule to make target all"}' |
    REFLEXION_NO_JOURNAL=1 "$RR" hook --rules r.yaml 2>err
bash_post w make | REFLEXION_NO_JOURNAL=1 "$RR" hook --rules r.yaml 2>>err
if [ "$(sql "SELECT count(*) FROM error_kb WHERE error_normalized LIKE '%No rule to make%'")" = 1 ] &&
    grep -q 'was damaged.*built again' err; then
	ok "recording a resolution through a damaged index: repaired, written"
else
	not_ok "recording a resolution through a damaged index"; diag <err
fi
# Through the journal: the fold (sqlrun's, as any reader's) meets the
# damage, repairs the index and folds.
restore
sql 'DELETE FROM error_kb_fts_config'
printf '{"session_id":"wj","hook_event_name":"PostToolUseFailure","cwd":"/w","tool_name":"Bash","tool_input":{"command":"make"},"error":"make: *** No rule to make target wj"}' |
    "$RR" hook --rules r.yaml 2>err
bash_post wj make | "$RR" hook --rules r.yaml 2>>err
if [ "$(sql "SELECT count(*) FROM error_kb WHERE error_normalized LIKE '%No rule to make target wj%'" 2>>err)" = 1 ] &&
    grep -q 'was damaged.*built again' err; then
	ok "folding a resolution through a damaged index: repaired, written"
else
	not_ok "folding a resolution through a damaged index"; diag <err
fi
restore
sql 'DELETE FROM error_kb_fts_config'
"$RR" kb add 'Segfault in parser.c' 'fix the bounds' >out 2>err
if grep -q '^added: Segfault in parser.c' out && grep -q 'was damaged' err &&
    "$RR" kb search parser.c >/dev/null 2>&1; then
	ok "kb add through a damaged index: repaired, added, found"
else
	not_ok "kb add through a damaged index"; diag <out; diag <err
fi
restore
sql 'DELETE FROM error_kb_fts_config'
printf '{"error":"Timeout in fetch.js","resolution":"retry"}\nnot json\n' |
    "$RR" kb import >out 2>err
status=$?
if [ $status = 1 ] && [ "$(cat out)" = "1 added, 0 updated, 0 unchanged, 1 line with errors" ] &&
    [ "$(grep -c 'not a JSON object' err)" = 1 ] && grep -q 'was damaged' err; then
	ok "kb import through a damaged index: repaired, imported once, errors once"
else
	not_ok "kb import through a damaged index (status $status)"; diag <out; diag <err
fi
restore
sql 'DELETE FROM error_kb_fts_data'
if "$RR" kb reindex >out 2>err && [ "$(cat out)" = "search index built again from 1001 rows" ] &&
    [ ! -s err ] && "$RR" kb search index.ts 2>err | grep -q 'Cannot compile index.ts' &&
    [ ! -s err ]; then
	ok "kb reindex repairs the index by hand"
else
	not_ok "kb reindex"; diag <out; diag <err
fi

# An import of many bad lines names the first 20 and counts the rest.
awk 'BEGIN { for (i = 0; i < 25; i++) print "bad " i }' | "$RR" kb import >out 2>err
status=$?
if [ $status = 1 ] && [ "$(grep -c '^-:[0-9]*: not a JSON object$' err)" = 20 ] &&
    grep -q '^-:20: not a JSON object$' err && [ "$(tail -n 1 err)" = "-: 5 more lines with errors" ] &&
    [ "$(cat out)" = "0 added, 0 updated, 0 unchanged, 25 lines with errors" ]; then
	ok "an import of 25 bad lines: 20 named, 5 counted"
else
	not_ok "an import of 25 bad lines (status $status)"; diag <out; diag <err
fi

# ---- a query that would outlast the budget is interrupted ---------------
# A two-letter file name cannot use the trigram index: the lookup scans.
# 20,000 rows, the one naming "go" oldest: with a 1 ms budget the scan is
# cut off (the hook answers without it, and says so); with the default
# one it finds the row.
rm -rf "$REFLEXION_HOME"
awk 'BEGIN { for (i = 0; i < 20000; i++)
	printf "{\"error\":\"Error %d in module%d.ts\",\"resolution\":{\"resolvedBy\":\"Edit\"},\"last_used\":\"2026-02-%02dT00:00:00.000Z\"}\n", i, i, 2 + i % 20
	print "{\"error\":\"cannot build go\",\"resolution\":{\"resolvedBy\":\"Bash\"},\"last_used\":\"2026-01-01T00:00:00.000Z\"}" }' |
    "$RR" kb import - >/dev/null 2>&1
pre_go='{"session_id":"g","hook_event_name":"PreToolUse","cwd":"/w","tool_name":"Edit","tool_input":{"file_path":"/w/go","old_string":"a","new_string":"b"}}'
printf '%s' "$pre_go" | REFLEXION_DB_BUDGET_MS=1 "$RR" hook --rules r.yaml >out 2>err
status=$?
if [ $status = 0 ] && [ ! -s out ] && grep -q 'took longer than the budget of 1 ms' err; then
	ok "a scan past the budget: interrupted, no decision lost, said so"
else
	not_ok "a scan past the budget (status $status)"; diag <out; diag <err
fi
printf '%s' "$pre_go" | "$RR" hook --rules r.yaml >out 2>err
if grep -q 'past: cannot build go' out && [ ! -s err ]; then
	ok "the same scan within the budget finds the row"
else
	not_ok "the same scan within the budget"; diag <out; diag <err
fi
done_testing
