$RR hook --rules "$FIX/protocol.yaml" < "$EV/subagent-stop.json"
