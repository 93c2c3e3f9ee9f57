# explain traces a blocks condition block by block (what counts, what
# holds, what was decided once for all of them) and a related file (the
# path the template made, what was read).
mkdir -p w/partial_results
printf '{"mappings": {"TC-2.1": {"behavioral_check": {"verdict": "FAIL"}}}}' > w/W_데이터매핑.json
cat > r.yaml <<'YAML'
version: 1
rules:
  - id: stimulus
    on: PreToolUse
    tools: [Write]
    when:
      blocks:
        start: '^## (TC-[0-9.]+)'
        when:
          any:
            - not: {content: '(?m)^\| TC-'}
            - listed: '^\| (TC-[0-9.]+) \|.*ACTIVE'
        unless: {block: '\[관찰\]'}
        some:
          not: {block: STIMULUS}
    action: deny
    message: '{{blocks}}'
  - id: gate
    on: PreToolUse
    tools: [Write]
    when:
      json_file:
        file: '{{dir}}/../*_데이터매핑.json'
        each: {in: mappings, key: '{{stem}}', equals: {behavioral_check.verdict: PASS}}
        required: true
    action: deny
    message: '{{missing}}'
YAML
printf '{"hook_event_name":"PreToolUse","cwd":"%s","tool_name":"Write","tool_input":{"file_path":"w/r.md","content":"| TC-1 | a | ACTIVE |\\n| TC-3 | c | ACTIVE |\\n## TC-1\\nSTIMULUS\\n## TC-2\\nnone\\n## TC-3 [관찰]\\nnone\\n"}}' "$PWD" | $RR explain --rules r.yaml
printf '{"hook_event_name":"PreToolUse","cwd":"%s","tool_name":"Write","tool_input":{"file_path":"w/partial_results/TC-2.1.json","content":"{}"}}' "$PWD" | $RR explain --rules r.yaml
