# secrets, enabled by name in config.yaml: reading .env through a shell
# command is denied, writing it asks, and the example file is fine.
export REFLEXION_PACKS_DIR=$RULES
printf 'packs: [secrets]\n' > "$REFLEXION_HOME/config.yaml"
ev() { printf '{"session_id":"s","hook_event_name":"PreToolUse","cwd":"/home/dev/shop","tool_name":"Bash","tool_input":{"command":"%s"}}' "$1"; }
ev 'grep -i token .env.local' | $RR hook
echo "status $?"
ev 'cp .env.example .env' | $RR hook
echo "status $?"
ev 'cat .env.example' | $RR hook
echo "status $?"
# the agents' own logins are denied; their settings are fine.
ev 'jq .tokens /home/dev/.codex/auth.json' | $RR hook
echo "status $?"
ev 'cat /home/dev/.codex/config.toml' | $RR hook
echo "status $?"
