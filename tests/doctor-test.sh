#!/bin/sh
# reflexion-rules doctor: every check, failing and passing, with fake
# agent clients on PATH (small scripts that print a version), and the fix
# it prints for each problem.
. "$SRCDIR/tests/lib.sh"

T=$TMPROOT
BIN=$T/bin
P=$T/proj
mkdir -p "$BIN" "$P/.git"
BASEPATH=/usr/local/bin:/usr/bin:/bin
export REFLEXION_PACKS_DIR="$SRCDIR/rules"

# client NAME VERSION-LINE: a fake client that prints it for --version.
client() {
	printf '#!/bin/sh\necho "%s"\n' "$2" >"$BIN/$1"
	chmod +x "$BIN/$1"
}

# doc ARGS...: runs doctor in the project, HOME $T/home, PATH $BIN first;
# stdout in $T/out, the status in $st.
doc() {
	(cd "$P" && HOME=$T/home PATH=$BIN:$BASEPATH "$RR" doctor "$@") \
	    >"$T/out" 2>"$T/err"
	st=$?
}

# has TEXT: a line of the last output holds TEXT.
has() {
	grep -qF -- "$1" "$T/out"
}

# check_doc DESCRIPTION STATUS TEXT...: the last run's status and lines.
check_doc() {
	d=$1 want=$2
	shift 2
	good=1
	[ "$st" = "$want" ] || good=0
	for t in "$@"; do
		has "$t" || good=0
	done
	if [ $good = 1 ]; then
		ok "$d"
	else
		not_ok "$d"
		{ echo "status $st, want $want"; cat "$T/out" "$T/err"; } | diag
	fi
}

# Nothing set up: no registration, no pack, the program not on PATH.
mkdir -p "$T/home"
doc
check_doc "nothing set up: exit 1, Claude Code not registered, init fixes it" 1 \
    "problem  Claude Code  Claude Code does not run the hook" \
    "fix: reflexion-rules init"
check_doc "nothing set up: no rule active, and the pack to turn on" 1 \
    "problem  rules        no rule is active in $P" \
    "fix: echo 'packs: [dangerous-commands]' >> $T/home/.reflexion/config.yaml" \
    "note     config       no $T/home/.reflexion/config.yaml: no pack is enabled"
check_doc "nothing set up: the data directory, database and state are fine" 1 \
    "ok       data         $T/home/.reflexion" \
    "ok       database     $T/home/.reflexion/data/reflexion.db: not made yet" \
    "ok       state        $T/home/.reflexion/state: made on first use"
has "everything is in order" && not_ok "nothing set up: not in order" ||
    ok "nothing set up: not in order"

# The README's steps: on PATH, init, a pack; a current Claude Code.
ln -s "$RR" "$BIN/reflexion-rules"
client claude "2.1.332 (Claude Code)"
(cd "$P" && HOME=$T/home PATH=$BIN:$BASEPATH "$RR" init) >/dev/null 2>&1
mkdir -p "$T/home/.reflexion"
echo 'packs: [dangerous-commands]' >"$T/home/.reflexion/config.yaml"
doc
check_doc "set up as the README says: everything in order, exit 0" 0 \
    "ok       program      $BIN/reflexion-rules, the reflexion-rules on PATH" \
    "ok       Claude Code  registered in $P/.claude/settings.json (project scope): 8 events" \
    "ok       Claude Code  Claude Code 2.1.332 ($BIN/claude): no known client bug" \
    "ok       config       $T/home/.reflexion/config.yaml: 1 pack enabled" \
    "ok       packs        $SRCDIR/rules (REFLEXION_PACKS_DIR):" \
    "ok       schema       $SRCDIR/schemas/rules.schema.json" \
    "ok       cache        $T/home/.reflexion/cache/" \
    "everything is in order"
if grep -q '^ok       rules        [1-9][0-9]* rules active' "$T/out"; then
	ok "set up: the pack's rules are active"
else
	not_ok "set up: the pack's rules are active"
	diag <"$T/out"
fi
doc
check_doc "a second run finds the cache up to date" 0 \
    "ok       cache        $T/home/.reflexion/cache/" "is up to date"
doc --format json
if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["problems"] == 0; assert all(c["status"] in ("ok","note","problem") for c in d["checks"])' "$T/out" 2>"$T/err"; then
	ok "--format json: one JSON object, its problems counted"
else
	not_ok "--format json: one JSON object, its problems counted"
	cat "$T/out" "$T/err" | diag
fi

# The client's version against the known bugs.
client claude "2.1.80 (Claude Code)"
doc
check_doc "Claude Code 2.1.80: the bugs it has, with the upgrade" 1 \
    "problem  Claude Code  Claude Code 2.1.80 runs a command a rule asks about without asking when it matches --allowedTools (fixed in 2.1.85)" \
    "problem  Claude Code  Claude Code 2.1.80 rejects the context of a Stop reply" \
    "fix: npm install -g @anthropic-ai/claude-code@latest"
if has "drops the context of a PreToolUse"; then
	not_ok "Claude Code 2.1.80: not the bug fixed in 2.1.9"
else
	ok "Claude Code 2.1.80: not the bug fixed in 2.1.9"
fi
client claude "2.1.8"
doc
check_doc "Claude Code 2.1.8: the PreToolUse context bug too" 1 \
    "Claude Code 2.1.8 drops the context of a PreToolUse reply"
client claude "2.1.78 (Claude Code)"
doc
check_doc "Claude Code 2.1.78: the permissionDecision report" 1 \
    "Claude Code 2.1.78 was reported to ignore permissionDecision"
client claude "2.1.200 (Claude Code)"
doc
check_doc "Claude Code 2.1.200: no bug, older than the version tested" 0 \
    "no known client bug" \
    "note     Claude Code  Claude Code 2.1.200 is older than 2.1.332"
printf '#!/bin/sh\nexec sleep 30\n' >"$BIN/claude"
start=$(date +%s)
doc
end=$(date +%s)
check_doc "a client that hangs: given up on, said so" 0 \
    "'$BIN/claude --version' did not answer within 3000 ms"
if [ $((end - start)) -lt 15 ]; then
	ok "a client that hangs holds doctor about 3 s ($((end - start)) s)"
else
	not_ok "a client that hangs holds doctor about 3 s ($((end - start)) s)"
fi
printf '#!/bin/sh\necho broken >&2\nexit 3\n' >"$BIN/claude"
doc
check_doc "a client whose --version fails: said so" 0 \
    "'$BIN/claude --version' failed (exit status 3)"
client claude "2.1.332 (Claude Code)"

# Registrations: part of the events; a program that is not there; by
# the bare name without it on PATH; a file that is not JSON.
cp "$P/.claude/settings.json" "$T/settings.json"
python3 - "$P/.claude/settings.json" <<'PY'
import json, sys
p = sys.argv[1]
d = json.load(open(p))
del d["hooks"]["Stop"]
json.dump(d, open(p, "w"))
PY
doc
check_doc "a registration missing an event: which, and init to fix it" 1 \
    "runs the hook on 7 of its 8 events; not on Stop" \
    "fix: reflexion-rules init --agent claude --scope project"
(cd "$P" && HOME=$T/home PATH=$BIN:$BASEPATH "$RR" init) >/dev/null 2>&1
doc
check_doc "init adds the missing event back" 0 "8 events"
sed "s|\"reflexion-rules hook\"|\"$T/gone/reflexion-rules hook\"|" \
    "$T/settings.json" >"$P/.claude/settings.json"
doc
check_doc "a registered program that is not there: uninstall, then init" 1 \
    "runs '$T/gone/reflexion-rules hook', and $T/gone/reflexion-rules cannot be run" \
    "fix: reflexion-rules init --uninstall --agent claude --scope project && reflexion-rules init --agent claude --scope project"
(cd "$P" && HOME=$T/home PATH=$BIN:$BASEPATH sh -c \
    'reflexion-rules init --uninstall --agent claude --scope project && reflexion-rules init --agent claude --scope project') >/dev/null 2>&1
doc
check_doc "... which that fix mends" 0 "8 events"
cp "$T/settings.json" "$P/.claude/settings.json"
rm "$BIN/reflexion-rules"
doc
check_doc "a bare registration without the program on PATH" 1 \
    "problem  program      reflexion-rules is not on PATH, and a registration runs it by that name" \
    "fix: make install (or reflexion-rules init --uninstall, then reflexion-rules init"
ln -s "$RR" "$BIN/reflexion-rules"
echo '{"hooks": ' >"$P/.claude/settings.json"
doc
check_doc "a settings file that is not JSON" 1 \
    "problem  Claude Code  $P/.claude/settings.json (project scope): it is not JSON"
if grep -q "fix: cp $P/.claude/settings.json.bak" "$T/out"; then
	ok "a settings file that is not JSON: init's backup named"
else
	not_ok "a settings file that is not JSON: init's backup named"
	diag <"$T/out"
fi
cp "$T/settings.json" "$P/.claude/settings.json"

# Other agents: named, registered, installed but not registered.
doc --agent gemini
check_doc "--agent gemini, not registered: init --agent gemini fixes it" 1 \
    "problem  Gemini CLI   Gemini CLI does not run the hook" \
    "fix: reflexion-rules init --agent gemini"
if has "Claude Code"; then
	not_ok "--agent gemini checks Gemini CLI only"
else
	ok "--agent gemini checks Gemini CLI only"
fi
client gemini "0.61.0"
doc
check_doc "Gemini CLI installed but not registered: a note, not a problem" 0 \
    "note     Gemini CLI   Gemini CLI is installed ($BIN/gemini) but does not run the hook" \
    "fix: reflexion-rules init --agent gemini"
(cd "$P" && HOME=$T/home PATH=$BIN:$BASEPATH "$RR" init --agent gemini \
    --agent cursor) >/dev/null 2>&1
doc --agent gemini --agent cursor
check_doc "Gemini CLI and Cursor registered" 0 \
    "ok       Gemini CLI   registered in $P/.gemini/settings.json (project scope): 6 events" \
    "ok       Gemini CLI   Gemini CLI 0.61.0 ($BIN/gemini): no known client bug" \
    "ok       Cursor       registered in $P/.cursor/hooks.json (project scope): 10 events"
(cd "$P" && HOME=$T/home PATH=$BIN:$BASEPATH "$RR" init --agent codex \
    --scope user) >/dev/null 2>&1
doc --agent codex
check_doc "Codex registered in the user's scope" 0 \
    "ok       Codex        registered in $T/home/.codex/hooks.json (user scope): 6 events" \
    "note     Codex        codex is not on PATH: its version was not checked"
doc --agent frob
if [ "$st" = 2 ] && grep -q "unknown agent 'frob'" "$T/err"; then
	ok "an unknown agent is a usage error"
else
	not_ok "an unknown agent is a usage error (status $st)"
fi

# The user's side: config.yaml, the packs, the rules, cache, database,
# state, the data directory.
printf 'packs: [dangerous-commands]\nfrob: 1\n' >"$T/home/.reflexion/config.yaml"
doc
check_doc "config.yaml with an error: lint shows it" 1 \
    "problem  config       $T/home/.reflexion/config.yaml has 1 error (line 2: unknown key 'frob' in config.yaml)" \
    "fix: reflexion-rules lint"
echo 'packs: [dangerous-commands]' >"$T/home/.reflexion/config.yaml"
REFLEXION_PACKS_DIR=$T/nowhere doc
check_doc "the packs are not installed: make install" 1 \
    "problem  packs        $T/nowhere (REFLEXION_PACKS_DIR): No such file or directory" \
    "fix: make install"
mkdir -p "$P/.reflexion/rules"
printf 'version: 1\nrules:\n  - id: x\n    on: Nope\n' >"$P/.reflexion/rules/bad.yaml"
doc
check_doc "a rule file with errors: the rules are not all active" 1 \
    "problem  rules        2 errors in rule files" "fix: reflexion-rules lint"
rm "$P/.reflexion/rules/bad.yaml"
rm -rf "$T/home/.reflexion/cache"
echo 'not a directory' >"$T/home/.reflexion/cache"
doc
check_doc "a cache that cannot be written" 1 \
    "problem  cache        the compiled cache cannot be written"
rm "$T/home/.reflexion/cache"
REFLEXION_NO_CACHE=1 doc
check_doc "REFLEXION_NO_CACHE: a note" 0 \
    "note     cache        REFLEXION_NO_CACHE is set" "fix: unset REFLEXION_NO_CACHE"
mkdir -p "$T/home/.reflexion/data"
(cd "$P" && HOME=$T/home "$RR" kb add 'Error: x' 'fixed') >/dev/null 2>&1
doc
check_doc "a whole database: its entries counted" 0 \
    "ok       database     $T/home/.reflexion/data/reflexion.db: whole, 1 knowledge-base entry"
# A hook's recorded call waits in the journal; a torn line beside it.
printf 'version: 1\nrules:\n  - id: rec\n    on: PostToolUse\n    action: record\n' >"$T/rec.yaml"
printf '{"session_id":"d","hook_event_name":"PostToolUse","cwd":"%s","tool_name":"Bash","tool_input":{"command":"ls"}}' "$P" |
    (cd "$P" && HOME=$T/home "$RR" hook --rules "$T/rec.yaml") >/dev/null 2>&1
printf 'RRJ1 12 torn' >>"$T/home/.reflexion/data/reflexion.db.pending"
doc
check_doc "a journal: its calls counted, a damaged line noted" 0 \
    "ok       journal      $T/home/.reflexion/data/reflexion.db.pending: 1 recorded call(s) wait to be folded" \
    "note     journal      $T/home/.reflexion/data/reflexion.db.pending: 1 damaged line(s)"
rm -f "$T/home/.reflexion/data/reflexion.db.pending"
head -c 4096 /dev/urandom >"$T/home/.reflexion/data/reflexion.db"
rm -f "$T/home/.reflexion/data/reflexion.db-wal" "$T/home/.reflexion/data/reflexion.db-shm"
doc
check_doc "a database SQLite cannot read: set aside" 1 \
    "problem  database     $T/home/.reflexion/data/reflexion.db cannot be read: file is not a database" \
    "fix: mv $T/home/.reflexion/data/reflexion.db $T/home/.reflexion/data/reflexion.db.damaged"
# A page of the table damaged, the header whole: quick_check says so.
(cd "$P" && HOME=$T/home "$RR" kb add 'Error: y' 'fixed') >/dev/null 2>&1
python3 - "$T/home/.reflexion/data/reflexion.db" <<'PY'
import sqlite3, sys
p = sys.argv[1]
# The hook leaves its WAL (checkpointed only when it is full): into the
# file first, so that the damage below meets the table.
c = sqlite3.connect(p)
c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
c.execute("PRAGMA journal_mode = DELETE")
# The knowledge base's own page, not the schema's (which has several).
root = c.execute("SELECT rootpage FROM sqlite_master "
                 "WHERE name = 'error_kb'").fetchone()[0]
c.close()
b = bytearray(open(p, "rb").read())
psz = int.from_bytes(b[16:18], "big") or 65536
off = (root - 1) * psz
if b[off] == 0x0d:              # a table leaf page: garble its cells
    for i in range(off + 8, off + psz - 8, 7):
        b[i] = 0xff
open(p, "wb").write(bytes(b))
PY
doc
check_doc "a damaged database: kept entries, a new file" 1 \
    "problem  database     $T/home/.reflexion/data/reflexion.db is damaged:" \
    "fix: reflexion-rules kb export > kb.jsonl && mv $T/home/.reflexion/data/reflexion.db"
rm -f "$T/home/.reflexion/data/reflexion.db"
mkdir -p "$T/home/.reflexion/state"
doc
check_doc "a state directory that works" 0 \
    "ok       state        $T/home/.reflexion/state: writable"
rmdir "$T/home/.reflexion/state"
echo x >"$T/home/.reflexion/state"
doc
check_doc "a state that is not a directory" 1 \
    "problem  state        $T/home/.reflexion/state is not a writable directory" \
    "fix: rm -rf $T/home/.reflexion/state"
rm "$T/home/.reflexion/state"
chmod o+w "$T/home/.reflexion"
doc
check_doc "a data directory others can write: refused, chmod fixes it" 1 \
    "problem  data         $T/home/.reflexion: is writable by others" \
    "fix: chmod go-w $T/home/.reflexion"
chmod o-w "$T/home/.reflexion"

# The versions compared are the ones the end-to-end tests pin.
for pin in $(sed -n 's/.*) pkg=\([^ ]*\) ver=\([^ ]*\) .*/\1@\2/p' \
    "$SRCDIR/tests/agents/install.sh"); do
	pkg=${pin%@*} ver=${pin##*@}
	if grep -q "\"$ver\", \"$pkg\"" "$SRCDIR/src/doctor_agents.c"; then
		ok "doctor knows $pkg at $ver, the version the agent tests pin"
	else
		not_ok "doctor knows $pkg at $ver, the version the agent tests pin"
	fi
done
done_testing
