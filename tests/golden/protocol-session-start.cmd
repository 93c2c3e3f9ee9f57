$RR hook --rules "$FIX/protocol.yaml" < "$EV/session-start.json"
