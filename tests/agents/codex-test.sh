#!/bin/sh
# End to end: the real Codex CLI (`codex exec`) against the mock OpenAI
# Responses API, guarded by reflexion-rules (see lib.sh).  Files are
# written through apply_patch.
AGENT=codex
. "$SRCDIR/tests/agents/lib.sh"

# A built-in model slug, so that Codex offers its own tools (apply_patch
# among them); no approvals, no sandbox.
agent_prepare() {
	mkdir -p "$AHOME/.codex"
	cat >"$AHOME/.codex/config.toml" <<TOML
model = "gpt-5.5"
model_provider = "mock"
approval_policy = "never"
sandbox_mode = "danger-full-access"

[model_providers.mock]
name = "mock"
base_url = "http://127.0.0.1:$PORT/v1"
wire_api = "responses"
env_key = "MOCK_API_KEY"
TOML
}

agent_register() {
	cat >"$AHOME/.codex/hooks.json" <<JSON
{"hooks": {
  "PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "$RR hook --agent codex", "timeout": 10}]}],
  "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "$RR hook --agent codex", "timeout": 10}]}],
  "Stop": [{"hooks": [{"type": "command", "command": "$RR hook --agent codex", "timeout": 10}]}]}}
JSON
}

# Hooks not reviewed in the TUI do not run in `codex exec` (silently):
# the bypass flag stands for that review.
agent_run() {
	agent_exec CODEX_HOME="$AHOME/.codex" MOCK_API_KEY=e2e-mock \
	    "$exe" exec --skip-git-repo-check --dangerously-bypass-hook-trust \
	    "$PROMPT"
}

# Codex reports each hook as "hook: EVENT" then "hook: EVENT Completed"
# (or "Blocked", with an error line naming the blocked call: expected for
# the two denies); anything else about hooks ("Failed", an invalid output,
# a config warning) is noise, except the bypass flag's own warning.
agent_hook_noise() {
	grep -i 'hook' | grep -v -E '^hook: [A-Za-z]+( Completed| Blocked)?$' |
	    grep -v -E 'blocked by PreToolUse hook: E2E-DENY-(SHELL|WRITE) ' |
	    grep -v -- '--dangerously-bypass-hook-trust. is enabled' || true
}

e2e_main
