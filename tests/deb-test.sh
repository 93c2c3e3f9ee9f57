#!/bin/sh
# The Debian package (debian/, .ci/run builds it): what it installs, and
# the installed program run once, unpacked into a scratch directory: it
# finds the packs, the schema and its data beside itself, and the hook
# denies a forced push with the packaged dangerous-commands pack.
# Usage: RR=... SRCDIR=... sh tests/deb-test.sh PACKAGE.deb
. "$SRCDIR/tests/lib.sh"

deb=${1:?the .deb to check}
root=$TMPROOT/root
docs=usr/share/doc
dpkg -c "$deb" >"$TMPROOT/contents" || not_ok "dpkg -c"
for f in usr/bin/reflexion-rules usr/share/reflexion-rules/rules/dangerous-commands.yaml \
    usr/share/reflexion-rules/schemas/rules.schema.json \
    usr/share/man/man1/reflexion-rules.1.gz usr/share/man/man5/reflexion-rules.5.gz \
    usr/share/bash-completion/completions/reflexion-rules \
    usr/share/zsh/vendor-completions/_reflexion-rules \
    usr/share/fish/vendor_completions.d/reflexion-rules.fish \
    "${docs}/reflexion-rules/copyright"; do
	if grep -q " \./$f\$" "$TMPROOT/contents"; then
		ok "the package installs /$f"
	else
		not_ok "the package installs /$f"
	fi
done
dpkg -x "$deb" "$root" || not_ok "dpkg -x"
rr=$root/usr/bin/reflexion-rules
v=$("$rr" --version)
want=$(dpkg-deb -f "$deb" Version)
case $v in
"reflexion-rules $want "*"Report bugs to "*) ok "--version: $want, and where to report bugs" ;;
*) not_ok "--version: $want ($v)" ;;
esac
mkdir -p "$TMPROOT/p/.git" "$TMPROOT/h/.reflexion"
echo 'packs: [dangerous-commands]' >"$TMPROOT/h/.reflexion/config.yaml"
ev='{"hook_event_name":"PreToolUse","session_id":"s","cwd":"'$TMPROOT/p'","tool_name":"Bash","tool_input":{"command":"git push --force origin main"}}'
out=$(cd "$TMPROOT/p" && echo "$ev" | HOME=$TMPROOT/h "$rr" hook)
case $out in
*'"permissionDecision":"deny"'*) ok "the packaged hook denies git push --force" ;;
*) not_ok "the packaged hook denies git push --force"; echo "$out" | diag ;;
esac
(cd "$TMPROOT/p" && HOME=$TMPROOT/h "$rr" doctor) >"$TMPROOT/doctor" 2>&1
if grep -q "^ok       packs        $root/usr/share/reflexion-rules/rules: " "$TMPROOT/doctor"; then
	ok "the unpacked program finds the packs beside it"
else
	not_ok "the unpacked program finds the packs beside it"
	diag <"$TMPROOT/doctor"
fi
"$rr" test "$root/usr/share/reflexion-rules/rules/dangerous-commands.yaml" \
    >"$TMPROOT/test" 2>&1
if [ $? = 0 ] && grep -q ' passed, 0 failed$' "$TMPROOT/test"; then
	ok "the packaged pack passes its tests"
else
	not_ok "the packaged pack passes its tests"
	tail -n 5 "$TMPROOT/test" | diag
fi
done_testing
