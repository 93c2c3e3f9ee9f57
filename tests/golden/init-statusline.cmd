# init --statusline makes `reflexion-rules statusline` Claude Code's status
# line (seed 004) beside the hooks; a second run changes nothing; a status
# line of the user's own is left as it is; --uninstall takes ours away.
mkdir -p bin proj/.claude other/.claude
printf '#!/bin/sh\nexec %s "$@"\n' "$RR" > bin/reflexion-rules
chmod +x bin/reflexion-rules
PATH=$PWD/bin:$PATH
$RR init --project-dir proj --statusline
echo "status $?"
sed -n '/statusLine/,$p' proj/.claude/settings.json
$RR init --project-dir proj --statusline
echo "status $?"
printf '{"statusLine": {"type": "command", "command": "~/bin/mine.sh"}}\n' > other/.claude/settings.json
$RR init --project-dir other --statusline
echo "status $?"
grep -c 'mine.sh' other/.claude/settings.json
$RR init --project-dir proj --statusline --agent gemini
echo "status $?"
$RR init --project-dir proj --uninstall
echo "status $?"
cat proj/.claude/settings.json
