# kb delete ID...: by the #N of kb list; an id that is not there says so
# and fails; kb list and kb search on an empty knowledge base say so on
# stderr (stdout stays a list of entries).
T='s/20[0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9:.]*Z/TIME/g'
$RR kb list; echo "status $?"
$RR kb list --json; echo "status $?"
$RR kb search anything; echo "status $?"
$RR kb add --raw 'E1: one' 'fix one' >/dev/null
$RR kb add --raw 'E2: two' 'fix two' >/dev/null
$RR kb add --raw 'E3: three' >/dev/null
$RR kb delete 2 '#3'; echo "status $?"
$RR kb list | sed "$T"
$RR kb search 'two'; echo "status $?"
$RR kb delete 1 7; echo "status $?"
$RR kb list; echo "status $?"
$RR kb delete x1; echo "status $?"
$RR kb delete; echo "status $?"
