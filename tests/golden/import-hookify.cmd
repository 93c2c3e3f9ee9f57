# import of hookify rules: a file hookify would not load (no .local) is
# imported with a warning; a rule hookify could never fire is reported
# and left out; the others come out in the order given.
mkdir .claude
cat > .claude/hookify.warn-eval.md <<'MD'
---
name: warn-eval
event: bash
pattern: \beval\b
---
eval runs whatever a string holds.
MD
cat > .claude/hookify.bad-regex.local.md <<'MD'
---
name: bad-regex
event: bash
pattern: rm (-rf
action: block
---
x
MD
cat > .claude/hookify.stop-matcher.local.md <<'MD'
---
name: stop-with-matcher
event: stop
tool_matcher: Bash
conditions:
  - field: transcript
    operator: equals
    pattern: done
  - field: mystery
    operator: sounds_like
    pattern: x
---
Never fires in hookify.
MD
cat > .claude/hookify.matcher.local.md <<'MD'
---
name: matcher
event: file
tool_matcher: Write | NotebookEdit
action: block
conditions:
  - field: file_path
    operator: ends_with
    pattern: .lock
---
Lock files are generated.
MD
export REFLEXION_PACKS_DIR=$RULES
$RR import .claude/hookify.warn-eval.md .claude/hookify.bad-regex.local.md \
    .claude/hookify.stop-matcher.local.md .claude/hookify.matcher.local.md > out.yaml
echo "status $?"
cat out.yaml
$RR lint out.yaml
