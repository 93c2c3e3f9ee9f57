#!/bin/sh
# Seed 001 (doc/seeds/001_*.txt, PostToolUse observation capture),
# requirement by requirement, from the seed's own examples, through the
# hook with the shipped observe pack: one row per tool call with its
# success flag and the per-tool summary lines of §3.2, the seed's input
# fields (§2.2), compression (§5.2), privacy (§5.3), selective indexing
# (§5.4), the three layers of §3.3 and the lookups of §4.4, duplicates and
# sampling (§6.2), retention (§6.3).  The test names say which part.
. "$SRCDIR/tests/lib.sh"

cd "$TMPROOT" || exit 99
export REFLEXION_HOME=$TMPROOT/home
export REFLEXION_PACKS_DIR=$SRCDIR/rules
mkdir -p home proj
printf 'packs: [observe]\n' >home/config.yaml
P=$TMPROOT/proj
db=home/data/reflexion.db

# post SESSION JSON-FIELDS: a PostToolUse of that session.
post() {
	printf '{"hook_event_name":"PostToolUse","session_id":"%s","cwd":"%s",%s}' \
	    "$1" "$P" "$2" | "$RR" hook >/dev/null 2>>err
}
q() {
	"$SQLRUN" "$db" "$1"
}
# is DESCRIPTION GOT WANT
is() {
	if [ "$2" = "$3" ]; then ok "$1"
	else not_ok "$1"; printf 'got:  %s\nwant: %s\n' "$2" "$3" | diag; fi
}

# §2.2: the seed's own input, without hook_event_name (hook --event).
printf '%s' '{"tool_name":"Bash","tool_input":{"command":"npm run build"},"tool_output":"> build\nwebpack compiled","session_id":"seed","conversation_id":"conv-7","started_at":"2026-02-01T10:00:00.000Z","ended_at":"2026-02-01T10:00:02.500Z","cwd":"'"$P"'"}' |
    "$RR" hook --event PostToolUse >/dev/null 2>>err
printf '%s' '{"tool_name":"Bash","tool_input":{"command":"npm test"},"tool_output":"","tool_error":"Exit code 1\nFAIL src/a.test.ts","session_id":"seed","conversation_id":"conv-7","started_at":"2026-02-01T10:01:00.000Z","ended_at":"2026-02-01T10:01:09.000Z","cwd":"'"$P"'"}' |
    "$RR" hook --event PostToolUse >/dev/null 2>>err
is "§2.2 tool_output is the output" \
    "$(q "SELECT json_extract(data, '\$.output') FROM events WHERE session_id = 'seed' AND type = 'tool_use'")" \
    "> build
webpack compiled"
is "§2.2 tool_error makes a failed call, its error kept" \
    "$(q "SELECT type, json_extract(data, '\$.success'), json_extract(data, '\$.error') FROM events WHERE session_id = 'seed' AND json_extract(data, '\$.command') = 'npm test'")" \
    "tool_error|0|Exit code 1
FAIL src/a.test.ts"
is "§2.2 conversation_id, started_at, ended_at kept" \
    "$(q "SELECT DISTINCT json_extract(data, '\$.conversation_id') || ' ' || json_extract(data, '\$.started_at') FROM events WHERE session_id = 'seed' ORDER BY id LIMIT 1")" \
    "conv-7 2026-02-01T10:00:00.000Z"

# §3.2, the table row by row.
post s1 '"tool_name":"Read","tool_input":{"file_path":"'"$P"'/src/config.ts"},"tool_response":{"type":"text","file":{"filePath":"'"$P"'/src/config.ts","content":"export const retries = 3;\nexport const port = 8080;\n"}}'
post s1 '"tool_name":"Write","tool_input":{"file_path":"'"$P"'/docs/notes.md","content":"# Notes\n\nline 3\nline 4\n"},"tool_response":{"type":"create"}}'
post s1 '"tool_name":"Bash","tool_input":{"command":"git status --short"},"tool_response":{"stdout":" M src/config.ts","stderr":"","interrupted":false}}'
post s1 '"tool_name":"Grep","tool_input":{"pattern":"retries","output_mode":"files_with_matches"},"tool_response":{"mode":"files_with_matches","numFiles":2,"filenames":["src/config.ts","src/http.ts"]}}'
is "§3.2 Read {path}: {first_line}..." \
    "$(q "SELECT json_extract(data, '\$.summary') FROM events WHERE session_id = 's1' AND json_extract(data, '\$.tool') = 'Read'")" \
    "Read src/config.ts: export const retries = 3;..."
is "§3.2 Read keeps the path and the first lines" \
    "$(q "SELECT json_extract(data, '\$.file') || ' | ' || json_extract(data, '\$.output') FROM events WHERE session_id = 's1' AND json_extract(data, '\$.tool') = 'Read'")" \
    "$P/src/config.ts | export const retries = 3;
export const port = 8080;"
is "§3.2 Wrote {lines} lines to {path}" \
    "$(q "SELECT json_extract(data, '\$.summary') FROM events WHERE json_extract(data, '\$.tool') = 'Write'")" \
    "Wrote 4 lines to docs/notes.md"
is "§3.2 Ran \`{cmd}\`: {status}, the command and its exit status kept" \
    "$(q "SELECT json_extract(data, '\$.summary') || ' | ' || json_extract(data, '\$.command') FROM events WHERE session_id = 's1' AND json_extract(data, '\$.tool') = 'Bash'")" \
    "Ran \`git status --short\`: exit 0 | git status --short"
is "§3.2 Ran \`{cmd}\`: {status} of a failure" \
    "$(q "SELECT json_extract(data, '\$.summary') FROM events WHERE session_id = 'seed' AND type = 'tool_error'")" \
    "Ran \`npm test\`: exit 1"
is "§3.2 Found {n} matches for {pattern}, the pattern and the files kept" \
    "$(q "SELECT json_extract(data, '\$.summary') || ' | ' || json_extract(data, '\$.pattern') || ' | ' || json_extract(data, '\$.output') FROM events WHERE json_extract(data, '\$.tool') = 'Grep'")" \
    "Found 2 matches for retries | retries | src/config.ts
src/http.ts"

# §5.2: 10 KB, 100 lines, head 50 + tail 50, Grep's file list only.
lines=$(i=1; while [ $i -le 300 ]; do printf 'line %d\\n' $i; i=$((i + 1)); done)
post s2 '"tool_name":"Bash","tool_input":{"command":"seq 300"},"tool_response":{"stdout":"'"$lines"'","stderr":""}}'
out=$(q "SELECT json_extract(data, '\$.output') FROM events WHERE session_id = 's2'")
case $out in
"line 1
"*"line 50
... [200 lines omitted] ...
line 251
"*"line 300") ok "§5.2 head 50 + tail 50 of 300 lines" ;;
*) not_ok "§5.2 head 50 + tail 50"; printf '%s\n' "$out" | head -3 | diag ;;
esac
big=$(head -c 30000 /dev/zero | tr '\0' x)
post s2 '"tool_name":"Bash","tool_input":{"command":"yes x"},"tool_response":{"stdout":"'"$big"'","stderr":""}}'
len=$(q "SELECT length(json_extract(data, '\$.output')) FROM events WHERE session_id = 's2' AND json_extract(data, '\$.command') = 'yes x'")
check "§5.2 at most 10 KB of an output ($len)" [ "$len" -le 10240 ]
post s2 '"tool_name":"Grep","tool_input":{"pattern":"TODO","output_mode":"content"},"tool_response":{"mode":"content","numLines":3,"content":"a.ts:1:// TODO one\na.ts:9:// TODO two\nb.ts:3:// TODO three"}}'
is "§5.2 Grep: the files only" \
    "$(q "SELECT json_extract(data, '\$.output') FROM events WHERE session_id = 's2' AND json_extract(data, '\$.tool') = 'Grep'")" \
    "a.ts
b.ts"

# §5.3 and §1.1: privacy.
post s3 '"tool_name":"Bash","tool_input":{"command":"cat .env"},"tool_response":{"stdout":"password=Sup3rSecret\napi_key: k-123-secret\nAuthorization: Bearer abcdefgh12345678\n<private>my salary is 100</private>","stderr":""}}'
out=$(q "SELECT json_extract(data, '\$.output') FROM events WHERE session_id = 's3'")
is "§5.3 password, api_key, Bearer masked; §1.1 <private> dropped" "$out" \
    "password=[REDACTED]
api_key: [REDACTED]
Authorization: Bearer [REDACTED]"

# §5.4: what is indexed is the summary line, not the whole output.
post s4 '"tool_name":"Bash","tool_input":{"command":"make lint"},"tool_response":{"stdout":"zebracornword in the output only","stderr":""}}'
"$RR" memory search --tier observations zebracornword >out 2>&1
check "§5.4 a word only in an output is not searched" [ ! -s out ]
"$RR" memory search --tier observations lint >out 2>&1
check "§5.4 the command is" grep -q 'Ran `make lint`: exit 0' out

# §3.3, §4.4: the three layers, searchToolHistory, getToolsForFile.
"$RR" memory search --tier observations retries >out
if grep -q '^  e[0-9]* .* Found 2 matches for retries$' out; then
	ok "§3.3 layer 1 and §4.4 searchToolHistory: id and summary"
else
	not_ok "§3.3 layer 1"; diag <out
fi
id=$(q "SELECT 'e' || id FROM events WHERE json_extract(data, '\$.tool') = 'Write'")
"$RR" memory timeline "$id" --before 1 --after 1 >out
if [ "$(wc -l <out)" = 3 ] && grep -q "^> $id " out &&
    grep -q 'Read src/config.ts' out && grep -q 'Ran `git status' out; then
	ok "§3.3 layer 2: the timeline around one"
else
	not_ok "§3.3 layer 2"; diag <out
fi
"$RR" memory timeline "$id" --before 1 --after 1 --format json >out
check "§3.3 layer 2 in JSON: id, tool, timestamp" \
    grep -q '"id":"'"$id"'","kind":"observation","type":"tool_use","ts":"[0-9T:.-]*Z","session_id":"s1","tool":"Write"' out
"$RR" memory show "$id" --format json >out
check "§3.3 layer 3: the whole observation" \
    grep -q '"data":{"tool":"Write","success":true,"file":"'"$P"'/docs/notes.md"' out
"$RR" memory file src/config.ts >out
if [ "$(wc -l <out)" = 1 ] && grep -q 'Read src/config.ts' out; then
	ok "§4.4 getToolsForFile"
else
	not_ok "§4.4 getToolsForFile"; diag <out
fi

# §6.2: the same file read again at once: one row, counted.
for i in 1 2 3; do
	post s5 '"tool_name":"Read","tool_input":{"file_path":"'"$P"'/a.txt"},"tool_response":{"file":{"content":"alpha"}}}'
done
is "§6.2 consecutive Reads of one file: one row, counted" \
    "$(q "SELECT count(*), max(json_extract(data, '\$.count')) FROM events WHERE session_id = 's5'")" "1|3"
post s5 '"tool_name":"Glob","tool_input":{"pattern":"**/*.md"},"tool_response":{"filenames":["a.md","b.md"],"numFiles":2,"truncated":false,"durationMs":4}}'
is "§6.2 Glob: its summary and the file list" \
    "$(q "SELECT json_extract(data, '\$.summary') || ' | ' || json_extract(data, '\$.output') FROM events WHERE session_id = 's5' AND json_extract(data, '\$.tool') = 'Glob'")" \
    "Found 2 files for **/*.md | a.md
b.md"

# §6.3: 30 days.  Pruning runs in one call of 32.
q "INSERT INTO events (ts, session_id, type, data) VALUES ('2000-01-01T00:00:00.000Z', 'old', 'tool_use', '{\"tool\":\"Bash\",\"summary\":\"old\"}')" >/dev/null
i=0
while [ $i -lt 33 ]; do
	post s6 '"tool_name":"Bash","tool_input":{"command":"true '$i'"},"tool_response":{"stdout":"","stderr":""}}'
	i=$((i + 1))
done
is "§6.3 observations older than 30 days are deleted" \
    "$(q "SELECT count(*) FROM events WHERE session_id = 'old'")" 0

# §1.3 and §5.1: one row per call, in the events table, success flags.
is "§1.3 one events row per tool call, success flag apart" \
    "$(q "SELECT count(*), sum(json_extract(data, '\$.success') = 0) FROM events WHERE type IN ('tool_use', 'tool_error') AND session_id IN ('seed', 's1')")" \
    "6|1"
check "nothing went wrong on stderr" [ ! -s err ]
diag <err
done_testing
