# explain --command, --path, --prompt: the event built from the option
# (a Bash call, a Write or the --tool given, a prompt), in the current
# directory; --tool and --content change it; what cannot be one event is
# a usage error.
mkdir -p proj/.git && cd proj
cat > r.yaml <<'YAML'
version: 1
rules:
  - id: no-force-push
    on: PreToolUse
    tools: [Bash]
    when: {shell: {program: git, args: '^push$', flags: [--force, -f]}}
    action: deny
    message: 'no force push: {{command}}'
  - id: env-write
    on: PreToolUse
    tools: [Write]
    when: {path: '.env'}
    action: ask
    message: 'writes {{path}}'
  - id: env-read
    on: PreToolUse
    tools: [Read]
    when: {path: '.env'}
    action: deny
    message: 'reads {{path}}'
  - id: no-todo
    on: PreToolUse
    tools: [Edit]
    when: {content: TODO}
    action: deny
    message: no TODO
  - id: backend
    on: UserPromptSubmit
    when: {prompt: {keywords: [backend]}}
    action: context
    message: backend guidelines
YAML
$RR explain --rules r.yaml --command 'git push --force origin main' | grep -E '^(agent|event|rules|reply):|^rule|^  fired'
echo "status $?"
$RR explain --rules r.yaml --path .env | grep -E '^(event|reply):'
$RR explain --rules r.yaml --path .env --tool Read | grep -E '^(event|reply):'
$RR explain --rules r.yaml --prompt 'the backend controller' | grep -E '^(event|reply):'
$RR explain --rules r.yaml --path a.c --tool Edit --content 'x; // TODO' | grep -E '^(event|reply):'
$RR explain --rules r.yaml --command ls --prompt hi
echo "status $?"
$RR explain --rules r.yaml --prompt hi --tool Bash
echo "status $?"
$RR explain --rules r.yaml --command ls --content x
echo "status $?"
$RR explain --rules r.yaml --tool Bash < /dev/null
echo "status $?"
$RR explain --agent codex --rules r.yaml --command ls
echo "status $?"
