# SessionStart removes state files older than 30 days, keeps newer ones.
cat > r.yaml <<'YAML'
version: 1
rules:
  - id: hi
    on: SessionStart
    action: context
    message: hi
YAML
mkdir -p home/state
echo '{}' > home/state/old.json
echo '{}' > home/state/new.json
touch -d '40 days ago' home/state/old.json
printf '{"session_id":"s","hook_event_name":"SessionStart","cwd":"/w","source":"startup"}' | $RR hook --rules r.yaml
ls home/state
