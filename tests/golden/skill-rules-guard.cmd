# diet103 guardrail: blocks once per session, then lets the edit through;
# the env override and the exclusions skip it; the message keeps its
# second {file_path} as diet103's first-occurrence replace does.
P=$FIX/skillproj
ev() { printf '{"session_id":"%s","hook_event_name":"PreToolUse","cwd":"%s","tool_name":"Write","tool_input":{"file_path":"%s/%s","content":"%s"}}' "$1" "$P" "$P" "$2" "$3"; }
ev s1 db/m/001.sql 'ALTER TABLE users ADD x int;' | CLAUDE_PROJECT_DIR=$P $RR hook --exit2
echo "status $?"
ev s1 db/m/002.sql 'ALTER TABLE users ADD y int;' | CLAUDE_PROJECT_DIR=$P $RR hook --exit2
echo "status $?"
ev s2 db/m/001.sql 'ALTER TABLE users ADD x int;' | CLAUDE_PROJECT_DIR=$P SKIP_SCHEMA_CHECK=1 $RR hook --exit2
echo "status $?"
ev s3 db/seed1.sql 'DROP TABLE x;' | CLAUDE_PROJECT_DIR=$P $RR hook --exit2
echo "status $?"
ev s4 db/m/003.sql 'SELECT 1;' | CLAUDE_PROJECT_DIR=$P $RR hook --exit2
echo "status $?"
ev s5 prisma/schema.prisma 'model A { id Int }' | CLAUDE_PROJECT_DIR=$P $RR hook
echo "status $?"
