# The hook reads stdin to EOF even when the input is useless, so the
# agent never sees EPIPE; a writer killed by SIGPIPE would report 141.
( yes 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' | head -c 20000000; echo "writer status $?" >&2 ) | $RR hook --rules "$RULES" 2>/dev/null
echo "hook status $?"
