$RR hook --rules "$FIX/protocol.yaml" < "$EV/user-prompt-submit.json"
