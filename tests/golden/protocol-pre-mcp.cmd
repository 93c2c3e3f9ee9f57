$RR hook --rules "$FIX/protocol.yaml" < "$EV/pre-mcp.json"
