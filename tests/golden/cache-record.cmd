# Record options survive the compiled cache: the second and third calls
# read the rules from the cache and still redact with the rule's own
# pattern, keep its retention and its output cap.
cat > r.yaml <<'YAML'
version: 1
rules:
  - id: rec
    on: PostToolUse
    action: record
    record:
      redact: ['ACME-[0-9]{4}']
      redact_defaults: false
      max_output: 256
      head_lines: 1
      tail_lines: 1
      detect_errors: false
YAML
# Sources older than the cache's racy window (2 s, by change time, which
# touch cannot set back), so slow runs (valgrind) see the same hits.
sleep 2.1
ev() { printf '{"session_id":"s","cwd":"/p","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"deploy %s"},"tool_use_id":"t%s","tool_response":{"stdout":"key ACME-1234 token=abc %s \nline 2\nline 3\nlast line","stderr":""}}' "$1" "$1" "$1"; }
for i in 1 2 3; do ev $i | REFLEXION_CACHE_TRACE=1 $RR hook --rules r.yaml 2>&1 | sed 's/[0-9a-f]\{16,\}/HASH/'; done
"$SQLRUN" home/data/reflexion.db "SELECT json_extract(data, '$.command'), json_extract(data, '$.output') FROM events ORDER BY id"
