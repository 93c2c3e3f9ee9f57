$RR hook --rules "$RULES" < "$EV/pre-bash-rm-home.json"
