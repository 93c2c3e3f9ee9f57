# hook-memory (seed 004): a routing label for a prompt; a Stop self-check
# that keeps the agent going once, but not while stop_hook_active; error
# detection that tells the model and records the error in the memory.
printf '{"hook_event_name":"UserPromptSubmit","cwd":"/p","prompt":"PK-123 이슈를 노션 문서와 비교해줘"}' | $RR hook --rules "$RULES/hook-memory.yaml"
printf '{"hook_event_name":"Stop","cwd":"/p","stop_hook_active":false,"last_assistant_message":"Done.\\n    # TODO: retries\\n    pass"}' | $RR hook --rules "$RULES/hook-memory.yaml"
printf '{"hook_event_name":"Stop","cwd":"/p","stop_hook_active":true,"last_assistant_message":"Done.\\n    # TODO: retries\\n    pass"}' | $RR hook --rules "$RULES/hook-memory.yaml"
echo "status $?"
echo "== error detection: a traceback in a successful Bash call is told and recorded"
mkdir -p packs && cp "$RULES/hook-memory.yaml" packs/
printf 'packs: [hook-memory]\n' > home/config.yaml
export REFLEXION_PACKS_DIR=$PWD/packs
printf '%s' '{"session_id":"m","cwd":"/p","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"python gen.py"},"tool_response":{"stdout":"Traceback (most recent call last):\n  File \"/p/gen.py\", line 7, in <module>\nKeyError: '"'"'id'"'"'\n","stderr":""}}' | $RR hook
echo "== an HTTP 503 from WebFetch"
printf '%s' '{"session_id":"m","cwd":"/p","hook_event_name":"PostToolUse","tool_name":"WebFetch","tool_input":{"url":"https://api.example.com/x","prompt":"p"},"tool_response":{"result":"HTTP/1.1 503 Service Unavailable"}}' | $RR hook
echo "== a clean call is neither told nor recorded"
printf '%s' '{"session_id":"m","cwd":"/p","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_response":{"stdout":"a\nb\n","stderr":""}}' | $RR hook
echo "== the memory holds the two errors, normalized"
"$SQLRUN" home/data/reflexion.db "SELECT type, json_extract(data, '$.tool'), json_extract(data, '$.error') FROM events ORDER BY id"
