# explain names the command that ran a nested one, and the path a target
# names written plainly.
cat > r.yaml <<'Y'
version: 1
rules:
  - id: rm-usr
    on: PreToolUse
    tools: [Bash]
    when: {shell: {program: rm, flags: [--recursive], args: '^/usr$'}}
    action: deny
    message: no
Y
printf '%s' '{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git -c alias.x=\"!parallel rm --rec ::: /tmp/../usr\" x"}}' |
    $RR explain --rules r.yaml
echo "status $?"
