# --exit2 changes only blocking decisions; context still goes out as JSON.
$RR hook --exit2 --rules "$FIX/protocol.yaml" < "$EV/post-edit.json"
