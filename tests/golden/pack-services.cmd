# services, enabled by name in config.yaml: deleting a topic is denied,
# an HTTP DELETE to another machine asks, the same to localhost is fine.
export REFLEXION_PACKS_DIR=$RULES
printf 'packs: [services]\n' > "$REFLEXION_HOME/config.yaml"
ev() { printf '{"session_id":"s","hook_event_name":"PreToolUse","cwd":"/home/dev/shop","tool_name":"Bash","tool_input":{"command":"%s"}}' "$1"; }
ev 'sudo kafka-topics.sh --bootstrap-server k:9092 --delete --topic orders' | $RR hook
echo "status $?"
ev 'curl -sX DELETE https://search.example.com:9200/logs-2024' | $RR hook
echo "status $?"
ev 'curl -X DELETE http://localhost:3000/api/todos/1 && restic snapshots' | $RR hook
echo "status $?"
