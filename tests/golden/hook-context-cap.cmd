# Injected text is capped at 10,000 characters, on a character boundary.
cat > r.yaml <<'YAML'
version: 1
rules:
  - id: echo-prompt
    on: UserPromptSubmit
    action: context
    message: '{{prompt}}'
YAML
long=$(printf '한%.0s' $(seq 1 12000))
printf '{"hook_event_name":"UserPromptSubmit","cwd":"/w","prompt":"%s"}' "$long" | $RR hook --rules r.yaml > out.json
$JSONGET hookSpecificOutput.additionalContext < out.json | wc -c
$JSONGET hookSpecificOutput.additionalContext < out.json | tail -c 40
