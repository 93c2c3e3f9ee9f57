#!/bin/sh
# Seed 004 (doc/seeds/004_*.txt, the hook memory system), from the seed's
# own examples, through the hook with the shipped hook-memory and observe
# packs: rule-based routing and the routing log (exec_type, pipeline,
# confidence, reason), model-based routing through a configured router
# (a stub here), the status line, the conversation saved on Stop (10,000
# characters, only with both sides), the Stop self-checks (routing
# confidence, code, blog), errors told and recorded alike, the SessionEnd
# summary (extractive, a configured summarizer, its failure and time
# limit; only on exit), two-tier search, retention, Gemini CLI.  And what
# the issue asks last: a session recorded through the hook is found again
# by a word of its prompt, and its summary is what the next session's
# SessionStart offers.
. "$SRCDIR/tests/lib.sh"

cd "$TMPROOT" || exit 99
export REFLEXION_HOME=$TMPROOT/home
export REFLEXION_PACKS_DIR=$SRCDIR/rules
mkdir -p home bin
P=$TMPROOT/work
mkdir -p "$P/.git"
db=home/data/reflexion.db
printf 'packs: [observe, hook-memory]\n' >home/config.yaml

q() {
	"$SQLRUN" "$db" "$1"
}
is() {
	if [ "$2" = "$3" ]; then ok "$1"
	else not_ok "$1"; printf 'got:  %s\nwant: %s\n' "$2" "$3" | diag; fi
}
prompt() {
	printf '{"hook_event_name":"UserPromptSubmit","session_id":"%s","cwd":"%s","prompt":"%s"}' \
	    "$1" "$P" "$2" | "$RR" hook
}
ctx() {
	"$JSONGET" hookSpecificOutput.additionalContext
}

# ---- routing: the rule-based 80% --------------------------------------
prompt r1 'PK-123 이슈 상태 알려줘' | ctx >out
check "\"Jira\" -> the jira pipeline, exec_type tool" \
    grep -q '│ pipeline : jira │' out
prompt r2 '노션에 회의록 정리해줘' | ctx >out
check "\"노션\" -> the notion pipeline" grep -q '│ pipeline : notion │' out
prompt r3 '결제 모듈 코드 분석 해줘' | ctx >out
cat >want <<'EOF'
┌─ Routing ─────────────────────────┐
│ exec type : master │
│ pipeline : rag │
│ confidence : 90% │
│ reason : the knowledge base must be searched │
└────────────────────────────────┘
EOF
check "\"코드 분석\" -> rag; the routing log as the seed draws it (exec type, pipeline, confidence, reason)" \
    cmp -s want out
diff -u want out | diag
cat >want <<'BOX'
┌─ 라우팅 분석 ─────────────────────┐
│ 실행 타입 : master │
│ 파이프라인 : rag │
│ 신뢰도 : 90% │
│ 이유 : 지식베이스 검색 필요 │
└────────────────────────────────┘
BOX
printf 'packs: [observe, hook-memory]\nlang: ko\n' >home/config.yaml
prompt r3ko '결제 모듈 코드 분석 해줘' | ctx >out
check "with lang: ko, the seed's routing log in its own words" cmp -s want out
diff -u want out | diag
printf 'packs: [observe, hook-memory]\n' >home/config.yaml
prompt r4 '세 서비스 테스트를 병렬로 돌려줘' | ctx >out
check "exec_type worker" grep -q 'exec type : worker' out
prompt r5 '알림 기능 기획부터 구현까지 해줘' | ctx >out
check "exec_type speckit" grep -q 'exec type : speckit' out
prompt r6 'what is a closure?' >out
check "nothing routes: direct, no context" [ ! -s out ]
is "the routing log: a route event per prompt, the first by priority" \
    "$(q "SELECT session_id || ':' || json_extract(data, '\$.exec_type') || '/' || coalesce(json_extract(data, '\$.pipeline'), '-') || '/' || json_extract(data, '\$.confidence') FROM events WHERE type = 'route' ORDER BY id")" \
    "r1:tool/jira/90
r2:tool/notion/90
r3:master/rag/90
r3ko:master/rag/90
r4:worker/-/80
r5:speckit/speckit/85
r6:direct/-/100"
prompt r7 'UTF-8 인코딩 문제 고쳐줘' >out
check "\"UTF-8\" is no Jira key" [ ! -s out ]

# ---- the model-based 20%: a configured router ---------------------------
cat >bin/router <<'SH'
#!/bin/sh
# A stub router: what it was given, and a route.
cat >"$TMPROOT/router.in"
printf '{"exec_type":"master","pipeline":"rag","confidence":0.6,"reason":"needs last week\\u0027s work from the memory","icon":"📚"}\n'
SH
chmod +x bin/router
cat >home/config.yaml <<EOF
packs: [observe, hook-memory]
router: {command: [$TMPROOT/bin/router], timeout_ms: 5000}
EOF
TMPROOT=$TMPROOT prompt m1 '지난주 했던 작업 알려줘' | ctx >out
check "the seed's example needs the model: the router's route, in the log" \
    grep -q '│ confidence : 60% │' out
check "the router read the prompt on stdin" \
    grep -q '"prompt":"지난주 했던 작업 알려줘"' router.in
is "the router's route is recorded" \
    "$(q "SELECT json_extract(data, '\$.source') || '/' || json_extract(data, '\$.exec_type') || '/' || json_extract(data, '\$.pipeline') FROM events WHERE type = 'route' AND session_id = 'm1'")" \
    "router/master/rag"
rm -f router.in
TMPROOT=$TMPROOT prompt m2 'Jira PK-9 보여줘' >/dev/null
check "a prompt the rules route does not ask the router" [ ! -e router.in ]
cat >bin/router <<'SH'
#!/bin/sh
echo "model unavailable" >&2
exit 1
SH
prompt m3 '요즘 뭐가 제일 급하지?' >out 2>err
if [ ! -s out ] && grep -q 'the router (.*router): it failed (exit status 1): model unavailable' err; then
	ok "a failing router: no route from it, one line on stderr"
else
	not_ok "a failing router"; diag <out; diag <err
fi

# ---- the status line ----------------------------------------------------
printf '{"session_id":"m1","cwd":"%s","model":{"id":"claude-opus-4-1-20250805","display_name":"Opus"},"workspace":{"current_dir":"/home/me/work","project_dir":"%s"}}' \
    "$P" "$P" | "$RR" statusline >out
if grep -q '^📊 \[[0-2][0-9]:[0-5][0-9]·m1\] | claude/opus | work | 📚rag | 🛡 [0-9]* rules · 0 denied$' out; then
	ok "the status line in the seed's format, and the engine's facts"
else
	not_ok "the status line"; diag <out
fi

# ---- Stop: saved, checked -----------------------------------------------
stop() {
	printf '{"hook_event_name":"Stop","session_id":"%s","cwd":"%s","stop_hook_active":false,%s}' \
	    "$1" "$P" "$2" | "$RR" hook
}
stop m1 '"last_assistant_message":"지난주에는 결제 웹훅을 고쳤습니다."' >out
check "Stop: the turn saved (the recorded prompt, the answer)" \
    [ "$(q "SELECT user_message || ' / ' || assistant_message FROM chat_logs WHERE session_id = 'm1'")" = '지난주 했던 작업 알려줘 / 지난주에는 결제 웹훅을 고쳤습니다.' ]
if grep -q 'systemMessage' out && grep -q 'Routing is uncertain: master, rag at 60%' out; then
	ok "Stop: the route's confidence under 75% is said"
else
	not_ok "Stop: routing confidence"; diag <out
fi
stop r3 '"last_assistant_message":"Done."' >out
check "a confident route says nothing" [ ! -s out ]
long=$(head -c 12000 /dev/zero | tr '\0' '가')
stop r1 '"last_assistant_message":"'"$long"'"' >/dev/null
is "10,000 characters at most" \
    "$(q "SELECT length(assistant_message) FROM chat_logs WHERE session_id = 'r1'")" 10000
stop nobody '"last_assistant_message":"an answer to no prompt"' >/dev/null
is "only when both the user's and the assistant's messages exist" \
    "$(q "SELECT count(*) FROM chat_logs WHERE session_id = 'nobody'")" 0
stop code '"last_assistant_message":"def f():\n    # TODO: later\n    pass"' >out
check "code self-checks: TODO and pass keep the agent working" \
    grep -q '"decision":"block"' out
stop code '"prompt":"블로그 글 써줘","last_assistant_message":"# Title\n\n## TL;DR\n짧게.\n\n---\n\n| a | b |\n|---|---|\n\n---\n끝"' >out
if grep -q 'stop-blog-dividers' out && grep -q 'stop-blog-tldr' out &&
    grep -q 'stop-blog-table-columns' out; then
	ok "blog self-checks: one divider, 3 columns, no TL;DR"
else
	not_ok "blog self-checks"; diag <out
fi

# ---- errors: told and recorded alike --------------------------------------
post() {
	printf '{"hook_event_name":"PostToolUse","session_id":"e1","cwd":"%s",%s}' \
	    "$P" "$1" | "$RR" hook
}
post '"tool_name":"WebFetch","tool_input":{"url":"https://api.example.com/v1","prompt":"p"},"tool_response":{"result":"{\"status\": 503, \"error\": \"busy\"}","code":200}' >out
check "a JSON \"status\": 503 is told to the model" grep -q 'HTTP error status' out
post '"tool_name":"WebFetch","tool_input":{"url":"https://api.example.com/v2","prompt":"p"},"tool_response":{"result":"page","code":500,"codeText":"Internal Server Error"}' >out
check "a WebFetch code 500 is told to the model" grep -q 'HTTP 500' out
post '"tool_name":"Bash","tool_input":{"command":"python3 job.py"},"tool_response":{"stdout":"Traceback (most recent call last):\n  File \"job.py\", line 1\nKeyError: 1\n","stderr":""}' >out
check "a traceback is told" grep -q 'Python traceback' out
post '"tool_name":"Bash","tool_input":{"command":"ls"},"tool_response":{"stdout":"a\nb","stderr":""}' >out
check "a clean output says nothing" [ ! -s out ]
is "and the same calls are recorded as failures, the clean one as a success" \
    "$(q "SELECT type || ' ' || json_extract(data, '\$.summary') FROM events WHERE session_id = 'e1' ORDER BY id")" \
    "tool_error Fetched https://api.example.com/v1: 200 (failed: {\"status\": 503, \"error\": \"busy\"})
tool_error Fetched https://api.example.com/v2: 500 Internal Server Error
tool_error Ran \`python3 job.py\`: error: Traceback (most recent call last):
tool_use Ran \`ls\`: exit 0"

# ---- SessionEnd: the summary ---------------------------------------------
t=$TMPROOT/t.jsonl
cat >"$t" <<'EOF'
{"type":"user","message":{"role":"user","content":"Fix the flaky payment webhook test"}}
{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Fixed: the webhook now retries once."}]}}
EOF
session() {
	printf '{"hook_event_name":"SessionStart","session_id":"%s","cwd":"%s","source":"startup"}' "$1" "$P" | "$RR" hook >/dev/null
	prompt "$1" 'Fix the flaky payment webhook test' >/dev/null
	printf '{"hook_event_name":"PostToolUseFailure","session_id":"%s","cwd":"%s","tool_name":"Bash","tool_input":{"command":"npm test"},"error":"Exit code 1\\nAssertionError: expected 200"}' "$1" "$P" | "$RR" hook >/dev/null
	printf '{"hook_event_name":"PostToolUse","session_id":"%s","cwd":"%s","tool_name":"Edit","tool_input":{"file_path":"%s/src/pay.ts","old_string":"a","new_string":"b"},"tool_response":{}}' "$1" "$P" "$P" | "$RR" hook >/dev/null
	printf '{"hook_event_name":"PostToolUse","session_id":"%s","cwd":"%s","tool_name":"Bash","tool_input":{"command":"npm test"},"tool_response":{"stdout":"12 passing","stderr":""}}' "$1" "$P" | "$RR" hook >/dev/null
	printf '{"hook_event_name":"Stop","session_id":"%s","cwd":"%s","transcript_path":"%s","stop_hook_active":false}' "$1" "$P" "$t" | "$RR" hook >/dev/null
}
end() {
	printf '{"hook_event_name":"SessionEnd","session_id":"%s","cwd":"%s","transcript_path":"%s","reason":"%s"}' \
	    "$1" "$P" "$t" "$2" | "$RR" hook
}
printf 'packs: [observe, hook-memory]\n' >home/config.yaml
session a1
end a1 clear >/dev/null
end a1 logout >/dev/null
is "SessionEnd: clear and logout are skipped" \
    "$(q "SELECT count(*) FROM session_summary WHERE session_id = 'a1'")" 0
end a1 exit >out 2>err
check "SessionEnd: nothing to answer" [ ! -s out ]
summary=$(q "SELECT source || ': ' || summary FROM session_summary WHERE session_id = 'a1'")
case $summary in
"extractive: Session a1 (work), "*" UTC, 3 tool calls.
First request: Fix the flaky payment webhook test
Files touched: src/pay.ts (edited)
Commands run: npm test (failed, then ok) x2
Errors: AssertionError: expected 200 (Bash: npm test), resolved by npm test (Bash)")
	ok "on exit, the extractive summary: requests, files, commands, errors and their fixes" ;;
*)	not_ok "the extractive summary"; printf '%s\n' "$summary" | diag ;;
esac

# The next session: what SessionStart offers, and memory search.
printf '{"hook_event_name":"SessionStart","session_id":"a2","cwd":"%s","source":"startup"}' "$P" |
    "$RR" hook | ctx >out
if grep -q '^s[0-9]* [0-9-]* [0-9:]*:$' out && grep -q '^First request: Fix the flaky payment webhook test$' out; then
	ok "the next session's SessionStart offers the last session's summary"
else
	not_ok "SessionStart context"; diag <out
fi
"$RR" memory search webhook >out
if sed -n 1p out | grep -q '^summaries$' && grep -q '^  s[0-9]* .* a1  Session a1' out &&
    grep -q '^conversations$' out && grep -q 'user: Fix the flaky payment webhook test' out; then
	ok "memory search finds the session by a word of its prompt: summaries first, then conversations"
else
	not_ok "memory search by a word of the prompt"; diag <out
fi
prompt a2 'the webhook retries again' | ctx >out
check "a prompt recalls the past session that matches it" \
    grep -q "^- s[0-9]* .* (summary): Session a1" out

# A configured summarizer: its summary replaces the extractive one.
cat >bin/summarize <<'SH'
#!/bin/sh
cat >"$TMPROOT/summarizer.in"
printf '{"summary": "결제 웹훅 테스트를 고쳤다 (password=hunter2secret)."}\n'
SH
chmod +x bin/summarize
cat >home/config.yaml <<EOF
packs: [observe, hook-memory]
summarizer: {command: '$TMPROOT/bin/summarize', timeout_ms: 5000}
EOF
session b1
TMPROOT=$TMPROOT end b1 prompt_input_exit >out 2>err
is "the summarizer's summary, redacted" \
    "$(q "SELECT source || ': ' || summary FROM session_summary WHERE session_id = 'b1'")" \
    "summarizer: 결제 웹훅 테스트를 고쳤다 (password=[REDACTED]"
if grep -q '"extractive":"Session b1' summarizer.in && grep -q '"conversation":\[{"ts":' summarizer.in &&
    grep -q '"reason":"prompt_input_exit"' summarizer.in; then
	ok "it read the documented JSON: the extractive summary, the facts, the conversation"
else
	not_ok "the summarizer's input"; diag <summarizer.in
fi
cat >bin/summarize <<'SH'
#!/bin/sh
sleep 10
SH
cat >home/config.yaml <<EOF
packs: [observe, hook-memory]
summarizer: {command: '$TMPROOT/bin/summarize', timeout_ms: 300}
EOF
session b2
end b2 exit >out 2>err
if [ "$(q "SELECT source FROM session_summary WHERE session_id = 'b2'")" = extractive ] &&
    grep -q 'the summarizer (.*): it ran past its time limit of 300 ms; the session.s summary is the extractive one' err; then
	ok "a summarizer past its time limit: the extractive summary stays, one line says why"
else
	not_ok "the summarizer's time limit"; diag <err
fi

# ---- retention ---------------------------------------------------------------
printf 'packs: [observe, hook-memory]\n' >home/config.yaml
q "INSERT INTO chat_logs (ts, session_id, user_message, assistant_message) VALUES ('2000-01-01T00:00:00.000Z', 'old', 'u', 'a')" >/dev/null
q "INSERT INTO session_summary (ts, session_id, summary, source) VALUES ('2000-01-01T00:00:00.000Z', 'old', 's', 'extractive')" >/dev/null
session c1
end c1 exit >/dev/null
is "chat_logs and session_summary past their retention are deleted" \
    "$(q "SELECT (SELECT count(*) FROM chat_logs WHERE session_id = 'old') + (SELECT count(*) FROM session_summary WHERE session_id = 'old')")" 0

# ---- Gemini CLI as a provider -------------------------------------------------
printf '{"hook_event_name":"AfterAgent","session_id":"g1","cwd":"%s","timestamp":"2026-01-01T00:00:00Z","prompt":"노션 정리해줘","prompt_response":"정리했습니다."}' "$P" |
    "$RR" hook --agent gemini >/dev/null 2>err
is "Gemini CLI: AfterAgent saves the turn too" \
    "$(q "SELECT user_message || ' / ' || assistant_message FROM chat_logs WHERE session_id = 'g1'")" \
    "노션 정리해줘 / 정리했습니다."
done_testing
