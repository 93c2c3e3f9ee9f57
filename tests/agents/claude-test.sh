#!/bin/sh
# End to end: the real Claude Code (`claude -p`) against the mock
# Anthropic Messages API, guarded by reflexion-rules (see lib.sh).
AGENT=claude
. "$SRCDIR/tests/agents/lib.sh"

agent_prepare() { :; }

# --allowedTools, not bypassPermissions: Claude Code refuses that as root.
agent_run() {
	agent_exec ANTHROPIC_BASE_URL="http://127.0.0.1:$PORT" \
	    ANTHROPIC_API_KEY=sk-ant-e2e-mock DISABLE_AUTOUPDATER=1 \
	    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_TELEMETRY=1 \
	    DISABLE_ERROR_REPORTING=1 \
	    "$exe" -p "$PROMPT" --model claude-sonnet-4-6 \
	    --allowedTools Bash,Write,Edit \
	    --output-format stream-json --verbose --include-hook-events
}

# The stream says how every hook ran: each must exit 0 with nothing on
# stderr.  Other lines that speak of hooks are reported too.
agent_hook_noise() {
	python3 -c '
import json, sys
for line in sys.stdin:
    try:
        e = json.loads(line)
    except ValueError:
        if "hook" in line.lower():
            print(line.rstrip())
        continue
    if isinstance(e, dict) and e.get("subtype") == "hook_response" and (
            e.get("exit_code") != 0 or e.get("stderr")
            or e.get("outcome") != "success"):
        print("%s: exit %s, %s: %s" % (e.get("hook_name"), e.get("exit_code"),
              e.get("outcome"), (e.get("stderr") or "").strip()))
'
}

e2e_main
