#!/bin/sh
# Redaction end to end (seed 001 §5.3, seed 004): every secret shape of
# tests/fixtures/secrets/corpus.tsv (71 shapes, the Korean labels among
# them) goes through the hook as a tool's output, a command, a prompt and
# a saved turn, with the observe and hook-memory packs recording; then no
# secret may be in the database file, in its WAL, where SQLite keeps the
# last commits, or in the journal the tool calls are appended to until
# the next open of the database folds them (DB.pending).  The rows themselves must be there: a test that records
# nothing would pass by checking nothing.
. "$SRCDIR/tests/lib.sh"

cd "$TMPROOT" || exit 99
export REFLEXION_HOME=$TMPROOT/home
export REFLEXION_PACKS_DIR=$SRCDIR/rules
mkdir -p home proj
printf 'packs: [observe, hook-memory]\n' >home/config.yaml
# A secret known only as an environment variable's value.
export DEPLOY_SERVICE_PASS=EnvOnlySecretValue77
corpus=$SRCDIR/tests/fixtures/secrets/corpus.tsv
db=home/data/reflexion.db

# json TEXT: TEXT as the inside of a JSON string (its \n stay escapes).
json() {
	printf '%s' "$1" | sed 's/"/\\"/g'
}

# found SECRET: whether it is in the database, its WAL or the journal,
# as bytes.
found() {
	for f in "$db" "$db-wal" "$db.pending"; do
		[ -f "$f" ] && grep -a -q -F -e "$1" "$f" && return 0
	done
	return 1
}

# Each shape is looked for right after its calls, while the WAL still
# holds them (a commit that fills it copies it into the database and
# empties it), and in the database again at the end.
n=0
wal_seen=0
journal_seen=0
: >leaks
while IFS='	' read -r label text secret; do
	case $label in '#'*|'') continue ;; esac
	n=$((n + 1))
	t=$(json "$text")
	printf '{"hook_event_name":"PostToolUse","session_id":"r%d","cwd":"%s/proj","tool_name":"Bash","tool_input":{"command":"./show"},"tool_response":{"stdout":"first line\\n%s\\nlast line","stderr":""}}' \
	    "$n" "$TMPROOT" "$t" | "$RR" hook >/dev/null 2>>err
	printf '{"hook_event_name":"PostToolUse","session_id":"r%d","cwd":"%s/proj","tool_name":"Bash","tool_input":{"command":"echo \\"%s\\""},"tool_response":{"stdout":"","stderr":""}}' \
	    "$n" "$TMPROOT" "$t" | "$RR" hook >/dev/null 2>>err
	# The calls wait in the journal until the prompt's hook folds them.
	[ -s "$db.pending" ] && journal_seen=$((journal_seen + 1))
	found "$secret" && echo "$label" >>leaks
	printf '{"hook_event_name":"UserPromptSubmit","session_id":"r%d","cwd":"%s/proj","prompt":"use this: %s"}' \
	    "$n" "$TMPROOT" "$t" | "$RR" hook >/dev/null 2>>err
	printf '{"hook_event_name":"Stop","session_id":"r%d","cwd":"%s/proj","prompt":"and now %s","last_assistant_message":"Done with %s"}' \
	    "$n" "$TMPROOT" "$t" "$t" | "$RR" hook >/dev/null 2>>err
	[ -s "$db-wal" ] && wal_seen=$((wal_seen + 1))
	found "$secret" && echo "$label" >>leaks
done <"$corpus"
printf '{"hook_event_name":"PostToolUse","session_id":"env","cwd":"%s/proj","tool_name":"Bash","tool_input":{"command":"env"},"tool_response":{"stdout":"deploying with EnvOnlySecretValue77","stderr":""}}' \
    "$TMPROOT" | "$RR" hook >/dev/null 2>>err

check "71 shapes in the corpus" [ "$n" -ge 71 ]
rows=$("$SQLRUN" "$db" "SELECT count(*) FROM events WHERE type IN ('tool_use', 'tool_error', 'user_prompt')")
check "every call and prompt recorded ($rows rows)" [ "$rows" -ge $((3 * n + 1)) ]
turns=$("$SQLRUN" "$db" "SELECT count(*) FROM chat_logs")
check "every turn saved ($turns rows)" [ "$turns" -ge "$n" ]
check "the WAL held the latest calls when searched ($wal_seen times)" \
    [ "$wal_seen" -gt 0 ]
check "the journal held the latest calls when searched ($journal_seen times)" \
    [ "$journal_seen" -eq "$n" ]
check "the hook said nothing about failures" [ ! -s err ]
diag <err

while IFS='	' read -r label text secret; do
	case $label in '#'*|'') continue ;; esac
	if found "$secret" || grep -q -x -F -e "$label" leaks; then
		not_ok "redacted: $label"
	else
		ok "redacted: $label"
	fi
done <"$corpus"
if found EnvOnlySecretValue77; then
	not_ok "redacted: the value of DEPLOY_SERVICE_PASS"
else
	ok "redacted: the value of DEPLOY_SERVICE_PASS"
fi
# The text around the secrets is kept: redaction masks, it does not drop.
if found "first line" && found "[REDACTED]"; then
	ok "the outputs are kept, their secrets masked"
else
	not_ok "the outputs are kept, their secrets masked"
fi
done_testing
