# test-skill (seed 003): the caution reminder after a SQL query lists the
# sections of the project's cautions file whose keywords match; the file
# is read again on each call, so an edit counts at once; a missing file is
# said on stderr.  English by default, the seed's Korean in a Korean
# locale.
P=$PWD/proj
mkdir -p "$P/.claude/skills/test/_rules"
C=$P/.claude/skills/test/_rules/_caution_common_errors.md
cat > "$C" <<'MD'
# 자주 발생하는 실수

<!-- keywords: mcp_postgres, join, null -->
## 패턴 1: INNER JOIN 누락 시 데이터 누락
...

<!-- keywords: state, enum -->
## 패턴 5: 상태(state) 컬럼 비교 시 ENUM 타입 주의
...
MD
ev='{"session_id":"s","hook_event_name":"PostToolUse","cwd":"'$P'","tool_name":"mcp__postgres_outbound__query","tool_input":{"sql":"SELECT a.id, b.name FROM outbound_order a JOIN outbound_batch b ON a.id = b.id WHERE a.state IS NULL"},"tool_response":{"rows":[]}}'
echo "$ev" | $RR hook --rules "$RULES/test-skill.yaml" | $JSONGET hookSpecificOutput.additionalContext
echo
printf '<!-- keywords: limit -->\n## 패턴 7: LIMIT 없는 전체 조회\n' >> "$C"
echo "$ev" | LC_ALL=ko_KR.UTF-8 $RR hook --rules "$RULES/test-skill.yaml" | $JSONGET hookSpecificOutput.additionalContext
echo
rm "$C"
echo "$ev" | $RR hook --rules "$RULES/test-skill.yaml"
echo "status $?"
