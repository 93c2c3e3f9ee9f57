#!/bin/sh
# Where rules and data come from (places.h).  The project root is, for
# every command alike, CLAUDE_PROJECT_DIR, else the git work tree holding
# the event's cwd (the current directory for lint, test, compile, init),
# else that directory; lint and test that find no rule file fail.  The
# data directory is REFLEXION_HOME (a leading ~ expanded), else
# HOME/.reflexion, else none at all; a relative one, or one that is not
# this user's alone, is refused.
. "$SRCDIR/tests/lib.sh"

cd "$TMPROOT" || exit 99
ENVI="env -i PATH=$PATH LC_ALL=C REFLEXION_DEADLINE_MS=$REFLEXION_DEADLINE_MS"
export REFLEXION_HOME=$TMPROOT/home
mkdir -p "$REFLEXION_HOME"

# rules_file FILE [broken]: a deny rule on src/**/*.ts relative to the
# project root, with a passing test, and a failing one when asked.
rules_file() {
	mkdir -p "$(dirname "$1")"
	cat >"$1" <<'YAML'
version: 1
rules:
  - id: no-ts-edit
    on: PreToolUse
    tools: [Edit]
    when: {path: 'src/**/*.ts'}
    action: deny
    message: 'no edits to {{path}}'
    tests:
      - event: {tool_name: Edit, tool_input: {file_path: src/a/b.ts, new_string: x}}
        expect: deny
YAML
	if [ "${2:-}" = broken ]; then
		cat >>"$1" <<'YAML'
      - event: {tool_name: Edit, tool_input: {file_path: lib/c.ts, new_string: x}}
        expect: deny
YAML
	fi
}

G=$TMPROOT/g
mkdir -p "$G/.git" "$G/src/deep"
rules_file "$G/.reflexion/rules/r.yaml" broken

# test and lint from a subdirectory, with no environment at all.
(cd "$G/src/deep" && $ENVI "$RR" test >../../../out 2>../../../err)
status=$?
if [ $status = 1 ] && grep -q '1 passed, 1 failed' out &&
    grep -q "project $G;" err; then
	ok "test in a subdirectory of a git project, no environment: fails"
else
	not_ok "test in a subdirectory (status $status)"; diag <out; diag <err
fi
(cd "$G/src/deep" && $ENVI "$RR" lint >../../../out 2>../../../err)
status=$?
if [ $status = 0 ] && grep -q 'ok: 1 rule in 1 file' out &&
    grep -q "looked for in /etc/reflexion-rules/rules, $G/.reflexion/rules, $G/.claude/skills/skill-rules.json, $G/.reflexion/rules.local" err; then
	ok "lint in a subdirectory: the project's rules, and where it looked"
else
	not_ok "lint in a subdirectory (status $status)"; diag <out; diag <err
fi

# A git worktree or submodule: .git is a file.
W=$TMPROOT/w
mkdir -p "$W/src"
echo "gitdir: $G/.git/worktrees/w" >"$W/.git"
rules_file "$W/.reflexion/rules/r.yaml" broken
(cd "$W/src" && $ENVI "$RR" test >../../out 2>../../err)
status=$?
if [ $status = 1 ] && grep -q '1 failed' out; then
	ok "a worktree (.git file): found from its subdirectory"
else
	not_ok "a worktree (status $status)"; diag <out; diag <err
fi

# CLAUDE_PROJECT_DIR still wins.
C=$TMPROOT/c
rules_file "$C/.reflexion/rules/r.yaml"
(cd "$G/src/deep" && CLAUDE_PROJECT_DIR=$C "$RR" test >../../../out 2>&1)
status=$?
if [ $status = 0 ] && grep -q '1 passed, 0 failed' out; then
	ok "CLAUDE_PROJECT_DIR wins over the git work tree"
else
	not_ok "CLAUDE_PROJECT_DIR wins (status $status)"; diag <out
fi

# A project with no rules: lint and test fail and say where they looked.
E=$TMPROOT/e
mkdir -p "$E/.git" "$E/sub"
for cmd in lint test; do
	(cd "$E/sub" && "$RR" $cmd >../../out 2>../../err)
	status=$?
	if [ $status = 1 ] && grep -q "$cmd: no rule file found; looked in $REFLEXION_SYSTEM_DIR/rules, $REFLEXION_HOME/config.yaml (packs, sources), $REFLEXION_HOME/rules, $E/.reflexion/rules, $E/.claude/skills/skill-rules.json, $E/.reflexion/rules.local" err; then
		ok "$cmd in a project without rules: exit 1, every place named"
	else
		not_ok "$cmd in a project without rules (status $status)"
		diag <out; diag <err
	fi
	mkdir -p empty
	"$RR" $cmd empty >out 2>err
	status=$?
	if [ $status = 1 ] && grep -q "no rule file found; looked in empty" err
	then
		ok "$cmd PATH without a rule file: exit 1"
	else
		not_ok "$cmd PATH without a rule file (status $status)"; diag <err
	fi
done

# The hook and explain: the project of the event's cwd, paths relative
# to its root.
edit="{\"session_id\":\"s\",\"hook_event_name\":\"PreToolUse\",\"cwd\":\"$G/src/deep\",\"tool_name\":\"Edit\",\"tool_input\":{\"file_path\":\"$G/src/deep/x.ts\",\"new_string\":\"y\"}}"
printf '%s' "$edit" | "$RR" hook >out 2>err
if grep -q '"permissionDecision":"deny"' out &&
    grep -q 'no edits to src/deep/x.ts' out; then
	ok "hook: the git project of the event's cwd, paths from its root"
else
	not_ok "hook: the git project of the event's cwd"; diag <out; diag <err
fi
printf '%s' "$edit" | "$RR" explain >out 2>err
if grep -q 'path: src/deep/x.ts' out && grep -q 'no-ts-edit' out &&
    grep -q 'permissionDecision.*deny' out; then
	ok "explain: the same project"
else
	not_ok "explain: the same project"; diag <out; diag <err
fi

# compile in a subdirectory builds the cache the hook then uses.
rm -rf "$REFLEXION_HOME/cache"
(cd "$G/src" && "$RR" compile >/dev/null 2>&1)
printf '%s' "$edit" | REFLEXION_CACHE_TRACE=1 "$RR" hook >out 2>err
if grep -q 'cache: hit' err && grep -q deny out; then
	ok "compile in a subdirectory: the hook's cache"
else
	not_ok "compile in a subdirectory: the hook's cache"; diag <err
fi

# init in a subdirectory registers the hook at the root.
(cd "$G/src/deep" && "$RR" init >../../../out 2>&1)
if [ -f "$G/.claude/settings.json" ] && [ ! -e "$G/src/deep/.claude" ] &&
    grep -q "in $G/.claude/settings.json" out; then
	ok "init in a subdirectory: the project root's settings.json"
else
	not_ok "init in a subdirectory"; diag <out
fi

# No home at all: project rules still apply, one line says what is off.
printf '%s' "$edit" | (cd "$G" && $ENVI "$RR" hook >../out 2>../err)
if grep -q deny out && [ "$(wc -l <err)" = 1 ] &&
    grep -q 'neither REFLEXION_HOME nor HOME is set' err &&
    [ ! -e "$G/.reflexion/cache" ] && [ ! -e "$G/cache" ]; then
	ok "no HOME, no REFLEXION_HOME: project rules, one stderr line"
else
	not_ok "no HOME, no REFLEXION_HOME"; diag <out; diag <err
fi
for cmd in "kb list" compile; do
	$ENVI "$RR" $cmd >out 2>err
	status=$?
	if [ $status = 2 ] && grep -q 'neither REFLEXION_HOME nor HOME' err
	then
		ok "$cmd without a home: exit 2, says why"
	else
		not_ok "$cmd without a home (status $status)"; diag <err
	fi
done

# A leading ~ is HOME; other relative homes are refused.
mkdir -p fakehome/rr/rules
cat >fakehome/rr/rules/u.yaml <<'YAML'
version: 1
rules:
  - id: user-rule
    on: PreToolUse
    tools: [Bash]
    when: {command: 'reboot'}
    action: deny
    message: 'USER-RULE-FIRED'
YAML
reboot="{\"session_id\":\"s\",\"hook_event_name\":\"PreToolUse\",\"cwd\":\"$E\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"reboot\"}}"
printf '%s' "$reboot" | (cd "$E" && HOME=$TMPROOT/fakehome \
    REFLEXION_HOME='~/rr' "$RR" hook >../out 2>../err)
if grep -q 'USER-RULE-FIRED' out && [ ! -e "$E/~" ] &&
    [ -d fakehome/rr/cache ] && [ ! -s err ]; then
	ok "REFLEXION_HOME=~/rr is HOME/rr; no ~ directory"
else
	not_ok "REFLEXION_HOME=~/rr"; diag <out; diag <err; ls -a "$E" | diag
fi
# The deny above was counted in that home's session state; a relative
# home must make none.
rm -rf fakehome/rr/state
for rh in rr 'fakehome/rr' '~other/rr' './rr'; do
	printf '%s' "$reboot" | (cd "$TMPROOT" && REFLEXION_HOME=$rh \
	    "$RR" hook >out 2>err)
	if ! grep -q 'USER-RULE-FIRED' out && grep -q 'systemMessage' out &&
	    grep -q "$rh: .*REFLEXION_HOME is not an absolute path" err &&
	    [ ! -e "$TMPROOT/rr" ] && [ ! -e "$TMPROOT/~other" ] &&
	    [ ! -e fakehome/rr/state ]; then
		ok "REFLEXION_HOME=$rh (relative): refused, said, nothing made"
	else
		not_ok "REFLEXION_HOME=$rh (relative)"; diag <out; diag <err
	fi
done
printf '%s' "$reboot" | env -u HOME REFLEXION_HOME='~/rr' "$RR" hook \
    >out 2>err
if ! grep -q 'USER-RULE-FIRED' out &&
    grep -q '~/rr: .*REFLEXION_HOME starts with ~ and HOME is not set' err; then
	ok "REFLEXION_HOME=~/rr without HOME: refused"
else
	not_ok "REFLEXION_HOME=~/rr without HOME"; diag <out; diag <err
fi

# A home others can write, or that is not ours, is refused; lint fails.
cp -r fakehome/rr open
rm -rf open/cache
chmod 777 open
printf '%s' "$reboot" | REFLEXION_HOME=$TMPROOT/open "$RR" hook >out 2>err
if ! grep -q 'USER-RULE-FIRED' out && grep -q 'systemMessage' out &&
    grep -q "open: .*is writable by others" err && [ ! -d open/cache ]; then
	ok "a home of mode 777: refused, the user is told"
else
	not_ok "a home of mode 777"; diag <out; diag <err
fi
REFLEXION_HOME=$TMPROOT/open "$RR" lint >out 2>err
status=$?
if [ $status = 1 ] && grep -q "open: error: is writable by others" out; then
	ok "lint: a refused home is an error"
else
	not_ok "lint: a refused home (status $status)"; diag <out; diag <err
fi
chmod 755 open
chmod 777 open/rules
printf '%s' "$reboot" | REFLEXION_HOME=$TMPROOT/open "$RR" hook >out 2>err
if ! grep -q 'USER-RULE-FIRED' out && grep -q "open/rules: .*is writable by others" err
then
	ok "a home whose rules/ others can write: refused"
else
	not_ok "a home whose rules/ others can write"; diag <out; diag <err
fi
chmod 775 open/rules
chgrp "$(id -g)" open/rules 2>/dev/null
printf '%s' "$reboot" | REFLEXION_HOME=$TMPROOT/open "$RR" hook >out 2>err
if grep -q 'USER-RULE-FIRED' out && [ ! -s err ]; then
	ok "group-writable by the user's own group (umask 002): used"
else
	not_ok "group-writable by the user's own group"; diag <out; diag <err
fi
if [ "$(id -u)" = 0 ] && chown 65534 open 2>/dev/null; then
	printf '%s' "$reboot" | REFLEXION_HOME=$TMPROOT/open "$RR" hook \
	    >out 2>err
	if ! grep -q 'USER-RULE-FIRED' out &&
	    grep -q "open: .*is not owned by this user" err; then
		ok "a home owned by another user: refused"
	else
		not_ok "a home owned by another user"; diag <out; diag <err
	fi
	chown 0 open
else
	skip "a home owned by another user: needs root to make one"
fi
# Rules without a single test: test checks nothing, and fails.
N=$TMPROOT/notests
mkdir -p "$N/.git" "$N/.reflexion/rules"
cat >"$N/.reflexion/rules/r.yaml" <<'YAML'
version: 1
rules:
  - id: untested
    on: Stop
    action: warn
    message: hi
YAML
(cd "$N" && REFLEXION_HOME=$TMPROOT/home "$RR" test >"$TMPROOT/out" 2>"$TMPROOT/err")
status=$?
if [ $status = 1 ] && grep -q '0 passed, 0 failed' out &&
    grep -q 'the one rule has no test' err; then
	ok "test on rules without a test: fails, and says so"
else
	not_ok "test on rules without a test (status $status)"; diag <out; diag <err
fi

done_testing
