# unless: file_contains reads the file on disk: a marker skips the rule;
# a FIFO at the path is not read (and does not hang the hook).
mkdir -p proj/database/src
printf '// @skip-validation\nexport {}\n' > proj/database/src/marked.ts
printf 'export {}\n' > proj/database/src/plain.ts
mkfifo proj/database/src/fifo.ts
ev() { printf '{"session_id":"%s","hook_event_name":"PreToolUse","cwd":"%s/proj","tool_name":"Edit","tool_input":{"file_path":"%s/proj/database/src/%s","old_string":"x","new_string":"prisma.user.findMany()"}}' "$1" "$PWD" "$PWD" "$2"; }
ev s1 marked.ts | $RR hook --rules "$RULES"
echo "marked: status $?"
ev s2 plain.ts | $RR hook --rules "$RULES" | cut -c1-90
ev s3 fifo.ts | $RR hook --rules "$RULES" | cut -c1-90
