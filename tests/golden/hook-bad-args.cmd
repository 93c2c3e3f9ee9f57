$RR hook --frobnicate < "$EV/pre-bash.json"
echo "status $?"
$RR hook --agent vim < "$EV/pre-bash.json"
echo "status $?"
