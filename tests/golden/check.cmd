# reflexion-rules check: files judged as the Write of their text.  One line
# per result that does not pass (file:line: id: gate: rule: reason), a
# gate's report with --format json, --output; exit 1 when something does
# not pass, 2 when a file cannot be read, 3 with broken rule files, 1
# when no rule file is found.
cat > r.yaml <<'YAML'
version: 1
rules:
  - id: steps
    on: PreToolUse
    tools: [Write]
    when:
      path: '*.md'
      blocks:
        start: '^## Step ([0-9]+)'
        some: {not: {block: '(?m)^Rollback:'}}
    action: deny
    message: 'step {{block}} of {{path}} has no rollback'
  - id: review
    on: PreToolUse
    tools: [Write]
    when: {path: '*.md', content: 'TODO'}
    action: ask
    message: 'a TODO is left in {{path}}'
  - id: only-check
    on: Check
    tools: [Write]
    when: {path: '*.md', content: 'draft'}
    action: deny
    message: 'still a draft'
YAML
printf '# A\n## Step 1\nRollback: x\n## Step 2\nTODO\n## Step 3\n' > a.md
printf '# B\n## Step 1\nRollback: y\n' > b.md
printf 'draft\n' > c.md
$RR check --rules r.yaml a.md b.md c.md
echo "status $?"
$RR check --rules r.yaml --format json a.md b.md
echo "status $?"
$RR check --rules r.yaml --format json --output report.json b.md
echo "status $?"
cat report.json
echo '== a draft is fine for the hook'
printf '{"hook_event_name":"PreToolUse","cwd":"%s","tool_name":"Write","tool_input":{"file_path":"c.md","content":"draft"}}' "$PWD" | $RR hook --rules r.yaml
echo "status $?"
echo '== what cannot be read'
mkfifo fifo.md
$RR check --rules r.yaml fifo.md nowhere.md b.md
echo "status $?"
echo '== usage'
$RR check --rules r.yaml --format yaml b.md
echo "status $?"
$RR check --rules r.yaml
echo "status $?"
echo '== broken rules'
printf 'version: 1\nrules:\n  - id: x\n    on: PreToolUse\n    when: {blocks: {some: {block: x}}}\n    action: deny\n    message: m\n' > broken.yaml
$RR check --rules broken.yaml b.md
echo "status $?"
echo '== no rule file'
mkdir empty && cd empty && git init -q . 2>/dev/null
$RR check ../b.md
echo "status $?"
