$RR hook --rules "$FIX/protocol.yaml" < "$EV/stop.json"
