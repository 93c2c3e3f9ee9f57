# config.yaml enables installed packs by name; they load before the user's
# rules, which can switch a pack rule off by its id; --rules replaces them.
export REFLEXION_PACKS_DIR=$RULES
cat > "$REFLEXION_HOME/config.yaml" <<'YAML'
# the packs this user wants
packs: [examples]
YAML
$RR hook < "$EV/pre-bash-rm-home.json"
echo "status $?"
mkdir -p "$REFLEXION_HOME/rules"
cat > "$REFLEXION_HOME/rules/mine.yaml" <<'YAML'
version: 1
rules:
  - id: no-root-rm
    on: PreToolUse
    enabled: false
    action: deny
    message: off
YAML
$RR hook < "$EV/pre-bash-rm-home.json"
echo "status $?"
cat > "$REFLEXION_HOME/config.yaml" <<'YAML'
packs: examples
YAML
$RR hook --rules "$REFLEXION_HOME/rules" < "$EV/pre-bash-rm-home.json"
echo "status $?"
