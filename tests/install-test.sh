#!/bin/sh
# make install into a prefix of its own, then the installed program used
# from there and from wherever the prefix is moved: it finds its packs
# and schema beside itself (make install prefix=/opt/x after configure
# --prefix=/usr/local, a package unpacked anywhere), and the completions
# and manual pages are where each tool looks.
. "$SRCDIR/tests/lib.sh"

builddir=$(cd "$(dirname "$RR")/.." && pwd)
T=$TMPROOT
X=$T/opt/x
if ! env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$builddir" \
    install prefix="$X" >"$T/install.log" 2>&1; then
	not_ok "make install prefix=DIR"
	diag <"$T/install.log"
	done_testing
	exit 0
fi
ok "make install prefix=DIR"
for f in bin/reflexion-rules share/reflexion-rules/rules/dangerous-commands.yaml \
    share/reflexion-rules/schemas/rules.schema.json \
    share/man/man1/reflexion-rules.1 share/man/man5/reflexion-rules.5 \
    share/bash-completion/completions/reflexion-rules \
    share/zsh/site-functions/_reflexion-rules \
    share/fish/vendor_completions.d/reflexion-rules.fish; do
	check "installed: $f" test -f "$X/$f"
done

unset REFLEXION_PACKS_DIR
mkdir -p "$T/h/.reflexion" "$T/p/.git"
echo 'packs: [dangerous-commands]' >"$T/h/.reflexion/config.yaml"
push='{"hook_event_name":"PreToolUse","session_id":"s","cwd":"'$T/p'","tool_name":"Bash","tool_input":{"command":"git push --force origin main"}}'

# uses PREFIX: the program installed under PREFIX denies a forced push
# with the pack it finds there, and lists the pack from there.
uses() {
	out=$(cd "$T/p" && echo "$push" | HOME=$T/h "$1/bin/reflexion-rules" hook)
	case $out in
	*'"permissionDecision":"deny"'*git-push-force*)
		ok "$2: the hook denies git push --force with the installed pack" ;;
	*)	not_ok "$2: the hook denies git push --force with the installed pack"
		echo "$out" | diag ;;
	esac
	if (cd "$T/p" && HOME=$T/h "$1/bin/reflexion-rules" rules 2>/dev/null) |
	    grep -q "^dangerous-commands/git-push-force .* $1/share/reflexion-rules/rules/dangerous-commands.yaml:"; then
		ok "$2: rules names the pack beside the program"
	else
		not_ok "$2: rules names the pack beside the program"
	fi
	schema=$(cd "$T/p" && HOME=$T/h "$1/bin/reflexion-rules" import \
	    "$SRCDIR/tests/fixtures/import/skill-rules.json" 2>/dev/null |
	    sed -n '1s/^# yaml-language-server: \$schema=//p')
	if [ "$schema" = "$1/share/reflexion-rules/schemas/rules.schema.json" ] &&
	    [ -f "$schema" ]; then
		ok "$2: import names the installed schema, which is there"
	else
		not_ok "$2: import names the installed schema ($schema)"
	fi
	(cd "$T/p" && HOME=$T/h "$1/bin/reflexion-rules" doctor) >"$T/doctor" 2>&1
	if grep -q "^ok       packs        $1/share/reflexion-rules/rules: " "$T/doctor" &&
	    grep -q "^ok       schema       $1/share/reflexion-rules/schemas/rules.schema.json" "$T/doctor"; then
		ok "$2: doctor finds the packs and the schema"
	else
		not_ok "$2: doctor finds the packs and the schema"
		diag <"$T/doctor"
	fi
}
uses "$X" "installed in another prefix than configured"
mv "$X" "$T/opt/moved"
uses "$T/opt/moved" "the prefix moved"

v=$("$T/opt/moved/bin/reflexion-rules" --version)
case $v in
*"Report bugs to "*) ok "--version names where to report bugs" ;;
*) not_ok "--version names where to report bugs ($v)" ;;
esac
done_testing
