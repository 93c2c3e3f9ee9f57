# skill-guard (seed 002): the database-verification guard blocks once per
# session, as JSON and, with --exit2, as stderr and exit 2; the env
# override and the file marker skip it.
P=$PWD/proj
mkdir -p "$P/database/src"
ev() { printf '{"session_id":"%s","hook_event_name":"PreToolUse","cwd":"%s","tool_name":"Edit","tool_input":{"file_path":"%s/%s","old_string":"a","new_string":"%s"}}' "$1" "$P" "$P" "$2" "$3"; }
export CLAUDE_PROJECT_DIR=$P
ev s1 database/src/user.ts 'prisma.user.findMany()' | $RR hook --rules "$RULES/skill-guard.yaml"
echo "status $?"
ev s1 database/src/order.ts 'prisma.order.create({})' | $RR hook --rules "$RULES/skill-guard.yaml"
echo "status $? (second edit of the session)"
ev s2 database/src/user.ts 'prisma.user.findMany()' | $RR hook --exit2 --rules "$RULES/skill-guard.yaml"
echo "status $? (--exit2)"
ev s2 database/src/user.ts 'prisma.user.findMany()' | $RR hook --exit2 --rules "$RULES/skill-guard.yaml"
echo "status $? (--exit2, second edit)"
ev s3 database/src/user.ts 'prisma.user.findMany()' | SKIP_DB_VERIFICATION=1 $RR hook --exit2 --rules "$RULES/skill-guard.yaml"
echo "status $? (SKIP_DB_VERIFICATION)"
printf '// @skip-validation\na\n' > "$P/database/src/marked.ts"
ev s4 database/src/marked.ts 'prisma.user.delete()' | $RR hook --exit2 --rules "$RULES/skill-guard.yaml"
echo "status $? (@skip-validation)"
