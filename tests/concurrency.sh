#!/bin/sh
# Many hooks of one session at once: a `once: session` rule fires exactly
# once, the state file stays valid, and (with recording on) every tool
# call is one row of the events table: none lost.
. "$SRCDIR/tests/lib.sh"

N=50
export REFLEXION_HOME=$TMPROOT/home
cat >"$TMPROOT/once.yaml" <<'YAML'
version: 1
rules:
  - id: once-guard
    on: PreToolUse
    tools: [Bash]
    once: session
    when:
      command: 'deploy'
    action: deny
    message: 'deploys need a review first'
YAML
ev='{"session_id":"par-1","hook_event_name":"PreToolUse","cwd":"/p","tool_name":"Bash","tool_input":{"command":"./deploy.sh"}}'
for round in 1 2 3; do
	rm -rf "$REFLEXION_HOME"
	i=0
	while [ "$i" -lt "$N" ]; do
		i=$((i + 1))
		printf '%s' "$ev" | "$RR" hook --rules "$TMPROOT/once.yaml" \
		    >"$TMPROOT/out.$i" 2>"$TMPROOT/err.$i" &
	done
	wait
	denies=$(cat "$TMPROOT"/out.* | grep -c '"permissionDecision":"deny"')
	if [ "$denies" = 1 ]; then
		ok "round $round: $N parallel hooks, the once rule fired once"
	else
		not_ok "round $round: $N parallel hooks, the once rule fired $denies times"
		cat "$TMPROOT"/err.* | sort | uniq -c | diag
	fi
	state=$(ls "$REFLEXION_HOME"/state/*.json 2>/dev/null | head -n 1)
	if [ -n "$state" ] && grep -q '"once-guard"' "$state"; then
		ok "round $round: state file records the claim"
	else
		not_ok "round $round: state file records the claim"
	fi
	rm -f "$TMPROOT"/out.* "$TMPROOT"/err.*
done
# 50 PostToolUse hooks of one session at once, each recording its call
# and each a candidate for one `once: session` reminder.
: "${SQLRUN:?SQLRUN must name tests/sqlrun}"
cat >"$TMPROOT/mixed.yaml" <<'YAML'
version: 1
rules:
  - id: remind
    on: PostToolUse
    tools: [Bash]
    once: session
    action: context
    message: 'run the linter before you commit'
  - id: rec
    on: PostToolUse
    action: record
YAML
for round in 1 2; do
	rm -rf "$REFLEXION_HOME"
	i=0
	while [ "$i" -lt "$N" ]; do
		i=$((i + 1))
		printf '{"session_id":"par-2","hook_event_name":"PostToolUse","cwd":"/p","tool_name":"Bash","tool_input":{"command":"make t%d"},"tool_use_id":"toolu_%d","tool_response":{"stdout":"ok","stderr":""}}' "$i" "$i" |
		    REFLEXION_DB_BUDGET_MS=120000 "$RR" hook \
		    --rules "$TMPROOT/mixed.yaml" >"$TMPROOT/out.$i" 2>"$TMPROOT/err.$i" &
	done
	wait
	reminders=$(cat "$TMPROOT"/out.* | grep -c 'run the linter')
	rows=$("$SQLRUN" "$REFLEXION_HOME/data/reflexion.db" \
	    "SELECT count(DISTINCT json_extract(data, '$.tool_use_id')) FROM events WHERE session_id = 'par-2'")
	state=$(ls "$REFLEXION_HOME"/state/*.json 2>/dev/null | head -n 1)
	if [ "$reminders" = 1 ] && [ "$rows" = "$N" ] &&
	    ! cat "$TMPROOT"/err.* | grep -q . &&
	    "$JSONGET" session_id <"$state" | grep -q '^par-2$'; then
		ok "round $round: $N parallel recording hooks: 1 reminder, $N rows, valid state"
	else
		not_ok "round $round: $reminders reminders, $rows rows of $N"
		cat "$TMPROOT"/err.* | sort | uniq -c | diag
	fi
	rm -f "$TMPROOT"/out.* "$TMPROOT"/err.*
done
# The same hooks append to the journal while readers fold it: three
# `memory search` loops run through all of it.  Every call is one row,
# none lost, none folded twice, and the journal ends empty.
for round in 1 2; do
	rm -rf "$REFLEXION_HOME"
	rm -f "$TMPROOT/stop" "$TMPROOT"/rout.*
	r=0
	while [ "$r" -lt 3 ]; do
		r=$((r + 1))
		(while [ ! -f "$TMPROOT/stop" ]; do
			REFLEXION_DB_BUDGET_MS=120000 "$RR" memory search make \
			    >>"$TMPROOT/rout.$r" 2>>"$TMPROOT/rerr.$r"
		done) &
	done
	i=0
	while [ "$i" -lt "$N" ]; do
		i=$((i + 1))
		printf '{"session_id":"par-3","hook_event_name":"PostToolUse","cwd":"/p","tool_name":"Bash","tool_input":{"command":"make t%d"},"tool_use_id":"toolu_%d","tool_response":{"stdout":"ok","stderr":""}}' "$i" "$i" |
		    REFLEXION_DB_BUDGET_MS=120000 "$RR" hook \
		    --rules "$TMPROOT/mixed.yaml" >/dev/null 2>"$TMPROOT/err.$i" &
	done
	# The hooks first: the readers are their siblings in the background.
	j=0
	while [ "$(ls "$TMPROOT"/err.* 2>/dev/null | wc -l)" -lt "$N" ] &&
	    [ $j -lt 100 ]; do sleep 0.1; j=$((j + 1)); done
	sleep 1
	: >"$TMPROOT/stop"
	wait
	rows=$("$SQLRUN" "$REFLEXION_HOME/data/reflexion.db" \
	    "SELECT count(*), count(DISTINCT json_extract(data, '$.tool_use_id')) FROM events WHERE session_id = 'par-3'")
	seen=$(cat "$TMPROOT"/rout.* | grep -c 'make t')
	if [ "$rows" = "$N|$N" ] && [ "$seen" -gt 0 ] &&
	    [ ! -s "$REFLEXION_HOME/data/reflexion.db.pending" ] &&
	    ! cat "$TMPROOT"/err.* "$TMPROOT"/rerr.* | grep -q .; then
		ok "round $round: $N journaled hooks beside 3 folding readers: $N rows, none twice ($seen seen by the readers)"
	else
		not_ok "round $round: rows and distinct calls: $rows of $N"
		cat "$TMPROOT"/err.* "$TMPROOT"/rerr.* | sort | uniq -c | diag
	fi
	rm -f "$TMPROOT"/err.* "$TMPROOT"/rerr.* "$TMPROOT"/rout.* "$TMPROOT/stop"
done
done_testing
