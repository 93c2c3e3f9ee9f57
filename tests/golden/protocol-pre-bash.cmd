$RR hook --rules "$FIX/protocol.yaml" < "$EV/pre-bash.json"
