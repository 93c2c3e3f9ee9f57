# compile builds the cache now and says where and how much; the hook
# then answers from it, exactly as without it.
hash() { sed 's/[0-9a-f]\{16\}\.rrc/HASH.rrc/g'; }
out=$($RR compile --rules "$RULES")
echo "status $?"
echo "$out" | hash
ls home/cache | hash
REFLEXION_CACHE_TRACE=1 $RR hook --rules "$RULES" < "$EV/pre-bash-rm-home.json" 2>err
echo "status $?"
hash < err
REFLEXION_NO_CACHE=1 REFLEXION_CACHE_TRACE=1 $RR hook --rules "$RULES" < "$EV/pre-bash-rm-home.json"
$RR compile --help
