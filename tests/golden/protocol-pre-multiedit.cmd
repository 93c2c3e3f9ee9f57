$RR hook --rules "$FIX/protocol.yaml" < "$EV/pre-multiedit.json"
