#!/bin/sh
# The machine formats of lint and test, and colour: lint --format sarif
# is a SARIF 2.1.0 log (checked field by field against what the schema
# requires: no network here to fetch it), test --format junit is JUnit
# XML and --format tap is TAP; colour only on a terminal, never with
# NO_COLOR.
. "$SRCDIR/tests/lib.sh"

T=$TMPROOT
cd "$T" || exit 99
cat >bad.yaml <<'YAML'
version: 1
rules:
  - id: a
    on: PreToolUse
    tools: [write]
    when: {command: 'x'}
    action: deny
    message: no
  - id: b
    on: PreToolUse
    action: frobnicate
YAML
cat >good.yaml <<'YAML'
version: 1
rules:
  - id: rm-root
    on: PreToolUse
    tools: [Bash]
    when: {command: 'rm -rf /'}
    action: deny
    message: "no <root> & \"quotes\""
    tests:
      - event: {tool_input: {command: 'rm -rf /'}}
        expect: deny
      - name: harmless
        event: {tool_input: {command: ls}}
        expect: none
      - name: wrong on purpose
        event: {tool_input: {command: ls}}
        expect: deny
      - name: a gap
        event: {tool_input: {command: 'rm  -rf  /'}}
        expect: none
        known_gap: true
YAML

# SARIF: the structure sarif-schema-2.1.0.json requires, and what GitHub
# code scanning reads.
"$RR" lint --format sarif bad.yaml "my dir/x.yaml" >sarif.json 2>/dev/null
st=$?
if python3 - sarif.json <<'PY' 2>err.txt
import json, sys
log = json.load(open(sys.argv[1]))
assert log["version"] == "2.1.0"
assert log["$schema"].endswith("sarif-2.1.0.json")
assert isinstance(log["runs"], list) and len(log["runs"]) == 1
run = log["runs"][0]
driver = run["tool"]["driver"]
assert driver["name"] == "reflexion-rules" and driver["version"]
ids = []
for r in driver["rules"]:
    assert isinstance(r["id"], str) and r["id"].startswith("RR")
    assert r["shortDescription"]["text"]
    assert r["help"]["text"].startswith(r["id"] + ": ")
    assert r["defaultConfiguration"]["level"] in ("error", "warning")
    ids.append(r["id"])
assert len(ids) == len(set(ids))
assert run["columnKind"] == "unicodeCodePoints"
levels = set()
for res in run["results"]:
    assert res["message"]["text"]
    assert res["level"] in ("none", "note", "warning", "error")
    levels.add(res["level"])
    assert ids[res["ruleIndex"]] == res["ruleId"]
    loc = res["locations"][0]["physicalLocation"]
    uri = loc["artifactLocation"]["uri"]
    assert " " not in uri
    reg = loc.get("region")
    if reg:
        assert reg["startLine"] >= 1 and reg.get("startColumn", 1) >= 1
        if "endColumn" in reg:
            assert reg["endColumn"] > reg.get("startColumn", 1) or \
                reg.get("endLine", reg["startLine"]) > reg["startLine"]
assert levels == {"error", "warning"}, levels
uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        for r in run["results"]]
assert "bad.yaml" in uris and "my%20dir/x.yaml" in uris, uris
PY
then
	ok "lint --format sarif: a SARIF 2.1.0 log, rules with help, results located"
else
	not_ok "lint --format sarif: a SARIF 2.1.0 log, rules with help, results located"
	cat err.txt sarif.json | head -n 40 | diag
fi
[ "$st" = 1 ] && ok "lint --format sarif: exit 1 on errors" ||
    not_ok "lint --format sarif: exit 1 on errors (got $st)"
"$RR" lint --format sarif good.yaml >clean.json
if [ $? = 0 ] && python3 -c 'import json,sys; l=json.load(open(sys.argv[1])); assert l["runs"][0]["results"] == []' clean.json; then
	ok "lint --format sarif: a clean file is a run without results"
else
	not_ok "lint --format sarif: a clean file is a run without results"
fi

# JUnit XML.
"$RR" test --format junit good.yaml bad.yaml >junit.xml 2>/dev/null
st=$?
if python3 - junit.xml <<'PY' 2>err.txt
import sys
import xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "testsuites"
cases = root.findall("./testsuite/testcase")
assert int(root.get("tests")) == len(cases)
fails = [c for c in cases if c.find("failure") is not None]
errs = [c for c in cases if c.find("error") is not None]
skips = [c for c in cases if c.find("skipped") is not None]
assert int(root.get("failures")) == len(fails) == 1, root.get("failures")
assert int(root.get("errors")) == len(errs) == 1, root.get("errors")
assert int(root.get("skipped")) == len(skips) == 1
assert "expected deny, got none" in fails[0].find("failure").get("message")
assert fails[0].get("name") == "rm-root: wrong on purpose"
for s in root.findall("testsuite"):
    n = s.findall("testcase")
    assert int(s.get("tests")) == len(n)
    for c in n:
        assert c.get("classname") == s.get("name")
        assert int(c.get("line")) > 0
PY
then
	ok "test --format junit: JUnit XML, a testcase per test, lint errors as errors"
else
	not_ok "test --format junit: JUnit XML, a testcase per test, lint errors as errors"
	cat err.txt junit.xml | head -n 40 | diag
fi
[ "$st" = 1 ] && ok "test --format junit: exit 1 on a failure" ||
    not_ok "test --format junit: exit 1 on a failure (got $st)"

# TAP: --format tap and --tap alike.
"$RR" test --format tap good.yaml >tap.txt 2>/dev/null
"$RR" test --tap good.yaml >tap2.txt 2>/dev/null
if cmp -s tap.txt tap2.txt && grep -q '^1\.\.4$' tap.txt &&
    [ "$(grep -c '^ok ' tap.txt)" = 2 ] &&
    grep -q '^not ok [0-9]* - .* # TODO known gap$' tap.txt &&
    grep -q "^not ok [0-9]* - .*'wrong on purpose'" tap.txt; then
	ok "test --format tap: as --tap, a line per test and the plan"
else
	not_ok "test --format tap: as --tap, a line per test and the plan"
	diag <tap.txt
fi
"$RR" test --format xml good.yaml >/dev/null 2>err.txt
[ $? = 2 ] && grep -q "unknown format 'xml' (text, tap or junit)" err.txt &&
    ok "test --format: an unknown format is a usage error" ||
    not_ok "test --format: an unknown format is a usage error"

# Colour: a terminal gets it, a pipe and NO_COLOR do not.
esc=$(printf '\033')
if command -v script >/dev/null 2>&1; then
	script -qec "'$RR' lint bad.yaml" /dev/null </dev/null >tty.txt 2>&1
	if grep -q "${esc}\[1;31merror:" tty.txt &&
	    grep -q "${esc}\[1;35mwarning:" tty.txt; then
		ok "lint on a terminal: errors and warnings in colour"
	else
		not_ok "lint on a terminal: errors and warnings in colour"
		cat -v tty.txt | diag
	fi
	NO_COLOR=1 script -qec "'$RR' lint bad.yaml" /dev/null </dev/null \
	    >tty.txt 2>&1
	if grep -q "$esc" tty.txt; then
		not_ok "lint on a terminal with NO_COLOR: no colour"
	else
		ok "lint on a terminal with NO_COLOR: no colour"
	fi
	script -qec "'$RR' test good.yaml" /dev/null </dev/null >tty.txt 2>&1
	if grep -q "${esc}\[31m2 passed, 1 failed" tty.txt; then
		ok "test on a terminal: the summary in colour"
	else
		not_ok "test on a terminal: the summary in colour"
		cat -v tty.txt | diag
	fi
	TERM=dumb script -qec "'$RR' doctor" /dev/null </dev/null >tty.txt 2>&1
	if grep -q "$esc" tty.txt; then
		not_ok "doctor on a dumb terminal: no colour"
	else
		ok "doctor on a dumb terminal: no colour"
	fi
	script -qec "'$RR' doctor" /dev/null </dev/null >tty.txt 2>&1
	if grep -q "${esc}\[32mok" tty.txt; then
		ok "doctor on a terminal: in colour"
	else
		not_ok "doctor on a terminal: in colour"
		cat -v tty.txt | diag
	fi
else
	skip "script(1) is not installed: no terminal to test colour on"
fi
"$RR" lint bad.yaml >pipe.txt 2>&1
if grep -q "$esc" pipe.txt; then
	not_ok "lint into a pipe: no colour"
else
	ok "lint into a pipe: no colour"
fi
done_testing
