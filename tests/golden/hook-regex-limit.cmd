# A regex that backtracks catastrophically stops at its match limit: it
# counts as no match, is reported on stderr, and the other rules still run.
cat > r.yaml <<'YAML'
version: 1
rules:
  - id: evil
    on: UserPromptSubmit
    when:
      prompt: '^(a|aa)+$'
    action: deny
    message: evil matched
  - id: fine
    on: UserPromptSubmit
    when:
      prompt: 'aaaa'
    action: context
    message: fine matched
YAML
p=$(printf 'a%.0s' $(seq 1 5000))
printf '{"hook_event_name":"UserPromptSubmit","cwd":"/w","prompt":"%sb"}' "$p" | $RR hook --rules r.yaml
echo "status $?"
