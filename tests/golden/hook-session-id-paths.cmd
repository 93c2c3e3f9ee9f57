# Session ids are never paths: ../, / and long ids stay inside state/.
cat > r.yaml <<'YAML'
version: 1
rules:
  - id: hello
    on: UserPromptSubmit
    once: session
    action: context
    message: hi
YAML
for id in '../../escape' '/etc/passwd' '..' 'a/b' "$(printf 'x%.0s' $(seq 1 4000))"; do
	printf '{"session_id":"%s","hook_event_name":"UserPromptSubmit","cwd":"/w","prompt":"x"}' "$id" | $RR hook --rules r.yaml
done
find . -path ./r.yaml -prune -o -type f -print |
    grep -v -e '^./home/state/[^/]*$' -e '^./home/cache/[0-9a-f]*\.rrc$' ||
    echo "nothing outside home/state (and the rule cache)"
ls home/state | wc -l
