# One rule file guards every client: the same shell command and the same
# file write denied for Gemini CLI, Codex (through apply_patch), Copilot
# CLI in both payload styles and Cursor, each answered in its own
# protocol; the client recognised from the event's shape (auto) or named.
cat > r.yaml <<'YAML'
version: 1
rules:
  - id: no-force-push
    on: PreToolUse
    tools: [Bash]
    when: {command: 'push\s+--force'}
    action: deny
    message: 'no force push ({{tool}}: {{command}})'
  - id: no-env-write
    on: PreToolUse
    tools: [Write, Edit]
    when: {path: '**/.env'}
    action: deny
    message: '{{path}} holds secrets ({{tool}})'
  - id: deploy-context
    on: UserPromptSubmit
    when: {prompt: deploy}
    action: context
    message: 'Run the tests before deploying.'
  - id: tests-first
    on: Stop
    unless: {message: 'tests passed'}
    action: deny
    message: 'Run the tests and say "tests passed".'
YAML
A=$EV/agents
for f in gemini-before-tool-bash gemini-before-tool-write gemini-before-agent \
    gemini-after-agent codex-pre-bash codex-pre-apply-patch codex-prompt \
    codex-stop copilot-camel-pre-bash copilot-camel-pre-bash-string-args \
    copilot-camel-pre-create copilot-camel-prompt copilot-camel-stop \
    copilot-pascal-pre-bash copilot-pascal-pre-write cursor-pre-write \
    cursor-before-shell cursor-stop; do
	echo "== $f"
	$RR hook --rules r.yaml < "$A/$f.json"; echo "status $?"
done
echo "== named: --agent gemini"
$RR hook --agent gemini --rules r.yaml < "$A/gemini-before-tool-bash.json"
echo "== named: --agent copilot --event preToolUse"
$RR hook --agent copilot --event preToolUse --rules r.yaml < "$A/copilot-camel-pre-create.json"
echo "== a stop already continuing is let go (stop_hook_active)"
sed 's/"stop_hook_active":false/"stop_hook_active":true/' "$A/gemini-after-agent.json" |
    $RR hook --rules r.yaml; echo "status $?"
echo "== harmless calls: nothing (Cursor: {}, never nothing on a permission step)"
sed 's/git push --force origin main/git status/' "$A/gemini-before-tool-bash.json" | $RR hook --rules r.yaml
sed 's/git push --force origin main/git status/' "$A/codex-pre-bash.json" | $RR hook --rules r.yaml
sed 's/git push --force origin main/git status/' "$A/copilot-camel-pre-bash.json" | $RR hook --rules r.yaml
sed 's/git push --force origin main/git status/' "$A/cursor-before-shell.json" | $RR hook --rules r.yaml
echo "status $?"
