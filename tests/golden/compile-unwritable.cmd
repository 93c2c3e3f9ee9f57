# A cache that cannot be written: compile fails and says why; the hook
# still decides right, says so in one stderr line, and never on stdout.
echo 'not a directory' > home/cache
$RR compile --rules "$RULES"
echo "status $?"
$RR hook --rules "$RULES" < "$EV/pre-bash-rm-home.json"
echo "status $?"
REFLEXION_NO_CACHE=1 $RR compile --rules "$RULES"
echo "status $?"
