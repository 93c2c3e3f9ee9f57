# A rule that guards .env against Write also guards every shell command
# that writes it (path), and a read_path rule sees what a command reads;
# {{path}} names the file that matched.  Controls: cat reads, echo .env
# writes nothing, grep ... > out.txt writes out.txt only.
mkdir -p proj/.git proj/sub
cat > r.yaml <<'YAML'
version: 1
rules:
  - id: env-write
    on: PreToolUse
    tools: [Write, Edit, Bash]
    when: {path: ['.env', '**/.env']}
    action: deny
    message: 'no writes to {{path}} ({{abs_path}})'
  - id: env-read
    on: PreToolUse
    tools: [Bash]
    when: {read_path: '**/.env'}
    action: ask
    message: 'reading {{path}}'
  - id: any-write
    on: PreToolUse
    when: {path: 'out.txt'}
    action: context
    message: 'writes {{path}}'
YAML
cwd=$PWD/proj
# The event of a Bash command: its text as a JSON string.
event() {
	c=$(printf '%s\n' "$1" | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' |
	    awk '{ printf "%s%s", (NR > 1 ? "\\n" : ""), $0 }')
	printf '{"hook_event_name":"PreToolUse","cwd":"%s","tool_name":"Bash",' "$cwd"
	printf '"tool_input":{"command":"%s"}}\n' "$c"
}
run() {
	printf '%s\n' "$1"
	event "$1" | $RR hook --rules r.yaml
	echo "status $?"
}
run 'echo x > .env'
run 'echo x >> .env'
run 'printf x 2> .env'
run 'ls &> .env'
run 'tee .env'
run 'date | tee -a log .env'
run 'cp x .env'
run 'cp -t . .env'
run 'mv x .env'
run 'mv .env backup'
run 'install -m 600 x .env'
run 'sed -i s/a/b/ .env'
run 'perl -pi -e s/a/b/ .env'
run 'truncate -s0 .env'
run 'rm -f -- .env'
run 'unlink .env'
run 'shred -n 3 .env'
run 'ln -sf x .env'
run 'dd if=/dev/zero of=.env bs=1'
run 'touch .env'
run 'chmod 600 .env'
run 'git checkout -- .env'
run 'cd sub && echo x > ../.env'
run 'cd sub; cd ..; rm .env'
run "bash -c 'echo x > .env'"
run "sudo sh -c \"cat x > .env\""
run 'F=.env; echo x > $F'
run "echo x > '.e'nv"
run 'echo x > sub/../.env'
run 'echo x > ./sub/.env'
run "echo x > $cwd/.env"
# controls
run 'cat .env'
run 'head -n 5 .env'
run 'grep -e KEY .env'
run 'source .env'
run 'wc -l < .env'
run 'echo .env'
run 'grep x .env > out.txt'
run 'cat <<EOF > out.txt
.env
EOF'
run 'echo x >&2'
run 'cd sub && echo x > .env'
printf 'explain\n'
event 'cd sub && echo x > ../.env' | $RR explain --rules r.yaml | grep -e 'path' -e '^rule'
printf 'once: session+path counts each file a command writes\n'
cat > once.yaml <<'YAML'
version: 1
rules:
  - id: first-write
    on: PreToolUse
    tools: [Bash]
    when: {path: '*.txt'}
    once: session+path
    action: context
    message: 'first write of {{path}}'
YAML
for c in 'echo x > a.txt' 'cp y a.txt' 'echo x > b.txt' 'cd sub && touch ../b.txt'; do
	printf '%s\n' "$c"
	event "$c" | sed 's/^{/{"session_id":"s1",/' | $RR hook --rules once.yaml
	echo "status $?"
done
