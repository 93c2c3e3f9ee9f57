$RR hook --rules "$FIX/protocol.yaml" < "$EV/post-edit.json"
