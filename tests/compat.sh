#!/bin/sh
# diet103 compatibility: the real skill-rules.json of the showcase (read
# from ../shared, never copied into this repository) gives, for each
# prompt, exactly the banner diet103's skill-activation-prompt.ts prints.
# The events and expected banners are in tests/fixtures/diet103-banners/;
# the banners were produced by running the logic of diet103's
# skill-activation-prompt.ts under node on the same prompts.
#
# tests/fixtures/diet103-unicode/ does the same with a skill-rules.json of
# our own whose keywords are not ASCII (über, λόγος, ÅNGSTRÖM): diet103
# lower-cases with JavaScript's toLowerCase, the engine folds case, and
# on these prompts both give the same banners (banner.js there made them).
. "$SRCDIR/tests/lib.sh"

mkdir -p "$TMPROOT/home"
export REFLEXION_HOME=$TMPROOT/home

# banners DIR: each DIR/*.json event against the project's rules.
banners() {
	for case in "$1"/*.json; do
		name=$(basename "$case" .json)
		[ "$name" = skill-rules ] && continue
		want=${case%.json}.banner
		"$RR" hook <"$case" >"$TMPROOT/out" 2>"$TMPROOT/err"
		# The banner is the additionalContext; no banner, no reply.
		if [ -s "$want" ]; then
			"$JSONGET" hookSpecificOutput.additionalContext \
			    <"$TMPROOT/out" >"$TMPROOT/got"
		else
			cp "$TMPROOT/out" "$TMPROOT/got"
		fi
		if cmp -s "$want" "$TMPROOT/got"; then
			ok "diet103 banner: $(basename "$1")/$name"
		else
			not_ok "diet103 banner: $(basename "$1")/$name"
			diff -u "$want" "$TMPROOT/got" | diag
			diag <"$TMPROOT/err"
		fi
	done
}

uni=$SRCDIR/tests/fixtures/diet103-unicode
proj=$TMPROOT/uproj
mkdir -p "$proj/.claude/skills"
cp "$uni/skill-rules.json" "$proj/.claude/skills/skill-rules.json"
CLAUDE_PROJECT_DIR=$proj banners "$uni"

real=$SRCDIR/../shared/compat/diet103-skill-rules.json
if [ ! -f "$real" ]; then
	skip "../shared/compat is absent (a user's clone)"
	done_testing
	exit 0
fi
proj=$TMPROOT/proj
mkdir -p "$proj/.claude/skills"
cp "$real" "$proj/.claude/skills/skill-rules.json"
CLAUDE_PROJECT_DIR=$proj banners "$SRCDIR/tests/fixtures/diet103-banners"
done_testing
