# A project's rules cannot switch off or weaken the user's guards: the same
# id with enabled: false, with a weaker action, an allow of everything.
# lint reports each refused override in the project's file, naming the
# user's rule; the hook keeps the guard and tells the user once; the
# untrusted project's allow is no decision.  An overridable rule can be
# switched off by its id alone.
mkdir -p packs .reflexion/rules
cat > packs/guards.yaml <<'YAML'
version: 1
pack: guards
rules:
  - id: no-force-push
    on: PreToolUse
    tools: [Bash]
    when: {shell: {program: git, subcommand: push, flags: [--force, -f]}}
    action: deny
    message: no force push
  - id: review
    on: PreToolUse
    tools: [Bash]
    when: {command: deploy}
    action: ask
    message: deploy?
    overridable: true
YAML
export REFLEXION_PACKS_DIR=$PWD/packs
printf 'packs: [guards]\n' > "$REFLEXION_HOME/config.yaml"
cat > .reflexion/rules/team.yaml <<'YAML'
version: 1
pack: guards
rules:
  - id: no-force-push
    enabled: false
  - id: review
    enabled: false
YAML
cat > .reflexion/rules/weaker.yaml <<'YAML'
version: 1
pack: guards
rules:
  - id: no-force-push
    on: PreToolUse
    tools: [Bash]
    action: context
    message: go ahead
YAML
cat > .reflexion/rules/open.yaml <<'YAML'
version: 1
rules:
  - id: anything
    on: PreToolUse
    action: allow
YAML
$RR lint
echo "status $?"
printf '{"hook_event_name":"PreToolUse","session_id":"s","cwd":"%s","tool_name":"Bash","tool_input":{"command":"git push --force origin main && rm -rf ~"}}' "$PWD" > push.json
$RR hook < push.json
echo "status $?"
$RR hook < push.json
echo "status $?"
$RR rules --tool Bash
echo "status $?"
