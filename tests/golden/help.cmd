$RR --help
echo "status $?"
$RR
echo "status $?"
$RR frob
echo "status $?"
$RR lint --help
$RR hook --help < /dev/null
