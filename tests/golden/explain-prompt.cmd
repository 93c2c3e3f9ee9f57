$RR explain --rules "$RULES" < "$EV/user-prompt-submit.json"
