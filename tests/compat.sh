#!/bin/sh
# diet103 compatibility: the real skill-rules.json of the showcase (read
# from ../shared, never copied into this repository) gives, for each
# prompt, exactly the banner diet103's skill-activation-prompt.ts prints.
# The events and expected banners are in tests/fixtures/diet103-banners/;
# the banners were produced by running the logic of diet103's
# skill-activation-prompt.ts under node on the same prompts.
. "$SRCDIR/tests/lib.sh"

real=$SRCDIR/../shared/compat/diet103-skill-rules.json
if [ ! -f "$real" ]; then
	skip "../shared/compat is absent (a user's clone)"
	done_testing
	exit 0
fi
proj=$TMPROOT/proj
mkdir -p "$proj/.claude/skills" "$TMPROOT/home"
cp "$real" "$proj/.claude/skills/skill-rules.json"
export CLAUDE_PROJECT_DIR=$proj REFLEXION_HOME=$TMPROOT/home

for case in "$SRCDIR"/tests/fixtures/diet103-banners/*.json; do
	name=$(basename "$case" .json)
	want=${case%.json}.banner
	"$RR" hook <"$case" >"$TMPROOT/out" 2>"$TMPROOT/err"
	# The reply carries the banner as additionalContext; no banner, no reply.
	if [ -s "$want" ]; then
		"$JSONGET" hookSpecificOutput.additionalContext \
		    <"$TMPROOT/out" >"$TMPROOT/got"
	else
		cp "$TMPROOT/out" "$TMPROOT/got"
	fi
	if cmp -s "$want" "$TMPROOT/got"; then
		ok "diet103 banner: $name"
	else
		not_ok "diet103 banner: $name"
		diff -u "$want" "$TMPROOT/got" | diag
		diag <"$TMPROOT/err"
	fi
done
done_testing
