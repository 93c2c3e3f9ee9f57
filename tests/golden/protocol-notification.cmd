$RR hook --rules "$FIX/protocol.yaml" < "$EV/notification.json"
