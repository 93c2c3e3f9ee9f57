$RR explain --rules "$RULES/dangerous-commands.yaml" < "$EV/pre-bash-python-rmtree.json" | sed -n 5,9p
echo "status $?"
