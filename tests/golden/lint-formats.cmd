cat > r.yaml <<'YAML'
version: 1
rules:
  - id: x
    on: PreToolUse
    tools: [Bash]
    when: {command: 'a(b'}
    action: deny
    message: m
YAML
$RR lint r.yaml
echo "status $?"
$RR lint --format json r.yaml
echo "status $?"
$RR lint --format github r.yaml
echo "status $?"
$RR lint --format xml r.yaml
echo "status $?"
$RR lint "$RULES"
echo "status $?"
$RR lint nonexistent.yaml
echo "status $?"
