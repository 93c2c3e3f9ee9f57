# init merges our hooks into an existing settings.json, keeps the rest,
# backs the old file up and changes nothing on a second run.
mkdir -p bin proj/.claude
# $RR may be a command line (valgrind ...): a script runs it.
printf '#!/bin/sh\nexec %s "$@"\n' "$RR" > bin/reflexion-rules
chmod +x bin/reflexion-rules
PATH=$PWD/bin:$PATH
cat > proj/.claude/settings.json <<'JSON'
{
  "model": "opus",
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "./lint.sh"}]}
    ]
  }
}
JSON
$RR init --project-dir proj
echo "status $?"
cat proj/.claude/settings.json
cmp proj/.claude/settings.json.bak proj/.claude/settings.json >/dev/null || echo "backup differs from the new file"
$RR init --project-dir proj
echo "status $?"
$RR init --project-dir proj --agent gemini --scope local
echo "status $?"
echo '[1]' > proj/.claude/settings.json
$RR init --project-dir proj
echo "status $?"
