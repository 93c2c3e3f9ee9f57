# The whole loop through the hook, as Claude Code would run it with the
# observe and pre-tool-guide packs: a failed call is recorded, a later
# success on the same file or command resolves it into the KB, and the next
# PreToolUse is told.
R="--rules $RULES/observe.yaml --rules $RULES/pre-tool-guide.yaml"
hook() { $RR hook $R; s=$?; [ $s = 0 ] || echo "status $s"; }
pre_edit='{"session_id":"a","cwd":"/project","hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"file_path":"/project/src/app.ts","old_string":"x","new_string":"y"}}'
echo "== an Edit of src/app.ts fails"
printf '%s' "$pre_edit" | hook
printf '%s' '{"session_id":"a","cwd":"/project","hook_event_name":"PostToolUseFailure","tool_name":"Edit","tool_input":{"file_path":"/project/src/app.ts","old_string":"x","new_string":"y"},"tool_use_id":"toolu_01A","error":"String to replace not found in file.\nFile: /project/src/app.ts line 12"}' | hook
echo "== the model reads the file and edits again: resolved"
printf '%s' '{"session_id":"a","cwd":"/project","hook_event_name":"PostToolUse","tool_name":"Read","tool_input":{"file_path":"/project/src/app.ts"},"tool_response":{"type":"text","file":{"filePath":"/project/src/app.ts","content":"const x = 1;\n"}}}' | hook
printf '%s' '{"session_id":"a","cwd":"/project","hook_event_name":"PostToolUse","tool_name":"Edit","tool_input":{"file_path":"/project/src/app.ts","old_string":"x = 1","new_string":"x = 2"},"tool_response":{"filePath":"/project/src/app.ts","structuredPatch":[{"lines":["-const x = 1;","+const x = 2;"]}]}}' | hook
echo "== another session edits app.ts: the past error and its resolution"
printf '%s' "$pre_edit" | sed 's/"a"/"b"/' | hook
echo "== a Bash command fails with a traceback and exit 0, then passes"
printf '%s' '{"session_id":"b","cwd":"/project","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"python tools/gen.py"},"tool_response":{"stdout":"Traceback (most recent call last):\n  File \"/project/tools/gen.py\", line 7, in <module>\n    import yaml\nModuleNotFoundError: No module named '"'"'yaml'"'"'\n","stderr":""}}' | hook
printf '%s' '{"session_id":"b","cwd":"/project","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"pip install pyyaml"}}' | hook
printf '%s' '{"session_id":"b","cwd":"/project","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"pip install pyyaml"},"tool_response":{"stdout":"Successfully installed PyYAML-6.0.1","stderr":""}}' | hook
printf '%s' '{"session_id":"b","cwd":"/project","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"python tools/gen.py"},"tool_response":{"stdout":"done","stderr":""}}' | hook
echo "== the next Bash call of that session"
printf '%s' '{"session_id":"b","cwd":"/project","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"python tools/gen.py --all"}}' | hook
echo "== the knowledge base"
$RR kb export | sed 's/"last_used":"[^"]*"/"last_used":"T"/'
echo "== the events"
"$SQLRUN" home/data/reflexion.db "SELECT session_id, type, json_extract(data, '$.tool'), json_extract(data, '$.success'), json_extract(data, '$.target'), json_extract(data, '$.count') FROM events ORDER BY id"
