# on_error: deny makes a rule file fail closed for the events its deny and
# ask rules guard: an unreadable event, a broken rule in the file, or a
# regex that cannot decide then deny instead of allowing.
cat > closed.yaml <<'YAML'
version: 1
on_error: deny
rules:
  - id: no-deploy
    on: PreToolUse
    tools: [Bash]
    when: {command: '^(a|aa)+$|deploy'}
    action: deny
    message: deploys need a review
  - id: hello
    on: UserPromptSubmit
    action: context
    message: hi
YAML
cat > broken.yaml <<'YAML'
version: 1
on_error: deny
rules:
  - id: broken
    on: [PreToolUse, Stop]
    when: {command: 'rm (-rf'}
    action: deny
    message: broken
YAML
cat > open.yaml <<'YAML'
version: 1
rules:
  - id: broken
    on: PreToolUse
    when: {command: 'rm (-rf'}
    action: deny
    message: broken
YAML
bash='{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"Bash","tool_input":{"command":"ls"}}'
prompt='{"hook_event_name":"UserPromptSubmit","cwd":"/w","prompt":"x"}'
echo "== unreadable event, a fail-closed file: exit 2 with the reason"
printf 'not json' | $RR hook --rules closed.yaml; echo "status $?"
echo "== unreadable event, only fail-open files: allow"
printf 'not json' | $RR hook --rules open.yaml; echo "status $?"
echo "== a broken fail-closed file denies the events it guards"
echo "$bash" | $RR hook --rules broken.yaml 2>/dev/null; echo "status $?"
echo "$bash" | $RR hook --rules broken.yaml --exit2 2>&1; echo "status $?"
echo "== ... but not the others"
echo "$prompt" | $RR hook --rules broken.yaml 2>/dev/null; echo "status $?"
echo "== ... and never a Stop hook that is already continuing"
printf '{"hook_event_name":"Stop","cwd":"/w","stop_hook_active":true}' | $RR hook --rules broken.yaml 2>/dev/null; echo "status $?"
printf '{"hook_event_name":"Stop","cwd":"/w","stop_hook_active":false}' | $RR hook --rules broken.yaml 2>/dev/null; echo "status $?"
echo "== a broken fail-open file allows"
echo "$bash" | $RR hook --rules open.yaml 2>/dev/null; echo "status $?"
echo "== a regex at its limit in a fail-closed deny rule denies"
p=$(printf 'a%.0s' $(seq 1 5000))
printf '{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"Bash","tool_input":{"command":"%sb"}}' "$p" | $RR hook --rules closed.yaml; echo "status $?"
echo "== the same rule without on_error: deny allows"
sed '/on_error/d' closed.yaml > notclosed.yaml
printf '{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"Bash","tool_input":{"command":"%sb"}}' "$p" | $RR hook --rules notclosed.yaml; echo "status $?"
echo "== a fail-closed file that is fine decides as usual"
echo "$bash" | $RR hook --rules closed.yaml; echo "status $?"
echo "$prompt" | $RR hook --rules closed.yaml; echo "status $?"
