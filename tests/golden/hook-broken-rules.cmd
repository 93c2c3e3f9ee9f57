# A broken rule is reported to the user and left out; the others still work.
mkdir -p rules
cat > rules/a.yaml <<'YAML'
version: 1
rules:
  - id: good
    on: PreToolUse
    tools: [Bash]
    when: {command: 'rm -rf'}
    action: deny
    message: no rm
  - id: bad
    on: PreToolUse
    when: {command: 'rm (-rf'}
    action: deny
    message: broken
YAML
$RR hook --rules rules < "$EV/pre-bash.json"
echo "status $?"
