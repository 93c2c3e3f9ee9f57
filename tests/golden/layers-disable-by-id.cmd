# One pack rule switched off by its full id, PACK/ID, among the user's own
# rules (no pack: line, no file of its own); a project may do it only to
# a rule that is overridable (LAYERS AND TRUST).
mkdir -p packs home/rules proj/.git proj/.reflexion/rules
cat > packs/guards.yaml <<'YAML'
version: 1
pack: guards
rules:
  - id: git-push-force
    on: PreToolUse
    tools: [Bash]
    when: {command: 'git push --force'}
    action: deny
    message: no force push
  - id: git-reset-hard
    on: PreToolUse
    tools: [Bash]
    when: {command: 'git reset --hard'}
    action: deny
    message: no hard reset
YAML
cat > packs/team.yaml <<'YAML'
version: 1
pack: team
rules:
  - id: no-deploy
    on: PreToolUse
    tools: [Bash]
    when: {command: '^deploy'}
    action: deny
    message: no deploy
    overridable: true
YAML
export REFLEXION_PACKS_DIR=$PWD/packs
echo 'packs: [guards, team]' > home/config.yaml
cat > home/rules/mine.yaml <<'YAML'
version: 1
rules:
  - id: no-curl-pipe
    on: PreToolUse
    tools: [Bash]
    when: {command: 'curl .*\| *sh'}
    action: deny
    message: no curl | sh
  - id: guards/git-push-force
    enabled: false
YAML
cd proj
$RR lint 2>/dev/null; echo "status $?"
$RR rules --tool Bash 2>/dev/null | grep -E 'git-push-force|git-reset-hard|no-curl|no-deploy' | sed 's/  */ /g'
$RR explain --command 'git push --force origin main' | tail -n 1
$RR explain --command 'git reset --hard' | tail -n 1
echo "== the project may switch off the overridable rule, not the other"
cat > .reflexion/rules/off.yaml <<'YAML'
version: 1
rules:
  - id: team/no-deploy
    enabled: false
  - id: guards/git-reset-hard
    enabled: false
YAML
$RR lint 2>/dev/null; echo "status $?"
$RR explain --command 'deploy prod' | tail -n 1
$RR explain --command 'git reset --hard' | tail -n 1
echo "== ids with more than one / are not ids"
printf 'version: 1\nrules:\n  - id: a/b/c\n    enabled: false\n' > .reflexion/rules/off.yaml
$RR lint 2>/dev/null; echo "status $?"
