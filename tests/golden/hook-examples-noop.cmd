$RR hook --rules "$RULES" < "$EV/pre-bash.json"
