# \u0000 cannot hide the rest of a command, a lone surrogate cannot make
# the event unreadable, and invalid UTF-8 in a message shows its bytes (\xNN).
printf '{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"Bash","tool_input":{"command":"echo hi\\u0000; rm -rf ~"}}' | $RR hook --rules "$RULES"
printf '{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"Bash","tool_input":{"command":"rm -rf ~ \\ud800 x"}}' | $RR hook --rules "$RULES"
printf '{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"Bash","tool_input":{"command":"rm -rf ~ \377\376"}}' | $RR hook --rules "$RULES"
