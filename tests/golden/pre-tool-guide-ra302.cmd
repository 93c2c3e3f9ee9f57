# Seed 000 REQ-RA-302: before Bash, the session's last Bash error, when the
# KB holds a resolution for exactly that (normalized) error.  The errors are
# recorded by the observe pack from PostToolUseFailure events.
G="$RULES/pre-tool-guide.yaml"
O="$RULES/observe.yaml"
fail() { printf '{"session_id":"%s","cwd":"/project","hook_event_name":"PostToolUseFailure","tool_name":"Bash","tool_input":{"command":"%s"},"error":"%s"}' "$1" "$2" "$3" | $RR hook --rules "$O"; }
pre() { printf '{"session_id":"%s","cwd":"/project","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"%s"}}' "$1" "$2" | $RR hook --rules "$G"; echo "status $?"; }
fail s1 'npm install' 'npm: command not found'
fail s3 'some command' 'Unique error xyz123'
$RR kb import - <<'JSONL'
{"error":"npm: command not found","resolution":{"resolvedBy":"Bash","toolSequence":["Bash","Bash"]},"last_used":"2026-02-07T10:00:00.000Z"}
JSONL
echo "== RA-302-1: s1 had 'npm: command not found', the KB knows it"
pre s1 'npm install'
echo "== RA-302-2: s2 had no Bash error"
pre s2 'ls -la'
echo "== RA-302-3: s3's error is not in the KB"
pre s3 'some command'
echo "== an empty command is not guided"
pre s1 ''
