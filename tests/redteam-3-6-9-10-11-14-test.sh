#!/bin/sh
# Red team of the hook pipeline (issue 12, items 3, 6, 9, 10, 11, 14a, 14b
# and the deadline policy): each case is an attack on a guard the user
# believes is on, run through the real CLI, and asserts that the guard
# holds.  Where a case depends on the deadline passing, it also checks
# that the deadline did pass (the hook says so on stderr), so a machine
# too fast to be caught does not pass by checking nothing.
. "$SRCDIR/tests/lib.sh"
: "${SQLRUN:?SQLRUN must name tests/sqlrun}"

cd "$TMPROOT" || exit 99
export REFLEXION_HOME=$TMPROOT/home
DB=$REFLEXION_HOME/data/reflexion.db

# hold_db MODE: another process holds the database's lock until killed.
hold_db() {
	rm -f held
	"$SQLRUN" --hold "$1" "$DB" 60 held >/dev/null 2>&1 &
	holder=$!
	i=0
	while [ ! -f held ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
}
release_db() {
	kill $holder 2>/dev/null
	wait $holder 2>/dev/null
	rm -f held
}

post_push() {
	printf '{"session_id":"%s","hook_event_name":"PostToolUse","cwd":"/w","tool_name":"Bash","tool_input":{"command":"git push --force"},"tool_response":{"stdout":"ok"}}' "$1"
}
edit_ev() {
	printf '{"session_id":"%s","hook_event_name":"PreToolUse","cwd":"/w","tool_name":"Edit","tool_input":{"file_path":"%s","old_string":"a","new_string":"b"}}' "$1" "$2"
}

# ---- item 3: a decision is never thrown away ------------------------------
cat >rec.yaml <<'YAML'
version: 1
rules:
  - id: rec
    on: PostToolUse
    action: record
  - id: no-force-push
    on: PostToolUse
    tools: [Bash]
    when: {command: 'push --force'}
    action: deny
    message: no force pushes
  - id: once-note
    on: PostToolUse
    once: session
    action: context
    message: first tool call of the session
YAML
post_push warm | "$RR" hook --rules rec.yaml >/dev/null 2>&1

# The database is locked by another process for longer than the deadline:
# the recording waits, the deadline passes, the deny must still be given.
hold_db exclusive
post_push s3 | "$RR" hook --rules rec.yaml --deadline 300 >out 2>err
status=$?
if [ $status = 0 ] && grep -q '"decision":"block","reason":"no force pushes' out &&
    grep -q 'passed after the decision' err; then
	ok "a database locked past the deadline: the deny stands"
else
	not_ok "a database locked past the deadline (status $status)"
	diag <out; diag <err
fi
# ... and the once rule claimed in that call was shown, not lost.
if grep -q 'first tool call of the session' out; then
	ok "a database locked past the deadline: the once rule's text is in the reply"
else
	not_ok "a database locked past the deadline: the once rule's text is lost"
	diag <out
fi
release_db

# A deny found early, then a slow rule (a kb lookup waiting for the
# locked database) runs into the deadline: the deny holds.
cat >slowkb.yaml <<'YAML'
version: 1
rules:
  - id: no-env
    on: PreToolUse
    tools: [Edit]
    when: {path: '**/.env'}
    action: deny
    message: not the .env file
  - id: past-errors
    on: PreToolUse
    tools: [Edit]
    when: {kb: file_errors}
    action: context
    message: 'past: {{#kb}}{{kb.error}}{{/kb}}'
YAML
hold_db exclusive
edit_ev s3b /w/.env | REFLEXION_DB_BUDGET_MS=60000 "$RR" hook \
    --rules slowkb.yaml --deadline 300 >out 2>err
status=$?
if [ $status = 0 ] && grep -q '"permissionDecision":"deny","permissionDecisionReason":"not the .env file"' out &&
    grep -q 'passed before every rule was evaluated' err; then
	ok "a deny, then a rule slower than the deadline: the deny holds"
else
	not_ok "a deny, then a slow rule (status $status)"; diag <out; diag <err
fi
release_db

# Thousands of stale state files at SessionStart: the clean-up outlasts
# the deadline, the session's context still arrives.
cat >start.yaml <<'YAML'
version: 1
rules:
  - id: hello
    on: SessionStart
    action: context
    message: read CONTRIBUTING.md first
YAML
mkdir -p stale/state
(cd stale/state && seq 1 20000 | sed 's/$/.json/' | xargs touch -d '40 days ago')
printf '{"session_id":"s","hook_event_name":"SessionStart","cwd":"/w","source":"startup"}' |
    REFLEXION_HOME=$TMPROOT/stale "$RR" hook --rules start.yaml --deadline 50 >out 2>err
if ! grep -q 'read CONTRIBUTING.md first' out; then
	not_ok "20,000 stale state files at SessionStart: the context is lost"
	diag <err
elif grep -q 'passed after the decision' err; then
	ok "20,000 stale state files at SessionStart: the context arrives"
else
	skip "20,000 stale state files: pruned before the deadline, not exercised"
fi

# ---- item 6: an unusable state directory never blocks every call --------
cat >once.yaml <<'YAML'
version: 1
rules:
  - id: review-deploys
    on: PreToolUse
    tools: [Bash]
    once: session
    when: {command: deploy}
    action: deny
    message: deploys need a review
  - id: allow-ls
    on: PreToolUse
    tools: [Bash]
    once: session
    when: {command: deploy}
    action: allow
  - id: remind
    on: PreToolUse
    tools: [Bash]
    once: session
    when: {command: deploy}
    action: context
    message: remember the changelog
YAML
sed 's/^rules:/on_error: deny\nrules:/' once.yaml >once-closed.yaml
deploy_ev() {
	printf '{"session_id":"%s","hook_event_name":"PreToolUse","cwd":"/w","tool_name":"Bash","tool_input":{"command":"./deploy"}}' "$1"
}
# A plain file where the state directory should be.
mkdir -p blocked
echo x >blocked/state
denied=0 reminded=0
for i in 1 2 3; do
	deploy_ev s6 | REFLEXION_HOME=$TMPROOT/blocked "$RR" hook --rules once.yaml >out 2>err
	grep -q deny out && denied=$((denied + 1))
	grep -q '"permissionDecision":"allow"' out && denied=$((denied + 100))
	grep -q 'remember the changelog' out && reminded=$((reminded + 1))
done
if [ $denied = 0 ] && [ $reminded = 3 ] && grep -q 'Not a directory.*fail open' err; then
	ok "a file as the state directory: the once deny and allow fail open, the reminder stays"
else
	not_ok "a file as the state directory: $denied denies/allows, $reminded reminders"
	diag <out; diag <err
fi
deploy_ev s6 | REFLEXION_HOME=$TMPROOT/blocked "$RR" hook --rules once-closed.yaml >out 2>err
if grep -q '"permissionDecision":"deny","permissionDecisionReason":"deploys need a review' out; then
	ok "a file as the state directory, on_error: deny: the once deny holds"
else
	not_ok "a file as the state directory, on_error: deny"; diag <out; diag <err
fi

# ---- item 9: no path in the event can make the hook block -----------------
cat >stop.yaml <<'YAML'
version: 1
rules:
  - id: no-drop
    on: Stop
    when: {message: '(?i)drop\s+table'}
    action: deny
    message: the answer proposes DROP TABLE
  - id: env-check
    on: PreToolUse
    tools: [Edit]
    unless: {file_contains: ['@reviewed']}
    action: context
    message: not reviewed
YAML
sed 's/^rules:/on_error: deny\nrules:/' stop.yaml >stop-closed.yaml
stop_ev() {
	printf '{"session_id":"s9","hook_event_name":"Stop","cwd":"/w","stop_hook_active":%s,"transcript_path":"%s"}' "$2" "$1"
}
mkfifo t.fifo
mkdir t.dir
for t in "$TMPROOT/t.fifo" "$TMPROOT/t.dir" /dev/zero; do
	stop_ev "$t" false | timeout 20 "$RR" hook --rules stop.yaml --deadline 10000 >out 2>err
	status=$?
	if [ $status = 0 ] && [ ! -s out ] &&
	    grep -q "transcript '[^']*$t' is not a regular file" err &&
	    ! grep -q deadline err; then
		ok "${t##*/} as the Stop transcript: refused at once, said on stderr"
	else
		not_ok "${t##*/} as the Stop transcript (status $status)"
		diag <out; diag <err
	fi
done
stop_ev "$TMPROOT/t.fifo" false |
    timeout 20 "$RR" hook --rules stop-closed.yaml --deadline 10000 >out 2>err
status=$?
if [ $status = 0 ] && grep -q '"decision":"block","reason":"reflexion-rules: the transcript .*t.fifo. is not a regular file; not read; denying because stop-closed.yaml declares on_error: deny' out &&
    ! grep -q deadline err; then
	ok "a FIFO as the Stop transcript, on_error: deny: blocked at once, says why"
else
	not_ok "a FIFO as the Stop transcript, on_error: deny (status $status)"
	diag <out; diag <err
fi
stop_ev "$TMPROOT/t.fifo" true |
    timeout 20 "$RR" hook --rules stop-closed.yaml --deadline 10000 >out 2>err
if [ ! -s out ]; then
	ok "a FIFO as the Stop transcript, stop_hook_active: never blocked"
else
	not_ok "a FIFO as the Stop transcript, stop_hook_active"; diag <out
fi
# The file an Edit names is a FIFO: file_contains must not wait for it.
edit_ev s9 "$TMPROOT/t.fifo" |
    timeout 20 "$RR" hook --rules stop-closed.yaml --deadline 10000 >out 2>err
status=$?
if [ $status = 0 ] && grep -q 'not reviewed' out && ! grep -q deadline err; then
	ok "a FIFO as the edited file: file_contains answers at once"
else
	not_ok "a FIFO as the edited file (status $status)"; diag <out; diag <err
fi
# FIFOs where the event's project keeps its rules.
mkdir -p proj9/.claude/skills proj9/.reflexion
mkfifo proj9/.claude/skills/skill-rules.json proj9/.reflexion/rules
printf '{"session_id":"p9","hook_event_name":"PreToolUse","cwd":"%s/proj9","tool_name":"Bash","tool_input":{"command":"ls"}}' "$TMPROOT" |
    REFLEXION_HOME=$TMPROOT/p9home timeout 20 "$RR" hook --deadline 10000 >out 2>err
status=$?
if [ $status = 0 ] && [ "$(grep -c 'not a regular file; skipped' err)" = 2 ] &&
    grep -q systemMessage out && ! grep -q deadline err; then
	ok "FIFOs as the project's rules and skill-rules.json: reported at once"
else
	not_ok "FIFOs as the project's rule sources (status $status)"
	diag <out; diag <err
fi
# A FIFO planted as the session's state file.
mkdir -p fifohome/state
mkfifo fifohome/state/s9.json
deploy_ev s9 | REFLEXION_HOME=$TMPROOT/fifohome timeout 20 "$RR" hook \
    --rules once.yaml --deadline 10000 >out 2>err
status=$?
if [ $status = 0 ] && grep -q '"permissionDecision":"deny"' out &&
    [ -p fifohome/state/s9.json.corrupt ] && ! grep -q deadline err; then
	ok "a FIFO as the session's state file: set aside at once, once works"
else
	not_ok "a FIFO as the session's state file (status $status)"
	diag <out; diag <err
fi

# ---- item 10: a first compile slower than the deadline is still cached ---
# 20,000 rules take far longer to compile than a 20 ms deadline.  The
# file is older than the cache's racy window, so a cache built now is
# used as is.
mkdir -p cold
awk 'BEGIN { print "version: 1"; print "rules:";
    for (i = 0; i < 20000; i++)
	printf "  - id: r%d\n    on: PreToolUse\n    tools: [Bash]\n    when: {command: \"tool%d --force\"}\n    action: deny\n    message: \"no tool%d\"\n", i, i, i }' >cold/big.yaml
touch -d '1 hour ago' cold/big.yaml
cold_ev='{"session_id":"c","hook_event_name":"PreToolUse","cwd":"/w","tool_name":"Bash","tool_input":{"command":"tool19999 --force"}}'
echo "$cold_ev" | REFLEXION_HOME=$TMPROOT/cold/home "$RR" hook \
    --rules cold/big.yaml --deadline 20 2>err | cat >out
cached_at_once=no
ls cold/home/cache/*.rrc >/dev/null 2>&1 && cached_at_once=yes
if ! grep -q 'no answer within the deadline of 20 ms; allowing' err; then
	skip "a cold compile of 20,000 rules finished within 20 ms: not exercised"
elif [ ! -s out ] && [ $cached_at_once = no ]; then
	ok "a cold compile past the deadline: allow at the deadline, the agent not kept waiting"
else
	not_ok "a cold compile past the deadline (cache at once: $cached_at_once)"
	diag <out; diag <err
fi
i=0
while ! ls cold/home/cache/*.rrc >/dev/null 2>&1 && [ $i -lt 1200 ]; do
	sleep 0.1; i=$((i + 1))
done
echo "$cold_ev" | REFLEXION_HOME=$TMPROOT/cold/home REFLEXION_CACHE_TRACE=1 \
    "$RR" hook --rules cold/big.yaml >out 2>err
if grep -q '"permissionDecision":"deny","permissionDecisionReason":"no tool19999"' out &&
    grep -q 'cache: hit .*(20000 rules)' err; then
	ok "a cold compile past the deadline: the next call decides from the cache"
else
	not_ok "a cold compile past the deadline: the next call"; diag <out; diag <err
fi

# ---- item 11: the broken-rules message is not worn out ------------------
mkdir -p broken
cat >broken/a.yaml <<'YAML'
version: 1
rules:
  - id: no-rm
    on: PreToolUse
    tools: [Bash]
    when: {command: 'rm -rf'}
    action: deny
    message: no rm
  - id: bad
    on: PreToolUse
    when: {command: 'rm (-rf'}
    action: deny
    message: broken
YAML
ls_ev() {
	printf '{"session_id":"%s","hook_event_name":"PreToolUse","cwd":"/w","tool_name":"Bash","tool_input":{"command":"ls"}}' "$1"
}
# shown COUNT SESSION [HOME]: runs COUNT calls, prints how many replies
# had the systemMessage and how many stderr lines named the error.
shown() {
	n=0 msgs=0 lines=0
	while [ $n -lt "$1" ]; do
		ls_ev "$2" | REFLEXION_HOME=${3:-$REFLEXION_HOME} "$RR" hook \
		    --rules broken >out 2>err
		grep -q '"systemMessage":"reflexion-rules: 1 error in rule files' out &&
		    msgs=$((msgs + 1))
		grep -q 'a.yaml:11:29: error' err && lines=$((lines + 1))
		n=$((n + 1))
	done
	echo "$msgs $lines"
}
got=$(shown 5 s11)
if [ "$got" = "1 5" ]; then
	ok "five calls with a broken rule file: the systemMessage once, stderr every time"
else
	not_ok "five calls with a broken rule file: (messages, stderr lines) $got"
fi
sed -i 's/rm (-rf/rm [-rf/' broken/a.yaml
got=$(shown 2 s11)
sed -i 's/rm \[-rf/rm (-rf/' broken/a.yaml
got="$got / $(shown 2 s11)"
if [ "$got" = "1 2 / 1 2" ]; then
	ok "the errors change, and change back: the systemMessage again each time"
else
	not_ok "the errors change: (messages, stderr lines) $got"
fi
got=$(shown 3 s11b "$TMPROOT/blocked")
if [ "$got" = "3 3" ]; then
	ok "no state can be kept: the systemMessage on every call"
else
	not_ok "no state can be kept: (messages, stderr lines) $got"
fi
# The first call of a session outlasts its deadline: the message it was
# to show is in the deadline's answer, not lost with the call.
hold_db exclusive
cat >broken/b.yaml <<'YAML'
version: 1
rules:
  - id: past-errors
    on: PreToolUse
    tools: [Bash]
    when: {kb: session_error}
    action: context
    message: 'past: {{#kb}}{{kb.error}}{{/kb}}'
YAML
ls_ev s11c | REFLEXION_DB_BUDGET_MS=60000 "$RR" hook --rules broken \
    --deadline 300 >out 2>err
if grep -q '"systemMessage":"reflexion-rules: 1 error in rule files' out &&
    grep -q 'no answer within the deadline' err; then
	ok "the first call of a session past its deadline: the systemMessage still shown"
else
	not_ok "the first call of a session past its deadline"; diag <out; diag <err
fi
release_db
rm broken/b.yaml

# ---- item 14a: killed hooks do not fill the state directory --------------
cat >first-edit.yaml <<'YAML'
version: 1
rules:
  - id: first-edit
    on: PreToolUse
    tools: [Edit]
    once: session+path
    action: context
    message: 'first edit of {{path}}'
YAML
# A session that edited 40,000 files: a state file of 2 MB, which takes
# a while to write.
mkdir -p kill/state
awk 'BEGIN { printf "{\"version\":1,\"session_id\":\"s14\",\"fired\":[";
    for (i = 0; i < 40000; i++)
	printf "\"first-edit\\u001f/w/src/some/deep/directory/file%06d.ts\",", i;
    printf "\"x\"]}" }' >kill/state/s14.json
size=$(wc -c <kill/state/s14.json)
# 150 writers killed before their rename, simulated: their temporary
# files (file_replace's names), and one of another session, maybe alive.
i=0
while [ $i -lt 150 ]; do
	cp kill/state/s14.json "kill/state/.s14.json.$(printf 'k%05d' $i).tmp"
	i=$((i + 1))
done
: >kill/state/.other.json.Ab12Cd.tmp
edit_ev s14 /w/new0.ts | REFLEXION_HOME=$TMPROOT/kill "$RR" hook \
    --rules first-edit.yaml >out 2>err
left=$(ls -A kill/state | grep -c '^\.s14\.json\..*\.tmp$')
if grep -q 'first edit of new0.ts' out && [ "$left" = 0 ] &&
    [ -f kill/state/.other.json.Ab12Cd.tmp ]; then
	ok "150 temporary files of dead writers: the next writer removes them"
else
	not_ok "150 temporary files of dead writers: $left left"; diag <err
fi
# The real thing: 150 hooks killed with SIGKILL at moments spread over
# their run, many in the middle of writing the state file.
i=0
while [ $i -lt 150 ]; do
	d=$(awk -v i=$i 'BEGIN { printf "0.%03d", 20 + (i * 37) % 60 }')
	edit_ev s14 "/w/k$i.ts" >ev.k
	REFLEXION_HOME=$TMPROOT/kill "$RR" hook --rules first-edit.yaml \
	    <ev.k >/dev/null 2>&1 &
	p=$!
	sleep "$d"
	kill -9 $p 2>/dev/null
	wait $p 2>/dev/null
	i=$((i + 1))
done
tmps=$(ls -A kill/state | grep -c '^\.s14\.json\..*\.tmp$')
locks=$(ls -A kill/state | grep -c '\.lock$')
bytes=$(du -sk kill/state | cut -f1)
if [ "$tmps" -le 1 ] && [ "$locks" = 1 ] && [ "$bytes" -le $((size * 4 / 1024)) ]; then
	ok "150 hooks killed while writing: at most one temporary file, one lock ($bytes KB)"
else
	not_ok "150 hooks killed while writing: $tmps temporary files, $locks locks, $bytes KB"
	ls -lA kill/state | diag
fi

# ---- item 14b: a big state file keeps what it says ----------------------
# Just under the 16 MiB limit, with review-deploys already fired.
mkdir -p bigstate/state
limit=16777216
head=$(printf '{"version":1,"session_id":"s14b","fired":["review-deploys","')
tail='"]}'
{ printf '%s' "$head"
  head -c $((limit - ${#head} - ${#tail} - 8)) /dev/zero | tr '\0' 'x'
  printf '%s' "$tail"; } >bigstate/state/s14b.json
sum=$(cksum <bigstate/state/s14b.json)
deploy_ev s14b | REFLEXION_HOME=$TMPROOT/bigstate "$RR" hook --rules once.yaml >out 2>err
if ! grep -q deny out && grep -q 'remember the changelog' out &&
    grep -q 'has reached its limit of 16 MiB; kept as it is.*fail open' err &&
    [ "$(cksum <bigstate/state/s14b.json)" = "$sum" ] &&
    [ ! -e bigstate/state/s14b.json.corrupt ]; then
	ok "a state file at its limit: kept, what fired stays fired, new once denies fail open"
else
	not_ok "a state file at its limit"; diag <out; diag <err
	ls -lA bigstate/state | diag
fi
# Over the limit (a sparse file): left unread and kept, never reset.
truncate -s 20M bigstate/state/s14c.json
deploy_ev s14c | REFLEXION_HOME=$TMPROOT/bigstate "$RR" hook --rules once.yaml >out 2>err
if ! grep -q deny out && grep -q 'larger than 16 MiB; kept as it is' err &&
    [ "$(wc -c <bigstate/state/s14c.json)" = 20971520 ] &&
    [ ! -e bigstate/state/s14c.json.corrupt ]; then
	ok "a state file over its limit: kept unread, once denies fail open"
else
	not_ok "a state file over its limit"; diag <out; diag <err
fi

# ---- the deadline policy -------------------------------------------------
# A rule that blocks on purpose (a kb lookup on a database another process
# holds locked) runs first: the deadline passes before any rule decides.
cat >before.yaml <<'YAML'
version: 1
rules:
  - id: past-errors
    on: PreToolUse
    tools: [Edit]
    when: {kb: file_errors}
    action: context
    message: 'past: {{#kb}}{{kb.error}}{{/kb}}'
  - id: no-env
    on: PreToolUse
    tools: [Edit]
    when: {path: '**/.env'}
    action: deny
    message: not the .env file
YAML
sed 's/^rules:/on_error: deny\nrules:/' before.yaml >before-closed.yaml
# An ask first, then the blocking rule, in a fail-closed file.
cat >ask-closed.yaml <<'YAML'
version: 1
on_error: deny
rules:
  - id: ask-env
    on: PreToolUse
    tools: [Edit]
    when: {path: '**/.env'}
    action: ask
    message: really the .env file?
  - id: past-errors
    on: PreToolUse
    tools: [Edit]
    when: {kb: file_errors}
    action: context
    message: 'past: {{#kb}}{{kb.error}}{{/kb}}'
YAML
hold_db exclusive
edit_ev dl1 /w/.env | REFLEXION_DB_BUDGET_MS=60000 "$RR" hook \
    --rules before.yaml --deadline 300 >out 2>err
status=$?
if [ $status = 0 ] && [ ! -s out ] &&
    [ "$(cat err)" = "reflexion-rules: no answer within the deadline of 300 ms; allowing" ]; then
	ok "deadline before a decision: allow, and one line on stderr"
else
	not_ok "deadline before a decision (status $status)"; diag <out; diag <err
fi
edit_ev dl2 /w/.env | REFLEXION_DB_BUDGET_MS=60000 "$RR" hook \
    --rules before-closed.yaml --deadline 300 >out 2>err
status=$?
if [ $status = 0 ] && grep -q '"permissionDecision":"deny","permissionDecisionReason":"reflexion-rules: no decision within the deadline of 300 ms; denying because before-closed.yaml declares on_error: deny"' out &&
    [ "$(wc -l <err)" = 1 ]; then
	ok "deadline before a decision, on_error: deny: a deny that says why"
else
	not_ok "deadline before a decision, on_error: deny (status $status)"
	diag <out; diag <err
fi
edit_ev dl3 /w/.env | REFLEXION_DB_BUDGET_MS=60000 "$RR" hook \
    --rules before-closed.yaml --deadline 300 --exit2 >out 2>err
status=$?
if [ $status = 2 ] && [ ! -s out ] && grep -q 'denying because before-closed.yaml' err; then
	ok "deadline before a decision, on_error: deny, --exit2: exit 2"
else
	not_ok "deadline before a decision, --exit2 (status $status)"; diag <err
fi
edit_ev dl4 /w/.env | REFLEXION_DB_BUDGET_MS=60000 "$RR" hook \
    --rules ask-closed.yaml --deadline 300 >out 2>err
status=$?
if [ $status = 0 ] && grep -q '"permissionDecision":"deny".*denying because ask-closed.yaml' out; then
	ok "deadline after an ask, on_error: deny: the fail-closed deny, not the ask"
else
	not_ok "deadline after an ask, on_error: deny (status $status)"
	diag <out; diag <err
fi
sed '/^on_error/d' ask-closed.yaml >ask-open.yaml
edit_ev dl4b /w/.env | REFLEXION_DB_BUDGET_MS=60000 "$RR" hook \
    --rules ask-open.yaml --deadline 300 >out 2>err
status=$?
if [ $status = 0 ] && grep -q '"permissionDecision":"ask","permissionDecisionReason":"really the .env file?"' out &&
    grep -q 'passed before every rule was evaluated' err; then
	ok "deadline after an ask: the ask"
else
	not_ok "deadline after an ask (status $status)"; diag <out; diag <err
fi
edit_ev dl5 /w/.env | REFLEXION_DB_BUDGET_MS=60000 "$RR" hook \
    --rules slowkb.yaml --deadline 300 --exit2 >out 2>err
status=$?
if [ $status = 2 ] && [ ! -s out ] && [ "$(cat err)" = "not the .env file" ]; then
	ok "deadline after a deny, --exit2: exit 2 with the deny's reason"
else
	not_ok "deadline after a deny, --exit2 (status $status)"; diag <err
fi
release_db

done_testing
