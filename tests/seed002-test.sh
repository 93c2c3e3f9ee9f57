#!/bin/sh
# Seed 002 (doc/seeds/002_*.txt, the hook mechanisms of diet103's skill
# system), from the seed's own examples, through the hook with the shipped
# skill-activation and skill-guard packs: the UserPromptSubmit flow and its
# exact output (the Korean banner), the PreToolUse flow with its exact
# block message on stderr and exit 2, the file on disk read for content
# patterns, session state (once per session, a new session blocks again),
# skip markers, the environment override, and failing open.
. "$SRCDIR/tests/lib.sh"

cd "$TMPROOT" || exit 99
export REFLEXION_HOME=$TMPROOT/home
export REFLEXION_PACKS_DIR=$SRCDIR/rules
mkdir -p home en
printf 'packs: [skill-guard]\n' >en/config.yaml
# The seed's own words are the packs' Korean texts: lang: ko.
printf 'packs: [skill-activation, skill-guard]\nlang: ko\n' >home/config.yaml
# The seed's project, here rather than in /root.
P=$TMPROOT/root/git/your-project
mkdir -p "$P/.git" "$P/form/src/services"
cat >"$P/form/src/services/user.ts" <<'TS'
import { PrismaService } from '../prisma';
export class UserService {
  constructor(private prisma: PrismaService) {}
  all() { return this.prisma.user.findMany(); }
}
TS
RULE=━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━

# The seed's UserPromptSubmit input, as it gives it.
cat >prompt.json <<JSON
{
  "session_id": "abc-123",
  "transcript_path": "/path/to/transcript.json",
  "cwd": "$P",
  "permission_mode": "normal",
  "hook_event_name": "UserPromptSubmit",
  "prompt": "how does the layout system work?"
}
JSON
# Its output, as it gives it.
cat >want.banner <<EOF
$RULE
🎯 스킬 활성화 체크
$RULE

📚 추천 스킬:
  → project-catalog-developer

ACTION: 응답하기 전에 Skill 툴을 사용하세요
$RULE
EOF
"$RR" hook <prompt.json >out 2>err
status=$?
"$JSONGET" hookSpecificOutput.additionalContext <out >got.banner
if cmp -s want.banner got.banner; then
	ok "UserPromptSubmit: the seed's example prompt gives its banner, byte for byte"
else
	not_ok "UserPromptSubmit: the seed's banner"
	diff -u want.banner got.banner | diag
fi
check "UserPromptSubmit: exit 0, to the context (advisory, never blocks)" \
    [ $status = 0 ] && grep -q '"hookEventName":"UserPromptSubmit","additionalContext"' out
# English is the default: diet103's banner.
printf 'packs: [skill-activation, skill-guard]\n' >home/config.yaml
LANG=C "$RR" hook <prompt.json | "$JSONGET" hookSpecificOutput.additionalContext >got
check "without lang: the banner in English (diet103's)" \
    grep -q '^📚 RECOMMENDED SKILLS:$' got
LC_ALL=ko_KR.UTF-8 "$RR" hook <prompt.json | "$JSONGET" hookSpecificOutput.additionalContext >got
check "the locale (ko_KR.UTF-8) picks the Korean" grep -q '^📚 추천 스킬:$' got
printf 'packs: [skill-activation, skill-guard]\nlang: ko\n' >home/config.yaml
# Keywords and intent patterns, grouped critical -> high -> medium -> low.
printf '{"session_id":"abc-123","cwd":"%s","hook_event_name":"UserPromptSubmit","prompt":"add tests for the api key rotation endpoint and update the README"}' "$P" |
    "$RR" hook >out
"$JSONGET" hookSpecificOutput.additionalContext <out >got
if awk '/필수 스킬/{c=NR} /추천 스킬/{h=NR} /제안 스킬/{m=NR} /선택 스킬/{l=NR}
    END {exit !(c && h && m && l && c < h && h < m && m < l)}' got; then
	ok "suggestions grouped by priority: critical, high, medium, low"
else
	not_ok "suggestions grouped by priority"; diag <got
fi

# The seed's PreToolUse input, as it gives it (its strings are '...': the
# content patterns are found in the file on disk).
cat >edit.json <<JSON
{
  "session_id": "abc-123",
  "transcript_path": "/path/to/transcript.json",
  "cwd": "$P",
  "permission_mode": "normal",
  "hook_event_name": "PreToolUse",
  "tool_name": "Edit",
  "tool_input": {
    "file_path": "$P/form/src/services/user.ts",
    "old_string": "...",
    "new_string": "..."
  }
}
JSON
cat >want.err <<'EOF'
⚠️ BLOCKED - 데이터베이스 작업 감지

📋 REQUIRED ACTION(필수 조치):
1. Use Skill tool: 'database-verification'
2. 스키마 기준으로 모든 테이블/컬럼명을 검증
3. DESCRIBE 명령으로 DB 구조 확인
4. 그 다음 이 편집을 재시도

Reason: Prisma 쿼리에서 컬럼명 오류를 방지
File: form/src/services/user.ts

💡 TIP: 향후 검사를 스킵하려면 '// @skip-validation' 주석을 추가하세요
EOF
"$RR" hook --exit2 <edit.json >out 2>got.err
status=$?
if [ $status = 2 ] && [ ! -s out ] && cmp -s want.err got.err; then
	ok "PreToolUse: the seed's example edit is blocked: its message on stderr, exit 2"
else
	not_ok "PreToolUse: the seed's block (status $status)"
	diff -u want.err got.err | diag
fi
sed 's/abc-123/en-1/' edit.json | REFLEXION_HOME=$TMPROOT/en \
    "$RR" hook --exit2 >out 2>err
check "in English by default" grep -q '^⚠️ BLOCKED - Database Operation Detected$' err
"$RR" hook --exit2 <edit.json >out 2>err
check "session state: the same session's second edit is allowed" \
    [ $? = 0 ] && [ ! -s out ]
sed 's/abc-123/def-456/' edit.json | "$RR" hook >out 2>err
check "a new session is blocked again (JSON deny, the default protocol)" \
    grep -q '"permissionDecision":"deny"' out
check "its state file names the session" \
    [ -f "$REFLEXION_HOME/state/abc-123.json" ]

# Content patterns: the new text, else the file on disk when there is one.
cat >"$P/form/src/services/mail.ts" <<'TS'
export const send = (to: string) => smtp.send(to);
TS
sed -e 's/abc-123/s2/' -e 's/user\.ts/mail.ts/' edit.json | "$RR" hook >out
check "no Prisma in the file nor the edit: allowed" [ ! -s out ]
sed -e 's/abc-123/s3/' -e 's/user\.ts/mail.ts/' \
    -e 's/"new_string": "..."/"new_string": "await prisma.mail.create({})"/' \
    edit.json | "$RR" hook >out
check "Prisma in the new text: blocked" grep -q deny out
sed -e 's/abc-123/s4/' -e 's/user\.ts/new.ts/' edit.json | "$RR" hook >out
check "a file that does not exist yet: only the new text counts" [ ! -s out ]
sed -e 's/abc-123/s5/' -e 's/"Edit"/"Read"/' edit.json | "$RR" hook >out
check "not Edit/Write: allowed" [ ! -s out ]

# Skip conditions: a marker in the file, the environment.
cp "$P/form/src/services/user.ts" "$P/form/src/services/skip.ts"
printf '// @skip-validation\n' >>"$P/form/src/services/skip.ts"
sed -e 's/abc-123/s6/' -e 's/user\.ts/skip.ts/' edit.json | "$RR" hook >out
check "skip marker in the file: allowed" [ ! -s out ]
sed 's/abc-123/s7/' edit.json | SKIP_DB_VERIFICATION=1 "$RR" hook >out
check "SKIP_DB_VERIFICATION set: allowed" [ ! -s out ]

# Fail open: the state cannot be kept, the database guard does not block.
mkdir -p broken
: >broken/state
sed 's/abc-123/s8/' edit.json | REFLEXION_HOME=$TMPROOT/broken \
    REFLEXION_PACKS_DIR=$SRCDIR/rules "$RR" hook --exit2 >out 2>err
status=$?
printf 'packs: [skill-guard]\n' >broken/config.yaml
sed 's/abc-123/s8/' edit.json | REFLEXION_HOME=$TMPROOT/broken \
    "$RR" hook --exit2 >out 2>err
status=$?
if [ $status = 0 ] && grep -q 'state' err; then
	ok "the state cannot be kept: the once-per-session guard fails open, says why"
else
	not_ok "fail open (status $status)"; diag <err
fi
printf 'not json' | "$RR" hook --exit2 >out 2>err
check "a broken event: exit 0 (fail open)" [ $? = 0 ]
done_testing
