# The self-protection pack guards every file init writes, for every
# client and scope: a shell command that writes or deletes it, and an
# edit that drops our entries, are denied in each client's own protocol
# (Codex through apply_patch); an edit that keeps them is not.
# The clients' home is not the data directory ($REFLEXION_HOME, whose
# files the pack guards whatever they are).  A CODEX_HOME or COPILOT_HOME
# elsewhere is not known to the pack (reflexion-rules(1), AGENTS).
mkdir -p bin proj/.git user
# $RR may be a command line (valgrind ...): a script runs it.
printf '#!/bin/sh\nexec %s "$@"\n' "$RR" > bin/reflexion-rules
chmod +x bin/reflexion-rules
PATH=$PWD/bin:$PATH HOME=$PWD/user
export PATH HOME
unset CODEX_HOME COPILOT_HOME
P=$PWD/proj
ev() {	# client, tool call: shell COMMAND | drop FILE | keep FILE
	case $1:$2 in
	claude:shell) printf '{"session_id":"s","hook_event_name":"PreToolUse","cwd":"%s","tool_name":"Bash","tool_input":{"command":"%s"}}' "$P" "$3" ;;
	gemini:shell) printf '{"session_id":"s","hook_event_name":"BeforeTool","timestamp":"2026-01-01T00:00:00Z","cwd":"%s","tool_name":"run_shell_command","tool_input":{"command":"%s"}}' "$P" "$3" ;;
	codex:shell) printf '{"session_id":"s","turn_id":"t","hook_event_name":"PreToolUse","cwd":"%s","tool_name":"Bash","tool_input":{"command":"%s"}}' "$P" "$3" ;;
	copilot:shell) printf '{"sessionId":"s","timestamp":1,"cwd":"%s","toolName":"bash","toolArgs":{"command":"%s"}}' "$P" "$3" ;;
	cursor:shell) printf '{"session_id":"s","hook_event_name":"beforeShellExecution","workspace_roots":["%s"],"command":"%s"}' "$P" "$3" ;;
	claude:drop) printf '{"session_id":"s","hook_event_name":"PreToolUse","cwd":"%s","tool_name":"Write","tool_input":{"file_path":"%s","content":"{}"}}' "$P" "$3" ;;
	gemini:drop) printf '{"session_id":"s","hook_event_name":"BeforeTool","timestamp":"2026-01-01T00:00:00Z","cwd":"%s","tool_name":"write_file","tool_input":{"file_path":"%s","content":"{}"}}' "$P" "$3" ;;
	codex:drop) printf '{"session_id":"s","turn_id":"t","hook_event_name":"PreToolUse","cwd":"%s","tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\\n*** Delete File: %s\\n*** End Patch\\n"}}' "$P" "$3" ;;
	copilot:drop) printf '{"sessionId":"s","timestamp":1,"cwd":"%s","toolName":"create","toolArgs":{"path":"%s","file_text":"{}"}}' "$P" "$3" ;;
	cursor:drop) printf '{"session_id":"s","hook_event_name":"preToolUse","workspace_roots":["%s"],"tool_name":"Write","tool_input":{"file_path":"%s","content":"{}"}}' "$P" "$3" ;;
	codex:keep) printf '{"session_id":"s","turn_id":"t","hook_event_name":"PreToolUse","cwd":"%s","tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\\n*** Update File: %s\\n@@\\n {\\n+  \\"note\\": \\"kept\\",\\n*** End Patch\\n"}}' "$P" "$3" ;;
	esac
}
verdict() {
	out=$(cat)
	case $out in
	*deny*|*'"block"'*) echo "denied" ;;
	'{}'|'') echo "allowed" ;;
	*) echo "other: $out" ;;
	esac
}
for scope in project local user; do
	for c in claude gemini codex copilot cursor; do
		f=$(reflexion-rules init --project-dir proj --scope $scope \
		    --agent $c 2>/dev/null | sed -n 's/^reflexion-rules: registered hooks for [0-9]* events in \([^ ]*\).*/\1/p')
		[ -n "$f" ] || { echo "$c $scope: no such scope"; continue; }
		case $f in /*) ;; *) f=$PWD/$f ;; esac
		printf '%s %s %s: ' "$c" "$scope" "$(echo "$f" | sed "s|^$PWD/||")"
		printf 'rm %s, ' "$(ev $c shell "rm -f $f" | reflexion-rules hook | verdict)"
		printf 'drop %s' "$(ev $c drop "$f" | reflexion-rules hook | verdict)"
		if [ $c = codex ]; then
			printf ', keep %s' "$(ev $c keep "$f" | reflexion-rules hook | verdict)"
		fi
		echo
	done
done
