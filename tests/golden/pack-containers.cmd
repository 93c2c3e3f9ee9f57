# containers, enabled by name in config.yaml: removing every container is
# denied wherever the list comes from; one named container is not.
export REFLEXION_PACKS_DIR=$RULES
printf 'packs: [containers]\n' > "$REFLEXION_HOME/config.yaml"
ev() { printf '{"session_id":"s","hook_event_name":"PreToolUse","cwd":"/home/dev/shop","tool_name":"Bash","tool_input":{"command":"%s"}}' "$1"; }
ev 'docker ps -aq | xargs docker rm -f' | $RR hook
echo "status $?"
ev 'sudo kubectl -n shop delete pvc --all' | $RR hook
echo "status $?"
ev 'docker rm -f web-1 && kubectl delete pod web-0' | $RR hook
echo "status $?"
# a deployment deleted asks; a pod does not.
ev 'kubectl -n shop delete deployment web' | $RR hook
echo "status $?"
