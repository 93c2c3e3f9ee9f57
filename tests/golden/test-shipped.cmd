$RR test "$RULES"
echo "status $?"
