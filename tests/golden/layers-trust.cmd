# reflexion-rules trust: adds the project (default: the one around the
# current directory) to config.yaml's trust: list, keeping the file as
# written; a second run changes nothing; --list, --remove.  Then the
# project's allow rules count.
mkdir -p proj/.reflexion/rules other
cat > proj/.reflexion/rules/ok.yaml <<'YAML'
version: 1
rules:
  - id: ls-ok
    on: PreToolUse
    tools: [Bash]
    when: {command: '^ls\b'}
    action: allow
YAML
cat > "$REFLEXION_HOME/config.yaml" <<'YAML'
# my settings
packs: []   # none yet
trust:
  - /nonexistent/old   # from before
YAML
cd proj
printf '{"hook_event_name":"PreToolUse","session_id":"s","cwd":"%s","tool_name":"Bash","tool_input":{"command":"ls -l"}}' "$PWD" > ../ls.json
$RR hook < ../ls.json
echo "status $?"
$RR trust
echo "status $?"
$RR trust
echo "status $?"
$RR trust ../other
echo "status $?"
cat "$REFLEXION_HOME/config.yaml"
$RR trust --list
$RR hook < ../ls.json
echo "status $?"
$RR trust --remove
echo "status $?"
$RR trust --remove
echo "status $?"
cat "$REFLEXION_HOME/config.yaml"
$RR hook < ../ls.json
echo "status $?"
$RR trust ../nowhere
echo "status $?"
printf 'trust: {a: 1}\n' > "$REFLEXION_HOME/config.yaml"
$RR trust
echo "status $?"
