$RR hook --rules "$FIX/protocol.yaml" < "$EV/notification.json"
echo '{"hook_event_name":"PreCompact","trigger":"auto"}' | $RR hook --rules "$RULES"
