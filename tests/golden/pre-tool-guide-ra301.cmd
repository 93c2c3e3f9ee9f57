# Seed 000 REQ-RA-301 and REQ-RA-304: Edit/Write get the two newest resolved
# errors whose text names the file, in one additionalContext joined by \n.
G="$RULES/pre-tool-guide.yaml"
$RR kb import - <<'JSONL'
{"error":"TypeError: Cannot read property of undefined in index.ts","resolution":{"resolvedBy":"Edit","tool":"Edit","toolSequence":["Read","Edit","Bash"]},"last_used":"2026-02-07T10:00:00.000Z","use_count":5}
{"error":"SyntaxError in config.json","resolution":{"resolvedBy":"Edit","toolSequence":["Edit"]},"last_used":"2026-02-07T10:00:00.000Z"}
{"error":"ValidationError in config.json","resolution":{"resolvedBy":"Write","toolSequence":["Write","Bash"]},"last_used":"2026-02-07T09:59:59.000Z"}
{"error":"Old error in config.json","resolution":{"resolvedBy":"Bash"},"last_used":"2026-01-01T00:00:00.000Z"}
{"error":"Error in broken.ts","resolution":"Not a JSON string","last_used":"2026-02-07T10:00:00.000Z"}
{"error":"Error in Makefile","resolution":{"resolvedBy":"Edit"},"last_used":"2026-02-07T10:00:00.000Z"}
{"error":"Unresolved error in index.ts","resolution":null,"last_used":"2026-03-01T00:00:00.000Z"}
{"error":"Error in null.ts","resolution":"null","last_used":"2026-02-07T10:00:00.000Z"}
{"error":"Error in empty.ts","resolution":{"toolSequence":[]},"last_used":"2026-02-07T10:00:00.000Z"}
JSONL
ev() { printf '{"session_id":"s1","cwd":"/project","hook_event_name":"PreToolUse","tool_name":"%s","tool_input":{"file_path":"%s","content":"x"}}' "$1" "$2"; }
echo "== RA-301-1: Edit /project/src/index.ts"
ev Edit /project/src/index.ts | $RR hook --rules "$G"; echo "status $?"
echo "== RA-301-2: Write of a file no error names: nothing"
ev Write /project/src/unrelated.ts | $RR hook --rules "$G"; echo "status $?"
echo "== RA-304-1: Write config.json, three rows match, the two newest"
ev Write /project/config.json | $RR hook --rules "$G"; echo "status $?"
echo "== a resolution that is not JSON is shown raw"
ev Edit /project/broken.ts | $RR hook --rules "$G"
echo "== a JSON null resolution is shown raw too (JSON.parse gives null)"
ev Edit /project/null.ts | $RR hook --rules "$G"
echo "== an empty toolSequence still prints its line"
ev Edit /project/empty.ts | $RR hook --rules "$G"
echo "== a file name without extension"
ev Edit /project/Makefile | $RR hook --rules "$G"
echo "== MultiEdit and Read are not guided"
ev MultiEdit /project/src/index.ts | $RR hook --rules "$G"
ev Read /project/src/index.ts | $RR hook --rules "$G"; echo "status $?"
