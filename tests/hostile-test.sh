#!/bin/sh
# Hostile input: what an agent, a broken disk or a careless rule author can
# hand the hook.  Each case checks the decision (or the clean refusal) and
# the message; none may crash or hang.
. "$SRCDIR/tests/lib.sh"

cd "$TMPROOT" || exit 99
export REFLEXION_HOME=$TMPROOT/home
cat >r.yaml <<'YAML'
version: 1
rules:
  - id: no-rm
    on: PreToolUse
    tools: [Bash, Write]
    when:
      any:
        - command: 'rm\s+-rf\s+/'
        - content: 'rm -rf /'
    once: session
    action: deny
    message: blocked
YAML
bash_ev() {
	printf '{"session_id":"%s","hook_event_name":"PreToolUse","cwd":"/w","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}' "$1"
}

# 50 MB of Write content, the command at the very end.
{
	printf '{"session_id":"big","hook_event_name":"PreToolUse","cwd":"/w","tool_name":"Write","tool_input":{"file_path":"/w/a.sh","content":"'
	head -c 52428800 /dev/zero | tr '\0' 'x'
	printf ' rm -rf /"}}'
} >big.json
"$RR" hook --rules r.yaml <big.json >out 2>err
if grep -q '"permissionDecision":"deny"' out; then ok "50 MB event: the rule still sees its end"
else not_ok "50 MB event: the rule still sees its end"; diag <err; fi

# 100,000 levels of nesting.
{ printf '{"a":'; i=0; while [ $i -lt 100000 ]; do printf '['; i=$((i + 1)); done; } >deep.json
"$RR" hook --rules r.yaml <deep.json >out 2>err
status=$?
if [ $status = 0 ] && [ ! -s out ] && grep -q 'not valid JSON; allowing' err; then
	ok "100,000-deep JSON: refused cleanly, allowed, said so"
else
	not_ok "100,000-deep JSON: refused cleanly (status $status)"; diag <err
fi

# REFLEXION_HOME that cannot be created: the decision is still made.
echo x >plainfile
bash_ev s1 | REFLEXION_HOME=$TMPROOT/plainfile/home "$RR" hook --rules r.yaml >out 2>err
if grep -q '"permissionDecision":"deny"' out && grep -q 'cannot create directory' err; then
	ok "unwritable REFLEXION_HOME: still denies, and says why on stderr"
else
	not_ok "unwritable REFLEXION_HOME"; diag <out; diag <err
fi

# REFLEXION_HOME on a path with spaces and non-ASCII characters.
odd="$TMPROOT/home with space/설정"
bash_ev s2 | REFLEXION_HOME=$odd "$RR" hook --rules r.yaml >out1 2>err
bash_ev s2 | REFLEXION_HOME=$odd "$RR" hook --rules r.yaml >out2 2>>err
if grep -q deny out1 && [ ! -s out2 ] && [ ! -s err ] && ls "$odd/state" | grep -q '^s2.json$'; then
	ok "REFLEXION_HOME with spaces and Hangul: once works"
else
	not_ok "REFLEXION_HOME with spaces and Hangul"; diag <err
fi

# A symlink loop in a rule directory is reported; the other rules load.
mkdir -p rd/sub
cp r.yaml rd/a.yaml
ln -s .. rd/sub/loop
bash_ev s3 | "$RR" hook --rules rd >out 2>err
if grep -q deny out && grep -q 'directory loop' err; then
	ok "symlink loop in a rule directory: reported, the rest loads"
else
	not_ok "symlink loop in a rule directory"; diag <out; diag <err
fi

# A FIFO named like a rule file is reported and skipped, never opened to
# wait for a writer.
mkdir -p fd
cp r.yaml fd/a.yaml
mkfifo fd/pipe.yaml
bash_ev s4 | timeout 10 "$RR" hook --rules fd >out 2>err
status=$?
if [ $status = 0 ] && grep -q deny out && grep -q 'pipe.yaml: error: not a regular file' err; then
	ok "a FIFO in a rule directory: reported, the rest loads, no hang"
else
	not_ok "a FIFO in a rule directory (status $status)"; diag <err
fi

# A 10 MB rule file of 20,000 rules loads (and lints) in bounded time.
{
	echo 'version: 1'; echo 'rules:'
	i=0
	while [ $i -lt 20000 ]; do
		printf '  - id: r%d\n    on: PreToolUse\n    tools: [Bash]\n    description: %s\n    when: {command: "tool%d --force"}\n    action: ask\n    message: "padding to make the file big: %s"\n' \
		    $i "$(printf '%0300d' 0)" $i "$(printf '%0100d' 0)"
		i=$((i + 1))
	done
} >big.yaml
size=$(wc -c <big.yaml)
if "$RR" lint big.yaml >out 2>&1 && grep -q 'ok: 20000 rules' out && [ "$size" -gt 10000000 ]; then
	ok "a $size-byte rule file with 20,000 rules lints clean"
else
	not_ok "a 10 MB rule file"; tail -n 3 out | diag
fi

# A glob of 3,000 brace groups compiles and matches.
g=$(i=0; while [ $i -lt 3000 ]; do printf '{a,b}'; i=$((i + 1)); done)
p=$(i=0; while [ $i -lt 3000 ]; do printf 'a'; i=$((i + 1)); done)
printf 'version: 1\nrules:\n  - id: braces\n    on: PreToolUse\n    when: {path: "%s"}\n    action: deny\n    message: m\n' "$g" >braces.yaml
printf '{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"Write","tool_input":{"file_path":"/w/%s"}}' "$p" |
    "$RR" hook --rules braces.yaml >out 2>err
if grep -q deny out; then ok "a glob of 3,000 brace groups"; else not_ok "a glob of 3,000 brace groups"; diag <err; fi

# Invalid UTF-8 everywhere in an event still gives valid UTF-8 out.
printf '{"hook_event_name":"PreToolUse","cwd":"/w\377","tool_name":"Bash","tool_input":{"command":"rm -rf / \300\200 \355\240\200"}}' |
    "$RR" hook --rules r.yaml >out 2>err
if grep -q deny out && ! LC_ALL=C grep -q -P '[\x80-\xff]' out 2>/dev/null; then
	ok "invalid UTF-8 in: a deny, and pure JSON out"
elif grep -q deny out; then
	ok "invalid UTF-8 in: a deny"
else
	not_ok "invalid UTF-8 in the event"; diag <err
fi
done_testing
