#!/bin/sh
# The documentation keeps up with the code: every diagnostic of diag.def is
# in reflexion-rules(5) with its summary, every key the compiler accepts is
# in the JSON Schema and the man page, the pages lint clean under mandoc,
# and (where python3 has jsonschema) the shipped rules validate against
# the schema while the broken lint fixtures do not.
. "$SRCDIR/tests/lib.sh"

man5=$SRCDIR/man/reflexion-rules.5
schema=$SRCDIR/schemas/rules.schema.json

sed -n 's/^X(\([0-9]*\), *\([a-z_]*\), *"\(.*\)")$/\1 \2 \3/p' \
    "$SRCDIR/src/diag.def" >"$TMPROOT/codes"
[ -s "$TMPROOT/codes" ] || not_ok "diag.def lists codes"
while read -r num name summary; do
	code=$(printf 'RR%04d' "$num")
	if grep -qF ".It $code Ta $name Ta $summary" "$man5"; then
		ok "$code $name is in reflexion-rules(5)"
	else
		not_ok "$code $name is in reflexion-rules(5) as in diag.def"
	fi
done <"$TMPROOT/codes"

# The key arrays of the compiler (src/compile*.c), between their opening
# line and NULL.
for arr in compile_top_keys compile_rule_keys matcher_keys compile_test_keys \
    cond_keys compile_kb_keys compile_record_keys shell_keys sections_keys \
    json_keys json_each_keys block_cut_keys block_keys count_keys; do
	sed -n "/$arr\[\] = {/,/NULL/p" "$SRCDIR"/src/compile*.c |
	    grep -o '"[a-z_+]*"' | tr -d '"' >"$TMPROOT/keys"
	[ -s "$TMPROOT/keys" ] || not_ok "found $arr in src/compile*.c"
	while read -r key; do
		if grep -q "\"$key\"" "$schema"; then
			ok "schema has '$key' ($arr)"
		else
			not_ok "schema has '$key' ($arr)"
		fi
		if grep -q "Ic $key" "$man5"; then
			ok "reflexion-rules(5) documents '$key' ($arr)"
		else
			not_ok "reflexion-rules(5) documents '$key' ($arr)"
		fi
	done <"$TMPROOT/keys"
done

if command -v mandoc >/dev/null 2>&1; then
	out=$(mandoc -Tlint -W warning "$SRCDIR/man/reflexion-rules.1" "$man5" 2>&1)
	if [ -z "$out" ]; then ok "mandoc -Tlint is clean"
	else not_ok "mandoc -Tlint is clean"; echo "$out" | diag; fi
else
	skip "mandoc is not installed"
fi

if command -v python3 >/dev/null 2>&1 &&
    python3 -c 'import jsonschema, yaml' 2>/dev/null; then
	python3 - "$schema" "$SRCDIR" <<'PY' >"$TMPROOT/py" 2>&1
import glob, json, re, sys, yaml, jsonschema
class L(yaml.SafeLoader):
    pass
# YAML 1.2 booleans only: 'on' is a key, not true.
L.yaml_implicit_resolvers = {k: [(t, r) for t, r in v if t != 'tag:yaml.org,2002:bool']
    for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()}
L.add_implicit_resolver('tag:yaml.org,2002:bool',
    re.compile(r'^(?:true|True|TRUE|false|False|FALSE)$'), list('tTfF'))
schema, src = sys.argv[1], sys.argv[2]
v = jsonschema.Draft202012Validator(json.load(open(schema)))
good = sorted(glob.glob(src + '/rules/*.yaml')) + [
        src + '/tests/rules/features.yaml', src + '/tests/lint/clean.yaml']
bad = ['unknown-key', 'wrong-types', 'missing-keys', 'invalid-values',
       'unknown-event-action', 'empty-conditions', 'deny-no-message', 'kb']
for f in good:
    print(('ok' if not list(v.iter_errors(yaml.load(open(f), Loader=L))) else 'not ok'),
          'schema accepts', f.replace(src + '/', ''))
for b in bad:
    f = src + '/tests/lint/' + b + '.yaml'
    print(('ok' if list(v.iter_errors(yaml.load(open(f), Loader=L))) else 'not ok'),
          'schema rejects', 'tests/lint/' + b + '.yaml')
PY
	while IFS= read -r line; do
		case $line in
		"ok "*) ok "${line#ok }" ;;
		*) not_ok "$line" ;;
		esac
	done <"$TMPROOT/py"
else
	skip "python3 with jsonschema and yaml is not installed"
fi
# --version names the version configure.ac gives (a header named like
# autoconf's config.h once hid it: the program said 0.0.0).
want=$(sed -n 's/^AC_INIT(\[reflexion-rules\], \[\([^]]*\)\].*/\1/p' "$SRCDIR/configure.ac")
got=$("$RR" --version)
case $got in
"reflexion-rules $want (PCRE2 "*) ok "--version says $want" ;;
*) not_ok "--version says '$got', configure.ac $want" ;;
esac
# Every document the sources cite is in the tree: doc/ paths exist, and
# nothing cites a file that lives outside the repository (the design
# documents SPEC.md and reference/*.md were never part of it).
cited=$TMPROOT/cited
(cd "$SRCDIR" && grep -rhoE 'doc/[A-Za-z0-9_.*-]+(/[A-Za-z0-9_.*-]+)*' \
    src man rules tests/*.sh tests/unit/*.c tests/unit/*.h tests/fixtures \
    bench/*.c bench/*.sh README.md doc 2>/dev/null | sed 's/[.]$//' |
    sort -u) >"$cited"
[ -s "$cited" ] || not_ok "found citations of doc/"
while IFS= read -r doc; do
	# shellcheck disable=SC2086 # a cited glob (doc/seeds/000_*.txt)
	set -- "$SRCDIR"/$doc
	if [ -e "$1" ]; then
		ok "cited $doc is in the tree"
	else
		not_ok "cited $doc is in the tree"
	fi
done <"$cited"
stray=$(cd "$SRCDIR" && grep -rnE 'SPEC\.md|reference/[a-z-]+\.md|hook-protocol\.md|peers\.md' \
    src man rules tests/*.sh tests/unit/*.c tests/fixtures bench/*.c \
    bench/*.sh README.md doc 2>/dev/null | grep -v '^tests/docs-test.sh:')
if [ -z "$stray" ]; then
	ok "no citation of a document outside the repository"
else
	not_ok "citations of documents outside the repository:"
	echo "$stray" | head -n 20 | sed 's/^/#   /'
fi
done_testing
