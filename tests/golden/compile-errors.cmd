# Rule-file errors are printed by compile, stored in the cache, and
# reported by the hook from the cache exactly as when it compiles.
hash() { sed 's/[0-9a-f]\{16\}\.rrc/HASH.rrc/g'; }
cat > r.yaml <<'YAML'
version: 1
rules:
  - id: good
    on: UserPromptSubmit
    when: {prompt: {keywords: [deploy]}}
    action: context
    message: 'check the runbook'
  - id: broken
    on: UserPromptSubmit
    when: {prompt: 'unclosed('}
    action: context
    message: never
YAML
# Sources older than the cache's racy window (2 s, by change time, which
# touch cannot set back), so slow runs (valgrind) see the same hits.
sleep 2.1
out=$($RR compile --rules r.yaml)
echo "status $?"
echo "$out" | hash
ev='{"hook_event_name":"UserPromptSubmit","cwd":"/w","prompt":"deploy now"}'
echo "$ev" | REFLEXION_NO_CACHE=1 $RR hook --rules r.yaml >fresh.out 2>fresh.err
echo "$ev" | REFLEXION_CACHE_TRACE=1 $RR hook --rules r.yaml >cached.out 2>cached.err
cat cached.out
hash < cached.err
cmp fresh.out cached.out && echo "stdout identical from the cache"
grep -v 'cache: hit' cached.err | cmp - fresh.err && echo "stderr identical from the cache"
