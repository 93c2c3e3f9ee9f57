$RR hook --rules "$FIX/protocol.yaml" < "$EV/notification.json"
echo '{"hook_event_name":"PreCompact","trigger":"auto"}' | $RR hook --rules "$RULES"
# A tool no version of the engine knows: rules for any tool still see it,
# rules that name tools do not, and its input is still there by key.
cat > t.yaml <<'YAML'
version: 1
rules:
  - id: any-tool
    on: PreToolUse
    when: {input.target: 'prod'}
    action: ask
    message: 'touches prod ({{tool}})'
  - id: bash-only
    on: PreToolUse
    tools: [Bash]
    action: deny
    message: never
YAML
echo '{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"QuantumDeploy","tool_input":{"target":"prod","file_path":7}}' | $RR hook --rules t.yaml
echo "status $?"
