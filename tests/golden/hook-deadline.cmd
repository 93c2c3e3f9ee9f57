# The hook answers by its deadline whatever blocks it: a stdin that never
# ends, a state lock held by a stuck process.  Fail open by default; deny
# where the rule file says on_error: deny.  (The suite's environment sets
# a generous REFLEXION_DEADLINE_MS so slow builds decide; --deadline wins.)
cat > r.yaml <<'YAML'
version: 1
rules:
  - id: once-deploy
    on: PreToolUse
    tools: [Bash]
    once: session
    when: {command: deploy}
    action: deny
    message: deploys need a review
YAML
sed 's/^rules:/on_error: deny\nrules:/' r.yaml > closed.yaml
# Compiled ahead (and settled: files older than the cache), so that what
# meets the deadline below is the lock, not a first compile under a slow
# build (valgrind): a cold compile slower than the deadline cannot know
# of on_error: deny yet, and fails open once (reflexion-rules(1)).
touch -d '-1 hour' r.yaml closed.yaml
$RR compile --rules r.yaml >/dev/null
$RR compile --rules closed.yaml >/dev/null
ev='{"session_id":"s1","hook_event_name":"PreToolUse","cwd":"/w","tool_name":"Bash","tool_input":{"command":"./deploy"}}'

echo "== stdin open but never written: allow at the deadline"
mkfifo in
exec 3<>in
$RR hook --rules r.yaml --deadline 200 <in; echo "status $?"
exec 3>&-

echo "== the session's state lock held elsewhere"
mkdir -p home/state
: > home/state/s1.json.lock
flock home/state/s1.json.lock sh -c 'echo $$ > holder; exec sleep 30' \
    </dev/null >/dev/null 2>&1 &
while ! [ -s holder ] || flock -n home/state/s1.json.lock true; do
	sleep 0.05
done
echo "$ev" | $RR hook --rules r.yaml --deadline 200; echo "status $?"
echo "$ev" | $RR hook --rules closed.yaml --deadline 200; echo "status $?"
echo "$ev" | $RR hook --rules closed.yaml --deadline 200 --exit2; echo "status $?"
echo "$ev" | REFLEXION_DEADLINE_MS=200 $RR hook --rules closed.yaml; echo "status $?"
kill "$(cat holder)"; wait

echo "== lock released: the rule decides"
echo "$ev" | $RR hook --rules closed.yaml; echo "status $?"

echo "== bad deadlines fall back to the default, and say so"
echo '{}' | $RR hook --rules r.yaml --deadline soon; echo "status $?"
echo '{}' | REFLEXION_DEADLINE_MS=-5 $RR hook --rules r.yaml; echo "status $?"
echo '{}' | $RR hook --rules r.yaml --deadline 0; echo "status $?"
