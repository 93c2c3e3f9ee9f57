# system-files, enabled by name in config.yaml: a line appended to a
# shell startup file asks, a sudoers entry is denied, reading both and a
# dotfiles project's own .bashrc are fine.
export REFLEXION_PACKS_DIR=$RULES
printf 'packs: [system-files]\n' > "$REFLEXION_HOME/config.yaml"
ev() { printf '{"session_id":"s","hook_event_name":"PreToolUse","cwd":"/home/dev/shop","tool_name":"Bash","tool_input":{"command":"%s"}}' "$1"; }
ev "echo 'export PATH=/opt/x/bin:\$PATH' >> /home/dev/.bashrc" | $RR hook
echo "status $?"
ev "echo 'dev ALL=(ALL) NOPASSWD: ALL' | sudo tee /etc/sudoers.d/dev" | $RR hook
echo "status $?"
ev 'grep PATH /home/dev/.bashrc && sudo cat /etc/sudoers && echo x >> /home/dev/shop/.bashrc' | $RR hook
echo "status $?"
