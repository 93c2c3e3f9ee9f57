#!/bin/sh
# The bash, zsh and fish completions: commands, kb's verbs, options and
# their values come from the program's --help (the program run is the
# one on PATH: this build's here).  A shell that is not installed skips.
. "$SRCDIR/tests/lib.sh"

C=$SRCDIR/completions
mkdir -p "$TMPROOT/bin"
ln -s "$RR" "$TMPROOT/bin/reflexion-rules"
PATH=$TMPROOT/bin:$PATH
export PATH
cd "$TMPROOT" || exit 99
touch rules-a.yaml rules-b.yaml

# expect SHELL WORDS... ::: WANTED...: each WANTED is offered.
expect() {
	sh_=$1
	shift
	words=
	while [ "$1" != ":::" ]; do
		words="$words '$1'"
		shift
	done
	shift
	case $sh_ in
	bash)
		got=$(bash -c ". '$C/bash/reflexion-rules'
		    set -- $words
		    COMP_WORDS=(\"\$@\"); COMP_CWORD=\$((\$# - 1))
		    _reflexion_rules; printf '%s\n' \"\${COMPREPLY[@]}\"")
		;;
	zsh)
		got=$(zsh -c "compadd() { if [[ \$1 == -a ]]; then print -l -- \${(P)2}; else shift; print -l -- \"\$@\"; fi }
		    _files() { print -l -- rules-*(N) }
		    source '$C/zsh/_reflexion-rules' >/dev/null 2>&1
		    set -- $words
		    words=(\"\$@\"); CURRENT=\$#; PREFIX=\$words[CURRENT]
		    _reflexion-rules")
		;;
	fish)
		line=$(eval "printf '%s ' $words" | sed 's/ $//')
		case $words in *"''") line="$line " ;; esac
		got=$(fish -c "source '$C/fish/reflexion-rules.fish'
		    complete -C '$line'" | cut -f1)
		;;
	esac
	miss=
	for w in "$@"; do
		printf '%s\n' "$got" | grep -qx -- "$w" || miss="$miss $w"
	done
	if [ -z "$miss" ]; then
		ok "$sh_: $words offers $*"
	else
		not_ok "$sh_: $words offers $* (missing:$miss)"
		printf '%s\n' "$got" | diag
	fi
}

for sh_ in bash zsh fish; do
	if ! command -v $sh_ >/dev/null 2>&1; then
		skip "$sh_ is not installed"
		continue
	fi
	expect $sh_ reflexion-rules '' ::: hook lint test explain doctor kb init --version
	expect $sh_ reflexion-rules do ::: doctor
	expect $sh_ reflexion-rules lint --format '' ::: text json sarif github
	expect $sh_ reflexion-rules test --format '' ::: text tap junit
	expect $sh_ reflexion-rules doctor --agent '' ::: claude gemini codex copilot cursor
	expect $sh_ reflexion-rules init --scope '' ::: project local user
	expect $sh_ reflexion-rules kb '' ::: add search list delete export
	expect $sh_ reflexion-rules kb search -- ::: --limit --json
	expect $sh_ reflexion-rules explain -- ::: --command --path --prompt --rules
	expect $sh_ reflexion-rules hook --rules rules- ::: rules-a.yaml rules-b.yaml
done

# Every command of --help is offered (bash, the one always there).
all=$("$RR" --help | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p')
got=$(bash -c ". '$C/bash/reflexion-rules'; COMP_WORDS=(reflexion-rules ''); COMP_CWORD=1; _reflexion_rules; printf '%s\n' \"\${COMPREPLY[@]}\"")
miss=
for c in $all; do
	printf '%s\n' "$got" | grep -qx "$c" || miss="$miss $c"
done
[ -n "$all" ] && [ -z "$miss" ] && ok "bash offers every command --help lists" ||
    not_ok "bash offers every command --help lists (missing:$miss)"
done_testing
