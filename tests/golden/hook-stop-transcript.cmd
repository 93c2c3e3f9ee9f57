# Clients before 2.1.47 send no last_assistant_message: it comes from the
# transcript's last assistant entry.
cat > r.yaml <<'YAML'
version: 1
rules:
  - id: no-drop
    on: Stop
    when:
      message: '(?i)drop\s+table'
    action: deny
    message: 'The answer proposes DROP TABLE; ask the user first.'
YAML
cat > t.jsonl <<'JSONL'
{"type":"user","message":{"role":"user","content":"clean the db"}}
{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Run DROP TABLE old_users;"},{"type":"tool_use","name":"Bash"}]}}
{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","name":"Bash"}]}}
JSONL
printf '{"hook_event_name":"Stop","cwd":"/w","stop_hook_active":false,"transcript_path":"%s/t.jsonl"}' "$PWD" | $RR hook --rules r.yaml
printf '{"hook_event_name":"Stop","cwd":"/w","stop_hook_active":true,"transcript_path":"%s/t.jsonl"}' "$PWD" | $RR hook --rules r.yaml
echo "status $?"
