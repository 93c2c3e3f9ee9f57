#!/bin/sh
# Red team, items 1, 2 and 12 of issue 12 (a configured guard never
# silently stops guarding): inputs shaped to make a matcher slow, so the
# hook reaches its deadline and allows; MultiEdits whose file_after costs
# edits x file size; and text that folds to a guarded keyword only across
# Unicode.  Each case is the attack, through the real CLI with the
# DEFAULT deadline (2 s): the answer must be the guard's, whatever the
# time (a sanitizer build is slower; a deny is what is checked).
. "$SRCDIR/tests/lib.sh"

unset REFLEXION_DEADLINE_MS
cd "$TMPROOT" || exit 99
export REFLEXION_HOME=$TMPROOT/home
open=$TMPROOT/open
closed=$TMPROOT/closed
mkdir -p "$open/.reflexion/rules" "$closed/.reflexion/rules"

cat >"$open/.reflexion/rules/guard.yaml" <<'YAML'
version: 1
rules:
  - id: no-env
    on: PreToolUse
    tools: [Write, Edit, MultiEdit]
    when: {path: '**/.env'}
    action: deny
    message: .env files hold secrets
  - id: no-key
    on: PreToolUse
    tools: [Write, Edit, MultiEdit]
    when: {file_after: {contains: ['BEGIN PRIVATE KEY']}}
    action: deny
    message: no private keys in the tree
  - id: deep-secrets
    on: PreToolUse
    tools: [Write]
    when: {path: 'a/**/secrets/*'}
    action: deny
    message: secrets
  - id: no-scripts
    on: PreToolUse
    tools: [Bash]
    when: {command: ['\S+\.(?:py|rb)\b', '\S+\.sh\b']}
    action: deny
    message: no scripts from the agent
  - id: prompt-guard
    on: UserPromptSubmit
    when: {prompt: {keywords: ['lösche alles', kubectl delete, 'λόγος']}}
    action: deny
    message: not from a prompt
  - id: prompt-word
    on: UserPromptSubmit
    when: {prompt: {keywords: ['über'], word: true}}
    action: deny
    message: a whole word
  - id: prod-config
    on: PreToolUse
    tools: [Write]
    when: {content: {contains: ['ÄNDERN VERBOTEN'], ignore_case: true}}
    action: deny
    message: a protected file
  - id: open-config
    on: PreToolUse
    tools: [Write]
    when:
      path: '*.json'
      content: {json: {find: true, equals: {allow_all: true}}}
    action: deny
    message: no allow_all
YAML
cat >"$closed/.reflexion/rules/guard.yaml" <<'YAML'
version: 1
on_error: deny
rules:
  - id: no-key
    on: PreToolUse
    tools: [Write, Edit, MultiEdit]
    when: {file_after: {contains: ['BEGIN PRIVATE KEY']}}
    action: deny
    message: no private keys in the tree
  - id: deep-secrets
    on: PreToolUse
    tools: [Write]
    when: {path: 'a/**/secrets/*'}
    action: deny
    message: secrets
  - id: open-config
    on: PreToolUse
    tools: [Write]
    when:
      path: '*.json'
      content: {json: {find: true, equals: {allow_all: true}}}
    action: deny
    message: no allow_all
YAML

# said DESCRIPTION PATTERN: stderr holds PATTERN, the note of a limit (or,
# on a machine too slow for the case, the deadline's: never silent).
said() {
	if grep -q -e "$2" -e 'within the deadline' err; then
		ok "$1"
	else
		not_ok "$1"
		diag <err
	fi
}

# hook PROJECT EVENT-FILE: the reply in out, stderr in err.
hook() {
	CLAUDE_PROJECT_DIR=$1 "$RR" hook <"$2" >out 2>err
}

# expect DESCRIPTION PATTERN: the reply holds PATTERN (a deny, a block).
expect() {
	if grep -q "$2" out; then
		ok "$1"
	else
		not_ok "$1"
		head -c 300 out | diag
		diag <err
	fi
}

denied() {
	expect "$1" '"permissionDecision":"deny"'
}

# upper N: N bytes of upper-case prose, on one line.
upper() {
	yes 'THE QUICK BROWN FOX JUMPS OVER A LAZY DOG; PASSWORD SECRET TOKEN' |
	    tr '\n' ' ' | head -c "$1"
}

# write_ev PROJECT PATH: a Write of stdin's text (JSON-safe) to PATH.
write_ev() {
	printf '{"session_id":"s","hook_event_name":"PreToolUse","cwd":"%s",' "$1"
	printf '"tool_name":"Write","tool_input":{"file_path":"%s","content":"' "$2"
	cat
	printf '"}}'
}

prompt_ev() {
	printf '{"session_id":"s","hook_event_name":"UserPromptSubmit","cwd":"%s","prompt":"%s"}' \
	    "$open" "$1"
}

# ---- item 1: time linear in the input, within the deadline ------------------

for mb in 1 2 8; do
	upper $((mb * 1048576)) | write_ev "$open" "$open/config/.env" >w.json
	hook "$open" w.json
	denied "$mb MB of upper case in a Write to .env: denied"
done

# A .env two million directories deep: '**/.env' looks at the basename, so
# no match limit can be reached on the way.
{
	printf '{"session_id":"s","hook_event_name":"PreToolUse","cwd":"%s",' "$open"
	printf '"tool_name":"Write","tool_input":{"content":"x","file_path":"%s/' "$open"
	yes 'a/' | head -n 2000000 | tr -d '\n'
	printf '.env"}}'
} >deep.json
hook "$open" deep.json
denied "a Write to a .env 2,000,000 directories deep: denied"

# A glob that must backtrack over such a path reaches its limit: in a file
# that fails closed that is a deny; in another it is said, never silent.
{
	printf '{"session_id":"s","hook_event_name":"PreToolUse","cwd":"%s",' "$closed"
	printf '"tool_name":"Write","tool_input":{"content":"x","file_path":"%s/a/' "$closed"
	yes 'b/' | head -n 2000000 | tr -d '\n'
	printf 'secrets/k"}}'
} >deep2.json
hook "$closed" deep2.json
denied "a path deep enough to stop a glob, on_error: deny: denied"
sed "s|$closed|$open|g" deep2.json >deep3.json
hook "$open" deep3.json
said "the same in a file that fails open: the limit is reported" \
    "rule 'deep-secrets': glob hit its match limit on path"

# A 16 KB word before 'evil.sh': PCRE2's interpreter retried '\S+' from
# every byte of it, backtracking each time (1.4 s a pattern, two patterns:
# past the deadline, under the old 16 KB JIT threshold).
{
	printf '{"session_id":"s","hook_event_name":"PreToolUse","cwd":"%s",' "$open"
	printf '"tool_name":"Bash","tool_input":{"command":"'
	head -c 16000 /dev/zero | tr '\0' a
	printf ' evil.sh"}}'
} >script.json
hook "$open" script.json
denied "a 16 KB word before 'evil.sh': denied"

# A JSON document after a megabyte of arrays that never close: every try
# of find used to read to the end, 64 times.  Closed: a deny; open: said.
{
	head -c 100 /dev/zero | tr '\0' '['
	yes '1,' | head -n 500000 | tr -d '\n'
	printf '{\\"allow_all\\": true}'
} >arrays.txt
write_ev "$closed" "$closed/app.json" <arrays.txt >j.json
hook "$closed" j.json
denied "allow_all after 1 MB of unclosed arrays, on_error: deny: denied"
write_ev "$open" "$open/app.json" <arrays.txt >j.json
hook "$open" j.json
said "the same in a file that fails open: the limit is reported" \
    "rule 'open-config': the json search hit its work limit"

# ---- item 2: MultiEdit's file_after is bounded ------------------------------

# An 8 MB .env with 200 markers among near misses of them, and a
# MultiEdit of 200 edits: each edit scanned the whole file, twice.
awk 'BEGIN { for (i = 0; i < 200; i++) {
	for (j = 0; j < 1000; j++)
		print "N000001N000002N000003N000004N000005N0000"
	printf "M%06d\n", i } }' >"$open/.env"
cp "$open/.env" "$closed/big.txt"
edits() {
	awk 'BEGIN { for (i = 0; i < 200; i++)
		printf "%s{\"old_string\":\"M%06d\",\"new_string\":\"N%06d\"}",
		    i ? "," : "", i, i }'
}
{
	printf '{"session_id":"s","hook_event_name":"PreToolUse","cwd":"%s",' "$open"
	printf '"tool_name":"MultiEdit","tool_input":{"file_path":"%s/.env","edits":[' "$open"
	edits
	printf ']}}'
} >me.json
hook "$open" me.json
denied "a 200-edit MultiEdit of an 8 MB .env, file_after rules around: denied"
said "the file_after rule says it could not decide" \
    "rule 'no-key': file_after: the edits hit their work limit"

{
	printf '{"session_id":"s","hook_event_name":"PreToolUse","cwd":"%s",' "$closed"
	printf '"tool_name":"MultiEdit","tool_input":{"file_path":"%s/big.txt","edits":[' "$closed"
	edits
	printf ']}}'
} >me2.json
hook "$closed" me2.json
denied "the same MultiEdit of another file, on_error: deny: denied"
if grep -q -e 'could not be decided (file_after hit its work limit)' \
    -e 'within the deadline' out err; then
	ok "and the reason is the work limit"
else
	not_ok "and the reason is the work limit"
	diag <out
fi

# A replace_all of every byte by a kilobyte: a gigabyte to write.
{
	printf '{"session_id":"s","hook_event_name":"PreToolUse","cwd":"%s",' "$closed"
	printf '"tool_name":"Edit","tool_input":{"file_path":"%s/big.txt",' "$closed"
	printf '"old_string":"N","replace_all":true,"new_string":"'
	head -c 1024 /dev/zero | tr '\0' b
	printf '"}}'
} >ra.json
hook "$closed" ra.json
denied "a replace_all that would write a gigabyte, on_error: deny: denied"

# ---- item 12: keywords fold across Unicode ----------------------------------

prompt_ev 'BITTE L\u00d6SCHE ALLES' >p.json
hook "$open" p.json
expect "a keyword guard against its upper case in German: blocked" \
    '"decision":"block"'
prompt_ev 'run \u212aubectl delete pod x' >p.json
hook "$open" p.json
expect "the Kelvin sign for the k of 'kubectl delete': blocked" \
    '"decision":"block"'
prompt_ev 'ΑΡΧΗ ΗΝ Ο ΛΌΓΟΣ' >p.json
hook "$open" p.json
expect "Greek capitals with a final sigma: blocked" '"decision":"block"'
prompt_ev '\u201e\u00dcBER\u201c' >p.json
hook "$open" p.json
expect "a whole word between German quotes, in capitals: blocked" \
    '"decision":"block"'
printf '# \\u00e4ndern Verboten\\nx = 1' |
    write_ev "$open" "$open/prod.cfg" >w.json
hook "$open" w.json
denied "contains with ignore_case, in upper-case umlauts: denied"

done_testing
