#!/bin/sh
# reflexion-rules import, round trip:
#  - a diet103 skill-rules.json imported to YAML gives, event for event,
#    the same reply (stdout, stderr, status) as the JSON read as is, once
#    state and env overrides included; with our fixture, and with the real
#    file of ../shared/compat when it is there;
#  - hookify rules imported give the decisions hookify makes, minus its
#    known bugs, written in tests/fixtures/hookify/cases;
#  - the YAML printed lints clean every time.
. "$SRCDIR/tests/lib.sh"

FIX=$SRCDIR/tests/fixtures

# The reply of each side for one event, compared; $1 names the case.
compare() {
	name=$1 ev=$2 yaml=$3
	shift 3
	env "$@" CLAUDE_PROJECT_DIR="$proj" REFLEXION_HOME="$TMPROOT/home-json" \
	    "$RR" hook <"$ev" >"$TMPROOT/a.out" 2>"$TMPROOT/a.err"
	echo "status $?" >>"$TMPROOT/a.out"
	env "$@" CLAUDE_PROJECT_DIR="$proj" REFLEXION_HOME="$TMPROOT/home-yaml" \
	    "$RR" hook --rules "$yaml" <"$ev" >"$TMPROOT/b.out" 2>"$TMPROOT/b.err"
	echo "status $?" >>"$TMPROOT/b.out"
	if cmp -s "$TMPROOT/a.out" "$TMPROOT/b.out" &&
	    cmp -s "$TMPROOT/a.err" "$TMPROOT/b.err"; then
		ok "same reply: $name"
	else
		not_ok "same reply: $name"
		diff -u "$TMPROOT/a.out" "$TMPROOT/b.out" | diag
		diff -u "$TMPROOT/a.err" "$TMPROOT/b.err" | diag
	fi
}

import_clean() {
	out=$1
	shift
	if "$RR" import "$@" >"$out" 2>"$TMPROOT/imp.err"; then
		ok "import $(basename "$1") exits 0"
	else
		not_ok "import $(basename "$1") exits 0"
		diag <"$TMPROOT/imp.err"
	fi
	if "$RR" lint "$out" >"$TMPROOT/lint.out" 2>&1; then
		ok "the imported YAML lints clean"
	else
		not_ok "the imported YAML lints clean"
		diag <"$TMPROOT/lint.out"
	fi
}

# ---- diet103: our fixture ---------------------------------------------------
proj=$TMPROOT/proj
mkdir -p "$proj/.claude/skills" "$proj/db"
cp "$FIX/import/skill-rules.json" "$proj/.claude/skills/skill-rules.json"
printf -- '-- reviewed\na\n' >"$proj/db/marked.sql"
import_clean "$TMPROOT/skills.yaml" "$proj/.claude/skills/skill-rules.json"
n=$(grep -c '^  - id: ' "$TMPROOT/skills.yaml")
check "6 rules imported from the fixture (got $n)" [ "$n" = 6 ]
for ev in "$FIX"/import/events/*.json; do
	sed "s|@P@|$proj|g" "$ev" >"$TMPROOT/ev.json"
	compare "$(basename "$ev" .json)" "$TMPROOT/ev.json" "$TMPROOT/skills.yaml"
done
# The env override, in a session of its own.
sed -e "s|@P@|$proj|g" -e 's/"g1"/"g-env"/' "$FIX/import/events/e1-alter.json" \
    >"$TMPROOT/ev.json"
compare "SKIP_SCHEMA_CHECK=1" "$TMPROOT/ev.json" "$TMPROOT/skills.yaml" \
    SKIP_SCHEMA_CHECK=1
# The guard fires at all (so "same reply" is not two empty replies).
if grep -q '"permissionDecision":"deny"' "$TMPROOT/b.out"; then
	not_ok "the env override skips the imported guard"
else
	ok "the env override skips the imported guard"
fi
sed "s|@P@|$proj|g" "$FIX/import/events/e1-alter.json" | sed 's/"g1"/"g-new"/' |
    CLAUDE_PROJECT_DIR=$proj REFLEXION_HOME=$TMPROOT/home-x "$RR" hook \
    --rules "$TMPROOT/skills.yaml" >"$TMPROOT/x.out"
if grep -q 'check the schema of db/m/001.sql first' "$TMPROOT/x.out" &&
    grep -q 'a second {file_path} too' "$TMPROOT/x.out" &&
    grep -q 'Templates like {{x}} stay' "$TMPROOT/x.out"; then
	ok "the imported guard denies with diet103's message"
else
	not_ok "the imported guard denies with diet103's message"
	diag <"$TMPROOT/x.out"
fi

# Braces around {file_path} (found by fuzz_import): an odd run of '{' just
# before it would have made a tag "{{{path}}" the YAML could not compile.
for bm in 'a {{{file_path} b' '{{{{file_path}}}' '{file_path}{ {{file_path}' \
    '{{file_path}}'; do
	proj=$TMPROOT/braces
	rm -rf "$proj"
	mkdir -p "$proj/.claude/skills"
	printf '{"skills":{"g":{"type":"guardrail","enforcement":"block","fileTriggers":{"pathPatterns":["*.sql"]},"blockMessage":"%s"}}}\n' \
	    "$bm" >"$proj/.claude/skills/skill-rules.json"
	import_clean "$TMPROOT/braces.yaml" "$proj/.claude/skills/skill-rules.json"
	printf '{"session_id":"b","hook_event_name":"PreToolUse","cwd":"%s","tool_name":"Write","tool_input":{"file_path":"%s/x.sql","content":"a"}}' \
	    "$proj" "$proj" >"$TMPROOT/ev.json"
	rm -rf "$TMPROOT/home-json" "$TMPROOT/home-yaml"
	compare "blockMessage $bm" "$TMPROOT/ev.json" "$TMPROOT/braces.yaml"
done
check "{{file_path}} reads {x.sql} as diet103 writes it" \
    grep -qF '"permissionDecisionReason":"{x.sql}"' "$TMPROOT/b.out"

# A guardrail whose pathPatterns list is empty matches no file: diet103
# never blocks there, whatever its contentPatterns say.
proj=$TMPROOT/nopaths
mkdir -p "$proj/.claude/skills"
printf '{"skills":{"g":{"type":"guardrail","enforcement":"block","fileTriggers":{"pathPatterns":[],"contentPatterns":["XYZ"]}}}}\n' \
    >"$proj/.claude/skills/skill-rules.json"
import_clean "$TMPROOT/nopaths.yaml" "$proj/.claude/skills/skill-rules.json"
printf '{"session_id":"n","hook_event_name":"PreToolUse","cwd":"%s","tool_name":"Write","tool_input":{"file_path":"%s/x.txt","content":"XYZ"}}' \
    "$proj" "$proj" >"$TMPROOT/ev.json"
compare "empty pathPatterns" "$TMPROOT/ev.json" "$TMPROOT/nopaths.yaml"
if grep -q '"permissionDecision":"deny"' "$TMPROOT/a.out"; then
	not_ok "empty pathPatterns: the JSON read as is denies nothing"
else
	ok "empty pathPatterns: the JSON read as is denies nothing"
fi

# ---- diet103: the real file -----------------------------------------------
real=$SRCDIR/../shared/compat/diet103-skill-rules.json
if [ -f "$real" ]; then
	proj=$TMPROOT/real
	mkdir -p "$proj/.claude/skills"
	cp "$real" "$proj/.claude/skills/skill-rules.json"
	import_clean "$TMPROOT/real.yaml" "$proj/.claude/skills/skill-rules.json"
	for ev in "$FIX"/diet103-banners/*.json; do
		compare "real file: $(basename "$ev" .json)" "$ev" \
		    "$TMPROOT/real.yaml"
	done
	i=0
	for f in frontend/src/components/Grid.tsx frontend/src/a.test.tsx \
	    frontend/src/components/Other.tsx src/x.tsx; do
		i=$((i + 1))
		printf '{"session_id":"r1","hook_event_name":"PreToolUse","cwd":"%s","tool_name":"Write","tool_input":{"file_path":"%s/%s","content":"import { Grid } from \\"@mui/material\\";\\n<Grid size={{ xs: 12 }} />"}}' \
		    "$proj" "$proj" "$f" >"$TMPROOT/ev.json"
		compare "real file: write $f" "$TMPROOT/ev.json" \
		    "$TMPROOT/real.yaml"
	done
else
	skip "../shared/compat is absent (a user's clone)"
fi

# ---- hookify -----------------------------------------------------------------
import_clean "$TMPROOT/hookify.yaml" "$FIX"/hookify/*.local.md
decision() {
	d=$("$JSONGET" hookSpecificOutput.permissionDecision <"$1") ||
	    d=$("$JSONGET" decision <"$1") ||
	    { "$JSONGET" hookSpecificOutput.additionalContext <"$1" \
	    >/dev/null && d=context; } || d=none
	echo "$d"
}
while IFS= read -r line; do
	case $line in '#'*|'') continue ;; esac
	want=${line%% *}
	printf '%s\n' "${line#* }" >"$TMPROOT/ev.json"
	REFLEXION_HOME=$TMPROOT/home-hk "$RR" hook --rules "$TMPROOT/hookify.yaml" \
	    <"$TMPROOT/ev.json" >"$TMPROOT/out" 2>"$TMPROOT/err"
	got=$(decision "$TMPROOT/out")
	if [ "$got" = "$want" ]; then
		ok "hookify: $want for $(cut -c1-90 "$TMPROOT/ev.json")"
	else
		not_ok "hookify: $want for $(cut -c1-90 "$TMPROOT/ev.json")"
		{ echo "got $got"; cat "$TMPROOT/out" "$TMPROOT/err"; } | diag
	fi
done <"$FIX/hookify/cases"

# The man page's import, followed to the letter: the YAML goes into the
# project's rules, the JSON stays; the import replaces the JSON, so each
# skill is one rule and a guarded edit is denied once, with one reason.
d=$TMPROOT/both
mkdir -p "$d/.git" "$d/.claude/skills" "$d/.reflexion/rules"
cp "$FIX/import/skill-rules.json" "$d/.claude/skills/skill-rules.json"
(cd "$d" && REFLEXION_HOME=$TMPROOT/home-both "$RR" rules 2>/dev/null) >"$TMPROOT/before"
(cd "$d" && "$RR" import .claude/skills/skill-rules.json \
    >.reflexion/rules/skills.yaml 2>/dev/null)
(cd "$d" && REFLEXION_HOME=$TMPROOT/home-both "$RR" rules 2>/dev/null) >"$TMPROOT/after"
nb=$(grep -c '^skill-rules/' "$TMPROOT/before")
na=$(grep -c '^skill-rules/' "$TMPROOT/after")
if [ "$nb" -gt 0 ] && [ "$na" = "$nb" ] &&
    ! grep -q '^skill-rules/.* skill-rules  ' "$TMPROOT/after" &&
    grep -q 'skill-rules.json: not read: the project.s rules hold pack skill-rules' "$TMPROOT/after"; then
	ok "import then both in place: each skill once, from the YAML; rules says the JSON is not read"
else
	not_ok "import then both in place: each skill once ($nb before, $na after)"
	cat "$TMPROOT/before" "$TMPROOT/after" | diag
fi
guard=$(sed -n 's/^\(skill-rules\/[^ ]*-guard\) .*/\1/p' "$TMPROOT/after" | head -n 1)
denies=0
for e in "$FIX"/import/events/*.json; do
	ev=$TMPROOT/both-ev.json
	sed "s|@P@|$d|g" "$e" >"$ev"
	(cd "$d" && CLAUDE_PROJECT_DIR=$d REFLEXION_HOME=$TMPROOT/home-both \
	    "$RR" hook <"$ev") >"$TMPROOT/both.out" 2>/dev/null
	(cd "$d" && mv .reflexion/rules/skills.yaml "$TMPROOT/skills.yaml" &&
	    CLAUDE_PROJECT_DIR=$d REFLEXION_HOME=$TMPROOT/home-json1 \
	    "$RR" hook <"$ev"; mv "$TMPROOT/skills.yaml" .reflexion/rules/) \
	    >"$TMPROOT/json.out" 2>/dev/null
	grep -q '"deny"' "$TMPROOT/json.out" && denies=$((denies + 1))
	# The same decision and text as the JSON alone: nothing twice.
	if cmp -s "$TMPROOT/both.out" "$TMPROOT/json.out"; then
		ok "import then both in place: $(basename "$e") answered once, as the JSON alone"
	else
		not_ok "import then both in place: $(basename "$e") answered once, as the JSON alone"
		cat "$TMPROOT/both.out" "$TMPROOT/json.out" | diag
	fi
done
[ -n "$guard" ] && [ "$denies" -gt 0 ] &&
    ok "the import has a guard ($guard) that denied $denies of the events" ||
    not_ok "the import has a guard that denies ($guard, $denies)"

# The schema the importer names is a file that is there.
schema=$(sed -n '1s/^# yaml-language-server: \$schema=//p' "$d/.reflexion/rules/skills.yaml")
REFLEXION_PACKS_DIR=$SRCDIR/rules "$RR" import "$FIX/import/skill-rules.json" \
    >"$TMPROOT/s.yaml" 2>/dev/null
schema2=$(sed -n '1s/^# yaml-language-server: \$schema=//p' "$TMPROOT/s.yaml")
case $schema in /*) ok "import names the schema by an absolute path ($schema)" ;;
*) not_ok "import names the schema by an absolute path ($schema)" ;; esac
if [ "$schema2" = "$SRCDIR/schemas/rules.schema.json" ] && [ -f "$schema2" ]; then
	ok "import names the schema beside the packs, which is there"
else
	not_ok "import names the schema beside the packs ($schema2)"
fi
done_testing
