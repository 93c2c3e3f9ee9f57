#!/bin/sh
# End to end: the real Copilot CLI in a project registered for Claude Code
# only (`init --agent claude`): Copilot runs the hooks of the project's
# .claude/settings.json too, with Claude-style ("PascalCase") events, and
# `hook` (agent auto) must answer it as Copilot (see copilot-test.sh).
INIT_AGENT=claude
LABEL=copilot-with-claude-hooks
. "$SRCDIR/tests/agents/copilot-test.sh"
