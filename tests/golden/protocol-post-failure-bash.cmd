$RR hook --rules "$FIX/protocol.yaml" < "$EV/post-failure-bash.json"
