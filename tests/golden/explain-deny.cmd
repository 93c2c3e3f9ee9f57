$RR explain --rules "$RULES" < "$EV/pre-bash-rm-home.json"
echo "status $?"
