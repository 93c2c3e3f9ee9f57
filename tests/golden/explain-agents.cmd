# explain names the client (and how it was recognised), what its names
# are canonically, and for a Codex patch each file's event in turn.
cat > r.yaml <<'YAML'
version: 1
rules:
  - id: no-env-write
    on: PreToolUse
    tools: [Write, Edit]
    when: {path: '**/.env'}
    action: deny
    message: '{{path}} holds secrets ({{tool}})'
YAML
$RR explain --rules r.yaml < "$EV/agents/gemini-before-tool-write.json"
echo "status $?"
$RR explain --rules r.yaml < "$EV/agents/codex-pre-apply-patch.json"
echo "status $?"
$RR explain --agent copilot --event preToolUse --rules r.yaml < "$EV/agents/copilot-camel-pre-create.json"
echo "status $?"
$RR explain --agent cursor --rules r.yaml < "$EV/agents/cursor-before-shell.json"
echo "status $?"
$RR explain --agent frob --rules r.yaml < "$EV/agents/cursor-before-shell.json"
echo "status $?"
