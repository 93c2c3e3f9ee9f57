#!/bin/sh
# rules/test-skill.yaml against seed 003: each check of its four gates
# denies a document with that one defect and allows the correct one, in
# hook mode (the Write of the document) and through `reflexion-rules
# check` on the files; the seed's own section 6 test commands, whose
# events have no hook_event_name, do what the seed says; and the
# behavioral_gate CLI mode writes the seed's report.
. "$SRCDIR/tests/lib.sh"

cd "$TMPROOT" || exit 99
export REFLEXION_HOME=$TMPROOT/home
mkdir -p home proj/WO-1/partial_results
PACK=$SRCDIR/rules/test-skill.yaml
P=$TMPROOT/proj
W=$P/WO-1

# A JSON string of a file's text.
json_str() {
	printf '"'
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/	/\\t/g' "$1" |
	    awk '{ printf "%s\\n", $0 }'
	printf '"'
}

# hook FILE PATH: the deny reason of the Write of FILE's text at PATH
# (relative to the project), or "allow".
hook() {
	printf '{"hook_event_name":"PreToolUse","session_id":"s","cwd":"%s","tool_name":"Write","tool_input":{"file_path":"%s","content":%s}}' \
	    "$P" "$2" "$(json_str "$1")" >ev.json
	"$RR" hook --rules "$PACK" <ev.json >out 2>err
	if [ -s out ]; then
		"$JSONGET" hookSpecificOutput.permissionDecisionReason <out
	else
		echo allow
	fi
}

# expect_check RULE FILE: check's one result line for FILE names RULE
# (or, with RULE "-", there is none and it exits 0).
expect_check() {
	(cd "$P" && "$RR" check --rules "$PACK" "$2") >cout 2>cerr
	status=$?
	if [ "$1" = - ]; then
		[ $status = 0 ] && [ ! -s cout ]
	else
		[ $status = 1 ] && [ "$(wc -l <cout)" = 1 ] &&
		    grep -q ": BLOCKED: test-skill/$1: " cout
	fi
}

# case NAME RULE WANT FILE PATH: the hook denies with WANT in its reason
# (or allows with WANT "allow") and check agrees.
case_() {
	got=$(hook "$4" "$5")
	cp "$4" "$P/$5"
	if [ "$3" = allow ]; then
		if [ "$got" = allow ] && expect_check - "$5"; then
			ok "$1: allowed, in the hook and by check"
		else
			not_ok "$1: allowed, in the hook and by check"
			{ echo "$got"; cat err cout cerr; } | diag
		fi
	else
		if printf '%s' "$got" | grep -qF "$3" && expect_check "$2" "$5"
		then
			ok "$1: denied in the hook, BLOCKED by check"
		else
			not_ok "$1: denied in the hook, BLOCKED by check"
			{ echo "$got"; cat err cout cerr; } | diag
		fi
	fi
	rm -f "$P/$5"
}

# ---- test sheets (seed 003 3.2) -----------------------------------------
cat >sheet.md <<'MD'
# WO-1 테스트시트
## 0. Test Baseline
### 0.1 대상
### 0.2 환경
### 0.3 데이터
### 0.4 선행 조건
### 0.5 범위
### 0.6 제외
### 0.7 리스크
## 1. ACTIVE 마커
| TC | 설명 | 상태 |
|---|---|---|
| TC-1.1 | 주문 할당 | ACTIVE |
| TC-1.2 | 주문 조회 | OBSERVATION |
## 2. 테스트 케이스
### TC-1.1 주문 할당
- **선정 이유**: 대표 경로
- **행위적 조건**: 주문 상태 READY
기대값 도출 트리:
├─① 입력: 주문 1건
├─② 상태: READY
└─④ 기대결과: 작업자 할당
━━━ STIMULUS ━━━
POST https://api.example.com/orders/1/assign
### TC-1.2 주문 조회
- **선정 이유**: 조회 회귀
- **행위적 조건**: N/A
기대값 도출 트리:
├─① 입력: 주문 번호
└─④ 기대결과: 200
## 3. 부록
MD
S=WO-1/WO-1_테스트시트_v1.md
case_ "the correct test sheet" - allow sheet.md "$S"
sed '/선정 이유\*\*: 조회 회귀/d' sheet.md >bad.md
case_ "a test case without 선정 이유" test-sheet-reason "missing or empty in TC-1.2." bad.md "$S"
sed 's/선정 이유\*\*: 조회 회귀/선정 이유**:/' sheet.md >bad.md
case_ "an empty 선정 이유" test-sheet-reason "missing or empty in TC-1.2." bad.md "$S"
sed '/행위적 조건\*\*: 주문 상태 READY/d' sheet.md >bad.md
case_ "a test case without 행위적 조건" test-sheet-behavior "missing in TC-1.1." bad.md "$S"
sed 's/행위적 조건\*\*: 주문 상태 READY/행위적 조건**: N\/A/' sheet.md >bad.md
case_ "N/A with a ② layer" test-sheet-na "has a ② or ③ layer: TC-1.1." bad.md "$S"
sed -e '/├─① 입력: 주문 번호/d' -e '/└─④ 기대결과: 200/d' sheet.md >bad.md
case_ "a test case without its derivation tree" test-sheet-tree "missing in TC-1.2." bad.md "$S"
sed 's/| TC-1.2 | 주문 조회 | OBSERVATION |/| TC-1.2 | 주문 조회 | ACTIVE |/' sheet.md >bad.md
case_ "an ACTIVE test case without its STIMULUS block" test-sheet-stimulus "STIMULUS ━━━\" block; it is missing in TC-1.2." bad.md "$S"
sed '/^| TC-1\.[12] |/d' sheet.md >bad.md
case_ "no marker table: every test case is ACTIVE" test-sheet-stimulus "it is missing in TC-1.2." bad.md "$S"

# ---- test results (seed 003 3.1) ----------------------------------------
cat >result.md <<'MD'
# WO-1 테스트결과
## TC-1.1 주문 할당
결과: Pass
POST https://api.example.com/orders/1/assign
→ HTTP 200
| 검증 항목 | 기대 | 실제 |
|---|---|---|
| 상태 | ASSIGNED | ASSIGNED |
## TC-2.1 재고 부족
결과: Fail
stimulus_executor 참조: run 7
[Fail 근거]
기대: 409
실제: 200
## TC-3.1 화면 확인 [관찰]
결과: Pass
MD
echo '{"status": 200}' >"$W/partial_results/TC-1.1_stimulus.json"
echo '{"status": 200}' >"$W/partial_results/TC-2.1_stimulus.json"
R=WO-1/WO-1_테스트결과_v1.md
case_ "the correct test result" - allow result.md "$R"
rm "$W/partial_results/TC-2.1_stimulus.json"
case_ "text evidence without its stimulus file" test-result-stimulus-file "is not there for TC-2.1." result.md "$R"
echo '{"status": 200}' >"$W/partial_results/TC-2.1_stimulus.json"
sed '/| 검증 항목 |/d' result.md >bad.md
case_ "a Pass without its diff table" test-result-pass-table "missing in TC-1.1." bad.md "$R"
sed '/^실제: 200/d' result.md >bad.md
case_ "a Fail without 실제:" test-result-fail-evidence "missing: TC-2.1 (실제:)." bad.md "$R"
sed '/^\[Fail 근거\]/d' result.md >bad.md
case_ "a Fail without [Fail 근거]" test-result-fail-evidence "missing: TC-2.1 ([Fail 근거])." bad.md "$R"

# ---- data mappings (seed 003 3.3) ---------------------------------------
cat >map.json <<'JSON'
{
  "sheet_version": "v1",
  "created_at": "2026-02-22",
  "mappings": {
    "TC-1.1": {
      "status": "MAPPED",
      "data": { "entity_code": "ENT-00001" },
      "behavioral_check": {
        "verdict": "PASS",
        "conditions": ["outbound_order.state = READY"],
        "method": "DB 직접 조회"
      }
    },
    "TC-1.2": {
      "status": "NOT_FOUND",
      "reason": "해당 상태의 주문이 존재하지 않음"
    }
  },
  "summary": {
    "total_tcs": 2,
    "mapped": 1,
    "not_found": 1,
    "provisioning_needed": 0,
    "provisioned": 0
  }
}
JSON
M=WO-1/WO-1_데이터매핑.json
case_ "the seed's data mapping" - allow map.json "$M"
sed 's/"total_tcs": 2/"total_tcs": 3/' map.json >bad.json
case_ "a summary that does not add up" data-mapping-summary "(2) must equal summary.total_tcs (3)" bad.json "$M"

# ---- behavioral_gate, hook mode (seed 003 3.4) ----------------------------
sed -e 's/"verdict": "PASS"/"verdict": "FAIL", "reason": "상태 불일치"/' \
    -e 's/"TC-1.1"/"TC-2.1"/' map.json >gate-fail.json
cp map.json "$P/$M"
echo '{"result": "ok"}' >tc.json
case_ "a result of a test case whose check passed" - allow tc.json WO-1/partial_results/TC-1.1.json
case_ "an older mapping entry without behavioral_check" - allow tc.json WO-1/partial_results/TC-1.2.json
cp gate-fail.json "$P/$M"
case_ "a result of a test case whose check failed" behavioral-gate 'mappings.TC-2.1.behavioral_check.verdict (must be "PASS", is "FAIL")' tc.json WO-1/partial_results/TC-2.1.json
rm "$P/$M"

# ---- behavioral_gate, CLI mode ------------------------------------------
cat >ARG-1_데이터매핑.json <<'JSON'
{"sheet_version": "v1", "created_at": "2026-02-22", "mappings": {
  "TC-1.1": {"status": "MAPPED", "behavioral_check": {"verdict": "PASS", "conditions": ["a"], "method": "m"}},
  "TC-2.1": {"status": "MAPPED", "behavioral_check": {"verdict": "FAIL", "conditions": ["b"], "method": "m", "reason": "상태 불일치"}}}}
JSON
"$RR" check --rules "$PACK" --format json --output gate.json ARG-1_데이터매핑.json >out 2>err
status=$?
if [ $status = 1 ] && [ ! -s out ] &&
    [ "$("$JSONGET" gate_passed <gate.json)" = false ] &&
    [ "$("$JSONGET" results.0.tc_id <gate.json)" = TC-1.1 ] &&
    [ "$("$JSONGET" results.0.gate <gate.json)" = PASS ] &&
    [ "$("$JSONGET" results.0.reason <gate.json)" = "behavioral_check.verdict=PASS" ] &&
    [ "$("$JSONGET" results.1.tc_id <gate.json)" = TC-2.1 ] &&
    [ "$("$JSONGET" results.1.gate <gate.json)" = BLOCKED ] &&
    [ "$("$JSONGET" results.1.reason <gate.json)" = "behavioral_check.verdict=FAIL: 상태 불일치" ] &&
    [ "$("$JSONGET" summary.pass <gate.json)" = 1 ] &&
    [ "$("$JSONGET" summary.blocked <gate.json)" = 1 ] &&
    [ "$("$JSONGET" summary.needs_confirmation <gate.json)" = 0 ]; then
	ok "behavioral_gate CLI mode: the seed's report, gate_passed false"
else
	not_ok "behavioral_gate CLI mode: the seed's report (status $status)"
	cat gate.json err | diag
fi
sed 's/"FAIL"/"PASS"/' ARG-1_데이터매핑.json >ok_데이터매핑.json
"$RR" check --rules "$PACK" --format json ok_데이터매핑.json >out 2>err
status=$?
if [ $status = 0 ] && [ "$("$JSONGET" gate_passed <out)" = true ] &&
    [ "$("$JSONGET" summary.pass <out)" = 2 ]; then
	ok "behavioral_gate CLI mode: every test case passes, gate_passed true"
else
	not_ok "behavioral_gate CLI mode: every test case passes (status $status)"
	cat out err | diag
fi

# ---- the seed's own test commands (section 6), in its language ----------
mkdir -p seed6/.claude/skills/test/_rules
printf 'packs: [test-skill]\nlang: ko\n' >home/config.yaml
export REFLEXION_PACKS_DIR=$SRCDIR/rules
cd seed6 || exit 99
echo '{"tool_name":"Write","tool_input":{"file_path":"/tmp/WO-99_테스트시트_v1.md","content":"# 빈 파일"}}' |
    "$RR" hook >out 2>err
if [ "$("$JSONGET" hookSpecificOutput.permissionDecision <out)" = deny ] &&
    "$JSONGET" hookSpecificOutput.permissionDecisionReason <out |
    grep -q '^테스트시트 구조 위반 (/tmp/WO-99_테스트시트_v1.md): 다음 섹션이 없습니다: ## 0. Test Baseline' &&
    grep -q 'no hook_event_name: read as PreToolUse' err; then
	ok "section 6: validate_test_sheet's test denies, said in Korean"
else
	not_ok "section 6: validate_test_sheet's test denies"; cat out err | diag
fi
echo '{"tool_name":"Write","tool_input":{"file_path":"/tmp/WO-99_데이터매핑.json","content":"{}"}}' |
    "$RR" hook >out 2>err
if [ "$("$JSONGET" hookSpecificOutput.permissionDecision <out)" = deny ] &&
    "$JSONGET" hookSpecificOutput.permissionDecisionReason <out |
    grep -q '^데이터매핑 스키마 위반 (/tmp/WO-99_데이터매핑.json): sheet_version, created_at, mappings'; then
	ok "section 6: validate_data_mapping's test denies the missing fields"
else
	not_ok "section 6: validate_data_mapping's test"; cat out err | diag
fi
cat >.claude/skills/test/_rules/_caution_common_errors.md <<'MD'
<!-- keywords: mcp_postgres, join, null -->
## 패턴 1: INNER JOIN 누락 시 데이터 누락
<!-- keywords: state, enum -->
## 패턴 5: 상태(state) 컬럼 비교 시 ENUM 타입 주의
MD
ev='{"tool_name":"mcp__postgres_outbound__query","tool_input":{"sql":"SELECT a.id, b.name FROM outbound_order a JOIN outbound_batch b ON a.id = b.id WHERE a.state IS NULL"}}'
echo "$ev" | "$RR" hook --event PostToolUse >out 2>err
if "$JSONGET" hookSpecificOutput.additionalContext <out | tr '\n' '|' |
    grep -q '^\[Caution Remind\] 관련 주의사항 (cross_service, enum, is_null, join, limit, mcp_postgres, null, outbound, query, state):|  - 패턴 1: INNER JOIN 누락 시 데이터 누락|  - 패턴 5: 상태(state) 컬럼 비교 시 ENUM 타입 주의|상세 내용: .claude/skills/test/_rules/_caution_common_errors.md 참조|$' &&
    [ ! -s err ]; then
	ok "section 6: remind_caution's test (a PostToolUse hook) reminds"
else
	not_ok "section 6: remind_caution's test"; cat out err | diag
fi
echo "$ev" | "$RR" hook >out 2>err
if [ ! -s out ] && grep -q 'read as PreToolUse (it has tool_name and no response); hook --event NAME says which' err; then
	ok "section 6: without --event the same event is a PreToolUse, said"
else
	not_ok "section 6: without --event"; cat out err | diag
fi
cd .. || exit 99
done_testing
