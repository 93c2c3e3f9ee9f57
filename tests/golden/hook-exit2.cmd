$RR hook --exit2 --rules "$RULES" < "$EV/pre-bash-rm-home.json"
