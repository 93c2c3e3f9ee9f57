#!/bin/sh
# End to end: the real Gemini CLI (`gemini -p`) against the mock Gemini
# API, guarded by reflexion-rules (see lib.sh).
AGENT=gemini
. "$SRCDIR/tests/agents/lib.sh"

# An API key with the base URL (the variable alone selects the "gateway"
# auth that -p refuses); the project is a trusted folder (in an untrusted
# one Gemini drops every settings hook), as the user says when asked.
agent_prepare() {
	mkdir -p "$AHOME/.gemini"
	cat >"$AHOME/.gemini/settings.json" <<'JSON'
{"security": {"auth": {"selectedType": "gemini-api-key"}}}
JSON
	printf '{"%s": "TRUST_FOLDER"}\n' "$PROJ" \
	    >"$AHOME/.gemini/trustedFolders.json"
}

agent_run() {
	agent_exec GEMINI_API_KEY=e2e-mock \
	    GOOGLE_GEMINI_BASE_URL="http://127.0.0.1:$PORT" \
	    "$exe" -p "$PROMPT" --approval-mode yolo -m gemini-2.5-flash
}

# Hook warnings: "Hook(s) ... failed", "Invalid hook event name",
# "Project hooks disabled because the folder is not trusted", a hook's
# systemMessage.  Not the notice Gemini prints the first time it meets any
# new project hook ("The following project-level hooks have been
# detected ... These hooks will be executed"): init's project scope gets
# it once, the user scope never.
agent_hook_noise() {
	grep -i 'hook' |
	    grep -v -x 'WARNING: The following project-level hooks have been detected in this workspace:' |
	    grep -v '^These hooks will be executed. If you did not configure these hooks' ||
	    true
}

e2e_main
