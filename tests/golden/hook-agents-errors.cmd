# The failure policy is every client's: an unreadable event, a patch that
# cannot be read and the deadline allow with a line on stderr, or deny
# under on_error: deny, each in the client's form (Copilot drops the
# reason of an exit 2, so it gets its JSON deny); --exit2 per client.
cat > open.yaml <<'YAML'
version: 1
rules:
  - id: no-env
    on: PreToolUse
    when: {path: '**/.env'}
    action: deny
    message: 'not {{path}}'
  - id: once-deploy
    on: PreToolUse
    tools: [Bash]
    once: session
    when: {command: deploy}
    action: deny
    message: deploys need a review
YAML
sed 's/^rules:/on_error: deny\nrules:/' open.yaml > closed.yaml
touch -d '-1 hour' open.yaml closed.yaml
$RR compile --rules open.yaml >/dev/null
$RR compile --rules closed.yaml >/dev/null
echo "== an unreadable event"
for a in claude gemini codex copilot cursor; do
	echo "-- $a"
	echo '{"broken' | $RR hook --agent $a --rules open.yaml; echo "status $?"
	echo '{"broken' | $RR hook --agent $a --rules closed.yaml; echo "status $?"
done
echo "-- copilot --exit2: exit 2 as asked"
echo '{"broken' | $RR hook --agent copilot --exit2 --rules closed.yaml; echo "status $?"
echo "== a patch Codex would not apply"
p='{"turn_id":"t","session_id":"s","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\n*** Add File: .env\n+K=v\n"}}'
printf '%s' "$p" | $RR hook --rules open.yaml; echo "status $?"
printf '%s' "$p" | $RR hook --rules closed.yaml; echo "status $?"
echo "== --exit2, per client"
for f in gemini-before-tool-write codex-pre-apply-patch copilot-camel-pre-create cursor-pre-write; do
	echo "-- $f"
	$RR hook --exit2 --rules open.yaml < "$EV/agents/$f.json"; echo "status $?"
done
echo "== the deadline, a session's state lock held elsewhere"
mkdir -p home/state
: > home/state/s1.json.lock
flock home/state/s1.json.lock sh -c 'echo $$ > holder; exec sleep 30' \
    </dev/null >/dev/null 2>&1 &
while ! [ -s holder ] || flock -n home/state/s1.json.lock true; do
	sleep 0.05
done
for ev in \
    '{"session_id":"s1","hook_event_name":"BeforeTool","timestamp":"2026-01-01T00:00:00Z","cwd":"/w","tool_name":"run_shell_command","tool_input":{"command":"./deploy"}}' \
    '{"sessionId":"s1","timestamp":1,"cwd":"/w","toolName":"bash","toolArgs":{"command":"./deploy"}}' \
    '{"session_id":"s1","hook_event_name":"beforeShellExecution","workspace_roots":["/w"],"command":"./deploy"}'; do
	echo "$ev" | $RR hook --rules open.yaml --deadline 200; echo "status $?"
	echo "$ev" | $RR hook --rules closed.yaml --deadline 200; echo "status $?"
done
kill "$(cat holder)"; wait
