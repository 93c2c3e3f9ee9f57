#!/bin/sh
# The compiled cache seen from the command line: it is rebuilt whenever a
# source changes (edit, touch, files added or removed, skill-rules.json,
# a source that appears, config.yaml and the packs, another engine), whatever has become of the
# file (truncated, flipped bytes, empty, another format, a directory, a
# symlink), by many hooks at once, and not at all where it cannot be
# written; and the answers are the same with and without it.
. "$SRCDIR/tests/lib.sh"

cd "$TMPROOT" || exit 99
export REFLEXION_HOME=$TMPROOT/home
P=$TMPROOT/proj
mkdir -p "$P/.reflexion/rules" "$P/.claude/skills" "$REFLEXION_HOME/rules"
cat >"$P/.reflexion/rules/a.yaml" <<'YAML'
version: 1
rules:
  - id: no-force
    on: PreToolUse
    tools: [Bash]
    when: {command: 'push\s+--force'}
    action: deny
    message: 'no force push: {{match}}'
YAML
cat >"$REFLEXION_HOME/rules/u.yaml" <<'YAML'
version: 1
rules:
  - id: user-ctx
    on: UserPromptSubmit
    when: {prompt: {keywords: [deploy]}}
    action: context
    message: 'user rule: read the deploy runbook'
YAML
cat >"$P/.claude/skills/skill-rules.json" <<'JSON'
{"version":"1.0","skills":{"db-skill":{"type":"domain","priority":"high","promptTriggers":{"keywords":["database"]}}}}
JSON
export CLAUDE_PROJECT_DIR=$P
push='{"session_id":"s","hook_event_name":"PreToolUse","cwd":"/p","tool_name":"Bash","tool_input":{"command":"git push --force origin"}}'
prompt='{"session_id":"s","hook_event_name":"UserPromptSubmit","cwd":"/p","prompt":"deploy the database"}'

# hook EVENT: runs the hook, leaves stdout in out, the cache trace in trace.
hook() {
	printf '%s' "$1" | REFLEXION_CACHE_TRACE=1 "$RR" hook >out 2>err
	grep 'cache:' err >trace
}
cache_is() {
	grep -q "cache: $1" trace
}
# Sources written within two seconds are re-checked by content, then
# refreshed once: settle until the cache is used as is.
settle() {
	for i in 1 2 3; do
		hook "$1"
		cache_is hit && return 0
	done
	return 1
}
denies() {
	grep -q '"permissionDecision":"deny"' out
}
cachefile() {
	ls "$REFLEXION_HOME"/cache/*.rrc 2>/dev/null | head -n 1
}

hook "$push"
if cache_is built && denies; then ok "cold: compiled, saved, denied"
else not_ok "cold: compiled, saved, denied"; diag <err; fi
if settle "$push" && denies; then ok "warm: answered from the cache"
else not_ok "warm: answered from the cache"; diag <err; fi
hook "$prompt"
if cache_is hit && grep -q 'user rule' out && grep -q 'db-skill' out; then
	ok "user, project and skill-rules.json sources in one cache"
else
	not_ok "all three sources in one cache"; diag <out; diag <err
fi

# Each change to a source rebuilds, and the answer follows the change.
# (Rewritten in place: sed -i would replace the file, and its directory.)
sed 's/push\\s+--force/push\\s+-f/' "$P/.reflexion/rules/a.yaml" >a.new
cat a.new >"$P/.reflexion/rules/a.yaml"
hook "$push"
if cache_is built && grep -q 'a.yaml changed' trace && ! denies; then
	ok "an edited rule file rebuilds the cache"
else
	not_ok "an edited rule file rebuilds the cache"; diag <trace; diag <out
fi
settle "$push" >/dev/null
touch "$P/.reflexion/rules/a.yaml"
hook "$push"
if cache_is built && grep -q 'a.yaml changed' trace; then
	ok "touch with the same size rebuilds"
else
	not_ok "touch with the same size rebuilds"; diag <trace
fi
settle "$push" >/dev/null
cat >"$P/.reflexion/rules/b.yaml" <<'YAML'
version: 1
rules:
  - id: no-force-long
    on: PreToolUse
    tools: [Bash]
    when: {command: {contains: ['--force']}}
    action: deny
    message: 'no --force'
YAML
hook "$push"
if cache_is built && grep -q 'rules changed' trace && denies; then
	ok "a file added to a rules directory rebuilds"
else
	not_ok "a file added to a rules directory rebuilds"; diag <trace; diag <out
fi
settle "$push" >/dev/null
rm "$P/.reflexion/rules/b.yaml"
hook "$push"
if cache_is built && ! denies; then ok "a removed file rebuilds"
else not_ok "a removed file rebuilds"; diag <trace; diag <out; fi
settle "$prompt" >/dev/null
sed -i 's/"database"/"deploy"/' "$P/.claude/skills/skill-rules.json"
hook "$prompt"
if cache_is built && grep -q 'skill-rules.json changed' trace &&
    grep -q 'db-skill' out; then
	ok "a changed skill-rules.json rebuilds"
else
	not_ok "a changed skill-rules.json rebuilds"; diag <trace; diag <out
fi
mv "$P/.claude/skills/skill-rules.json" skill-rules.json.aside
settle "$prompt" >/dev/null
mv skill-rules.json.aside "$P/.claude/skills/skill-rules.json"
hook "$prompt"
if cache_is built && grep -q 'db-skill' out; then
	ok "a source that appears rebuilds"
else
	not_ok "a source that appears rebuilds"; diag <trace; diag <out
fi

# Another engine: a copy of the binary is another engine to the key.
settle "$push" >/dev/null
cp "$RR" "$TMPROOT/rr-copy"
printf '%s' "$prompt" | REFLEXION_CACHE_TRACE=1 "$TMPROOT/rr-copy" hook \
    >out 2>err
if grep -q 'cache: built' err && grep -q 'no cache yet' err; then
	ok "another engine binary gets its own cache"
else
	not_ok "another engine binary gets its own cache"; diag <err
fi
rm -f "$TMPROOT/rr-copy"

# What can become of the file: always the right answer, then a valid cache.
sed -i 's/push\\s+-f/push\\s+--force/' "$P/.reflexion/rules/a.yaml"
rm -rf "$REFLEXION_HOME/cache"
settle "$push" >/dev/null
f=$(cachefile)
cp "$f" good.rrc
size=$(wc -c <good.rrc)
bad=0
for off in 0 1 8 12 40 100 191 192 300 600 1000 $((size / 2)) $((size - 100)) \
    $((size - 1)); do
	[ "$off" -lt "$size" ] || continue
	head -c "$off" good.rrc >"$f"
	hook "$push"
	if ! denies || ! cache_is built; then
		bad=$((bad + 1))
		echo "truncated at $off:" | diag
		diag <err
	fi
done
[ "$bad" = 0 ] && ok "truncated at 14 offsets: denied, rebuilt" ||
    not_ok "truncated caches ($bad wrong)"
bad=0
off=0
while [ "$off" -lt "$size" ]; do
	cp good.rrc "$f"
	printf '\377' | dd of="$f" bs=1 seek="$off" conv=notrunc 2>/dev/null
	hook "$push"
	denies || { bad=$((bad + 1)); echo "flipped at $off" | diag; diag <err; }
	off=$((off + size / 40 + 1))
done
[ "$bad" = 0 ] && ok "a byte overwritten at 40 offsets: still denied" ||
    not_ok "overwritten bytes ($bad wrong)"
# The stamp: a file written to after it was made is built again, even
# with the same bytes (touch).
settle "$push" >/dev/null
touch "$f"
hook "$push"
if denies && cache_is built && grep -q 'written to since' trace; then
	ok "a cache file touched after it was made: built again"
else
	not_ok "a cache file touched after it was made"; diag <trace
fi
# What the stamp cannot see (bytes changed in place, the time put back:
# bits rotting under the file system, or a forgery) may change which
# rules an event reaches, as an edit of the rules would; it never crashes
# the hook, which answers and exits 0.
settle "$push" >/dev/null
touch -r "$f" stamp.ref
cp "$f" good2.rrc
bad=0
off=0
while [ "$off" -lt "$size" ]; do
	printf '\377' | dd of="$f" bs=1 seek="$off" conv=notrunc 2>/dev/null
	touch -r stamp.ref "$f"
	printf '%s' "$push" | "$RR" hook >out 2>err
	st=$?
	if [ "$st" != 0 ] || [ "$(wc -l <out)" -gt 1 ]; then
		bad=$((bad + 1))
		echo "flipped at $off under its stamp: status $st" | diag
		diag <err
	fi
	dd if=good2.rrc of="$f" bs=1 skip="$off" seek="$off" count=1 \
	    conv=notrunc 2>/dev/null
	touch -r stamp.ref "$f"
	off=$((off + size / 40 + 1))
done
[ "$bad" = 0 ] && ok "a byte changed at 40 offsets under the file's stamp: an answer, exit 0" ||
    not_ok "bytes changed under the stamp ($bad wrong)"
: >"$f"
hook "$push"
if denies && cache_is built && [ -s "$f" ]; then ok "an empty file: rebuilt"
else not_ok "an empty file: rebuilt"; diag <err; fi
cp "$P/.reflexion/rules/a.yaml" "$f"
hook "$push"
if denies && cache_is built; then ok "a file of another format: rebuilt"
else not_ok "a file of another format: rebuilt"; diag <err; fi
rm -f "$f"
mkdir "$f"
printf '%s' "$push" | "$RR" hook >out 2>err
if denies && [ -d "$f" ] && grep -q 'cannot be saved' err &&
    [ "$(wc -l <out)" = 1 ] && [ "$(wc -l <err)" = 1 ]; then
	ok "a directory at the cache path: right answer, one stderr line"
else
	not_ok "a directory at the cache path"; diag <out; diag <err
fi
rmdir "$f"
echo 'precious' >precious
ln -s "$TMPROOT/precious" "$f"
hook "$push"
if denies && cache_is built && [ -f "$f" ] && [ ! -L "$f" ] &&
    [ "$(cat precious)" = precious ]; then
	ok "a symlink at the cache path: not followed, replaced"
else
	not_ok "a symlink at the cache path"; diag <err; ls -l "$f" | diag
fi
if settle "$push"; then ok "after all that, the cache is valid again"
else not_ok "after all that, the cache is valid again"; diag <err; fi

# Many hooks compiling at once.
rm -rf "$REFLEXION_HOME/cache"
i=0
while [ "$i" -lt 40 ]; do
	i=$((i + 1))
	printf '%s' "$push" | "$RR" hook >"par.out.$i" 2>"par.err.$i" &
done
wait
n=$(cat par.out.* | grep -c '"permissionDecision":"deny"')
if [ "$n" = 40 ] && ! cat par.err.* | grep -q .; then
	ok "40 hooks compiling at once: 40 denies, nothing on stderr"
else
	not_ok "40 hooks at once: $n denies"; cat par.err.* | sort | uniq -c | diag
fi
if settle "$push" && [ "$(ls -a "$REFLEXION_HOME/cache" | grep -c tmp)" = 0 ]; then
	ok "the cache they left is valid, no temporary files"
else
	not_ok "the cache they left is valid"; diag <err; ls -a "$REFLEXION_HOME/cache" | diag
fi

# A read-only cache directory (root writes anyway: then nothing to test).
rm -rf "$REFLEXION_HOME/cache"
mkdir "$REFLEXION_HOME/cache"
chmod 555 "$REFLEXION_HOME/cache"
if touch "$REFLEXION_HOME/cache/probe" 2>/dev/null; then
	rm -f "$REFLEXION_HOME/cache/probe"
	skip "read-only directory: running as root, permissions do not bind"
else
	printf '%s' "$push" | "$RR" hook >out 2>err
	if denies && [ "$(wc -l <out)" = 1 ] && grep -q 'cannot be saved' err; then
		ok "a read-only cache directory: right answer, one stderr line"
	else
		not_ok "a read-only cache directory"; diag <out; diag <err
	fi
fi
chmod 755 "$REFLEXION_HOME/cache"

# Off.
rm -rf "$REFLEXION_HOME/cache"
printf '%s' "$push" | REFLEXION_NO_CACHE=1 REFLEXION_CACHE_TRACE=1 "$RR" hook \
    >out 2>err
if denies && grep -q 'cache: off' err && [ ! -d "$REFLEXION_HOME/cache" ]; then
	ok "REFLEXION_NO_CACHE: compiled, nothing written"
else
	not_ok "REFLEXION_NO_CACHE"; diag <err
fi

# config.yaml and the packs are sources like the others: enabling,
# removing or editing a pack, or another packs directory, changes the very
# next answer, with no compile in between.
mkdir -p packs packs2
cat >packs/guard.yaml <<'YAML'
version: 1
rules:
  - id: no-reset
    on: PreToolUse
    tools: [Bash]
    when: {command: 'reset\s+--hard'}
    action: deny
    message: 'pack guard: no reset'
YAML
sed 's/pack guard: no reset/pack guard (2): no reset/' packs/guard.yaml \
    >packs2/guard.yaml
export REFLEXION_PACKS_DIR=$TMPROOT/packs
reset='{"session_id":"s","hook_event_name":"PreToolUse","cwd":"/p","tool_name":"Bash","tool_input":{"command":"git reset --hard"}}'
rm -f "$REFLEXION_HOME/config.yaml"
settle "$reset" >/dev/null
printf 'packs: [guard]\n' >"$REFLEXION_HOME/config.yaml"
hook "$reset"
if denies && grep -q 'pack guard: no reset' out && cache_is built &&
    grep -q 'config.yaml changed' trace; then
	ok "a pack enabled in config.yaml denies on the very next call"
else
	not_ok "a pack enabled in config.yaml"; diag <trace; diag <out
fi
if settle "$reset" && denies; then ok "then from the cache"
else not_ok "then from the cache"; diag <trace; fi
printf 'packs: []\n' >"$REFLEXION_HOME/config.yaml"
hook "$reset"
if ! denies && cache_is built; then
	ok "a pack removed from config.yaml stops denying at once"
else
	not_ok "a pack removed from config.yaml"; diag <trace; diag <out
fi
printf 'packs: [guard]\n' >"$REFLEXION_HOME/config.yaml"
settle "$reset" >/dev/null
sed 's/reset/rebase/' packs/guard.yaml >guard.new
cat guard.new >packs/guard.yaml
hook "$reset"
if ! denies && cache_is built && grep -q 'guard.yaml changed' trace; then
	ok "an edited pack file rebuilds"
else
	not_ok "an edited pack file rebuilds"; diag <trace; diag <out
fi
REFLEXION_PACKS_DIR=$TMPROOT/packs2
hook "$reset"
if denies && grep -q 'pack guard (2)' out && cache_is built; then
	ok "REFLEXION_PACKS_DIR elsewhere: that directory's packs"
else
	not_ok "REFLEXION_PACKS_DIR elsewhere"; diag <trace; diag <out
fi
REFLEXION_PACKS_DIR=$TMPROOT/packs
printf 'packs: [guard, later]\n' >"$REFLEXION_HOME/config.yaml"
settle "$reset" >/dev/null
cp packs2/guard.yaml packs/later.yaml
sed -i 's/no-reset/later-reset/' packs/later.yaml
hook "$reset"
if denies && grep -q 'pack guard (2)' out && cache_is built &&
    ! grep -q systemMessage out; then
	ok "a pack installed after config.yaml named it: loaded"
else
	not_ok "a pack installed after config.yaml named it"; diag <trace; diag <out
fi
rm packs/later.yaml
# The broken-rules systemMessage is shown once per session and set of
# errors, and this set was shown before the pack was installed: a new
# session sees it.
rm -rf "$REFLEXION_HOME/state"
hook "$reset"
if ! denies && grep -q "unknown pack 'later'" out && cache_is built; then
	ok "a pack uninstalled: gone, and the error shown"
else
	not_ok "a pack uninstalled"; diag <trace; diag <out
fi
printf 'packs: [guard\n' >"$REFLEXION_HOME/config.yaml"
hook "$reset"
rm -rf "$REFLEXION_HOME/state"		# a new session
hook "$reset"
if cache_is hit && grep -q 'systemMessage' out &&
    grep -q 'config.yaml:2:1: error' out; then
	ok "a config.yaml with an error: shown, and still shown from the cache"
else
	not_ok "a config.yaml with an error"; diag <trace; diag <out
fi
rm -f "$REFLEXION_HOME/config.yaml"
unset REFLEXION_PACKS_DIR

# A pinned team source is a source like the others: a changed file in it
# rebuilds the cache, and the digest is checked again, disabling the
# source; put back, it is loaded again.  Trust and the system layer too.
mkdir -p team/sub
cat >team/sub/team.yaml <<'YAML'
version: 1
rules:
  - id: team-no-reset
    on: PreToolUse
    tools: [Bash]
    when: {command: 'reset\s+--hard'}
    action: deny
    message: 'team guard: no reset'
YAML
{ echo 'sources:'; "$RR" rules --digest team; } >"$REFLEXION_HOME/config.yaml"
rm -rf "$REFLEXION_HOME/state"
hook "$reset"
if denies && grep -q 'team guard' out && cache_is built; then
	ok "a pinned source is loaded"
else
	not_ok "a pinned source is loaded"; diag <trace; diag <out
fi
settle "$reset" >/dev/null
cp team/sub/team.yaml team.yaml.orig
sed 's/no reset/no reset!/' team/sub/team.yaml >team.new
cat team.new >team/sub/team.yaml
hook "$reset"
if ! denies && cache_is built && grep -q 'team.yaml changed' trace &&
    grep -q 'pinned source .*team has changed' out; then
	ok "a file of a pinned source edited: the cache is rebuilt, the digest checked again, the source disabled"
else
	not_ok "a file of a pinned source edited"; diag <trace; diag <out
fi
if settle "$reset" && ! denies && grep -q 'RR0702' err; then
	ok "and still disabled from the cache"
else
	not_ok "still disabled from the cache"; diag <trace; diag <err
fi
cat team.yaml.orig >team/sub/team.yaml
hook "$reset"
if denies && cache_is built; then ok "put back: loaded again"
else not_ok "put back: loaded again"; diag <trace; diag <out; fi
settle "$reset" >/dev/null
printf 'version: 1\nrules: []\n' >team/extra.yml
hook "$reset"
if ! denies && cache_is built && grep -q 'RR0702' err; then
	ok "a file added to a pinned source disables it"
else
	not_ok "a file added to a pinned source"; diag <trace; diag <err
fi
rm team/extra.yml
rm -f "$REFLEXION_HOME/config.yaml"
allow='{"session_id":"s","hook_event_name":"PreToolUse","cwd":"/p","tool_name":"Bash","tool_input":{"command":"ls"}}'
cat >"$P/.reflexion/rules/ok.yaml" <<'YAML'
version: 1
rules:
  - id: ls-ok
    on: PreToolUse
    tools: [Bash]
    when: {command: '^ls$'}
    action: allow
YAML
settle "$allow" >/dev/null
if ! grep -q allow out && grep -q 'is not trusted' err; then
	ok "an untrusted project's allow: no decision, from the cache too"
else
	not_ok "an untrusted project's allow"; diag <out; diag <err
fi
(cd "$P" && "$RR" trust >/dev/null)
hook "$allow"
if grep -q '"permissionDecision":"allow"' out && cache_is built; then
	ok "trusted with 'reflexion-rules trust': allows on the very next call"
else
	not_ok "trusted: allows on the very next call"; diag <trace; diag <out
fi
rm -f "$REFLEXION_HOME/config.yaml" "$P/.reflexion/rules/ok.yaml"
settle "$reset" >/dev/null
mkdir -p "$REFLEXION_SYSTEM_DIR/rules"
sed 's/team-no-reset/sys-no-reset/; s/team guard/system guard/' \
    team/sub/team.yaml >"$REFLEXION_SYSTEM_DIR/rules/sys.yaml"
hook "$reset"
if denies && grep -q 'system guard' out && cache_is built; then
	ok "system rules that appear rebuild the cache"
else
	not_ok "system rules that appear"; diag <trace; diag <out
fi
rm -rf "$REFLEXION_SYSTEM_DIR"

# The repository's rule files: the same replies, traces and test results.
# Each compared call starts a new session's state: the broken-rules
# message is shown once per session.
unset CLAUDE_PROJECT_DIR
bad=0
for rules in "$SRCDIR/rules" "$SRCDIR/tests/rules" \
    "$SRCDIR/tests/fixtures/protocol.yaml" "$SRCDIR/tests/lint"; do
	for ev in "$SRCDIR"/tests/events/*.json; do
		for cmd in hook explain; do
			rm -rf "$REFLEXION_HOME/state"
			REFLEXION_NO_CACHE=1 "$RR" $cmd --rules "$rules" <"$ev" \
			    >fresh.out 2>fresh.err
			"$RR" $cmd --rules "$rules" <"$ev" >/dev/null 2>&1
			rm -rf "$REFLEXION_HOME/state"
			"$RR" $cmd --rules "$rules" <"$ev" >cached.out 2>cached.err
			if ! cmp -s fresh.out cached.out ||
			    ! cmp -s fresh.err cached.err; then
				bad=$((bad + 1))
				echo "$cmd --rules $rules < $ev" | diag
				diff fresh.out cached.out | diag
			fi
		done
	done
	REFLEXION_NO_CACHE=1 "$RR" test "$rules" >fresh.out 2>&1
	"$RR" test "$rules" >/dev/null 2>&1
	"$RR" test "$rules" >cached.out 2>&1
	cmp -s fresh.out cached.out || { bad=$((bad + 1)); echo "test $rules" | diag; }
done
[ "$bad" = 0 ] && ok "hook, explain and test: identical with and without cache" ||
    not_ok "with and without cache: $bad differences"
# A hook call leaves what it built (the cache's mapping among it) to the
# process exit, unless REFLEXION_FREE_AT_EXIT asks it to free each piece
# (hook.c): the answer is the same, and with strace one munmap() fewer.
# A sanitizer build always frees (and its leak checker cannot run under
# ptrace).
if nm "$RR" 2>/dev/null | grep -q __asan_init; then
	skip "a sanitizer build frees at exit"
elif command -v strace >/dev/null 2>&1 &&
    strace -o trace -e trace=munmap true 2>/dev/null; then
	a=$P/.reflexion/rules/a.yaml
	echo "$push" | "$RR" hook --rules "$a" >/dev/null 2>&1
	echo "$push" | strace -o trace.kept -e trace=munmap "$RR" hook \
	    --rules "$a" >kept.out 2>&1
	echo "$push" | REFLEXION_FREE_AT_EXIT=1 strace -o trace.freed \
	    -e trace=munmap "$RR" hook --rules "$a" >freed.out 2>&1
	kept=$(grep -c '^munmap(' trace.kept)
	freed=$(grep -c '^munmap(' trace.freed)
	cmp -s kept.out freed.out && grep -q deny kept.out &&
	    [ "$freed" -eq $((kept + 1)) ] &&
	    ok "the hook leaves the cache mapped to the exit ($kept munmap, $freed when freeing)" ||
	    not_ok "munmap calls: $kept kept, $freed freed; replies: $(cat kept.out freed.out)"
else
	skip "strace cannot trace here"
fi
done_testing
