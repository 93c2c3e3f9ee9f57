# cloud, enabled by name in config.yaml: a destroy is denied, an apply
# without a plan asks, a plan is fine.
export REFLEXION_PACKS_DIR=$RULES
printf 'packs: [cloud]\n' > "$REFLEXION_HOME/config.yaml"
ev() { printf '{"session_id":"s","hook_event_name":"PreToolUse","cwd":"/home/dev/shop","tool_name":"Bash","tool_input":{"command":"%s"}}' "$1"; }
ev 'cd infra && terraform apply -destroy -auto-approve' | $RR hook
echo "status $?"
ev 'terraform apply -auto-approve' | $RR hook
echo "status $?"
ev 'terraform plan -out=tfplan && aws s3 ls' | $RR hook
echo "status $?"
# a repository deleted on GitHub is denied; viewing it is fine.
ev 'gh repo delete acme/shop --yes' | $RR hook
echo "status $?"
ev 'gh repo view acme/shop' | $RR hook
echo "status $?"
