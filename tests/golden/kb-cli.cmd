# reflexion-rules kb: add, search, list, export, import (a round trip and
# bad lines), prune; usage errors.
T='s/20[0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9:.]*Z/TIME/g'
cd project 2>/dev/null || { mkdir project && cd project; }
CLAUDE_PROJECT_DIR=$PWD $RR kb add "Error: Cannot find module '$PWD/lib/a.js' at line 12" '{"resolvedBy":"npm ci","tool":"Bash","toolSequence":["Bash"]}'
echo "status $?"
$RR kb add --raw "TS2322 in src/index.ts" "use a number"
$RR kb add --raw "TS2322 in src/index.ts" "use a number, really"
$RR kb list | sed "$T"
echo "== search is literal and ignores ASCII case"
$RR kb search INDEX.TS | sed "$T"
$RR kb search 'no_such'; echo "status $?"
echo "== export, import into an empty home: the same rows"
$RR kb export ../kb.jsonl; echo "status $?"
sed "$T" ../kb.jsonl
REFLEXION_HOME=$HOME/other $RR kb import ../kb.jsonl
REFLEXION_HOME=$HOME/other $RR kb export | sed "$T"
echo "== importing it again changes nothing"
$RR kb import ../kb.jsonl
echo "== bad lines are named, good ones kept"
printf '%s\n' '{"error":"fine","resolution":"ok"}' 'not json' '{"resolution":"x"}' '' '{"error":"e","use_count":"many"}' | $RR kb import
echo "status $?"
$RR kb import /nonexistent; echo "status $?"
echo "== prune"
$RR kb prune --days 30
$RR kb prune --days x; echo "status $?"
$RR kb frobnicate; echo "status $?"
$RR kb search; echo "status $?"
