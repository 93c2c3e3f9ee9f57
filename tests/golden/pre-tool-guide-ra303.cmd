# Seed 000 REQ-RA-303 (disabled in v9): Task, and Agent (its name since
# Claude Code 2.1.63), get nothing, whatever the KB holds.
G="$RULES/pre-tool-guide.yaml"
$RR kb import - <<'JSONL'
{"error":"executor failed in index.ts","resolution":{"resolvedBy":"Task","toolSequence":["Task"]},"last_used":"2026-02-07T10:00:00.000Z"}
JSONL
for t in Task Agent; do
	printf '{"session_id":"s1","cwd":"/project","hook_event_name":"PreToolUse","tool_name":"%s","tool_input":{"subagent_type":"executor","prompt":"fix index.ts","file_path":"/project/index.ts"}}' "$t" |
	    $RR hook --rules "$G"
	echo "$t: status $?"
done
