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

# REFLEXION_HOME that cannot be used: there is no data directory, so no
# once state can be kept and the once deny would block every call; it
# fails open instead and says why, unless its file declares on_error: deny.
echo x >plainfile
bash_ev s1 | REFLEXION_HOME=$TMPROOT/plainfile/home "$RR" hook --rules r.yaml >out 2>err
if [ ! -s out ] &&
    grep -q 'plainfile/home: cannot be used: Not a directory' err &&
    [ "$(grep -c 'do not fire (fail open)' err)" = 1 ]; then
	ok "unusable REFLEXION_HOME: a once deny fails open, says why on stderr"
else
	not_ok "unwritable REFLEXION_HOME"; diag <out; diag <err
fi
sed 's/^rules:/on_error: deny\nrules:/' r.yaml >r-closed.yaml
bash_ev s1 | REFLEXION_HOME=$TMPROOT/plainfile/home "$RR" hook --rules r-closed.yaml >out 2>err
if grep -q '"permissionDecision":"deny"' out && grep -q 'plainfile/home: cannot be used' err; then
	ok "unwritable REFLEXION_HOME, on_error: deny: the once deny still denies"
else
	not_ok "unwritable REFLEXION_HOME, on_error: deny"; diag <out; diag <err
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
# A full disk under REFLEXION_HOME (a 64 KB tmpfs, where mounting is
# allowed): the once deny cannot be claimed so it fails open, the failure
# is said, the session's old state kept intact and no temporary file left
# behind.
mkdir -p full
if mount -t tmpfs -o size=64k tmpfs full 2>/dev/null; then
	mkdir -p full/home/state
	printf '{"version":1,"session_id":"s5","fired":["older-rule"]}' \
	    >full/home/state/s5.json
	dd if=/dev/zero of=full/filler bs=4k 2>/dev/null
	bash_ev s5 | REFLEXION_HOME=$TMPROOT/full/home "$RR" hook \
	    --rules r.yaml >out 2>err
	status=$?
	if [ $status = 0 ] && [ ! -s out ] &&
	    grep -q 'No space left on device.*fail open' err &&
	    grep -q '"older-rule"' full/home/state/s5.json &&
	    [ "$(ls -A full/home/state | grep -c tmp)" = 0 ]; then
		ok "full disk: the once deny fails open, says why, old state intact, no temp file"
	else
		not_ok "full disk (status $status)"; diag <out; diag <err
		ls -lA full/home/state | diag
	fi
	umount full
else
	skip "full disk: cannot mount a tmpfs here (not root or no mount rights)"
fi

# A file size limit (RLIMIT_FSIZE 0): writes fail with EFBIG and SIGXFSZ,
# which must not kill the hook; on_error: deny keeps the once deny.
bash_ev s6 >ev6.json
( ulimit -f 0; exec "$RR" hook --rules r-closed.yaml 2>&1 ) <ev6.json | cat >out
if grep -q '"permissionDecision":"deny"' out &&
    grep -q "cannot write '[^']*/state/s6.json'" out; then
	ok "file size limit 0: the hook survives SIGXFSZ, denies, says why"
else
	not_ok "file size limit 0"; diag <out
fi

# Session ids with NUL bytes and path tricks stay inside state/.
for id in 'a\u0000/../../nul' '\u0000' 'x/\u0000/..'; do
	printf '{"session_id":"%s","hook_event_name":"PreToolUse","cwd":"/w","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}' "$id" |
	    REFLEXION_HOME=$TMPROOT/nulhome "$RR" hook --rules r.yaml >>out.nul 2>>err.nul
done
outside=$(cd "$TMPROOT/nulhome" && find . -type f ! -path './state/*' ! -path './cache/*' | wc -l)
inside=$(ls "$TMPROOT/nulhome/state" | grep -c '\.json$')
if [ "$(grep -c deny out.nul)" = 3 ] && [ "$outside" = 0 ] && [ "$inside" = 3 ]; then
	ok "session ids with NUL and ../: three sessions, all inside state/"
else
	not_ok "session ids with NUL ($inside inside, $outside outside)"
	diag <err.nul
fi

# Catastrophic backtracking on 1 MB: the match limit stops it and the hook
# answers by itself well within the 10 s that init registers.
cat >evil.yaml <<'YAML'
version: 1
rules:
  - id: evil
    on: UserPromptSubmit
    when: {prompt: '^(a|aa)+$'}
    action: deny
    message: evil
  - id: evil2
    on: UserPromptSubmit
    when: {prompt: '(\w+\s?)*$'}
    action: deny
    message: evil2
  - id: fine
    on: UserPromptSubmit
    when: {prompt: {contains: ['!']}}
    action: context
    message: fine
YAML
{
	printf '{"hook_event_name":"UserPromptSubmit","cwd":"/w","prompt":"'
	head -c 1048576 /dev/zero | tr '\0' 'a'
	printf '!"}'
} >evil.json
"$RR" hook --rules evil.yaml --deadline 10000 <evil.json >out 2>err
if grep -q '"additionalContext":"fine"' out && ! grep -q evil out &&
    [ "$(grep -c 'hit its match limit' err)" = 2 ] &&
    ! grep -q deadline err; then
	ok "1 MB against backtracking regexes: limits hit, answered in budget"
else
	not_ok "1 MB against backtracking regexes"; diag <out; diag <err
fi

# ---- the inputs of the shell, sections, json and file_after conditions ----
cat >x.yaml <<'YAML'
version: 1
rules:
  - id: sh
    on: PreToolUse
    tools: [Bash]
    when:
      shell: {program: rm, flags: [-r], args: '^/$'}
    action: deny
    message: 'sh: {{match}}'
  - id: notes
    on: PreToolUse
    tools: [Bash]
    when:
      sections: {file: notes.md, keywords: {k: true}}
    action: context
    message: '{{sections}}'
  - id: js
    on: PreToolUse
    tools: [Write]
    when:
      content: {json: {find: true, where: {a: 1}}}
    action: deny
    message: js
  - id: after
    on: PreToolUse
    tools: [Edit]
    when:
      file_after: {contains: [x], required: true}
    action: deny
    message: after
YAML
mkdir -p proj
cmd_ev() {
	printf '{"session_id":"x","hook_event_name":"PreToolUse","cwd":"%s/proj","tool_name":"Bash","tool_input":{"command":"%s"}}' "$TMPROOT" "$1"
}

# A FIFO where the sections file should be: no hang, said on stderr.
mkfifo proj/notes.md
cmd_ev 'ls' | CLAUDE_PROJECT_DIR=$TMPROOT/proj timeout 20 "$RR" hook --rules x.yaml >out 2>err
status=$?
if [ $status = 0 ] && [ ! -s out ] && grep -q 'notes.md: not a regular file' err; then
	ok "a FIFO as the sections file: no hang, reported"
else
	not_ok "a FIFO as the sections file (status $status)"; diag <err
fi
rm proj/notes.md
# A sections file over 4 MB.
{ printf '<!-- keywords: k -->\n# T\n'; head -c 5000000 /dev/zero | tr '\0' 'x'; } >proj/notes.md
cmd_ev 'ls' | CLAUDE_PROJECT_DIR=$TMPROOT/proj "$RR" hook --rules x.yaml >out 2>err
if [ ! -s out ] && grep -q 'larger than 4 MB' err; then
	ok "a 5 MB sections file: left unread, reported"
else
	not_ok "a 5 MB sections file"; diag <err
fi
rm proj/notes.md

# A command of 200,000 nested $( and one of 100,000 simple commands.
{ printf '{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"Bash","tool_input":{"command":"rm -rf / '
  i=0; while [ $i -lt 20000 ]; do printf '$($($($($($($($($($('; i=$((i + 1)); done
  printf '"}}'; } >nest.json
timeout 20 "$RR" hook --rules x.yaml <nest.json >out 2>err
if grep -q 'sh: rm -rf /' out; then
	ok "200,000 nested \$( : bounded, and the command before them is denied"
else
	not_ok "200,000 nested \$("; diag <err
fi
{ printf '{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"Bash","tool_input":{"command":"'
  i=0; while [ $i -lt 10000 ]; do printf 'a;b;c;d;e;f;g;h;i;j;'; i=$((i + 1)); done
  printf 'rm -rf /"}}'; } >many.json
timeout 20 "$RR" hook --rules x.yaml <many.json >out 2>err
status=$?
# Past SH_MAX_CMDS commands the rest is not read: a documented limit.
if [ $status = 0 ] && [ ! -s out ]; then
	ok "100,000 simple commands: parsed up to the limit, bounded"
else
	not_ok "100,000 simple commands (status $status)"; diag <out; diag <err
fi
# Values that double 60 times and scripts that double through eval (found
# by fuzz_shellwords): the work budget cuts them, the rm after is seen.
# Without it the parse takes gigabytes and outlives the hook's deadline.
# (No ulimit -v: a sanitizer build reserves terabytes of address space.)
{ printf '{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"Bash","tool_input":{"command":"c=ab; '
  i=0; while [ $i -lt 60 ]; do printf 'c=$c$c; '; i=$((i + 1)); done
  printf "e='eval \$e \$e'; "
  i=0; while [ $i -lt 40 ]; do printf "e=\\\\\"eval '\$e;\$e'\\\\\"; "; i=$((i + 1)); done
  printf 'eval $e; rm -rf /"}}'; } >double.json
"$JSONGET" tool_input.command <double.json >/dev/null ||
    not_ok "double.json is not valid JSON"
timeout 20 "$RR" hook --rules x.yaml <double.json >out 2>err
status=$?
if [ $status = 0 ] && grep -q 'sh: rm -rf /' out; then
	ok "doubling values and evals: bounded, the rm after them denied"
else
	not_ok "doubling values and evals (status $status)"; diag <out; diag <err
fi

# 1 MB of unterminated JSON objects for a json find.
{ printf '{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"Write","tool_input":{"file_path":"/w/a","content":"'
  i=0; while [ $i -lt 50000 ]; do printf '{\\"a\\":\\"xxxxxxxxx'; i=$((i + 1)); done
  printf '"}}'; } >json.json
timeout 20 "$RR" hook --rules x.yaml <json.json >out 2>err
status=$?
if [ $status = 0 ] && [ ! -s out ]; then
	ok "1 MB of broken embedded JSON: a bounded search, no match"
else
	not_ok "1 MB of broken embedded JSON (status $status)"; diag <err
fi

# file_after of an Edit on a FIFO and on a directory: unknown, no hang.
mkfifo proj/f
mkdir proj/d
for t in f d; do
	printf '{"hook_event_name":"PreToolUse","cwd":"%s/proj","tool_name":"Edit","tool_input":{"file_path":"%s/proj/%s","old_string":"a","new_string":"b"}}' \
	    "$TMPROOT" "$TMPROOT" $t | timeout 20 "$RR" hook --rules x.yaml >out 2>err
	status=$?
	if [ $status = 0 ] && [ ! -s out ]; then
		ok "file_after of an Edit on a $(test $t = f && echo FIFO || echo directory): no hang, no decision"
	else
		not_ok "file_after on $t (status $status)"; diag <err
	fi
done

# config.yaml as a FIFO, and as invalid UTF-8.
mkdir -p chome
mkfifo chome/config.yaml
cmd_ev 'ls' | REFLEXION_HOME=$TMPROOT/chome timeout 20 "$RR" hook >out 2>err
status=$?
if [ $status = 0 ] && grep -q 'config.yaml: error: not a regular file' err &&
    grep -q systemMessage out; then
	ok "config.yaml as a FIFO: no hang, the user is told"
else
	not_ok "config.yaml as a FIFO (status $status)"; diag <out; diag <err
fi
rm chome/config.yaml
printf 'packs: [\377\376]\n' >chome/config.yaml
REFLEXION_HOME=$TMPROOT/chome "$RR" lint >out 2>&1
status=$?
if [ $status = 1 ] && grep -q 'config.yaml:1:.*error' out; then
	ok "config.yaml of invalid UTF-8: a located error"
else
	not_ok "config.yaml of invalid UTF-8 (status $status)"; diag <out
fi

# import of a file over 8 MB, and of binary junk.
head -c 9000000 /dev/zero >big.json
"$RR" import big.json >out 2>err
status=$?
if [ $status = 1 ] && [ ! -s out ] && grep -q 'larger than' err; then
	ok "import of a 9 MB file: refused, said so"
else
	not_ok "import of a 9 MB file (status $status)"; diag <err
fi
printf -- '---\n\000\001\377: \377\n---\n\000' >hookify.junk.local.md
"$RR" import hookify.junk.local.md >out 2>err
status=$?
if [ $status = 1 ] && [ ! -s out ] && grep -q 'RR0602' err; then
	ok "import of binary junk: refused with a message"
else
	not_ok "import of binary junk (status $status)"; diag <out; diag <err
fi
# ---- document checks: files beside the written one, blocks --------------
mkdir -p rel/ev
cat >docs.yaml <<'YAML'
version: 1
rules:
  - id: evidence
    on: PreToolUse
    tools: [Write]
    when:
      path: '*_result.md'
      blocks:
        start: '^## (.+)'
        some: {not: {file_exists: '{{dir}}/ev/{{block}}'}}
    action: deny
    message: 'no evidence for {{blocks}}'
  - id: mapping
    on: PreToolUse
    tools: [Write]
    when:
      path: '**/ev/*.json'
      json_file: {file: '{{dir}}/../*_map.json', keys: [ok], required: true}
    action: deny
    message: 'mapping: {{missing}}'
YAML
doc_ev() {
	printf '{"session_id":"d","hook_event_name":"PreToolUse","cwd":"%s","tool_name":"Write","tool_input":{"file_path":"%s","content":"%s"}}' \
	    "$TMPROOT" "$1" "$2"
}
# An id that climbs out of the directory names no file, even where one is.
echo x >rel/ev/../../passwd-like
doc_ev rel/a_result.md '## ../../passwd-like\n## ..\n' |
    "$RR" hook --rules docs.yaml >out 2>err
if grep -q 'no evidence for ../../passwd-like, ..' out; then
	ok "a block id with .. names no file: denied, never read outside"
else
	not_ok "a block id with .."; diag <out; diag <err
fi
# A FIFO and a link to a device where the evidence should be: no hang.
mkfifo rel/ev/TC-1
ln -s /dev/zero rel/ev/TC-2
doc_ev rel/a_result.md '## TC-1\n## TC-2\n' |
    timeout 20 "$RR" hook --rules docs.yaml >out 2>err
status=$?
if [ $status = 0 ] && grep -q 'no evidence for TC-1, TC-2' out; then
	ok "a FIFO and a device as related files: not files, no hang"
else
	not_ok "a FIFO and a device as related files (status $status)"
	diag <out; diag <err
fi
# A loop of links, and a mapping of 20 MB: not read, said; fail open,
# and deny where the file says on_error: deny.
ln -s loop-b rel/loop-a
ln -s loop-a rel/loop-b
doc_ev rel/a_result.md '## ../loop-a\n## loop-a\n' |
    "$RR" hook --rules docs.yaml >out 2>err
if grep -q 'no evidence for ../loop-a, loop-a' out; then
	ok "a loop of links is no file"
else
	not_ok "a loop of links"; diag <out; diag <err
fi
head -c 20971520 /dev/zero | tr '\0' ' ' >rel/big_map.json
doc_ev rel/ev/TC-3.json '{}' | "$RR" hook --rules docs.yaml >out 2>err
if [ ! -s out ] && grep -q 'a file past 16 MB' err; then
	ok "a 20 MB related file: not read, said, allowed"
else
	not_ok "a 20 MB related file"; diag <out; diag <err
fi
sed 's/^rules:/on_error: deny\nrules:/' docs.yaml >docs-closed.yaml
doc_ev rel/ev/TC-3.json '{}' | "$RR" hook --rules docs-closed.yaml >out 2>err
if grep -q '"permissionDecision":"deny"' out; then
	ok "a 20 MB related file under on_error: deny: denied"
else
	not_ok "a 20 MB related file under on_error: deny"; diag <out; diag <err
fi
rm rel/big_map.json
# 200,000 blocks, each naming its own file: bounded, and decided.
awk 'BEGIN { for (i = 0; i < 200000; i++) printf "## TC-%d\\n", i }' >many.txt
doc_ev rel/a_result.md "$(cat many.txt)" | timeout 60 "$RR" hook --rules docs.yaml >out 2>err
status=$?
if [ $status = 0 ] && grep -q 'no evidence for TC-0, TC-1, ' out; then
	ok "200,000 blocks with a related file each: decided, in time"
else
	not_ok "200,000 blocks (status $status)"; diag <err
fi
done_testing
