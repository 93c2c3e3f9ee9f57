# hook-memory (seed 004): a routing label for a prompt; a Stop self-check
# that keeps the agent going once, but not while stop_hook_active.
printf '{"hook_event_name":"UserPromptSubmit","cwd":"/p","prompt":"PK-123 이슈를 노션 문서와 비교해줘"}' | $RR hook --rules "$RULES/hook-memory.yaml"
printf '{"hook_event_name":"Stop","cwd":"/p","stop_hook_active":false,"last_assistant_message":"Done.\\n    # TODO: retries\\n    pass"}' | $RR hook --rules "$RULES/hook-memory.yaml"
printf '{"hook_event_name":"Stop","cwd":"/p","stop_hook_active":true,"last_assistant_message":"Done.\\n    # TODO: retries\\n    pass"}' | $RR hook --rules "$RULES/hook-memory.yaml"
echo "status $?"
