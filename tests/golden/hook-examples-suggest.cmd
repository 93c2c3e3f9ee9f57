$RR hook --rules "$RULES" < "$EV/user-prompt-submit.json"
