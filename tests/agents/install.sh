#!/bin/sh
# install.sh NAME: installs the agent client NAME (claude, gemini, codex,
# copilot) at its pinned version from the npm registry, once, into a cache
# outside the clone, and prints the path of its executable.
#
#   ${REFLEXION_AGENTS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/reflexion-rules/agents}/NAME-VERSION
#
# A later run finds it there and prints the path at once.  Two runs at the
# same time are safe: each installs into its own scratch directory and
# renames it into place; the second rename loses and is thrown away.
#
# Exit status: 0 installed (path on stdout); 77 this machine cannot run the
# client (no node, npm, cache directory, or npm registry), with the reason
# on stdout, to be reported as a skip; 1 the install failed (reason on
# stderr), a test failure.
set -u

# The pinned versions: bump one here and the next run installs it beside
# the old one (delete the old directory by hand).
pin() {
	case $1 in
	claude) pkg=@anthropic-ai/claude-code ver=2.1.332 bin=claude ;;
	gemini) pkg=@google/gemini-cli ver=0.61.0 bin=gemini ;;
	codex) pkg=@openai/codex ver=0.169.0 bin=codex ;;
	copilot) pkg=@github/copilot ver=1.0.102 bin=copilot ;;
	*) return 1 ;;
	esac
}

name=${1:?usage: install.sh claude|gemini|codex|copilot}
pin "$name" || { echo "install.sh: unknown client '$name'" >&2; exit 1; }

if [ -n "${REFLEXION_AGENTS_CACHE:-}" ]; then
	cache=$REFLEXION_AGENTS_CACHE
elif [ -n "${XDG_CACHE_HOME:-}" ]; then
	cache=$XDG_CACHE_HOME/reflexion-rules/agents
elif [ -n "${HOME:-}" ]; then
	cache=$HOME/.cache/reflexion-rules/agents
else
	echo "no cache directory for the agent clients (HOME is not set)"
	exit 77
fi
dir=$cache/$name-$ver
exe=$dir/node_modules/.bin/$bin

# installed DIR: DIR holds the pinned version, verified at install time.
installed() {
	[ -f "$1/.reflexion-installed" ] && [ -x "$1/node_modules/.bin/$bin" ]
}

if installed "$dir"; then
	echo "$exe"
	exit 0
fi

for tool in node npm; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "$tool is not installed: cannot install $pkg@$ver"
		exit 77
	fi
done
if ! mkdir -p "$cache" 2>/dev/null; then
	echo "cannot create the cache directory $cache"
	exit 77
fi
# The registry must answer, quickly; a machine without it skips.
if ! timeout 30 npm ping --no-update-notifier --fetch-retries=1 \
    --fetch-retry-mintimeout=1000 --fetch-timeout=20000 >/dev/null 2>&1; then
	echo "the npm registry cannot be reached: cannot install $pkg@$ver"
	exit 77
fi

tmp=$(mktemp -d "$cache/.$name-$ver.XXXXXX") || exit 1
log=$tmp.log
trap 'rm -rf "$tmp" "$log"' EXIT
trap 'exit 1' HUP INT TERM
if ! timeout 300 npm install --prefix "$tmp" --no-audit --no-fund \
    --no-update-notifier --no-save --loglevel=error "$pkg@$ver" \
    >"$log" 2>&1; then
	echo "install.sh: npm install $pkg@$ver failed:" >&2
	tail -n 20 "$log" >&2
	exit 1
fi
got=$(node -p "require(process.argv[1]).version" \
    "$tmp/node_modules/$pkg/package.json" 2>/dev/null)
if [ "$got" != "$ver" ] || [ ! -x "$tmp/node_modules/.bin/$bin" ]; then
	echo "install.sh: $pkg installed as version '$got', not $ver," \
	    "or without its $bin executable" >&2
	exit 1
fi
echo "$pkg@$ver" >"$tmp/.reflexion-installed"
# npm wrote absolute paths nowhere that matters (.bin holds relative
# links), so the directory can be renamed into place.  A directory there
# without the stamp is a leftover of something else: replaced.
installed "$dir" || rm -rf "$dir"
if ! mv -T "$tmp" "$dir" 2>/dev/null; then
	installed "$dir" || {
		echo "install.sh: cannot move the install into $dir" >&2
		exit 1
	}
fi
echo "$exe"
