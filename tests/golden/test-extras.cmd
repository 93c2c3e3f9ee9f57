# Rule tests with files, message checks and known gaps: a gap still open
# is counted apart (on its own line before the final one), a gap that
# closed and a message that differs are failures.
cat >rules.yaml <<'YAML'
version: 1
rules:
  - id: marker
    on: PreToolUse
    tools: [Edit]
    when:
      path: '*.ts'
    unless:
      file_contains: ['@skip']
    action: deny
    message: 'check {{path}} first'
    tests:
      - name: marker in the file skips
        event: {tool_input: {file_path: src/a.ts, old_string: x, new_string: y}}
        files: {src/a.ts: "// @skip\nx\n"}
        expect: none
      - name: no marker
        event: {tool_input: {file_path: src/a.ts, old_string: x, new_string: y}}
        files: {src/a.ts: "x\n"}
        expect: deny
        message_contains: 'check src/a.ts first'
      - name: wrong text
        event: {tool_input: {file_path: b.ts}}
        expect: deny
        message_contains: [first, 'not there']
      - name: still a gap
        event: {tool_input: {file_path: b.js}}
        expect: none
        known_gap: true
      - name: closed gap
        event: {tool_input: {file_path: b.ts}}
        expect: none
        known_gap: true
YAML
mkdir tmp
TMPDIR=$PWD/tmp $RR test rules.yaml
echo "status $?"
TMPDIR=$PWD/tmp $RR test --tap rules.yaml
echo "status $?"
echo "test projects left behind: $(ls tmp | wc -l)"
