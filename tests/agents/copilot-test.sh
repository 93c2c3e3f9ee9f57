#!/bin/sh
# End to end: the real GitHub Copilot CLI (`copilot -p`) against the mock
# OpenAI Chat Completions API (bring-your-own-key provider), guarded by
# reflexion-rules (see lib.sh).  No GitHub login is needed.
AGENT=copilot
. "$SRCDIR/tests/agents/lib.sh"

agent_prepare() { :; }

# --trust-folder: repository hooks (.github/hooks) load in -p only then.
agent_run() {
	agent_exec COPILOT_PROVIDER_BASE_URL="http://127.0.0.1:$PORT/v1" \
	    COPILOT_PROVIDER_API_KEY=e2e-mock COPILOT_MODEL=gpt-4.1 \
	    "$exe" -p "$PROMPT" --allow-all-tools --allow-all-paths \
	    --disable-builtin-mcps --disable-client-telemetry --trust-folder
}

# A deny is shown as "Denied by preToolUse hook: REASON": expected for the
# two denies of the session; any other line about hooks is noise.
agent_hook_noise() {
	grep -i 'hook' | grep -v -E 'Denied by preToolUse hook: E2E-DENY-' || true
}

e2e_main
