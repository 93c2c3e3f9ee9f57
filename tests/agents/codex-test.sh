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

# Codex needs two trusts, which a user gives once: the project's (else its
# .codex/ is ignored: "Untrusted project-local configuration is disabled";
# --trust saves it) and each hook's (else the hook silently does not run
# in `codex exec`; the TUI's /hooks review, or the bypass flag).
agent_run() {
	agent_exec CODEX_HOME="$AHOME/.codex" MOCK_API_KEY=e2e-mock \
	    "$exe" exec --skip-git-repo-check --trust \
	    --dangerously-bypass-hook-trust "$PROMPT"
}

# Codex reports each hook as "hook: EVENT" then "hook: EVENT Completed"
# (or "Blocked", with an error line naming the blocked call: expected for
# the two denies); anything else about hooks ("Failed", an invalid output)
# and any "warning:" (config, trust) is noise, except the bypass flag's.
agent_hook_noise() {
	grep -i -E 'hook|^warning' |
	    grep -v -E '^hook: [A-Za-z]+( Completed| Blocked)?$' |
	    grep -v -E 'blocked by PreToolUse hook: E2E-DENY-(SHELL|WRITE) ' |
	    grep -v -- '--dangerously-bypass-hook-trust. is enabled' || true
}

e2e_main
