/*
 * Every matcher runs in time linear in its input: each kind, through the
 * evaluation entry point (eval_event with a one-rule rule set, prefilters
 * off so that the matcher itself runs) or its module's own entry where
 * that is the one rules reach, on 1 MB and 8 MB of adversarial text: the
 * CPU time may grow about 8 times, never 64 (SLOPE_MAX 16), best of 3.
 * And in the literal's length: a keyword of 32 KB costs about what one
 * of 32 bytes does, where comparing it at every byte would cost a
 * thousand times more.
 *
 * Regexes: PCRE2 with JIT is linear on these shapes; without JIT
 * (REFLEXION_NO_JIT, measured in a child process that sets it before any
 * match) a pattern with a required literal or a bounded reach is too.  A
 * pattern that backtracks (nested or unbounded repeats the engine retries
 * at every start) is not part of the property: the match limit and the
 * deadline bound it (reflexion-rules(5), regex).
 */
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "helpers.h"
#include "jsonw.h"
#include "match_re.h"
#include "mdsections.h"
#include "tap.h"

#define MB		((size_t)1 << 20)
#define SLOPE_MAX	16.0	/* 8 MB / 1 MB: linear ~8, quadratic ~64 */
#define FLOOR_MS	2.0	/* below it, timer and allocation noise */

static unsigned long rng = 12345;

static unsigned
rnd(unsigned n)
{
	rng = rng * 6364136223846793005UL + 1442695040888963407UL;
	return (unsigned)((rng >> 33) % n);
}

static double
cpu_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* ---- shapes ------------------------------------------------------------- */

enum shape {
	UPPER,		/* upper-case prose: a pasted log, a shouted file */
	ONE_LETTER,	/* "aaaa...": long near misses of "aaa...ab" */
	NEAR,		/* many near matches of secrets */
	UNICODE_UPPER,	/* upper case that folds across lengths */
	WORDLESS,	/* "hackhack...": a keyword everywhere, never a word */
	UBER_WORDLESS,	/* the same in non-ASCII letters */
	LINES,		/* lines of "aaa...a" */
	NUMBERS,	/* "123-123-...": near misses of a phone number */
	SPACES,		/* a long run of blanks */
	DEEP_PATH,	/* "a/a/a/...": a path of many segments */
	SEGMENT,	/* one long path segment */
	SHELL_WORDS,	/* "echo aaaa bbbb ...": one long command */
	SHELL_LIST,	/* "a;b|c&&d ...": many commands */
	SHELL_QUOTES,	/* quotes, escapes, variables, substitutions */
	SHELL_FILES,	/* commands that write and read files, cds */
	SHELL_COPY,	/* "cp -t dir a b c ...": one destination */
	SHELL_CP1,	/* "cp a d1; cp a d2; ...": missing destinations */
	SHELL_FORMS,	/* loops, parallel, git aliases, watch, ssh, trap */
	SHELL_INTERP,	/* python -c with many calls that run or delete */
	SHELL_NESTED,	/* text piped to sh, "$@", $(( $() )), $(echo) */
	BRACES,		/* prose full of { and [ that are no JSON */
	UNCLOSED,	/* arrays that open and run to the end unclosed */
	JSON_ARRAY,	/* one big JSON document */
	TAGS,		/* Markdown full of keyword tags */
	TC_SHEET,	/* a test sheet of many test cases, marker rows */
	JSON_MEMBERS	/* an object of many members, keys like TC-n */
};

static const char *const shape_names[] = {
	"upper case", "one letter", "near matches", "Unicode upper case",
	"a keyword at every byte, never a word",
	"a non-ASCII keyword everywhere, never a word", "long lines",
	"near-miss numbers", "blanks", "a deep path", "a long path segment",
	"a long command", "many commands", "quotes and substitutions",
	"commands that write and read files", "one copy of many files",
	"copies into destinations not on disk",
	"commands that run commands written differently",
	"a long python one-liner", "commands inside commands",
	"braces in prose", "unclosed arrays", "a big JSON array",
	"tagged Markdown", "a test sheet of many test cases",
	"a JSON object of many members"
};

static const char *
pick(const char *const *v, size_t n)
{
	return v[rnd((unsigned)n)];
}

#define PICK(v)	pick(v, sizeof(v) / sizeof(v[0]))

/* Appends the pieces of a shape to b until it holds about n bytes. */
static void
shape_text(enum shape sh, struct buf *b, size_t n)
{
	static unsigned tc;	/* the number of the next test case */
	static const char *const upper[] = {
		"THE ", "QUICK ", "BROWN ", "FOX ", "JUMPS ", "OVER ", "A ",
		"LAZY ", "DOG; ", "PASSWORD ", "SECRET ", "TOKEN\n", "KEY "
	};
	static const char *const near[] = {
		"secret_ke ", "SeCrEt_KeY ", "secret_keys ", "SECRET_KEY\n",
		"Secret-Key ", "api_toke ", "API_TOKEN ", "api_tokens ",
		"password ", "PASSWORD:\n", "rm -r ", "rm -rf"
	};
	static const char *const uni[] = {
		"\xc3\x9c" "BER ", "\xce\xa3\xce\x9f\xce\xa6\xce\x99\xce\x91 ",
		"\xd0\xa1\xd0\x9b\xd0\x9e\xd0\x92\xd0\x9e ", "KELVIN ",
		"\xe2\x84\xaa" "ELVIN ", "\xe1\xba\x9e" "TRASSE ", "ALLES ",
		"\xc3\x84\xc3\x96 ", "STRASSE\n"
	};
	static const char *const shell[] = {
		"echo aaaa ", "ls -la ", "grep -r x . ", "cat f ", "rmdir d ",
		"git status ", "x=1 ", "-r ", "'q' "
	};
	static const char *const list[] = {
		"a;", "b|", "c&&", "d||", "e\n", "f &", "(g);", "{ h; };"
	};
	static const char *const quotes[] = {
		"'a b' ", "\"c $d\" ", "\\e ", "$(f) ", "`g` ", "${h} ",
		"$'\\x41' ", "<(i) ", "{j,k} ", "x=$y ",
		"\"$(echo \\\"l\\\")\" "
	};
	static const char *const files[] = {
		"cp a b c dir/;", "cd d && ", "echo x > f;", "tee -a x y;",
		"sed -i s/a/b/ f;", "mv a b/;", "cat < in;", "rm -rf x;",
		"curl -d @f u;", "tar czf o.tgz -C d a b;", "cd ..;",
		"bash -c 'cp a b';", "dd if=a of=b;", "grep -e x f > o;"
	};
	static const char *const forms[] = {
		"for d in / a b; do rm -rf \"$d\" $d/x; done;",
		"parallel rm {} {.} ::: a b c;", "parallel 'ls {{{' ::: a;",
		"git -c alias.x='reset --hard' x;", "watch -n 1 ls;",
		"ssh -p 2 h ls;", "trap 'ls' EXIT;", "GIT_SSH_COMMAND=ls git x;",
		"rm --rec --for x;", "$d ", "{}{}{} ", "env - -P /b ls;"
	};
	static const char *const interp[] = {
		"os.system(\"ls -la\"); ", "shutil.rmtree(\"build\"); ",
		"subprocess.run([\"git\", \"status\"]); ", "print(\"rm\"); ",
		"os.system(\"a\" + b); ", "Path(\"p\").unlink(); ",
		"x = f(g(\"s\")); ", "r\"raw\" ", "os.remove(rrrr ",
		"subprocess.call(\"rm -r x\", shell=True); ",
		"c = \"ls\"; os.system(c); ", "a = \"b\"\n"
	};
	static const char *const nested[] = {
		"echo 'ls -la' | sh;", "printf '%s %s\\n' a b c d | bash;",
		"cat <<EOF | sh\nls\nEOF\n", "sh -c '\"$@\"' _ ls -l;",
		"echo $(( $(ls) + `id` ));", "x=$(echo ls); $x;",
		"bash -c '$1 $2 $*' _ a b;", "sh -c \"$(cat <<'E'\nls\nE\n)\";",
		"IFS=,; y=a,b; $y;", "echo $[ $(ls) ] | sh -s;"
	};
	static const char *const braces[] = {
		"{x ", "[y ", "{\"a\": ", "[1, ", "prose ", "} ", "] ", "{{ ",
		"[[ ", "\"b\" "
	};
	static const char *const tags[] = {
		"<!-- keywords: join, null, index -->\n",
		"<!-- keywords:   a,b ,  c , d -->\n", "## Pattern\n",
		"```\n", "text\n", "   \n", "<!-- not a tag -->\n"
	};
	size_t	i;

	buf_reset(b);
	while (b->len < n) {
		switch (sh) {
		case UPPER:
			buf_adds(b, PICK(upper));
			break;
		case ONE_LETTER:
			buf_addc(b, 'a');
			break;
		case NEAR:
			buf_adds(b, PICK(near));
			break;
		case UNICODE_UPPER:
			buf_adds(b, PICK(uni));
			break;
		case WORDLESS:
			buf_adds(b, "hack");
			break;
		case UBER_WORDLESS:
			buf_adds(b, "\xc3\x9c" "BER");
			break;
		case LINES:
			for (i = 0; i < 100; i++)
				buf_addc(b, 'a');
			buf_addc(b, '\n');
			break;
		case NUMBERS:
			buf_adds(b, "123-");
			break;
		case SPACES:
			buf_addc(b, ' ');
			break;
		case DEEP_PATH:
			buf_adds(b, "a/");
			break;
		case SEGMENT:
			buf_addc(b, 'e');
			break;
		case SHELL_WORDS:
			buf_adds(b, PICK(shell));
			break;
		case SHELL_LIST:
			buf_adds(b, PICK(list));
			break;
		case SHELL_QUOTES:
			buf_adds(b, PICK(quotes));
			break;
		case SHELL_FILES:
			buf_adds(b, PICK(files));
			break;
		case SHELL_COPY:
			buf_adds(b, b->len == 0 ? "cp -t dir/sub " : "file ");
			break;
		case SHELL_CP1:
			buf_printf(b, "cp a d%zu; ", b->len);
			break;
		case SHELL_FORMS:
			buf_adds(b, PICK(forms));
			break;
		case SHELL_NESTED:
			buf_adds(b, PICK(nested));
			break;
		case SHELL_INTERP:
			buf_adds(b, b->len == 0 ? "python3 -c '" : PICK(interp));
			break;
		case BRACES:
			buf_adds(b, PICK(braces));
			break;
		case UNCLOSED:
			buf_adds(b, b->len < 200 ? "[" : "1,");
			break;
		case JSON_ARRAY:
			buf_adds(b, b->len == 0 ? "{\"a\":[0" :
			    ",{\"k\":[1,2]}");
			break;
		case TAGS:
			buf_adds(b, PICK(tags));
			break;
		case TC_SHEET:
			if (b->len == 0)
				tc = 0;
			buf_printf(b, "## TC-%u\nreason: x\n├─① a\n", tc);
			if (tc % 10 == 0)
				buf_printf(b, "| TC-%u | x | ACTIVE |\n", tc);
			tc++;
			break;
		case JSON_MEMBERS:
			if (b->len == 0)
				tc = 0;
			buf_printf(b, "%s\"TC-%u\":{\"v\":\"PASS\",\"c\":[1]}",
			    tc ? "," : "{\"m\":{", tc);
			tc++;
			break;
		}
	}
	if (sh == JSON_ARRAY)
		buf_adds(b, "]}");
	else if (sh == JSON_MEMBERS)
		buf_adds(b, "}}");
	else if (sh == DEEP_PATH || sh == SEGMENT)
		buf_adds(b, ".txt");
	else if (sh == SPACES)
		buf_addc(b, 'x');
	else if (sh == SHELL_INTERP)
		buf_addc(b, '\'');
}

/* ---- events ------------------------------------------------------------- */

enum wrap { PROMPT, CONTENT, COMMAND, PATH };

/* The event that carries text in the field a probe's rule tests. */
static void
make_event(enum wrap w, const char *text, size_t len, struct buf *json)
{
	buf_reset(json);
	if (w == PROMPT) {
		buf_adds(json, "{\"hook_event_name\":\"UserPromptSubmit\","
		    "\"session_id\":\"s\",\"cwd\":\"/p\",\"prompt\":");
		jsonw_string(json, text, len);
		buf_addc(json, '}');
		return;
	}
	buf_adds(json, "{\"hook_event_name\":\"PreToolUse\",\"session_id\":"
	    "\"s\",\"cwd\":\"/p\",");
	switch (w) {
	case CONTENT:
		buf_adds(json, "\"tool_name\":\"Write\",\"tool_input\":{"
		    "\"file_path\":\"/p/f.txt\",\"content\":");
		jsonw_string(json, text, len);
		break;
	case COMMAND:
		buf_adds(json, "\"tool_name\":\"Bash\",\"tool_input\":{"
		    "\"command\":");
		jsonw_string(json, text, len);
		break;
	case PATH:
		buf_adds(json, "\"tool_name\":\"Write\",\"tool_input\":{"
		    "\"content\":\"x\",\"file_path\":\"/p/");
		buf_add(json, text, len);
		buf_addc(json, '"');
		break;
	case PROMPT:
		break;
	}
	buf_adds(json, "}}");
}

/*
 * The CPU time of the best of 3 evaluations of json against rs (prefilters
 * off), in ms; a run past `hopeless` ms is not repeated.  *got: the rules
 * that fired.
 */
static double
time_eval(const struct ruleset *rs, const struct buf *json, double hopeless,
    char **got, bool prefilter)
{
	struct rr_event		ev;
	struct eval_outcome	out;
	struct eval_opts	eo;
	struct buf		b;
	char			*err = NULL;
	double			 best = -1, t0, t;
	size_t			 k, i;

	buf_init(&b);
	if (event_parse(&ev, json->data, json->len, "/p", &err) < 0) {
		printf("# event: %s\n", err);
		free(err);
		*got = xstrdup("(no event)");
		return 0;
	}
	memset(&eo, 0, sizeof(eo));
	eo.no_prefilter = !prefilter;
	for (k = 0; k < 3; k++) {
		eval_outcome_init(&out);
		t0 = cpu_ms();
		eval_event(rs, &ev, &eo, &out);
		t = cpu_ms() - t0;
		buf_reset(&b);
		for (i = 0; i < out.nfired; i++)
			line_action_id(&b, i, &out.fired[i]);
		eval_outcome_release(&out);
		if (best < 0 || t < best)
			best = t;
		if (t > hopeless)
			break;
	}
	event_release(&ev);
	*got = buf_detach(&b, NULL);
	return best;
}

struct probe {
	const char	*what;
	enum shape	 shape;
	enum wrap	 wrap;
	const char	*when;		/* the rule's `when`, YAML flow */
	bool		 prefilter;	/* the whole path, not the matcher */
};

static const struct probe probes[] = {
	{ "keywords", UPPER, PROMPT,
	    "{prompt: {keywords: ['password=', 'secret:', "
	    "'brown fox jumps over the lazy cat']}}", false },
	{ "keywords", ONE_LETTER, PROMPT, "{prompt: {keywords: [$LONG_AB]}}",
	    false },
	{ "keywords", NEAR, PROMPT,
	    "{prompt: {keywords: ['secret_key=', 'api_token=']}}", false },
	{ "keywords", UNICODE_UPPER, PROMPT,
	    "{prompt: {keywords: ['\xc3\xbc" "ber alles!', 'kelvin=', "
	    "'stra\xc3\x9f" "e!']}}", false },
	{ "keywords, prefilter on", UNICODE_UPPER, PROMPT,
	    "{prompt: {keywords: ['\xc3\xbc" "ber alles!', 'kelvin=']}}",
	    true },
	{ "contains", UPPER, CONTENT,
	    "{content: {contains: ['PASSWORD=', 'LAZY CAT']}}", false },
	{ "contains", ONE_LETTER, CONTENT, "{content: {contains: [$LONG_AB]}}",
	    false },
	{ "keywords, word: true", WORDLESS, PROMPT,
	    "{prompt: {keywords: [hack], word: true}}", false },
	{ "keywords, word: true", ONE_LETTER, PROMPT,
	    "{prompt: {keywords: [$LONG_A], word: true}}", false },
	{ "keywords, word: true", UBER_WORDLESS, PROMPT,
	    "{prompt: {keywords: ['\xc3\xbc" "ber'], word: true}}", false },
	{ "starts_with, line, ignore_case", LINES, CONTENT,
	    "{content: {starts_with: [$LONG_AB], line: true, "
	    "ignore_case: true}}", false },
	{ "ends_with, line", LINES, CONTENT,
	    "{content: {ends_with: ['ba', 'b'], line: true}}", false },
	{ "equals, ignore_case", UNICODE_UPPER, CONTENT,
	    "{content: {equals: ['\xc3\xbc" "ber'], ignore_case: true}}",
	    false },
	{ "regex with a required literal", NEAR, CONTENT,
	    "{content: '(?i)password\\s*=\\s*\\S+'}", false },
	{ "regex with a required literal", UPPER, COMMAND,
	    "{command: '\\brm\\s+-rf\\s+/'}", false },
	{ "regex without a literal", ONE_LETTER, CONTENT,
	    "{content: '[A-Za-z]+[0-9]{3}'}", false },
	{ "regex without a literal", NUMBERS, CONTENT,
	    "{content: '[0-9]{3}-[0-9]{4}\\b'}", false },
	{ "regex without a literal", SPACES, CONTENT,
	    "{content: '\\S\\s+\\S{2}'}", false },
	{ "glob", DEEP_PATH, PATH, "{path: '**/.env'}", false },
	{ "glob", DEEP_PATH, PATH, "{path: 'src/**/*.{ts,tsx}'}", false },
	{ "glob", SEGMENT, PATH, "{path: ['*.env', '.env.*']}", false },
	{ "glob, ignore_case", DEEP_PATH, PATH,
	    "{path: {glob: '**/.ENV', ignore_case: true}}", false },
	{ "glob, ignore_case", SEGMENT, PATH,
	    "{path: {glob: ['*.ENV', '.Env.*'], ignore_case: true}}", false },
	{ "shell", SHELL_WORDS, COMMAND,
	    "{shell: {program: rm, flags: [-r]}}", false },
	{ "shell", SHELL_LIST, COMMAND,
	    "{shell: {program: rm, flags: [-r]}}", false },
	{ "shell", SHELL_QUOTES, COMMAND,
	    "{shell: {program: rm, args: '^/$'}}", false },
	{ "shell", SHELL_FORMS, COMMAND,
	    "{shell: {program: rm, flags: [--recursive], args: '^/$'}}",
	    false },
	{ "shell", SHELL_INTERP, COMMAND,
	    "{shell: {program: rm, args: '^/$'}}", false },
	{ "shell", SHELL_NESTED, COMMAND,
	    "{shell: {program: rm, args: '^/$'}}", false },
	{ "path of a shell command", SHELL_FILES, COMMAND,
	    "{path: '**/.env'}", false },
	{ "path of a shell command", SHELL_COPY, COMMAND,
	    "{path: '**/.env'}", false },
	{ "path of a shell command", SHELL_QUOTES, COMMAND,
	    "{path: '**/.env'}", false },
	{ "path of a shell command", SHELL_LIST, COMMAND,
	    "{path: ['.env', 'secrets/**']}", false },
	{ "read_path of a shell command", SHELL_FILES, COMMAND,
	    "{read_path: '**/.env'}", false },
	{ "path of a shell command, prefilter on", SHELL_FILES, COMMAND,
	    "{path: '**/.env'}", true },
	/* Every file looked at, none left: places, then except. */
	{ "path outside, except", SHELL_FILES, COMMAND,
	    "{path: {outside: [project, temp], except: ['**/.cache/**', "
	    "'**']}}", false },
	{ "path outside, except", SHELL_COPY, COMMAND,
	    "{path: {outside: [temp], except: '**'}}", false },
	/* The files of each simple command, through the index. */
	{ "path in a shell map", SHELL_FILES, COMMAND,
	    "{shell: {program: [rm, cp, tee, sed, mv], path: {outside: "
	    "[project], except: '**'}}}", false },
	{ "path in a shell map", SHELL_LIST, COMMAND,
	    "{shell: {program: '*', read_path: {outside: [temp], "
	    "except: '**'}}}", false },
	{ "path in a shell map", SHELL_COPY, COMMAND,
	    "{shell: {program: cp, path: {glob: '**/.env', "
	    "outside: [project]}}}", false },
	{ "json, find", BRACES, CONTENT,
	    "{content: {json: {find: true, keys: [a.b]}}}", false },
	{ "json, find", UNCLOSED, CONTENT,
	    "{content: {json: {find: true, keys: [a.b]}}}", false },
	{ "json", JSON_ARRAY, CONTENT,
	    "{content: {json: {keys: [a.1.k.5]}}}", false },
	{ "json, each", JSON_ARRAY, CONTENT,
	    "{content: {json: {each: {in: a, keys: [k.5]}}}}", false },
	{ "json, compare: count where, sum", JSON_ARRAY, CONTENT,
	    "{content: {json: {compare: [{count: {in: a, where: {k: [9]}}, "
	    "equals: -1}, {sum: [a.0, a.1.k.0], equals: -1}]}}}", false },
	{ "blocks, a test of each block's text", TC_SHEET, CONTENT,
	    "{blocks: {in: content, start: '^## (TC-\\d+)', end: '^# ', "
	    "some: {not: {block: reason}}}}", false },
	{ "blocks, listed ids and a test of the whole text", TC_SHEET, CONTENT,
	    "{blocks: {in: content, start: '^## (TC-\\d+)', when: {any: "
	    "[{not: {content: '(?m)^\\| TC-'}}, {listed: "
	    "'^\\| (TC-\\d+) \\|.*ACTIVE'}]}, some: {block: NEVER}}}", false },
	{ "blocks of JSON members", JSON_MEMBERS, CONTENT,
	    "{blocks: {in: content, json: m, some: {block: {json: {equals: "
	    "{v: FAIL}}}}}}", false },
	{ "blocks, a JSON key per block", JSON_MEMBERS, CONTENT,
	    "{blocks: {in: content, json: m, some: {content: {json: {each: "
	    "{in: m, key: '{{block}}', keys: [nope]}}}}}}", false },
};

/* The rule of a probe: `when` with $LONG_AB / $LONG_A spelled out. */
static void
probe_yaml(const char *when, size_t longlen, struct buf *y)
{
	const char	*var;
	size_t		 i;

	buf_reset(y);
	buf_adds(y, "version: 1\nrules:\n  - id: r\n    on: [PreToolUse, "
	    "UserPromptSubmit]\n    when: ");
	if ((var = strchr(when, '$')) != NULL && strncmp(var, "$LONG_", 6)
	    == 0) {
		buf_add(y, when, (size_t)(var - when));
		buf_addc(y, '\'');
		for (i = 0; i + 1 < longlen; i++)
			buf_addc(y, 'a');
		buf_addc(y, var[6] == 'A' && var[7] == 'B' ? 'b' : 'a');
		buf_addc(y, '\'');
		when = var + (var[7] == 'B' ? 8 : 7);
	}
	buf_adds(y, when);
	buf_adds(y, "\n    action: deny\n    message: m\n");
}

/* size and 8 times size of the probe's shape: the times, and no match. */
static void
run_probe(const struct probe *p, size_t size, double *t1p, double *t8p,
    bool *nomatch)
{
	struct ruleset		 rs;
	struct diag_list	 dl;
	struct buf		 y, text, json;
	char			*got1, *got8;
	double			 t1, t8;

	buf_init(&y);
	buf_init(&text);
	buf_init(&json);
	probe_yaml(p->when, 300, &y);
	if (compile_text(&rs, &dl, y.data) != 0) {
		got1 = diag_summary(&dl);
		printf("# rules do not compile: %s\n", got1);
		free(got1);
	}
	shape_text(p->shape, &text, size);
	make_event(p->wrap, text.data, text.len, &json);
	t1 = time_eval(&rs, &json, 1e9, &got1, p->prefilter);
	if (t1 < FLOOR_MS)
		t1 = FLOOR_MS;
	shape_text(p->shape, &text, 8 * size);
	make_event(p->wrap, text.data, text.len, &json);
	t8 = time_eval(&rs, &json, 4 * SLOPE_MAX * t1, &got8, p->prefilter);
	*t1p = t1;
	*t8p = t8;
	*nomatch = *got1 == '\0' && *got8 == '\0';
	if (!*nomatch)
		printf("# fired: '%s', '%s'\n", got1, got8);
	free(got1);
	free(got8);
	buf_release(&y);
	buf_release(&text);
	buf_release(&json);
	diag_list_release(&dl);
	ruleset_release(&rs);
}

static void
report(const char *what, const char *shape, double t1, double t8, bool good)
{
	printf("# %s, %s: 1 MB: %.1f ms, 8 MB: %.1f ms\n", what, shape, t1, t8);
	ok(t8 <= SLOPE_MAX * t1 && good, "linear: %s, %s (x%.1f)", what, shape,
	    t8 / t1);
}

static void
eval_probes(void)
{
	double	t1, t8;
	bool	nomatch;
	size_t	i;

	for (i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
		run_probe(&probes[i], MB, &t1, &t8, &nomatch);
		report(probes[i].what, shape_names[probes[i].shape], t1, t8,
		    nomatch);
	}
}

/*
 * Copies into destinations that are not on disk, in 32 KB and 256 KB:
 * below the shell targets' budget, which caps a megabyte's, so that a
 * lookup of each destination among the line's writes that scanned them
 * (quadratic: 10 s for a megabyte before 3bd7641) shows in the slope.
 */
static void
copies_to_missing(void)
{
	static const struct probe p = { "path of a shell command",
	    SHELL_CP1, COMMAND, "{path: '**/.env'}", false };
	double	t1, t8;
	bool	nomatch;

	run_probe(&p, 32 * 1024, &t1, &t8, &nomatch);
	printf("# %s, %s: 32 KB: %.1f ms, 256 KB: %.1f ms\n", p.what,
	    shape_names[p.shape], t1, t8);
	ok(t8 <= SLOPE_MAX * t1 && nomatch, "linear: %s, %s (x%.1f)", p.what,
	    shape_names[p.shape], t8 / t1);
}

/*
 * Globs as the cache gives them (glob.c answers by their leading literal
 * text first): a path of 1 MB and 8 MB, each matched 20 times, where the
 * literal nearly occurs everywhere (one letter repeated, upper case), and
 * where it fits and the regex runs the rest (a deep path).
 */
static void
cached_globs(void)
{
	static const struct {
		const char	*glob;
		const char	*unit;		/* repeated to the size */
		const char	*tail;
		const char	*shape;
	} g[] = {
		{ "**/aaaaaaaab/**", "a", "", "one letter, near matches" },
		{ "**/.CACHE/PIP/**", "/.CACHE/PI", "", "upper case, near "
		    "matches" },
		{ "/etc/**/x.conf", "a/", "x.con", "deep path, prefix fits" },
	};
	struct rr_glob	*gl;
	struct buf	 rx, path;
	double		 t[2], t0, d;
	size_t		 i, k, r, j, size;
	bool		 none;

	buf_init(&rx);
	buf_init(&path);
	for (i = 0; i < sizeof(g) / sizeof(g[0]); i++) {
		gl = glob_as_cached(g[i].glob, &rx);
		none = gl != NULL;
		for (k = 0; k < 2 && gl != NULL; k++) {
			size = k ? 8 * MB : MB;
			buf_reset(&path);
			if (g[i].glob[0] == '/')
				buf_adds(&path, "/etc/");
			while (path.len < size)
				buf_adds(&path, g[i].unit);
			buf_adds(&path, g[i].tail);
			for (t[k] = -1, r = 0; r < 3; r++) {
				t0 = cpu_ms();
				for (j = 0; j < 20; j++)
					none &= !rr_glob_match(gl, path.data,
					    path.len);
				d = cpu_ms() - t0;
				if (t[k] < 0 || d < t[k])
					t[k] = d;
			}
		}
		rr_glob_free(gl);
		if (t[0] < FLOOR_MS)
			t[0] = FLOOR_MS;
		report("glob as cached", g[i].shape, t[0], t[1], none);
	}
	buf_release(&rx);
	buf_release(&path);
}

/*
 * And in the literal's length: a 32-byte and a 32 KB literal in 128 KB
 * of text where it occurs nowhere (or never as a word) cost about the same.
 */
static void
literal_length(void)
{
	static const struct probe lp[] = {
		{ "keywords", ONE_LETTER, PROMPT,
		    "{prompt: {keywords: [$LONG_AB]}}", false },
		{ "contains", ONE_LETTER, PROMPT,
		    "{prompt: {contains: [$LONG_AB]}}", false },
		{ "keywords, word: true", ONE_LETTER, PROMPT,
		    "{prompt: {keywords: [$LONG_A], word: true}}", false },
		{ "starts_with, line", LINES, PROMPT,
		    "{prompt: {ends_with: [$LONG_AB], line: true, "
		    "ignore_case: true}}", false }
	};
	struct ruleset		 rs;
	struct diag_list	 dl;
	struct buf		 y, text, json;
	double			 t[2];
	char			*got[2];
	size_t			 i, k;

	buf_init(&y);
	buf_init(&text);
	buf_init(&json);
	for (i = 0; i < sizeof(lp) / sizeof(lp[0]); i++) {
		shape_text(lp[i].shape, &text, MB / 8);
		make_event(lp[i].wrap, text.data, text.len, &json);
		for (k = 0; k < 2; k++) {
			probe_yaml(lp[i].when, k ? 32 * 1024 : 32, &y);
			compile_text(&rs, &dl, y.data);
			t[k] = time_eval(&rs, &json, k ? 16 * t[0] : 1e9,
			    &got[k], false);
			if (t[k] < FLOOR_MS)
				t[k] = FLOOR_MS;
			diag_list_release(&dl);
			ruleset_release(&rs);
		}
		printf("# 128 KB, %s: 32-byte literal: %.1f ms, 32 KB: %.1f "
		    "ms\n", lp[i].what, t[0], t[1]);
		ok(t[1] <= 4 * t[0] && *got[0] == '\0' && *got[1] == '\0',
		    "linear in the literal's length: %s", lp[i].what);
		free(got[0]);
		free(got[1]);
	}
	buf_release(&y);
	buf_release(&text);
	buf_release(&json);
}

/*
 * A hundred keyword rules on one prompt fold it once: they cost a few
 * times one rule (each still searches), not a hundred foldings.
 */
static void
fold_once(void)
{
	struct ruleset		 rs;
	struct diag_list	 dl;
	struct buf		 y, text, json;
	double			 t[2];
	char			*got[2];
	size_t			 k, i;

	buf_init(&y);
	buf_init(&text);
	buf_init(&json);
	shape_text(UNICODE_UPPER, &text, MB);
	make_event(PROMPT, text.data, text.len, &json);
	for (k = 0; k < 2; k++) {
		buf_reset(&y);
		buf_adds(&y, "version: 1\nrules:\n");
		for (i = 0; i < (k ? 100 : 1); i++)
			buf_printf(&y, "  - id: r%zu\n"
			    "    on: UserPromptSubmit\n"
			    "    when: {prompt: {keywords: ['\xc3\xbc" "ber "
			    "%zu']}}\n    action: context\n    message: m\n",
			    i, i);
		compile_text(&rs, &dl, y.data);
		t[k] = time_eval(&rs, &json, k ? 40 * t[0] : 1e9, &got[k],
		    false);
		if (t[k] < FLOOR_MS)
			t[k] = FLOOR_MS;
		diag_list_release(&dl);
		ruleset_release(&rs);
	}
	printf("# 1 MB prompt: 1 keyword rule: %.1f ms, 100: %.1f ms\n", t[0],
	    t[1]);
	ok(t[1] <= 20 * t[0] && *got[0] == '\0' && *got[1] == '\0',
	    "100 keyword rules fold the prompt once");
	free(got[0]);
	free(got[1]);
	buf_release(&y);
	buf_release(&text);
	buf_release(&json);
}

/*
 * Below the old JIT threshold (16 KB): '\s+$' on 2 KB and on 16 KB less
 * a byte of blanks, where the interpreter retries the run from every
 * start (quadratic: 1.7 s for the longer one).  Both run JIT-compiled.
 */
static void
short_subjects(void)
{
	struct ruleset		 rs;
	struct diag_list	 dl;
	struct buf		 text, json;
	double			 t[2];
	char			*got[2];
	size_t			 k;

	if (getenv("REFLEXION_NO_JIT") != NULL || !rr_regex_jit_built()) {
		skip("no JIT here");
		return;
	}
	buf_init(&text);
	buf_init(&json);
	compile_text(&rs, &dl, "version: 1\nrules:\n  - id: r\n"
	    "    on: PreToolUse\n    when: {content: '\\s+$'}\n"
	    "    action: deny\n    message: m\n");
	for (k = 0; k < 2; k++) {
		buf_reset(&text);
		while (text.len < (k ? 16 * 1024 - 2 : 2048))
			buf_addc(&text, ' ');
		buf_addc(&text, 'x');
		make_event(CONTENT, text.data, text.len, &json);
		t[k] = time_eval(&rs, &json, k ? 16 * t[0] : 1e9, &got[k],
		    false);
		if (t[k] < FLOOR_MS)
			t[k] = FLOOR_MS;
	}
	printf("# '\\s+$' on blanks: 2 KB: %.1f ms, 16 KB: %.1f ms\n", t[0],
	    t[1]);
	ok(t[1] <= SLOPE_MAX * t[0] && *got[0] == '\0' && *got[1] == '\0',
	    "linear below 16 KB: a regex the interpreter retries at every "
	    "start");
	free(got[0]);
	free(got[1]);
	buf_release(&text);
	buf_release(&json);
	diag_list_release(&dl);
	ruleset_release(&rs);
}

/*
 * json find on arrays opened and never closed: every try reads to the
 * end.  All of them together cost a few parses of the text (the work
 * limit), not one per try (64).
 */
static void
json_tries(void)
{
	static const char *const when[] = {
		"{content: {json: {keys: [a]}}}",
		"{content: {json: {find: true, keys: [a]}}}"
	};
	struct ruleset		 rs;
	struct diag_list	 dl;
	struct buf		 y, text, json;
	double			 t[2];
	char			*got[2];
	size_t			 k;

	buf_init(&y);
	buf_init(&text);
	buf_init(&json);
	shape_text(UNCLOSED, &text, MB);
	make_event(CONTENT, text.data, text.len, &json);
	for (k = 0; k < 2; k++) {
		probe_yaml(when[k], 0, &y);
		compile_text(&rs, &dl, y.data);
		t[k] = time_eval(&rs, &json, k ? 16 * t[0] : 1e9, &got[k],
		    false);
		if (t[k] < FLOOR_MS)
			t[k] = FLOOR_MS;
		diag_list_release(&dl);
		ruleset_release(&rs);
	}
	printf("# 1 MB of unclosed arrays: one parse: %.1f ms, find: %.1f ms\n",
	    t[0], t[1]);
	ok(t[1] <= 8 * t[0] && *got[0] == '\0' && *got[1] == '\0',
	    "json find: a few parses of the text, not one per try");
	free(got[0]);
	free(got[1]);
	buf_release(&y);
	buf_release(&text);
	buf_release(&json);
}

/*
 * MultiEdit's file_after on a file of 1 MB and of 8 MB: `per` edits per
 * 4 KB of file (the edits grow with the input), or a fixed dozen.  Each
 * edit scans the file: edits x size is quadratic in the input unless the
 * work budget stops it.
 */
static void
multiedit(const char *dir, bool grow)
{
	struct ruleset		 rs;
	struct diag_list	 dl;
	struct buf		 file, json;
	double			 t[2];
	char			*got[2], *path, m[16];
	size_t			 k, i, n, nedits;
	FILE			*fp;

	buf_init(&file);
	buf_init(&json);
	compile_text(&rs, &dl, "version: 1\nrules:\n  - id: r\n"
	    "    on: PreToolUse\n    when: {file_after: {contains: "
	    "[SECRET]}}\n    action: deny\n    message: m\n");
	path = xasprintf("%s/f.txt", dir);
	for (k = 0; k < 2; k++) {
		n = k ? 8 * MB : MB;
		nedits = grow ? n / 4096 : 12;
		buf_reset(&file);
		for (i = 0; i < nedits; i++) {
			while (file.len < (i + 1) * (n / nedits) - 8)
				buf_adds(&file, "aaaaaaa\n");
			snprintf(m, sizeof(m), "M%06zu", i);
			buf_adds(&file, m);
		}
		if ((fp = fopen(path, "w")) != NULL) {
			fwrite(file.data, 1, file.len, fp);
			fclose(fp);
		}
		buf_reset(&json);
		buf_adds(&json, "{\"hook_event_name\":\"PreToolUse\","
		    "\"session_id\":\"s\",\"cwd\":\"/p\",\"tool_name\":"
		    "\"MultiEdit\",\"tool_input\":{\"file_path\":");
		jsonw_cstring(&json, path);
		buf_adds(&json, ",\"edits\":[");
		for (i = 0; i < nedits; i++)
			buf_printf(&json, "%s{\"old_string\":\"M%06zu\","
			    "\"new_string\":\"N%06zu\"}", i ? "," : "", i, i);
		buf_adds(&json, "]}}");
		t[k] = time_eval(&rs, &json, k ? 4 * SLOPE_MAX * t[0] : 1e9,
		    &got[k], false);
		if (t[k] < FLOOR_MS)
			t[k] = FLOOR_MS;
	}
	report(grow ? "MultiEdit file_after, an edit per 4 KB" :
	    "MultiEdit file_after, 12 edits", "markers in lines", t[0], t[1],
	    *got[0] == '\0' && *got[1] == '\0');
	free(got[0]);
	free(got[1]);
	unlink(path);
	free(path);
	buf_release(&file);
	buf_release(&json);
	diag_list_release(&dl);
	ruleset_release(&rs);
}

/*
 * Related files named after each block: a result of as many test cases
 * as the data mapping beside it has members, each block looking up its
 * own member (json_file, key {{block}}) and its own evidence file
 * (file_exists).  The mapping is read and parsed once, each key found in
 * an index: linear, where a scan per block would be quadratic.
 */
static void
related(const char *dir)
{
	struct ruleset		 rs;
	struct diag_list	 dl;
	struct buf		 map, text, json;
	double			 t[2];
	char			*got[2], *path, *sheet;
	size_t			 k;
	FILE			*fp;

	buf_init(&map);
	buf_init(&text);
	buf_init(&json);
	compile_text(&rs, &dl, "version: 1\nrules:\n  - id: r\n"
	    "    on: PreToolUse\n    when:\n      blocks:\n"
	    "        in: content\n        start: '^## (TC-\\d+)'\n"
	    "        some:\n          any:\n"
	    "            - json_file: {file: '{{dir}}/map.json', each: {in: m, "
	    "key: '{{block}}', keys: [nope]}}\n"
	    "            - file_exists: '{{dir}}/ev/{{block}}.json'\n"
	    "    action: deny\n    message: m\n");
	path = xasprintf("%s/map.json", dir);
	sheet = xasprintf("%s/r.md", dir);
	for (k = 0; k < 2; k++) {
		shape_text(JSON_MEMBERS, &map, k ? 8 * MB : MB);
		if ((fp = fopen(path, "w")) != NULL) {
			fwrite(map.data, 1, map.len, fp);
			fclose(fp);
		}
		shape_text(TC_SHEET, &text, k ? 8 * MB : MB);
		buf_reset(&json);
		buf_adds(&json, "{\"hook_event_name\":\"PreToolUse\","
		    "\"session_id\":\"s\",\"cwd\":\"/p\",\"tool_name\":"
		    "\"Write\",\"tool_input\":{\"file_path\":");
		jsonw_cstring(&json, sheet);
		buf_adds(&json, ",\"content\":");
		jsonw_string(&json, text.data, text.len);
		buf_adds(&json, "}}");
		t[k] = time_eval(&rs, &json, k ? 4 * SLOPE_MAX * t[0] : 1e9,
		    &got[k], false);
		if (t[k] < FLOOR_MS)
			t[k] = FLOOR_MS;
	}
	report("related files per block", "a test sheet and its mapping",
	    t[0], t[1], *got[0] == '\0' && *got[1] == '\0');
	free(got[0]);
	free(got[1]);
	unlink(path);
	free(path);
	free(sheet);
	buf_release(&map);
	buf_release(&text);
	buf_release(&json);
	diag_list_release(&dl);
	ruleset_release(&rs);
}

/* The sections check, through its module (files are 4 MB at most). */
static void
sections(void)
{
	static const char *const active[] = { "join", "index", "zzz" };
	struct buf	 text, titles;
	double		 t[2], t0, d;
	size_t		 k, r, n = 0;

	buf_init(&text);
	buf_init(&titles);
	for (k = 0; k < 2; k++) {
		shape_text(TAGS, &text, k ? 8 * MB : MB);
		for (t[k] = -1, r = 0; r < 3; r++) {
			buf_reset(&titles);
			t0 = cpu_ms();
			n = md_tagged_sections(text.data, text.len, active, 3,
			    &titles);
			d = cpu_ms() - t0;
			if (t[k] < 0 || d < t[k])
				t[k] = d;
		}
	}
	if (t[0] < FLOOR_MS)
		t[0] = FLOOR_MS;
	report("sections", shape_names[TAGS], t[0], t[1], n > 0);
	buf_release(&text);
	buf_release(&titles);
}

/* ---- regexes without JIT ------------------------------------------------ */

static const struct probe nojit[] = {
	{ "regex with a required literal, no JIT", NEAR, CONTENT,
	    "{content: '(?i)password\\s*=\\s*\\S+'}", false },
	{ "regex without a literal, no JIT", NUMBERS, CONTENT,
	    "{content: '[0-9]{3}-[0-9]{4}\\b'}", false },
	{ "regex without a literal, no JIT", UPPER, CONTENT,
	    "{content: '\\b[A-Z]{3}[0-9]{2}\\b'}", false }
};
#define NNOJIT	(sizeof(nojit) / sizeof(nojit[0]))

/*
 * The match code reads REFLEXION_NO_JIT once, at the first match: a child
 * process sets it before any and sends its times back; a minute of CPU at
 * most (a quadratic run would take hours).
 */
static void
no_jit(void)
{
	struct { double t1, t8; bool nomatch; } res[NNOJIT];
	struct rlimit	 rl = { 60, 60 };
	size_t		 i;
	ssize_t		 got = 0, r;
	pid_t		 pid;
	int		 fd[2], status;

	if (!rr_regex_jit_built()) {
		skip("this build has no JIT: every probe above ran without");
		return;
	}
	if (pipe(fd) < 0 || (pid = fork()) < 0) {
		ok(0, "pipe, fork");
		return;
	}
	if (pid == 0) {
		close(fd[0]);
		setenv("REFLEXION_NO_JIT", "1", 1);
		setrlimit(RLIMIT_CPU, &rl);
		for (i = 0; i < NNOJIT; i++)
			run_probe(&nojit[i], MB, &res[i].t1, &res[i].t8,
			    &res[i].nomatch);
		if (write(fd[1], res, sizeof(res)) != (ssize_t)sizeof(res))
			_exit(1);
		_exit(0);
	}
	close(fd[1]);
	while (got < (ssize_t)sizeof(res) && (r = read(fd[0],
	    (char *)res + got, sizeof(res) - (size_t)got)) > 0)
		got += r;
	close(fd[0]);
	waitpid(pid, &status, 0);
	if (got != (ssize_t)sizeof(res)) {
		ok(0, "the child measuring without JIT ended early (%s)",
		    WIFSIGNALED(status) ? strsignal(WTERMSIG(status)) :
		    "exit");
		return;
	}
	for (i = 0; i < NNOJIT; i++)
		report(nojit[i].what, shape_names[nojit[i].shape], res[i].t1,
		    res[i].t8, res[i].nomatch);
}

int
main(void)
{
	char	dir[] = "/tmp/rr-linear.XXXXXX";

	/* First: the child must be the first to match a regex. */
	no_jit();
	eval_probes();
	copies_to_missing();
	cached_globs();
	literal_length();
	fold_once();
	short_subjects();
	json_tries();
	sections();
	if (mkdtemp(dir) == NULL) {
		printf("Bail out! mkdtemp\n");
		return 1;
	}
	multiedit(dir, false);
	multiedit(dir, true);
	related(dir);
	rmdir(dir);
	return done_testing();
}
