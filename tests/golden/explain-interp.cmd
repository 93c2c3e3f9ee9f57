$RR explain --rules "$RULES/dangerous-commands.yaml" < "$EV/pre-bash-python-rmtree.json" | sed -n 4,8p
echo "status $?"
