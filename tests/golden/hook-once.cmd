# once: session fires on the first call only; once: session+path once per file.
cat > r.yaml <<'YAML'
version: 1
rules:
  - id: remind
    on: PreToolUse
    tools: [Edit, Write]
    once: session+path
    action: context
    message: 'First edit of {{path}} in this session.'
  - id: hello
    on: PreToolUse
    once: session
    action: context
    message: hello
YAML
ev() { printf '{"session_id":"%s","hook_event_name":"PreToolUse","cwd":"/w","tool_name":"Edit","tool_input":{"file_path":"/w/%s","old_string":"a","new_string":"b"}}' "$1" "$2"; }
ev s1 a.txt | $RR hook --rules r.yaml
ev s1 a.txt | $RR hook --rules r.yaml
ev s1 b.txt | $RR hook --rules r.yaml
ev s2 a.txt | $RR hook --rules r.yaml
ls home/state | grep -c json
