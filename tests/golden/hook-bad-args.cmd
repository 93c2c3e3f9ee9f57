$RR hook --frobnicate < "$EV/pre-bash.json"
echo "status $?"
$RR hook --agent gemini < "$EV/pre-bash.json"
echo "status $?"
