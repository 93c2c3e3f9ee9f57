# init for every client: its own file and shape, event names, timeout key
# and unit (Gemini CLI: ms); merged with what is there; idempotent; no
# duplicate of a registration of ours written with a full path;
# --uninstall removes ours and nothing else (and a file of ours alone).
mkdir -p bin proj/.gemini proj/.git home
# $RR may be a command line (valgrind ...): a script runs it.
printf '#!/bin/sh\nexec %s "$@"\n' "$RR" > bin/reflexion-rules
chmod +x bin/reflexion-rules
PATH=$PWD/bin:$PATH HOME=$PWD/home
export PATH HOME
cat > proj/.gemini/settings.json <<'JSON'
{
  "security": {"auth": {"selectedType": "gemini-api-key"}},
  "hooks": {
    "BeforeTool": [
      {"matcher": "write_file", "hooks": [{"type": "command", "command": "./check.sh", "timeout": 5000}]},
      {"matcher": "*", "hooks": [{"type": "command", "command": "/opt/rr/bin/reflexion-rules hook --agent gemini"}]}
    ]
  }
}
JSON
mkdir -p proj/src && cd proj/src
echo "== from a subdirectory: the project root's files"
reflexion-rules init --agent gemini --agent codex --agent copilot --agent cursor
echo "status $?"
cd ../..
for f in proj/.gemini/settings.json proj/.codex/hooks.json \
    proj/.github/hooks/reflexion-rules.json proj/.cursor/hooks.json; do
	echo "== $f"; cat "$f"
done
echo "== again: nothing to do"
reflexion-rules init --project-dir proj --agent gemini --agent codex --agent copilot --agent cursor
echo "status $?"
echo "== user and local scopes"
CODEX_HOME=$PWD/home/codex reflexion-rules init --scope user --agent codex --agent claude --dry-run | grep -e '^==' -e 'command'
reflexion-rules init --project-dir proj --scope local --agent copilot --agent cursor
echo "status $?"
echo "== uninstall"
reflexion-rules init --project-dir proj --uninstall --agent gemini --agent copilot --agent cursor --agent codex
echo "status $?"
cat proj/.gemini/settings.json proj/.cursor/hooks.json
ls proj/.github/hooks
reflexion-rules init --project-dir proj --uninstall --agent gemini
echo "status $?"
