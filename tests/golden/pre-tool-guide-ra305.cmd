# Seed 000 REQ-RA-305: a corrupt database never fails the hook.  It is
# reported on stderr, set aside, and the hook answers (here: nothing).
G="$RULES/pre-tool-guide.yaml"
mkdir -p home/data
printf 'this is not a database, just garbage bytes.%.0s' 1 2 3 4 5 6 7 8 9 10 > home/data/reflexion.db
ev='{"session_id":"s1","cwd":"/project","hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"file_path":"/project/src/index.ts"}}'
printf '%s' "$ev" | $RR hook --rules "$G" 2>err
echo "status $?"
sed 's/corrupt-[0-9TZ]*-[0-9]*/corrupt-STAMP/' err
ls home/data | sed 's/corrupt-[0-9TZ]*-[0-9]*/corrupt-STAMP/' | sort
echo "== the next call uses the new database quietly"
printf '%s' "$ev" | $RR hook --rules "$G"
echo "status $?"
echo "== a truncated database"
printf '{"error":"E%s in file%s.ts","resolution":"r","last_used":"2026-01-01"}\n' $(seq 1 2000 | sed 'p') > many.jsonl
$RR kb import many.jsonl
size=$(wc -c < home/data/reflexion.db)
head -c $((size / 2)) home/data/reflexion.db > half && mv half home/data/reflexion.db
printf '%s' "$ev" | $RR hook --rules "$G" 2>err
echo "status $?"
sed 's/corrupt-[0-9TZ]*-[0-9]*/corrupt-STAMP/' err
