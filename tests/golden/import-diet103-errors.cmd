# import of a skill-rules.json with problems: the messages lint gives the
# file read as is, at the skill's key; what they affect is left out and
# the other rules are printed.
cat > skill-rules.json <<'JSON'
{
  "skills": {
    "ok": { "promptTriggers": { "keywords": ["deploy"] } },
    "bad-regex": {
      "priority": "high",
      "promptTriggers": { "intentPatterns": ["(open", "fine", "[z"] }
    },
    "no-paths": { "type": "guardrail", "enforcement": "block",
                  "fileTriggers": { "pathPatterns": [3] } }
  }
}
JSON
export REFLEXION_PACKS_DIR=$RULES
$RR import skill-rules.json
echo "status $?"
$RR lint skill-rules.json
echo "status $?"
