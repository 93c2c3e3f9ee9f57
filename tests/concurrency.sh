#!/bin/sh
# Many hooks of one session at once: a `once: session` rule fires exactly
# once and the state file stays valid.
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
done_testing
