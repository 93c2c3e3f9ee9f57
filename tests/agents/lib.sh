# Sourced by the end-to-end agent tests (tests/agents/NAME-test.sh): the
# real client NAME, installed at its pinned version by install.sh, runs
# one session against the scripted mock model (mock_model.py) in a
# project whose .reflexion/rules/ holds e2e-rules.yaml, with the hook
# registered by `reflexion-rules init --agent NAME`.
#
# The test script defines, then calls e2e_main:
#   AGENT              claude | gemini | codex | copilot: the client
#   INIT_AGENT         the client whose registration init writes (default
#                      AGENT; Copilot also runs a project's Claude hooks)
#   LABEL              names the test points (default AGENT)
#   agent_prepare      the client's own settings (model server, auth)
#   agent_run          runs the client on $PROMPT through agent_exec
#   agent_hook_noise   filter: stdin = the client's output, stdout = the
#                      lines that are warnings about hooks
#
# The session, the same for every client (one model turn per step):
#   0 shell "touch PROJ/e2e-forbidden.marker"   denied by the rule file
#   1 shell "touch PROJ/e2e-allowed.marker"     runs
#   2 write PROJ/e2e-forbidden-write.txt        denied by the rule file
#   3 write PROJ/e2e-allowed-write.txt          written
#   4 text "MOCK-FINAL-1"                       the Stop rule keeps it going
#   5 text "MOCK-FINAL-2"                       ends: the Stop rule fires once
. "$SRCDIR/tests/lib.sh"

# A hung client fails its test after this many seconds; it never holds CI.
AGENT_TIMEOUT=${AGENT_TIMEOUT:-60}
INIT_AGENT=${INIT_AGENT:-$AGENT}
LABEL=${LABEL:-$AGENT}
PROMPT='Run the e2e-session steps.'
E2E=$SRCDIR/tests/agents

e2e_skip_all() {
	echo "1..0 # SKIP $LABEL: $1"
	exit 0
}

mock_pid=
e2e_stop_mock() {
	if [ -n "$mock_pid" ]; then
		kill "$mock_pid" 2>/dev/null
		wait "$mock_pid" 2>/dev/null
		mock_pid=
	fi
}
trap 'e2e_stop_mock; cleanup' EXIT
trap 'exit 1' HUP INT TERM

# agent_exec VAR=VALUE... PROGRAM ARG...: runs the client in PROJ with only
# the environment given here (no real HOME, no CI or agent variables of the
# machine), stdin closed, output to OUT and ERR, killed after AGENT_TIMEOUT.
agent_exec() {
	set -- PATH="$agent_path" HOME="$AHOME" TMPDIR="$ATMP" LANG=C.UTF-8 \
	    REFLEXION_SYSTEM_DIR="$REFLEXION_SYSTEM_DIR" \
	    REFLEXION_DEADLINE_MS="$REFLEXION_DEADLINE_MS" "$@"
	# A sanitizer build's engine keeps its options.
	for v in ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS REFLEXION_NO_JIT; do
		eval "val=\${$v-}"
		[ -n "$val" ] && set -- "$v=$val" "$@"
	done
	(cd "$PROJ" && exec timeout -k 10 "$AGENT_TIMEOUT" env -i "$@") \
	    </dev/null >"$OUT" 2>"$ERR"
}

# seen STEP TEXT: the model's request at STEP carries TEXT among what the
# client added since the model's last turn.
seen() {
	python3 "$E2E/requests.py" "$LOG" seen "$1" "$2"
}

e2e_main() {
	command -v python3 >/dev/null 2>&1 ||
	    e2e_skip_all "python3 is not installed (the mock model needs it)"
	command -v timeout >/dev/null 2>&1 ||
	    e2e_skip_all "timeout(1) is not installed"
	exe=$(sh "$E2E/install.sh" "$AGENT")
	case $? in
	0) ;;
	77) e2e_skip_all "$exe" ;;
	*)
		not_ok "$LABEL: install the pinned client (see install.sh's message)"
		done_testing
		exit 0
		;;
	esac
	agent_path=$(dirname "$(command -v node 2>/dev/null || echo /usr/bin/node)")
	agent_path=$agent_path:/usr/local/bin:/usr/bin:/bin

	S=$TMPROOT/$AGENT
	AHOME=$S/home
	ATMP=$S/tmp
	PROJ=$S/proj
	OUT=$S/client.out
	ERR=$S/client.err
	LOG=$S/requests.jsonl
	mkdir -p "$AHOME" "$ATMP" "$PROJ/.reflexion/rules"
	cp "$E2E/e2e-rules.yaml" "$PROJ/.reflexion/rules/e2e.yaml"

	cat >"$S/script.json" <<EOF
[{"shell": "touch $PROJ/e2e-forbidden.marker"},
 {"shell": "touch $PROJ/e2e-allowed.marker"},
 {"write": "$PROJ/e2e-forbidden-write.txt", "content": "forbidden\n"},
 {"write": "$PROJ/e2e-allowed-write.txt", "content": "allowed\n"},
 {"text": "MOCK-FINAL-1"},
 {"text": "MOCK-FINAL-2"}]
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
	agent_prepare

	# The registration, as a user makes it: init in the project (its
	# default scope), with this build's engine by its full path.
	if (cd "$PROJ" && HOME=$AHOME && export HOME &&
	    "$RR" init --agent "$INIT_AGENT" --command "$RR hook") \
	    >"$S/init.out" 2>&1; then
		ok "$LABEL: init --agent $INIT_AGENT registers the hook"
	else
		not_ok "$LABEL: init --agent $INIT_AGENT registers the hook"
		diag <"$S/init.out"
	fi

	# doctor, as the user runs it next: the registration, the client's
	# version (its program on PATH), the rules; nothing to fix.
	if (cd "$PROJ" && env -i PATH="$(dirname "$exe"):$agent_path" \
	    HOME="$AHOME" REFLEXION_SYSTEM_DIR="$REFLEXION_SYSTEM_DIR" \
	    "$RR" doctor --agent "$INIT_AGENT") >"$S/doctor.out" 2>&1 &&
	    grep -q '^everything is in order$' "$S/doctor.out"; then
		ok "$LABEL: doctor --agent $INIT_AGENT finds everything in order"
	else
		not_ok "$LABEL: doctor --agent $INIT_AGENT finds everything in order"
		diag <"$S/doctor.out"
	fi

	agent_run
	rc=$?
	e2e_stop_mock
	case $rc in
	0) ok "$LABEL: the session ends normally" ;;
	124 | 137) not_ok "$LABEL: the session ends normally (killed after ${AGENT_TIMEOUT}s)" ;;
	*) not_ok "$LABEL: the session ends normally (exit $rc)" ;;
	esac

	if [ ! -e "$PROJ/e2e-forbidden.marker" ]; then
		ok "$LABEL: the denied shell command did not run"
	else
		not_ok "$LABEL: the denied shell command did not run"
	fi
	check "$LABEL: the model was told why the command was denied" \
	    seen 1 'E2E-DENY-SHELL'
	check "$LABEL: a harmless command runs" \
	    test -e "$PROJ/e2e-allowed.marker"
	if [ ! -e "$PROJ/e2e-forbidden-write.txt" ]; then
		ok "$LABEL: the denied file write was not written"
	else
		not_ok "$LABEL: the denied file write was not written"
	fi
	check "$LABEL: the model was told why the write was denied" \
	    seen 3 'E2E-DENY-WRITE'
	check "$LABEL: a harmless file write is written" \
	    grep -qsx allowed "$PROJ/e2e-allowed-write.txt"
	check "$LABEL: the prompt's hook context reached the model" \
	    seen 0 'E2E-PROMPT-CONTEXT'
	check "$LABEL: the Stop block's reason reached the model" \
	    seen 5 'E2E-STOP-CONTINUE'
	after=$(python3 "$E2E/requests.py" "$LOG" count 6)
	if [ "$after" = 0 ] && seen 5 'E2E-STOP-CONTINUE'; then
		ok "$LABEL: the Stop rule continued the turn once, then let it end"
	else
		not_ok "$LABEL: the Stop rule continued the turn once, then let it end ($after requests after the second stop)"
	fi
	noise=$(cat "$OUT" "$ERR" | agent_hook_noise)
	if [ -z "$noise" ]; then
		ok "$LABEL: the client reports no hook warning or error"
	else
		not_ok "$LABEL: the client reports no hook warning or error"
		echo "$noise" | diag
	fi
	if [ "$tap_failed" -gt 0 ]; then
		echo "# the model's requests:"
		python3 "$E2E/requests.py" "$LOG" dump | diag
		echo "# client stdout:"
		tail -n 40 "$OUT" | diag
		echo "# client stderr:"
		tail -n 40 "$ERR" | diag
	fi
	done_testing
}
