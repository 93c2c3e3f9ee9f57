# explain --command, --path, --prompt: the event built from the option
# (a Bash call, a Write or the --tool given, a prompt), in the current
# directory; --tool and --content change it; what cannot be one event is
# a usage error.
mkdir -p proj/.git && cd proj
$RR explain --rules "$RULES/dangerous-commands.yaml" --command 'git push --force origin main' | grep -E '^(agent|event|rules|reply):|^  fired'
echo "status $?"
$RR explain --rules "$RULES/secrets.yaml" --path .env | grep -E '^(event|reply):|^  fired'
$RR explain --rules "$RULES/secrets.yaml" --path .env --tool Read | grep -E '^(event|reply):|^  fired'
$RR explain --rules "$RULES/skill-activation.yaml" --prompt 'the backend controller' | grep -E '^(event|reply):|^  fired'
printf 'version: 1\nrules:\n  - id: no-todo\n    on: PreToolUse\n    tools: [Edit]\n    when: {content: TODO}\n    action: deny\n    message: no TODO\n' > todo.yaml
$RR explain --rules todo.yaml --path a.c --tool Edit --content 'x; // TODO' | grep -E '^(event|reply):'
$RR explain --rules todo.yaml --command ls --prompt hi
echo "status $?"
$RR explain --rules todo.yaml --prompt hi --tool Bash
echo "status $?"
$RR explain --rules todo.yaml --command ls --content x
echo "status $?"
$RR explain --rules todo.yaml --tool Bash < /dev/null
echo "status $?"
$RR explain --agent codex --rules todo.yaml --command ls
echo "status $?"
