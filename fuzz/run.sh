#!/bin/sh
# Runs every libFuzzer target for SECONDS (default 60) on seed corpora
# drawn from the tests, then replays fuzz/crashes/TARGET/* (inputs that
# once crashed) so they stay fixed.  Prints "N passed, N failed" where a
# target passes when it found nothing.  Usage: run.sh BUILDDIR SRCDIR [SECONDS]
set -u
B=$1
S=$2
SECS=${3:-60}
W=$(mktemp -d "${TMPDIR:-/tmp}/rr-fuzz.XXXXXX")
trap 'rm -rf "$W"' EXIT
pass=0
fail=0


mkdir -p "$W/event" "$W/rules" "$W/glob" "$W/template" "$W/skillrules" \
    "$W/shellwords" "$W/import" "$W/cache" "$W/kb" "$W/applypatch" \
    "$W/journal"
cp "$S"/tests/events/*.json "$S"/tests/fixtures/diet103-banners/*.json \
    "$S"/tests/events/agents/*.json "$W/event/"
# Patches: Codex's own shapes, and the texts of the patch events.
printf '*** Begin Patch\n*** Add File: a\n+x\n*** Delete File: b\n*** Update File: c\n*** Move to: d\n@@ def f():\n-    pass\n+    return 1\n*** End Patch\n' >"$W/applypatch/1"
printf '<<EOF\n*** Begin Patch\n*** Update File: f\n x\n-x\n+y\n\n@@\n+z\n*** End of File\n*** End Patch\nEOF\n' >"$W/applypatch/2"
cp "$S"/rules/*.yaml "$S"/tests/lint/*.yaml "$S"/tests/rules/*.yaml "$S"/tests/fixtures/*.yaml "$W/rules/"
cp "$S"/rules/*.yaml "$S"/tests/rules/*.yaml "$S"/tests/fixtures/*.yaml "$W/cache/"
printf 'database/src/**/*.ts\0database/src/a/b.ts' >"$W/glob/1"
printf '*.{ts,tsx}\0x/y.tsx' >"$W/glob/2"
printf '[!a-z]{1..3}?\0b2x' >"$W/glob/3"
printf 'File {{path}} by {{rule}}: {{match}} {{input.n.k.1}} {{env.HOME}}' >"$W/template/1"
printf '{{ command }}{{' >"$W/template/2"
cp "$S"/tests/fixtures/skillproj/.claude/skills/skill-rules.json "$W/skillrules/1"
cp "$S"/tests/lint/bad-skill-rules.json "$W/skillrules/2"
[ -f "$S/../shared/compat/diet103-skill-rules.json" ] &&
    cp "$S/../shared/compat/diet103-skill-rules.json" "$W/skillrules/3"
# Shell commands: the command lines of the packs' tests.
grep -ho "command: '[^']*'" "$S"/rules/*.yaml | sed "s/^command: '//;s/'\$//" |
    split -l 1 - "$W/shellwords/c"
printf 'a=$(b "$(c `d`)"); e <<X\nf\nX\n{g,h} $'"'"'\\x69'"'"'' >"$W/shellwords/n"
# Importers: a 0 byte then a skill-rules.json, a 1 byte then a hookify rule.
for f in "$S"/tests/fixtures/import/skill-rules.json "$W"/skillrules/*; do
	{ printf '\000'; cat "$f"; } >"$W/import/j-$(basename "$f")"
done
for f in "$S"/tests/fixtures/hookify/*.md; do
	{ printf '\001'; cat "$f"; } >"$W/import/h-$(basename "$f")"
done
# Knowledge-base lines: entries of every shape kb import accepts or names.
printf '%s\n' '{"error":"TypeError in src/index.ts:12:5","resolution":{"resolvedBy":"Edit","tool":"Edit","toolSequence":["Read","Edit"]},"last_used":"2026-01-02T03:04:05.678Z","use_count":3}' \
    '{"error":"Cannot find module ./a.js","resolution":"npm install","last_used":null}' \
    '{"error":"E in a.ts","use_count":1e300}' 'not json' '[1,2]' >"$W/kb/1"
printf '%s\n' '{"error":"Traceback (most recent call last):\n  File \"/p/x.py\", line 3","resolution":{"resolvedBy":"python x.py"}}' \
    '{"error":"x\u0000y \ud800 0xdeadbeef 2026-01-01T00:00:00Z","resolution":[1,{"a":null}]}' >"$W/kb/2"

# Journals: records as hooks write them (the sums made by a hook), one
# torn, garbage.
J=$(mktemp -d "$W/jh.XXXXXX")
for e in post-edit post-failure-bash; do
	printf 'packs: [observe]\n' >"$J/config.yaml"
	HOME=$J REFLEXION_HOME=$J REFLEXION_PACKS_DIR=$S/rules \
	    "$B/src/reflexion-rules" hook <"$S/tests/events/$e.json" \
	    >/dev/null 2>&1 || true
done
cp "$J/data/reflexion.db.pending" "$W/journal/1" 2>/dev/null || :
{ cat "$W/journal/1" 2>/dev/null; printf 'RRJ1 40 0123456789abcdef k {"v":1'; } >"$W/journal/2"
printf 'RRJ1 2 0000000000000000 k {}\ngarbage\n\377\n' >"$W/journal/3"
# Payloads alone (fuzz_journal frames an input that starts with '{').
grep -a -o '{"v":1.*' "$W/journal/1" | sed -n 1p >"$W/journal/4" || :
grep -a -o '{"v":1.*' "$W/journal/1" | sed -n 2p >"$W/journal/5" || :
for t in event rules glob template skillrules shellwords import cache kb \
    applypatch journal; do
	bin=$B/fuzz/fuzz_$t
	mkdir -p "$W/art-$t"
	# Replay the inputs that crashed before.
	if [ -d "$S/fuzz/crashes/$t" ] && ls "$S/fuzz/crashes/$t"/* >/dev/null 2>&1; then
		if "$bin" "$S/fuzz/crashes/$t"/* >"$W/replay-$t.log" 2>&1; then
			pass=$((pass + 1)); echo "ok: fuzz_$t replays its old crashes"
		else
			fail=$((fail + 1)); echo "FAIL: fuzz_$t crashes on an old input"
			tail -n 30 "$W/replay-$t.log"
		fi
	fi
	if "$bin" -max_total_time="$SECS" -max_len=65536 -rss_limit_mb=2048 \
	    -timeout=10 -artifact_prefix="$W/art-$t/" "$W/$t" \
	    >"$W/$t.log" 2>&1; then
		pass=$((pass + 1))
		echo "ok: fuzz_$t ran ${SECS}s: $(grep -o 'Done [0-9]* runs' "$W/$t.log")"
	else
		fail=$((fail + 1))
		echo "FAIL: fuzz_$t found a problem:"
		tail -n 40 "$W/$t.log"
		for a in "$W/art-$t"/*; do
			[ -f "$a" ] || continue
			echo "artifact $(basename "$a"):"
			od -c "$a" | head -n 20
			# Whole, so the log alone is enough to replay it.
			if [ "$(wc -c <"$a")" -le 16384 ]; then
				echo "base64 (decode with base64 -d):"
				base64 "$a"
			fi
		done
	fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
