# dangerous-commands, enabled by name in config.yaml: a reworded rm -rf ~
# is denied with the simple command it found; a build clean-up is not.
export REFLEXION_PACKS_DIR=$RULES
printf 'packs: [dangerous-commands]\n' > "$REFLEXION_HOME/config.yaml"
ev() { printf '{"session_id":"s","hook_event_name":"PreToolUse","cwd":"/home/dev/shop","tool_name":"Bash","tool_input":{"command":"%s"}}' "$1"; }
ev "sudo env FOO=1 bash -c \\\"r''m --recursive -f \\\\\\\"\$HOME\\\\\\\"\\\"" | $RR hook
echo "status $?"
ev 'git push origin +main' | $RR hook
echo "status $?"
ev 'rm -rf ./build && git push --force-with-lease' | $RR hook
echo "status $?"
# rm -r outside the project asks; inside it, in /tmp or in a cache it does not.
ev 'cd .. && rm -rf shop-old' | $RR hook
echo "status $?"
ev 'rm -rf build /tmp/shop-build /home/dev/.cache/pip 2>/dev/null' | $RR hook
echo "status $?"
