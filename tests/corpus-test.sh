#!/bin/sh
# The command corpus (tests/corpus/README): every command of
# tests/corpus/<pack>.tsv through `reflexion-rules hook` as a PreToolUse
# Bash event, with the packs of the corpus that exist in rules/ enabled
# by name; one TAP point per class (N of M as expected, the failing ids
# in diag lines), the known gaps of tests/corpus/known-gaps as TODO
# points (a gap that starts passing is an unexpected pass), a SKIP point
# for each pack that is not in rules/ yet, and the numbers per pack.
#
# Every fourth command is also run without the prefilter, and must get
# the same reply byte for byte.
#
# CORPUS_FAILING=FILE also writes every command that does not get its
# verdict (known gaps included) to FILE, as "id class command": the
# start of a new known-gaps list.
. "$SRCDIR/tests/lib.sh"

C=$SRCDIR/tests/corpus
tab=$(printf '\t')
REFLEXION_HOME=$TMPROOT/home
# The verdicts for ~/.. and $HOME/../.. hold for a home one or two levels
# below /, as homes are (/root, /home/NAME), not for a scratch one deep
# in $TMPDIR; nothing is written there (REFLEXION_HOME is set).
HOME=/home/rr-corpus
export HOME
REFLEXION_PACKS_DIR=$SRCDIR/rules
export REFLEXION_HOME REFLEXION_PACKS_DIR
P=$TMPROOT/proj
mkdir -p "$REFLEXION_HOME" "$P"
cd "$P" || exit 99

# The packs: a corpus file per pack; a pack without its rules file is
# skipped out loud, with the count of what is not run.
active=
for f in "$C"/*.tsv; do
	pack=${f##*/}
	pack=${pack%.tsv}
	if [ -f "$SRCDIR/rules/$pack.yaml" ]; then
		active="$active $pack"
	else
		skip "pack $pack is not in rules/ yet: its $(grep -vc '^#' "$f") commands are not run"
	fi
done
packlist=$(echo $active | sed 's/ /, /g')
printf 'packs: [%s]\n' "$packlist" >"$REFLEXION_HOME/config.yaml"

# verdict COMMAND-AS-JSON: deny, ask, allow (any other answer: the
# command runs) or error (the hook failed).
verdict() {
	out=$(printf '{"session_id":"corpus","hook_event_name":"PreToolUse","cwd":"%s","tool_name":"Bash","tool_input":{"command":%s}}' \
	    "$P" "$1" | "$RR" hook 2>>"$TMPROOT/hookerr") || {
		echo error
		return
	}
	printf '%s\n' "$out" >"$TMPROOT/reply"
	case $out in
	*'"permissionDecision":"deny"'*) echo deny ;;
	*'"permissionDecision":"ask"'*) echo ask ;;
	*) echo allow ;;
	esac
}

: >"$TMPROOT/results"
: >"$TMPROOT/ids"
: >"$TMPROOT/pfdiff"
n=0
sampled=0
for f in "$C"/*.tsv; do
	while IFS="$tab" read -r id class expect pack cmd; do
		case $id in '' | '#'*) continue ;; esac
		printf '%s\n' "$id" >>"$TMPROOT/ids"
		case " $active " in *" $pack "*) ;; *) continue ;; esac
		: >"$TMPROOT/reply"
		printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$id" "$class" "$expect" \
		    "$pack" "$(verdict "$cmd")" "$cmd" >>"$TMPROOT/results"
		# The prefilter only leaves out rules that cannot fire: every
		# fourth command again without it, its reply byte for byte.
		n=$((n + 1))
		[ $((n % 4)) -eq 0 ] || continue
		sampled=$((sampled + 1))
		printf '{"session_id":"corpus","hook_event_name":"PreToolUse","cwd":"%s","tool_name":"Bash","tool_input":{"command":%s}}' \
		    "$P" "$cmd" | REFLEXION_NO_PREFILTER=1 "$RR" hook \
		    >"$TMPROOT/reply-all" 2>/dev/null
		[ "$(cat "$TMPROOT/reply")" = "$(cat "$TMPROOT/reply-all")" ] ||
		    printf '%s  %s\n' "$id" "$cmd" >>"$TMPROOT/pfdiff"
	done <"$f"
done
if [ -s "$TMPROOT/pfdiff" ]; then
	not_ok "the prefilter changes no reply ($(wc -l <"$TMPROOT/pfdiff") of $sampled commands differ)"
	head -n 10 "$TMPROOT/pfdiff" | diag
else
	ok "the prefilter changes no reply ($sampled commands, every fourth, run without it too)"
fi
if [ -s "$TMPROOT/hookerr" ]; then
	echo "# the hook's stderr:"
	sort -u "$TMPROOT/hookerr" | head -20 | diag
fi

dups=$(sort "$TMPROOT/ids" | uniq -d | head -5)
if [ -z "$dups" ]; then
	ok "the corpus ids are unique"
else
	not_ok "the corpus ids are unique"
	echo "$dups" | diag
fi

# Known gaps: ids the corpus must have (a stale entry is an error).
sed -e 's/#.*//' -e 's/[[:space:]].*//' -e '/^$/d' "$C/known-gaps" | sort -u \
    >"$TMPROOT/gaps"
stale=$(sort -u "$TMPROOT/ids" | comm -13 - "$TMPROOT/gaps" | head -5)
if [ -z "$stale" ]; then
	ok "every id in known-gaps is in the corpus"
else
	not_ok "every id in known-gaps is in the corpus"
	echo "$stale" | diag
fi

# One point per class: "P status description" and "D diag" records in
# the order of the classes' first appearance.
awk -F '\t' -v gapfile="$TMPROOT/gaps" -v failing="${CORPUS_FAILING:-}" '
BEGIN { while ((getline g < gapfile) > 0) gap[g] = 1 }
{
	id = $1; cls = $2; want = $3; pack = $4; got = $5; cmd = $6
	if (!(cls in seen)) { seen[cls] = 1; order[++nc] = cls }
	if (!(pack in pseen)) { pseen[pack] = 1; porder[++np] = pack }
	stopped = (got == "deny" || got == "ask")
	pass = (got != "error" && (want == "deny") == stopped)
	if (want == "deny") { pd[pack]++; if (stopped) pc[pack]++ }
	else { pa[pack]++; if (stopped) pf[pack]++ }
	if (!pass && failing != "")
		print id "\t" cls "\t" cmd >> failing
	if (id in gap) {
		ng[cls]++
		if (pass) { xp[cls]++; xpl[cls] = xpl[cls] "\n" id "  " cmd }
	} else {
		n[cls]++
		if (pass) p[cls]++
		else fl[cls] = fl[cls] "\n" id "  (" got ") " cmd
	}
}
END {
	for (i = 1; i <= nc; i++) {
		c = order[i]
		if (n[c] > 0) {
			printf "P\t%s\tclass %s: %d of %d as expected\n", \
			    (p[c] == n[c]) ? "ok" : "not ok", c, p[c] + 0, n[c]
			if (fl[c] != "") { m = split(substr(fl[c], 2), a, "\n")
				for (j = 1; j <= m; j++) print "D\t" a[j] }
		}
		if (ng[c] > 0) {
			printf "P\t%s\tclass %s: %d known gaps still fail\n", \
			    xp[c] ? "todo ok" : "todo not ok", c, ng[c] - xp[c]
			if (xp[c]) { m = split(substr(xpl[c], 2), a, "\n")
				print "D\tnow as expected, take out of known-gaps:"
				for (j = 1; j <= m; j++) print "D\t" a[j] }
		}
	}
	for (i = 1; i <= np; i++) {
		k = porder[i]
		printf "S\tpack %s: caught %d of %d expected denies (%.1f%%), " \
		    "false positives %d of %d expected allows (%.1f%%)\n", k, \
		    pc[k], pd[k], pd[k] ? 100 * pc[k] / pd[k] : 0, \
		    pf[k], pa[k], pa[k] ? 100 * pf[k] / pa[k] : 0
	}
}' "$TMPROOT/results" >"$TMPROOT/points"

while IFS="$tab" read -r kind a b; do
	case $kind in
	P) case $a in
		ok) ok "$b" ;;
		"not ok") not_ok "$b" ;;
		"todo ok") todo ok "$b" ;;
		"todo not ok") todo "not ok" "$b" ;;
		esac ;;
	D) printf '%s\n' "$a" | diag ;;
	S) printf '%s\n' "$a" | diag ;;
	esac
done <"$TMPROOT/points"
done_testing
