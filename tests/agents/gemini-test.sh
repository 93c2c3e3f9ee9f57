#!/bin/sh
# End to end: the real Gemini CLI (`gemini -p`) against the mock Gemini
# API, guarded by reflexion-rules (see lib.sh).
AGENT=gemini
. "$SRCDIR/tests/agents/lib.sh"

# An API key with the base URL (the variable alone selects the "gateway"
# auth that -p refuses), and no folder trust: in an untrusted folder
# Gemini drops every settings hook.
agent_prepare() {
	mkdir -p "$AHOME/.gemini"
	cat >"$AHOME/.gemini/settings.json" <<'JSON'
{"security": {"auth": {"selectedType": "gemini-api-key"},
              "folderTrust": {"enabled": false}}}
JSON
}

# In the user's settings: project hooks print a trust warning on first use.
agent_register() {
	python3 - "$AHOME/.gemini/settings.json" "$RR hook --agent gemini" <<'PY'
import json, sys
path, cmd = sys.argv[1], sys.argv[2]
with open(path) as f:
    s = json.load(f)
hook = [{"type": "command", "command": cmd, "timeout": 10000}]
s["hooks"] = {"BeforeTool": [{"matcher": "*", "hooks": hook}],
              "BeforeAgent": [{"hooks": hook}],
              "AfterAgent": [{"hooks": hook}]}
with open(path, "w") as f:
    json.dump(s, f)
PY
}

agent_run() {
	agent_exec GEMINI_API_KEY=e2e-mock \
	    GOOGLE_GEMINI_BASE_URL="http://127.0.0.1:$PORT" \
	    "$exe" -p "$PROMPT" --approval-mode yolo -m gemini-2.5-flash
}

# Hook warnings: "Hook(s) ... failed", "Invalid hook event name",
# "project-level hooks have been detected", a hook's systemMessage.
agent_hook_noise() {
	grep -i 'hook' || true
}

e2e_main
