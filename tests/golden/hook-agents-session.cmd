# Every client's session id (Copilot's camelCase sessionId too) keys the
# `once` state and the recorded calls; ids are never paths: ../, / and
# long ids stay inside state/, for each client alike.
cat > r.yaml <<'YAML'
version: 1
rules:
  - id: hello
    on: UserPromptSubmit
    once: session
    action: context
    message: hi
  - id: rec
    on: PostToolUse
    action: record
YAML
prompt() {	# client, session id
	case $1 in
	gemini) printf '{"session_id":"%s","hook_event_name":"BeforeAgent","timestamp":"2026-01-01T00:00:00Z","cwd":"/w","prompt":"x"}' "$2" ;;
	codex) printf '{"session_id":"%s","turn_id":"t","hook_event_name":"UserPromptSubmit","cwd":"/w","prompt":"x"}' "$2" ;;
	copilot) printf '{"sessionId":"%s","timestamp":1,"cwd":"/w","prompt":"x"}' "$2" ;;
	cursor) printf '{"session_id":"%s","hook_event_name":"beforeSubmitPrompt","workspace_roots":["/w"],"prompt":"x"}' "$2" ;;
	esac
}
post() {	# client, session id
	case $1 in
	gemini) printf '{"session_id":"%s","hook_event_name":"AfterTool","timestamp":"2026-01-01T00:00:00Z","cwd":"/w","tool_name":"run_shell_command","tool_input":{"command":"make"},"tool_response":{"llmContent":"ok"}}' "$2" ;;
	codex) printf '{"session_id":"%s","turn_id":"t","hook_event_name":"PostToolUse","cwd":"/w","tool_name":"Bash","tool_input":{"command":"make"},"tool_response":"ok"}' "$2" ;;
	copilot) printf '{"sessionId":"%s","timestamp":1,"cwd":"/w","toolName":"bash","toolArgs":{"command":"make"},"toolResult":{"resultType":"success","textResultForLlm":"ok"}}' "$2" ;;
	cursor) printf '{"session_id":"%s","hook_event_name":"postToolUse","workspace_roots":["/w"],"tool_name":"Shell","tool_input":{"command":"make"},"tool_output":"ok"}' "$2" ;;
	esac
}
for c in gemini codex copilot cursor; do
	echo "== $c: once per session"
	prompt $c "s-$c" | $RR hook --rules r.yaml
	prompt $c "s-$c" | $RR hook --rules r.yaml
	echo "(second: nothing)"
	post $c "s-$c" | $RR hook --rules r.yaml
	for id in '../../escape' '/etc/passwd' '..' 'a/b'; do
		prompt $c "$id" | $RR hook --rules r.yaml >/dev/null
		post $c "$id" | $RR hook --rules r.yaml
	done
done
find . -path ./r.yaml -prune -o -type f -print |
    grep -v -e '^./home/state/[^/]*$' -e '^./home/cache/[0-9a-f]*\.rrc$' \
    -e '^./home/data/reflexion.db' ||
    echo "nothing outside home/state, the database (and the rule cache)"
echo "== the recorded calls: canonical tool, each client's session"
"$SQLRUN" home/data/reflexion.db "SELECT session_id, json_extract(data, '$.tool') FROM events WHERE type = 'tool_use' ORDER BY id"
