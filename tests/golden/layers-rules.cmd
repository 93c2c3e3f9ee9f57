# reflexion-rules rules: the active rules one per line (id, action,
# events, layer, file:line, flags), filtered by event and tool; then the
# refused overrides and disabled sources, and whether the project is
# trusted.  --digest prints the entry that pins a directory.
mkdir -p system/rules "$REFLEXION_HOME/rules" .reflexion/rules.local team
cat > system/rules/base.yaml <<'YAML'
version: 1
locked: true
rules:
  - id: no-secrets
    on: [PreToolUse]
    tools: [Write, Edit]
    when: {path: '**/.env'}
    action: deny
    message: no .env
YAML
cat > "$REFLEXION_HOME/rules/mine.yaml" <<'YAML'
version: 1
rules:
  - id: prompt-note
    on: UserPromptSubmit
    action: context
    message: be brief
    overridable: true
  - id: stop-check
    on: [Stop, SubagentStop]
    action: warn
    message: check the tests
YAML
cat > team/team.yaml <<'YAML'
version: 1
pack: team
rules:
  - id: no-publish
    on: PreToolUse
    tools: [Bash]
    when: {command: 'npm publish'}
    action: deny
    message: no publishing
YAML
{ printf 'sources:\n'; $RR rules --digest team; } > "$REFLEXION_HOME/config.yaml"
cat "$REFLEXION_HOME/config.yaml"
cat > .reflexion/rules.local/me.yaml <<'YAML'
version: 1
rules:
  - id: prompt-note
    enabled: false
  - id: no-secrets
    enabled: false
YAML
$RR rules
echo "status $?"
$RR rules --event PreToolUse --tool Bash
echo "status $?"
$RR rules --event Stop
echo "status $?"
echo '# edited' >> team/team.yaml
$RR rules --tool Write
echo "status $?"
$RR rules --event Nope
echo "status $?"
$RR rules --digest nowhere
echo "status $?"
