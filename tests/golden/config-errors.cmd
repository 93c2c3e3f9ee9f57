# A broken config.yaml is reported with file, line and column, by lint and
# to the user through the hook; the packs it names correctly still load.
export REFLEXION_PACKS_DIR=$RULES
cat > "$REFLEXION_HOME/config.yaml" <<'YAML'
packs:
  - examples
  - dangerous-comands
  - ../etc/passwd
  - examples
  - [nested]
pack: typo
YAML
$RR lint
echo "status $?"
$RR hook < "$EV/pre-bash-rm-home.json" | $JSONGET systemMessage
echo
echo "status $?"
$RR hook < "$EV/pre-bash-rm-home.json" | $JSONGET hookSpecificOutput.permissionDecision
echo
printf 'packs: [examples\n' > "$REFLEXION_HOME/config.yaml"
$RR lint
echo "status $?"
REFLEXION_PACKS_DIR=$HOME/nowhere
printf 'packs: [examples]\n' > "$REFLEXION_HOME/config.yaml"
$RR lint
echo "status $?"
