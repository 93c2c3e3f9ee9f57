# explain says where a function's body was read, and why a command of a
# function's name did not run it (a program that execs it, a new shell
# it was not exported to).
cat > r.yaml <<'Y'
version: 1
rules:
  - id: rm-root
    on: PreToolUse
    tools: [Bash]
    when: {shell: {program: rm, args: '^/$'}}
    action: deny
    message: no
Y
for c in 'f() { rm -rf /; }; time f' 'f() { rm -rf /; }; sudo f' \
    'f() { rm -rf /; }; bash -c f' '( f() { rm -rf /; } ); f'; do
	printf '{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"%s"}}' "$c" |
	    $RR explain --rules r.yaml
	echo "status $?"
done
