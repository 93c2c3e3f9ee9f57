#!/bin/sh
# End to end, the README's way: make install (into a prefix of its own),
# reflexion-rules init in a git project, the dangerous-commands pack
# turned on in config.yaml, doctor in order; then the real Claude Code,
# asked by the mock model to run `git push --force origin main`, is
# denied by the pack, the push never runs, and the model is told why;
# a plain push after it runs.
AGENT=claude
LABEL=claude-readme
. "$SRCDIR/tests/agents/lib.sh"

command -v python3 >/dev/null 2>&1 ||
    e2e_skip_all "python3 is not installed (the mock model needs it)"
command -v timeout >/dev/null 2>&1 || e2e_skip_all "timeout(1) is not installed"
exe=$(sh "$E2E/install.sh" claude)
case $? in
0) ;;
77) e2e_skip_all "$exe" ;;
*) not_ok "$LABEL: install the pinned client"; done_testing; exit 0 ;;
esac

S=$TMPROOT/readme
AHOME=$S/home
ATMP=$S/tmp
PROJ=$S/proj
OUT=$S/client.out
ERR=$S/client.err
LOG=$S/requests.jsonl
mkdir -p "$AHOME" "$ATMP" "$PROJ/.git" "$S/bin"

# make install, as the README says, into a prefix of its own.
builddir=$(cd "$(dirname "$RR")/.." && pwd)
if env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$builddir" install \
    prefix="$S/prefix" >"$S/install.log" 2>&1; then
	ok "$LABEL: make install"
else
	not_ok "$LABEL: make install"
	diag <"$S/install.log"
	done_testing
	exit 0
fi
# git, as the shell the client runs finds it: it only says how it was run.
printf '#!/bin/sh\necho "git $*" >>"%s/git-ran"\n' "$S" >"$S/bin/git"
chmod +x "$S/bin/git"
node_dir=$(dirname "$(command -v node 2>/dev/null || echo /usr/bin/node)")
agent_path=$S/prefix/bin:$S/bin:$node_dir:/usr/local/bin:/usr/bin:/bin

# reflexion-rules init; the pack; doctor: as a user types them.
user() {
	(cd "$PROJ" && env -i HOME="$AHOME" PATH="$(dirname "$exe"):$agent_path" \
	    REFLEXION_SYSTEM_DIR="$REFLEXION_SYSTEM_DIR" "$@")
}
if user reflexion-rules init >"$S/init.out" 2>&1 &&
    grep -q '"command": "reflexion-rules hook"' "$PROJ/.claude/settings.json"; then
	ok "$LABEL: init registers reflexion-rules by its name, on PATH"
else
	not_ok "$LABEL: init registers reflexion-rules by its name, on PATH"
	cat "$S/init.out" "$PROJ/.claude/settings.json" | diag
fi
mkdir -p "$AHOME/.reflexion"
echo 'packs: [dangerous-commands]' >>"$AHOME/.reflexion/config.yaml"
if user reflexion-rules doctor >"$S/doctor.out" 2>&1 &&
    grep -q '^everything is in order$' "$S/doctor.out"; then
	ok "$LABEL: doctor finds everything in order"
else
	not_ok "$LABEL: doctor finds everything in order"
	diag <"$S/doctor.out"
fi

cat >"$S/script.json" <<'EOF'
[{"shell": "git push --force origin main"},
 {"shell": "git push origin main"},
 {"text": "MOCK-FINAL-1"}]
EOF
python3 "$E2E/mock_model.py" --script "$S/script.json" --log "$LOG" \
    --port-file "$S/port" --lifetime $((AGENT_TIMEOUT + 60)) \
    2>"$S/mock.err" &
mock_pid=$!
i=0
while [ ! -s "$S/port" ] && [ "$i" -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
if [ ! -s "$S/port" ]; then
	not_ok "$LABEL: the mock model server starts"
	diag <"$S/mock.err"
	done_testing
	exit 0
fi
PORT=$(cat "$S/port")
agent_exec ANTHROPIC_BASE_URL="http://127.0.0.1:$PORT" \
    ANTHROPIC_API_KEY=sk-ant-e2e-mock DISABLE_AUTOUPDATER=1 \
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_TELEMETRY=1 \
    DISABLE_ERROR_REPORTING=1 \
    "$exe" -p "Push my work." --model claude-sonnet-4-6 \
    --allowedTools Bash --output-format stream-json --verbose
rc=$?
e2e_stop_mock
case $rc in
0) ok "$LABEL: the session ends normally" ;;
*) not_ok "$LABEL: the session ends normally (exit $rc)" ;;
esac
# Claude Code runs git itself (git -c ... log); the forced push must not
# run, the plain one after it must (the fake git sees what runs).
if ! grep -q '^git push --force' "$S/git-ran" 2>/dev/null; then
	ok "$LABEL: git push --force did not run"
else
	not_ok "$LABEL: git push --force did not run"
	grep '^git push' "$S/git-ran" | diag
fi
check "$LABEL: a plain git push runs" grep -qx 'git push origin main' "$S/git-ran"
check "$LABEL: the model was told the pack's reason" \
    seen 1 'dangerous-commands/git-push-force'
if [ "$tap_failed" -gt 0 ]; then
	python3 "$E2E/requests.py" "$LOG" dump | diag
	tail -n 40 "$OUT" | diag
	tail -n 40 "$ERR" | diag
fi
done_testing
