# Warnings (a rule that can never fire) are lint's: lint shows them and
# exits 0; the hook, cold or warm cache, says nothing of them; test shows
# them without failing.
cat > r.yaml <<'YAML'
version: 1
rules:
  - id: env-in-powershell
    on: PreToolUse
    tools: [PowerShell]
    when:
      path: '*.env'
    action: deny
    message: no
    tests:
      - {event: {tool_name: PowerShell, tool_input: {command: ls}}, expect: none}
  - id: ls
    on: PreToolUse
    tools: [Bash, write]
    when: {command: '^ls'}
    action: context
    message: listing
    tests:
      - {event: {tool_name: Bash, tool_input: {command: ls}}, expect: context}
YAML
$RR lint r.yaml; echo "status $?"
ev='{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"Bash","tool_input":{"command":"ls"}}'
echo "$ev" | $RR hook --rules r.yaml; echo "status $?"
echo "$ev" | $RR hook --rules r.yaml; echo "status $?"
$RR test --tap r.yaml; echo "status $?"
