# import of a diet103 skill-rules.json: the YAML it prints (and lints).
export REFLEXION_PACKS_DIR=$RULES
$RR import "$FIX/import/skill-rules.json" > out.yaml
echo "status $?"
cat out.yaml
$RR lint out.yaml
