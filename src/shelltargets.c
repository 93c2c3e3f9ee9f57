/*
 * The files a shell command writes and reads (see shelltargets.h).
 *
 * Each program of the table is a kind (what its operands are: all
 * written, sources and a destination, a script then files ...) and the
 * options it knows: those that take a value (so that the value is not
 * taken for an operand) and those that mean something here (a file read
 * or written, a destination directory, in place, the script given by an
 * option).  An option the table does not list is a flag.  Options are
 * read GNU style, anywhere before "--": bundles (-rf), values attached
 * or in the next word (-n5, -n 5), --long=value and --long value, and a
 * long option abbreviated to a prefix of the listed name.
 *
 * Reads a finished struct sh_script only; calls nothing above it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shelltargets.h"
#include "xmalloc.h"

/* What an option means here. */
enum role {
	O_VALUE,	/* takes a value that is no file */
	O_READ,		/* its value is a file read */
	O_WRITE,	/* its value is a file written */
	O_DIR,		/* its value is the destination directory (cp -t) */
	O_PROG,		/* it gives the script (sed -e): no script operand */
	O_PROG_FILE,	/* the script is in its value, a file read */
	O_INPLACE,	/* the files are edited in place (sed -i) */
	O_INCLUDE,	/* gawk -i: in place when the value is "inplace" */
	O_KEEP,		/* the operands are only read (gzip -c, git rm
			   --cached) */
	O_ALL_WRITE,	/* every operand is written (install -d) */
	O_DATA,		/* curl -d: @FILE, or NAME@FILE, is a file read */
	O_FORM,		/* curl -F: NAME=@FILE or NAME=<FILE is read */
	O_ARGS,		/* the operands after it are no files (jq --args) */
	O_CHDIR,	/* its value is the directory operands are in */
	O_CREATE,	/* tar: the archive is written, the files read */
	O_EXTRACT,	/* tar: the archive is read */
	O_ARCHIVE	/* tar -f: its value is the archive */
};

/* How many words an option takes. */
enum arity {
	A_FLAG,		/* none */
	A_ONE,		/* one, attached or the next word */
	A_ATTACHED,	/* an optional value, attached only (sed -i.bak) */
	A_TWO		/* two words (jq --arg NAME VALUE) */
};

struct opt {
	const char	*name;		/* "-t" or "--target-directory" */
	enum role	 role;
	enum arity	 arity;
};

enum kind {
	K_WRITE,	/* every operand written: tee, rm, touch, vim */
	K_READ,		/* every operand read: cat, head, diff */
	K_MODE_WRITE,	/* chmod, chown: a mode or owner, then files written */
	K_COPY,		/* cp, install: sources read, destination written */
	K_MOVE,		/* mv: sources moved away, destination written */
	K_LINK,		/* ln: the link written */
	K_DD,		/* dd: if= read, of= written */
	K_SCRIPT,	/* sed, grep, awk, jq: a script, then files read
			   (written in place) */
	K_PERL,		/* perl: -e CODE or a script file, then files */
	K_SOURCE,	/* source, .: the file read */
	K_SHELL,	/* sh FILE: the script read (not with -c) */
	K_IN_OUT,	/* uniq, xxd: the first read, the second written */
	K_PATCH,	/* patch: the first written, the patch read */
	K_OPTIONS,	/* curl, wget: only options name files */
	K_COPY_REMOTE,	/* scp, rsync: local sources read, destination
			   written */
	K_ARCHIVE,	/* tar, zip: the archive and the files */
	K_UNZIP,	/* unzip: the archive read */
	K_COMPRESS,	/* gzip: files replaced (read with -c, -k) */
	K_OPENSSL,	/* openssl: -in read, -out written */
	K_GIT		/* git restore, checkout, rm, mv */
};

/* Program flags. */
#define P_PLUS		0x01	/* +N words are options (tail +5, vim +10) */
#define P_MODES		0x02	/* -w, +x are operands (chmod's modes) */
#define P_OLD_BUNDLE	0x04	/* a first word without '-' is a bundle of
				   options whose values follow (tar czf F) */
#define P_ASSIGN	0x08	/* K_SCRIPT: NAME=value operands are no files
				   (awk) */

struct prog {
	const char		*name;
	enum kind		 kind;
	const struct opt	*opts;	/* { NULL } terminated */
	unsigned		 flags;
};

/* ---- options of the programs -------------------------------------------- */

static const struct opt no_opts[] = { { NULL, O_VALUE, A_FLAG } };

static const struct opt cp_opts[] = {
	{ "-t", O_DIR, A_ONE }, { "--target-directory", O_DIR, A_ONE },
	{ "-S", O_VALUE, A_ONE }, { "--suffix", O_VALUE, A_ONE },
	{ "--backup", O_VALUE, A_ATTACHED },
	{ "--reflink", O_VALUE, A_ATTACHED },
	{ "--sparse", O_VALUE, A_ONE }, { "--preserve", O_VALUE, A_ATTACHED },
	{ "--no-preserve", O_VALUE, A_ONE }, { "--context", O_VALUE, A_ATTACHED },
	{ NULL, O_VALUE, A_FLAG }
};
static const struct opt install_opts[] = {
	{ "-t", O_DIR, A_ONE }, { "--target-directory", O_DIR, A_ONE },
	{ "-d", O_ALL_WRITE, A_FLAG }, { "--directory", O_ALL_WRITE, A_FLAG },
	{ "-g", O_VALUE, A_ONE }, { "--group", O_VALUE, A_ONE },
	{ "-m", O_VALUE, A_ONE }, { "--mode", O_VALUE, A_ONE },
	{ "-o", O_VALUE, A_ONE }, { "--owner", O_VALUE, A_ONE },
	{ "-S", O_VALUE, A_ONE }, { "--suffix", O_VALUE, A_ONE },
	{ "--strip-program", O_VALUE, A_ONE },
	{ "--backup", O_VALUE, A_ATTACHED },
	{ NULL, O_VALUE, A_FLAG }
};
static const struct opt tee_opts[] = {
	{ "--output-error", O_VALUE, A_ATTACHED }, { NULL, O_VALUE, A_FLAG }
};
static const struct opt rm_opts[] = {
	{ "--interactive", O_VALUE, A_ATTACHED }, { NULL, O_VALUE, A_FLAG }
};
static const struct opt shred_opts[] = {
	{ "-n", O_VALUE, A_ONE }, { "--iterations", O_VALUE, A_ONE },
	{ "-s", O_VALUE, A_ONE }, { "--size", O_VALUE, A_ONE },
	{ "--random-source", O_READ, A_ONE },
	{ "--remove", O_VALUE, A_ATTACHED },
	{ NULL, O_VALUE, A_FLAG }
};
static const struct opt truncate_opts[] = {
	{ "-s", O_VALUE, A_ONE }, { "--size", O_VALUE, A_ONE },
	{ "-r", O_READ, A_ONE }, { "--reference", O_READ, A_ONE },
	{ NULL, O_VALUE, A_FLAG }
};
static const struct opt touch_opts[] = {
	{ "-d", O_VALUE, A_ONE }, { "--date", O_VALUE, A_ONE },
	{ "-t", O_VALUE, A_ONE }, { "--time", O_VALUE, A_ONE },
	{ "-r", O_READ, A_ONE }, { "--reference", O_READ, A_ONE },
	{ NULL, O_VALUE, A_FLAG }
};
static const struct opt mkdir_opts[] = {
	{ "-m", O_VALUE, A_ONE }, { "--mode", O_VALUE, A_ONE },
	{ "--context", O_VALUE, A_ATTACHED }, { NULL, O_VALUE, A_FLAG }
};
static const struct opt chmod_opts[] = {
	{ "--reference", O_PROG_FILE, A_ONE }, { "--from", O_VALUE, A_ONE },
	{ NULL, O_VALUE, A_FLAG }
};
static const struct opt sed_opts[] = {
	{ "-e", O_PROG, A_ONE }, { "--expression", O_PROG, A_ONE },
	{ "-f", O_PROG_FILE, A_ONE }, { "--file", O_PROG_FILE, A_ONE },
	{ "-i", O_INPLACE, A_ATTACHED }, { "--in-place", O_INPLACE, A_ATTACHED },
	{ "-l", O_VALUE, A_ONE }, { "--line-length", O_VALUE, A_ONE },
	{ NULL, O_VALUE, A_FLAG }
};
static const struct opt perl_opts[] = {
	{ "-e", O_PROG, A_ONE }, { "-E", O_PROG, A_ONE },
	{ "-i", O_INPLACE, A_ATTACHED }, { "-I", O_VALUE, A_ONE },
	{ "-M", O_VALUE, A_ONE }, { "-m", O_VALUE, A_ONE },
	{ "-0", O_VALUE, A_ATTACHED }, { "-l", O_VALUE, A_ATTACHED },
	{ "-F", O_VALUE, A_ATTACHED }, { "-C", O_VALUE, A_ATTACHED },
	{ "-d", O_VALUE, A_ATTACHED }, { "-D", O_VALUE, A_ATTACHED },
	{ "-x", O_VALUE, A_ATTACHED }, { "-V", O_VALUE, A_ATTACHED },
	{ NULL, O_VALUE, A_FLAG }
};
static const struct opt awk_opts[] = {
	{ "-f", O_PROG_FILE, A_ONE }, { "--file", O_PROG_FILE, A_ONE },
	{ "-E", O_PROG_FILE, A_ONE }, { "--exec", O_PROG_FILE, A_ONE },
	{ "-v", O_VALUE, A_ONE }, { "--assign", O_VALUE, A_ONE },
	{ "-F", O_VALUE, A_ONE }, { "--field-separator", O_VALUE, A_ONE },
	{ "-i", O_INCLUDE, A_ONE }, { "--include", O_INCLUDE, A_ONE },
	{ "-l", O_VALUE, A_ONE }, { "--load", O_VALUE, A_ONE },
	{ NULL, O_VALUE, A_FLAG }
};
static const struct opt grep_opts[] = {
	{ "-e", O_PROG, A_ONE }, { "--regexp", O_PROG, A_ONE },
	{ "-f", O_PROG_FILE, A_ONE }, { "--file", O_PROG_FILE, A_ONE },
	{ "-m", O_VALUE, A_ONE }, { "--max-count", O_VALUE, A_ONE },
	{ "-A", O_VALUE, A_ONE }, { "--after-context", O_VALUE, A_ONE },
	{ "-B", O_VALUE, A_ONE }, { "--before-context", O_VALUE, A_ONE },
	{ "-C", O_VALUE, A_ONE }, { "--context", O_VALUE, A_ONE },
	{ "-d", O_VALUE, A_ONE }, { "--directories", O_VALUE, A_ONE },
	{ "-D", O_VALUE, A_ONE }, { "--devices", O_VALUE, A_ONE },
	{ "--include", O_VALUE, A_ONE }, { "--exclude", O_VALUE, A_ONE },
	{ "--exclude-from", O_READ, A_ONE }, { "--exclude-dir", O_VALUE, A_ONE },
	{ "--label", O_VALUE, A_ONE }, { "--binary-files", O_VALUE, A_ONE },
	{ "--color", O_VALUE, A_ATTACHED }, { "--colour", O_VALUE, A_ATTACHED },
	{ "--group-separator", O_VALUE, A_ONE },
	{ NULL, O_VALUE, A_FLAG }
};
static const struct opt rg_opts[] = {
	{ "-e", O_PROG, A_ONE }, { "--regexp", O_PROG, A_ONE },
	{ "-f", O_PROG_FILE, A_ONE }, { "--file", O_PROG_FILE, A_ONE },
	{ "--files", O_PROG, A_FLAG }, { "--type-list", O_PROG, A_FLAG },
	{ "-g", O_VALUE, A_ONE }, { "--glob", O_VALUE, A_ONE },
	{ "--iglob", O_VALUE, A_ONE },
	{ "-t", O_VALUE, A_ONE }, { "--type", O_VALUE, A_ONE },
	{ "-T", O_VALUE, A_ONE }, { "--type-not", O_VALUE, A_ONE },
	{ "--type-add", O_VALUE, A_ONE }, { "--type-clear", O_VALUE, A_ONE },
	{ "-m", O_VALUE, A_ONE }, { "--max-count", O_VALUE, A_ONE },
	{ "-A", O_VALUE, A_ONE }, { "--after-context", O_VALUE, A_ONE },
	{ "-B", O_VALUE, A_ONE }, { "--before-context", O_VALUE, A_ONE },
	{ "-C", O_VALUE, A_ONE }, { "--context", O_VALUE, A_ONE },
	{ "-j", O_VALUE, A_ONE }, { "--threads", O_VALUE, A_ONE },
	{ "-M", O_VALUE, A_ONE }, { "--max-columns", O_VALUE, A_ONE },
	{ "-r", O_VALUE, A_ONE }, { "--replace", O_VALUE, A_ONE },
	{ "-E", O_VALUE, A_ONE }, { "--encoding", O_VALUE, A_ONE },
	{ "-d", O_VALUE, A_ONE }, { "--max-depth", O_VALUE, A_ONE },
	{ "--max-filesize", O_VALUE, A_ONE },
	{ "--ignore-file", O_READ, A_ONE }, { "--pre", O_VALUE, A_ONE },
	{ "--pre-glob", O_VALUE, A_ONE }, { "--sort", O_VALUE, A_ONE },
	{ "--sortr", O_VALUE, A_ONE }, { "--colors", O_VALUE, A_ONE },
	{ "--color", O_VALUE, A_ONE }, { "--engine", O_VALUE, A_ONE },
	{ "--path-separator", O_VALUE, A_ONE },
	{ "--context-separator", O_VALUE, A_ONE },
	{ "--field-match-separator", O_VALUE, A_ONE },
	{ "--field-context-separator", O_VALUE, A_ONE },
	{ "--dfa-size-limit", O_VALUE, A_ONE },
	{ "--regex-size-limit", O_VALUE, A_ONE },
	{ NULL, O_VALUE, A_FLAG }
};
static const struct opt ag_opts[] = {
	{ "-g", O_PROG, A_ONE }, { "-G", O_VALUE, A_ONE },
	{ "--file-search-regex", O_VALUE, A_ONE },
	{ "--ignore", O_VALUE, A_ONE }, { "--ignore-dir", O_VALUE, A_ONE },
	{ "-A", O_VALUE, A_ONE }, { "--after", O_VALUE, A_ATTACHED },
	{ "-B", O_VALUE, A_ONE }, { "--before", O_VALUE, A_ATTACHED },
	{ "-C", O_VALUE, A_ONE }, { "--context", O_VALUE, A_ATTACHED },
	{ "-m", O_VALUE, A_ONE }, { "--max-count", O_VALUE, A_ONE },
	{ "-p", O_READ, A_ONE }, { "--path-to-ignore", O_READ, A_ONE },
	{ "--depth", O_VALUE, A_ONE }, { "--pager", O_VALUE, A_ONE },
	{ NULL, O_VALUE, A_FLAG }
};
static const struct opt jq_opts[] = {
	{ "-f", O_PROG_FILE, A_ONE }, { "--from-file", O_PROG_FILE, A_ONE },
	{ "--arg", O_VALUE, A_TWO }, { "--argjson", O_VALUE, A_TWO },
	{ "--slurpfile", O_READ, A_TWO }, { "--rawfile", O_READ, A_TWO },
	{ "--args", O_ARGS, A_FLAG }, { "--jsonargs", O_ARGS, A_FLAG },
	{ "-L", O_VALUE, A_ONE }, { "--indent", O_VALUE, A_ONE },
	{ NULL, O_VALUE, A_FLAG }
};
static const struct opt yq_opts[] = {
	{ "-i", O_INPLACE, A_FLAG }, { "--inplace", O_INPLACE, A_FLAG },
	{ "--from-file", O_PROG_FILE, A_ONE },
	{ "-o", O_VALUE, A_ONE }, { "--output-format", O_VALUE, A_ONE },
	{ "-p", O_VALUE, A_ONE }, { "--input-format", O_VALUE, A_ONE },
	{ "-I", O_VALUE, A_ONE }, { "--indent", O_VALUE, A_ONE },
	{ "--arg", O_VALUE, A_TWO }, { "--argjson", O_VALUE, A_TWO },
	{ NULL, O_VALUE, A_FLAG }
};
static const struct opt head_opts[] = {
	{ "-n", O_VALUE, A_ONE }, { "--lines", O_VALUE, A_ONE },
	{ "-c", O_VALUE, A_ONE }, { "--bytes", O_VALUE, A_ONE },
	{ "-s", O_VALUE, A_ONE }, { "--sleep-interval", O_VALUE, A_ONE },
	{ "--pid", O_VALUE, A_ONE }, { "--max-unchanged-stats", O_VALUE, A_ONE },
	{ "--follow", O_VALUE, A_ATTACHED },
	{ NULL, O_VALUE, A_FLAG }
};
static const struct opt less_opts[] = {
	{ "-b", O_VALUE, A_ONE }, { "-h", O_VALUE, A_ONE },
	{ "-j", O_VALUE, A_ONE }, { "-k", O_READ, A_ONE },
	{ "-o", O_WRITE, A_ONE }, { "-O", O_WRITE, A_ONE },
	{ "-p", O_VALUE, A_ONE }, { "-P", O_VALUE, A_ONE },
	{ "-t", O_VALUE, A_ONE }, { "-T", O_READ, A_ONE },
	{ "-x", O_VALUE, A_ONE }, { "-y", O_VALUE, A_ONE },
	{ "-z", O_VALUE, A_ONE }, { "-#", O_VALUE, A_ONE },
	{ NULL, O_VALUE, A_FLAG }
};
static const struct opt od_opts[] = {
	{ "-A", O_VALUE, A_ONE }, { "-j", O_VALUE, A_ONE },
	{ "-N", O_VALUE, A_ONE }, { "-S", O_VALUE, A_ONE },
	{ "-t", O_VALUE, A_ONE }, { "-w", O_VALUE, A_ATTACHED },
	{ "-e", O_VALUE, A_ONE }, { "-f", O_READ, A_ONE },
	{ "-n", O_VALUE, A_ONE }, { "-s", O_VALUE, A_ONE },
	{ NULL, O_VALUE, A_FLAG }
};
static const struct opt strings_opts[] = {
	{ "-n", O_VALUE, A_ONE }, { "--bytes", O_VALUE, A_ONE },
	{ "-t", O_VALUE, A_ONE }, { "--radix", O_VALUE, A_ONE },
	{ "-e", O_VALUE, A_ONE }, { "--encoding", O_VALUE, A_ONE },
	{ NULL, O_VALUE, A_FLAG }
};
static const struct opt base64_opts[] = {
	{ "-w", O_VALUE, A_ONE }, { "--wrap", O_VALUE, A_ONE },
	{ "-b", O_VALUE, A_ONE }, { "--base", O_VALUE, A_ATTACHED },
	{ "-i", O_READ, A_ONE }, { "--input", O_READ, A_ONE },
	{ "-o", O_WRITE, A_ONE }, { "--output", O_WRITE, A_ONE },
	{ NULL, O_VALUE, A_FLAG }
};
static const struct opt wc_opts[] = {
	{ "--files0-from", O_READ, A_ONE }, { NULL, O_VALUE, A_FLAG }
};
static const struct opt diff_opts[] = {
	{ "-C", O_VALUE, A_ONE }, { "-U", O_VALUE, A_ONE },
	{ "-F", O_VALUE, A_ONE }, { "-I", O_VALUE, A_ONE },
	{ "-L", O_VALUE, A_ONE }, { "--label", O_VALUE, A_ONE },
	{ "-S", O_VALUE, A_ONE }, { "-W", O_VALUE, A_ONE },
	{ "-x", O_VALUE, A_ONE }, { "--exclude", O_VALUE, A_ONE },
	{ "-X", O_READ, A_ONE }, { "--exclude-from", O_READ, A_ONE },
	{ "--from-file", O_READ, A_ONE }, { "--to-file", O_READ, A_ONE },
	{ "--ignore-matching-lines", O_VALUE, A_ONE },
	{ "--unified", O_VALUE, A_ATTACHED }, { "--context", O_VALUE, A_ATTACHED },
	{ "--color", O_VALUE, A_ATTACHED }, { "--palette", O_VALUE, A_ONE },
	{ "--width", O_VALUE, A_ONE }, { "--tabsize", O_VALUE, A_ONE },
	{ "--starting-file", O_VALUE, A_ONE },
	{ "--line-format", O_VALUE, A_ONE },
	{ NULL, O_VALUE, A_FLAG }
};
static const struct opt cmp_opts[] = {
	{ "-i", O_VALUE, A_ONE }, { "--ignore-initial", O_VALUE, A_ONE },
	{ "-n", O_VALUE, A_ONE }, { "--bytes", O_VALUE, A_ONE },
	{ NULL, O_VALUE, A_FLAG }
};
static const struct opt cut_opts[] = {
	{ "-b", O_VALUE, A_ONE }, { "--bytes", O_VALUE, A_ONE },
	{ "-c", O_VALUE, A_ONE }, { "--characters", O_VALUE, A_ONE },
	{ "-d", O_VALUE, A_ONE }, { "--delimiter", O_VALUE, A_ONE },
	{ "-f", O_VALUE, A_ONE }, { "--fields", O_VALUE, A_ONE },
	{ "--output-delimiter", O_VALUE, A_ONE },
	{ NULL, O_VALUE, A_FLAG }
};
static const struct opt sort_opts[] = {
	{ "-o", O_WRITE, A_ONE }, { "--output", O_WRITE, A_ONE },
	{ "-k", O_VALUE, A_ONE }, { "--key", O_VALUE, A_ONE },
	{ "-t", O_VALUE, A_ONE }, { "--field-separator", O_VALUE, A_ONE },
	{ "-S", O_VALUE, A_ONE }, { "--buffer-size", O_VALUE, A_ONE },
	{ "-T", O_VALUE, A_ONE }, { "--temporary-directory", O_VALUE, A_ONE },
	{ "--files0-from", O_READ, A_ONE }, { "--parallel", O_VALUE, A_ONE },
	{ "--batch-size", O_VALUE, A_ONE },
	{ "--compress-program", O_VALUE, A_ONE },
	{ "--random-source", O_READ, A_ONE }, { "--sort", O_VALUE, A_ONE },
	{ NULL, O_VALUE, A_FLAG }
};
static const struct opt uniq_opts[] = {
	{ "-f", O_VALUE, A_ONE }, { "--skip-fields", O_VALUE, A_ONE },
	{ "-s", O_VALUE, A_ONE }, { "--skip-chars", O_VALUE, A_ONE },
	{ "-w", O_VALUE, A_ONE }, { "--check-chars", O_VALUE, A_ONE },
	{ "--all-repeated", O_VALUE, A_ATTACHED },
	{ "--group", O_VALUE, A_ATTACHED },
	{ NULL, O_VALUE, A_FLAG }
};
static const struct opt xxd_opts[] = {
	{ "-c", O_VALUE, A_ONE }, { "-g", O_VALUE, A_ONE },
	{ "-l", O_VALUE, A_ONE }, { "-o", O_VALUE, A_ONE },
	{ "-s", O_VALUE, A_ONE }, { "-n", O_VALUE, A_ONE },
	{ "-cols", O_VALUE, A_ONE }, { "-len", O_VALUE, A_ONE },
	{ "-seek", O_VALUE, A_ONE },
	{ NULL, O_VALUE, A_FLAG }
};
static const struct opt iconv_opts[] = {
	{ "-f", O_VALUE, A_ONE }, { "--from-code", O_VALUE, A_ONE },
	{ "-t", O_VALUE, A_ONE }, { "--to-code", O_VALUE, A_ONE },
	{ "-o", O_WRITE, A_ONE }, { "--output", O_WRITE, A_ONE },
	{ NULL, O_VALUE, A_FLAG }
};
static const struct opt patch_opts[] = {
	{ "-i", O_READ, A_ONE }, { "--input", O_READ, A_ONE },
	{ "-o", O_WRITE, A_ONE }, { "--output", O_WRITE, A_ONE },
	{ "-r", O_WRITE, A_ONE }, { "--reject-file", O_WRITE, A_ONE },
	{ "-d", O_CHDIR, A_ONE }, { "--directory", O_CHDIR, A_ONE },
	{ "-p", O_VALUE, A_ONE }, { "--strip", O_VALUE, A_ONE },
	{ "-B", O_VALUE, A_ONE }, { "--prefix", O_VALUE, A_ONE },
	{ "-D", O_VALUE, A_ONE }, { "--ifdef", O_VALUE, A_ONE },
	{ "-F", O_VALUE, A_ONE }, { "--fuzz", O_VALUE, A_ONE },
	{ "-V", O_VALUE, A_ONE }, { "--version-control", O_VALUE, A_ONE },
	{ "-Y", O_VALUE, A_ONE }, { "--basename-prefix", O_VALUE, A_ONE },
	{ "-z", O_VALUE, A_ONE }, { "--suffix", O_VALUE, A_ONE },
	{ "-g", O_VALUE, A_ONE }, { "--get", O_VALUE, A_ONE },
	{ "--quoting-style", O_VALUE, A_ONE },
	{ NULL, O_VALUE, A_FLAG }
};
static const struct opt vim_opts[] = {
	{ "-c", O_VALUE, A_ONE }, { "--cmd", O_VALUE, A_ONE },
	{ "-S", O_READ, A_ONE }, { "-u", O_READ, A_ONE }, { "-U", O_READ, A_ONE },
	{ "-T", O_VALUE, A_ONE }, { "-i", O_VALUE, A_ONE },
	{ "-w", O_WRITE, A_ONE }, { "-W", O_WRITE, A_ONE },
	{ "-s", O_READ, A_ONE }, { "-t", O_VALUE, A_ONE },
	{ "-q", O_VALUE, A_ONE },
	{ NULL, O_VALUE, A_FLAG }
};
static const struct opt ed_opts[] = {
	{ "-p", O_VALUE, A_ONE }, { "--prompt", O_VALUE, A_ONE },
	{ NULL, O_VALUE, A_FLAG }
};
static const struct opt shell_opts[] = {
	{ "-c", O_PROG, A_FLAG }, { "-o", O_VALUE, A_ONE },
	{ "-O", O_VALUE, A_ONE }, { "--rcfile", O_READ, A_ONE },
	{ "--init-file", O_READ, A_ONE },
	{ NULL, O_VALUE, A_FLAG }
};
static const struct opt curl_opts[] = {
	{ "-o", O_WRITE, A_ONE }, { "--output", O_WRITE, A_ONE },
	{ "-c", O_WRITE, A_ONE }, { "--cookie-jar", O_WRITE, A_ONE },
	{ "-D", O_WRITE, A_ONE }, { "--dump-header", O_WRITE, A_ONE },
	{ "--trace", O_WRITE, A_ONE }, { "--trace-ascii", O_WRITE, A_ONE },
	{ "--stderr", O_WRITE, A_ONE }, { "--etag-save", O_WRITE, A_ONE },
	{ "--libcurl", O_WRITE, A_ONE },
	{ "-d", O_DATA, A_ONE }, { "--data", O_DATA, A_ONE },
	{ "--data-ascii", O_DATA, A_ONE }, { "--data-binary", O_DATA, A_ONE },
	{ "--data-urlencode", O_DATA, A_ONE }, { "--json", O_DATA, A_ONE },
	{ "--data-raw", O_VALUE, A_ONE },
	{ "-F", O_FORM, A_ONE }, { "--form", O_FORM, A_ONE },
	{ "--form-string", O_VALUE, A_ONE },
	{ "-T", O_READ, A_ONE }, { "--upload-file", O_READ, A_ONE },
	{ "-K", O_READ, A_ONE }, { "--config", O_READ, A_ONE },
	{ "--etag-compare", O_READ, A_ONE },
	{ "-E", O_READ, A_ONE }, { "--cert", O_READ, A_ONE },
	{ "--key", O_READ, A_ONE }, { "--cacert", O_READ, A_ONE },
	{ "-b", O_VALUE, A_ONE }, { "--cookie", O_VALUE, A_ONE },
	{ "-H", O_VALUE, A_ONE }, { "--header", O_VALUE, A_ONE },
	{ "-X", O_VALUE, A_ONE }, { "--request", O_VALUE, A_ONE },
	{ "-u", O_VALUE, A_ONE }, { "--user", O_VALUE, A_ONE },
	{ "-A", O_VALUE, A_ONE }, { "--user-agent", O_VALUE, A_ONE },
	{ "-e", O_VALUE, A_ONE }, { "--referer", O_VALUE, A_ONE },
	{ "-m", O_VALUE, A_ONE }, { "--max-time", O_VALUE, A_ONE },
	{ "-w", O_VALUE, A_ONE }, { "--write-out", O_VALUE, A_ONE },
	{ "-x", O_VALUE, A_ONE }, { "--proxy", O_VALUE, A_ONE },
	{ "-r", O_VALUE, A_ONE }, { "--range", O_VALUE, A_ONE },
	{ "-U", O_VALUE, A_ONE }, { "--proxy-user", O_VALUE, A_ONE },
	{ "-Y", O_VALUE, A_ONE }, { "-y", O_VALUE, A_ONE },
	{ "-z", O_VALUE, A_ONE }, { "-C", O_VALUE, A_ONE },
	{ "-P", O_VALUE, A_ONE }, { "-Q", O_VALUE, A_ONE },
	{ "-t", O_VALUE, A_ONE }, { "--url", O_VALUE, A_ONE },
	{ "--connect-timeout", O_VALUE, A_ONE },
	{ "--retry", O_VALUE, A_ONE }, { "--resolve", O_VALUE, A_ONE },
	{ NULL, O_VALUE, A_FLAG }
};
static const struct opt wget_opts[] = {
	{ "-O", O_WRITE, A_ONE }, { "--output-document", O_WRITE, A_ONE },
	{ "-o", O_WRITE, A_ONE }, { "--output-file", O_WRITE, A_ONE },
	{ "-a", O_WRITE, A_ONE }, { "--append-output", O_WRITE, A_ONE },
	{ "-i", O_READ, A_ONE }, { "--input-file", O_READ, A_ONE },
	{ "--post-file", O_READ, A_ONE }, { "--body-file", O_READ, A_ONE },
	{ "--post-data", O_VALUE, A_ONE }, { "--body-data", O_VALUE, A_ONE },
	{ "-P", O_VALUE, A_ONE }, { "--directory-prefix", O_VALUE, A_ONE },
	{ "-e", O_VALUE, A_ONE }, { "--execute", O_VALUE, A_ONE },
	{ "-U", O_VALUE, A_ONE }, { "--user-agent", O_VALUE, A_ONE },
	{ "-t", O_VALUE, A_ONE }, { "--tries", O_VALUE, A_ONE },
	{ "-T", O_VALUE, A_ONE }, { "--timeout", O_VALUE, A_ONE },
	{ "-w", O_VALUE, A_ONE }, { "--wait", O_VALUE, A_ONE },
	{ "-Q", O_VALUE, A_ONE }, { "--quota", O_VALUE, A_ONE },
	{ "-l", O_VALUE, A_ONE }, { "--level", O_VALUE, A_ONE },
	{ "-A", O_VALUE, A_ONE }, { "-R", O_VALUE, A_ONE },
	{ "-D", O_VALUE, A_ONE }, { "-I", O_VALUE, A_ONE },
	{ "-X", O_VALUE, A_ONE }, { "-B", O_VALUE, A_ONE },
	{ "--header", O_VALUE, A_ONE }, { "--method", O_VALUE, A_ONE },
	{ "--user", O_VALUE, A_ONE }, { "--password", O_VALUE, A_ONE },
	{ NULL, O_VALUE, A_FLAG }
};
static const struct opt rsync_opts[] = {
	{ "-e", O_VALUE, A_ONE }, { "--rsh", O_VALUE, A_ONE },
	{ "-f", O_VALUE, A_ONE }, { "--filter", O_VALUE, A_ONE },
	{ "-T", O_VALUE, A_ONE }, { "--temp-dir", O_VALUE, A_ONE },
	{ "-B", O_VALUE, A_ONE }, { "--block-size", O_VALUE, A_ONE },
	{ "--exclude", O_VALUE, A_ONE }, { "--include", O_VALUE, A_ONE },
	{ "--exclude-from", O_READ, A_ONE }, { "--include-from", O_READ, A_ONE },
	{ "--files-from", O_READ, A_ONE }, { "--password-file", O_READ, A_ONE },
	{ "--log-file", O_WRITE, A_ONE }, { "--write-batch", O_WRITE, A_ONE },
	{ "--read-batch", O_READ, A_ONE }, { "--backup-dir", O_VALUE, A_ONE },
	{ "--suffix", O_VALUE, A_ONE }, { "--chmod", O_VALUE, A_ONE },
	{ "--chown", O_VALUE, A_ONE }, { "--rsync-path", O_VALUE, A_ONE },
	{ "--port", O_VALUE, A_ONE }, { "--bwlimit", O_VALUE, A_ONE },
	{ "--compare-dest", O_VALUE, A_ONE }, { "--copy-dest", O_VALUE, A_ONE },
	{ "--link-dest", O_VALUE, A_ONE }, { "--partial-dir", O_VALUE, A_ONE },
	{ NULL, O_VALUE, A_FLAG }
};
static const struct opt scp_opts[] = {
	{ "-c", O_VALUE, A_ONE }, { "-F", O_READ, A_ONE },
	{ "-i", O_READ, A_ONE }, { "-J", O_VALUE, A_ONE },
	{ "-l", O_VALUE, A_ONE }, { "-o", O_VALUE, A_ONE },
	{ "-P", O_VALUE, A_ONE }, { "-S", O_VALUE, A_ONE },
	{ "-D", O_VALUE, A_ONE }, { "-X", O_VALUE, A_ONE },
	{ NULL, O_VALUE, A_FLAG }
};
static const struct opt tar_opts[] = {
	{ "-f", O_ARCHIVE, A_ONE }, { "--file", O_ARCHIVE, A_ONE },
	{ "-C", O_CHDIR, A_ONE }, { "--directory", O_CHDIR, A_ONE },
	{ "-T", O_READ, A_ONE }, { "--files-from", O_READ, A_ONE },
	{ "-X", O_READ, A_ONE }, { "--exclude-from", O_READ, A_ONE },
	{ "-b", O_VALUE, A_ONE }, { "--blocking-factor", O_VALUE, A_ONE },
	{ "-N", O_VALUE, A_ONE }, { "--newer", O_VALUE, A_ONE },
	{ "-g", O_VALUE, A_ONE }, { "--listed-incremental", O_VALUE, A_ONE },
	{ "-K", O_VALUE, A_ONE }, { "-L", O_VALUE, A_ONE },
	{ "-V", O_VALUE, A_ONE }, { "-I", O_VALUE, A_ONE },
	{ "--use-compress-program", O_VALUE, A_ONE },
	{ "--exclude", O_VALUE, A_ONE }, { "--transform", O_VALUE, A_ONE },
	{ "--owner", O_VALUE, A_ONE }, { "--group", O_VALUE, A_ONE },
	{ "--mode", O_VALUE, A_ONE }, { "--mtime", O_VALUE, A_ONE },
	{ "-c", O_CREATE, A_FLAG }, { "--create", O_CREATE, A_FLAG },
	{ "-r", O_CREATE, A_FLAG }, { "--append", O_CREATE, A_FLAG },
	{ "-u", O_CREATE, A_FLAG }, { "--update", O_CREATE, A_FLAG },
	{ "-A", O_CREATE, A_FLAG }, { "--catenate", O_CREATE, A_FLAG },
	{ "-x", O_EXTRACT, A_FLAG }, { "--extract", O_EXTRACT, A_FLAG },
	{ "--get", O_EXTRACT, A_FLAG },
	{ "-t", O_EXTRACT, A_FLAG }, { "--list", O_EXTRACT, A_FLAG },
	{ "-d", O_EXTRACT, A_FLAG }, { "--diff", O_EXTRACT, A_FLAG },
	{ NULL, O_VALUE, A_FLAG }
};
static const struct opt zip_opts[] = {
	{ "-b", O_VALUE, A_ONE }, { "-n", O_VALUE, A_ONE },
	{ "-t", O_VALUE, A_ONE }, { "-tt", O_VALUE, A_ONE },
	{ "-O", O_WRITE, A_ONE }, { "--output-file", O_WRITE, A_ONE },
	{ "-P", O_VALUE, A_ONE }, { "--password", O_VALUE, A_ONE },
	{ "-Z", O_VALUE, A_ONE }, { NULL, O_VALUE, A_FLAG }
};
static const struct opt unzip_opts[] = {
	{ "-d", O_VALUE, A_ONE }, { "-P", O_VALUE, A_ONE },
	{ NULL, O_VALUE, A_FLAG }
};
static const struct opt gzip_opts[] = {
	{ "-c", O_KEEP, A_FLAG }, { "--stdout", O_KEEP, A_FLAG },
	{ "--to-stdout", O_KEEP, A_FLAG }, { "-k", O_KEEP, A_FLAG },
	{ "--keep", O_KEEP, A_FLAG }, { "-t", O_KEEP, A_FLAG },
	{ "--test", O_KEEP, A_FLAG }, { "-l", O_KEEP, A_FLAG },
	{ "--list", O_KEEP, A_FLAG },
	{ "-S", O_VALUE, A_ONE }, { "--suffix", O_VALUE, A_ONE },
	{ "-o", O_WRITE, A_ONE }, { "--output", O_WRITE, A_ONE },
	{ "-T", O_VALUE, A_ONE }, { "--threads", O_VALUE, A_ONE },
	{ NULL, O_VALUE, A_FLAG }
};
/* git's global options, and those of the subcommands read here. */
static const struct opt git_opts[] = {
	{ "-C", O_CHDIR, A_ONE }, { "-c", O_VALUE, A_ONE },
	{ "--git-dir", O_VALUE, A_ONE }, { "--work-tree", O_CHDIR, A_ONE },
	{ "--namespace", O_VALUE, A_ONE }, { "--config-env", O_VALUE, A_ONE },
	{ "-s", O_VALUE, A_ONE }, { "--source", O_VALUE, A_ONE },
	{ "-b", O_VALUE, A_ONE }, { "-B", O_VALUE, A_ONE },
	{ "--orphan", O_VALUE, A_ONE }, { "--conflict", O_VALUE, A_ONE },
	{ "--pathspec-from-file", O_READ, A_ONE },
	{ "--cached", O_KEEP, A_FLAG }, { "--staged", O_KEEP, A_FLAG },
	{ "-S", O_KEEP, A_FLAG }, { "--worktree", O_ALL_WRITE, A_FLAG },
	{ "-W", O_ALL_WRITE, A_FLAG },
	{ NULL, O_VALUE, A_FLAG }
};

/* Sorted by name: looked up by binary search (a test checks the order). */
static const struct prog progs[] = {
	{ ".", K_SOURCE, no_opts, 0 },
	{ "ag", K_SCRIPT, ag_opts, 0 },
	{ "awk", K_SCRIPT, awk_opts, P_ASSIGN },
	{ "b2sum", K_READ, no_opts, 0 },
	{ "base32", K_READ, base64_opts, 0 },
	{ "base64", K_READ, base64_opts, 0 },
	{ "bash", K_SHELL, shell_opts, 0 },
	{ "bat", K_READ, no_opts, 0 },
	{ "bunzip2", K_COMPRESS, gzip_opts, 0 },
	{ "bzcat", K_READ, no_opts, 0 },
	{ "bzip2", K_COMPRESS, gzip_opts, 0 },
	{ "cat", K_READ, no_opts, 0 },
	{ "chgrp", K_MODE_WRITE, chmod_opts, 0 },
	{ "chmod", K_MODE_WRITE, chmod_opts, P_MODES },
	{ "chown", K_MODE_WRITE, chmod_opts, 0 },
	{ "cksum", K_READ, no_opts, 0 },
	{ "cmp", K_READ, cmp_opts, 0 },
	{ "comm", K_READ, no_opts, 0 },
	{ "cp", K_COPY, cp_opts, 0 },
	{ "curl", K_OPTIONS, curl_opts, 0 },
	{ "cut", K_READ, cut_opts, 0 },
	{ "dash", K_SHELL, shell_opts, 0 },
	{ "dd", K_DD, no_opts, 0 },
	{ "diff", K_READ, diff_opts, 0 },
	{ "diff3", K_READ, diff_opts, 0 },
	{ "ed", K_WRITE, ed_opts, 0 },
	{ "egrep", K_SCRIPT, grep_opts, 0 },
	{ "emacs", K_WRITE, no_opts, P_PLUS },
	{ "ex", K_WRITE, vim_opts, P_PLUS },
	{ "fgrep", K_SCRIPT, grep_opts, 0 },
	{ "gawk", K_SCRIPT, awk_opts, P_ASSIGN },
	{ "git", K_GIT, git_opts, 0 },
	{ "grep", K_SCRIPT, grep_opts, 0 },
	{ "gsed", K_SCRIPT, sed_opts, 0 },
	{ "gunzip", K_COMPRESS, gzip_opts, 0 },
	{ "gzip", K_COMPRESS, gzip_opts, 0 },
	{ "hd", K_READ, od_opts, 0 },
	{ "head", K_READ, head_opts, 0 },
	{ "hexdump", K_READ, od_opts, 0 },
	{ "iconv", K_READ, iconv_opts, 0 },
	{ "install", K_COPY, install_opts, 0 },
	{ "jq", K_SCRIPT, jq_opts, 0 },
	{ "ksh", K_SHELL, shell_opts, 0 },
	{ "less", K_READ, less_opts, P_PLUS },
	{ "ln", K_LINK, cp_opts, 0 },
	{ "mawk", K_SCRIPT, awk_opts, P_ASSIGN },
	{ "md5sum", K_READ, no_opts, 0 },
	{ "mkdir", K_WRITE, mkdir_opts, 0 },
	{ "mkfifo", K_WRITE, mkdir_opts, 0 },
	{ "more", K_READ, less_opts, P_PLUS },
	{ "mv", K_MOVE, cp_opts, 0 },
	{ "nano", K_WRITE, no_opts, P_PLUS },
	{ "nawk", K_SCRIPT, awk_opts, P_ASSIGN },
	{ "nl", K_READ, no_opts, 0 },
	{ "nvim", K_WRITE, vim_opts, P_PLUS },
	{ "od", K_READ, od_opts, 0 },
	{ "openssl", K_OPENSSL, no_opts, 0 },
	{ "paste", K_READ, cut_opts, 0 },
	{ "patch", K_PATCH, patch_opts, 0 },
	{ "perl", K_PERL, perl_opts, 0 },
	{ "rg", K_SCRIPT, rg_opts, 0 },
	{ "rm", K_WRITE, rm_opts, 0 },
	{ "rmdir", K_WRITE, no_opts, 0 },
	{ "rsync", K_COPY_REMOTE, rsync_opts, 0 },
	{ "scp", K_COPY_REMOTE, scp_opts, 0 },
	{ "sed", K_SCRIPT, sed_opts, 0 },
	{ "sh", K_SHELL, shell_opts, 0 },
	{ "sha1sum", K_READ, no_opts, 0 },
	{ "sha224sum", K_READ, no_opts, 0 },
	{ "sha256sum", K_READ, no_opts, 0 },
	{ "sha384sum", K_READ, no_opts, 0 },
	{ "sha512sum", K_READ, no_opts, 0 },
	{ "shasum", K_READ, no_opts, 0 },
	{ "shred", K_WRITE, shred_opts, 0 },
	{ "sort", K_READ, sort_opts, 0 },
	{ "source", K_SOURCE, no_opts, 0 },
	{ "strings", K_READ, strings_opts, 0 },
	{ "tac", K_READ, no_opts, 0 },
	{ "tail", K_READ, head_opts, P_PLUS },
	{ "tar", K_ARCHIVE, tar_opts, P_OLD_BUNDLE },
	{ "tee", K_WRITE, tee_opts, 0 },
	{ "touch", K_WRITE, touch_opts, 0 },
	{ "truncate", K_WRITE, truncate_opts, 0 },
	{ "uniq", K_IN_OUT, uniq_opts, 0 },
	{ "unlink", K_WRITE, no_opts, 0 },
	{ "unxz", K_COMPRESS, gzip_opts, 0 },
	{ "unzip", K_UNZIP, unzip_opts, 0 },
	{ "unzstd", K_COMPRESS, gzip_opts, 0 },
	{ "vi", K_WRITE, vim_opts, P_PLUS },
	{ "view", K_READ, vim_opts, P_PLUS },
	{ "vim", K_WRITE, vim_opts, P_PLUS },
	{ "wc", K_READ, wc_opts, 0 },
	{ "wget", K_OPTIONS, wget_opts, 0 },
	{ "xxd", K_IN_OUT, xxd_opts, 0 },
	{ "xz", K_COMPRESS, gzip_opts, 0 },
	{ "xzcat", K_READ, no_opts, 0 },
	{ "yq", K_SCRIPT, yq_opts, 0 },
	{ "zcat", K_READ, no_opts, 0 },
	{ "zip", K_ARCHIVE, zip_opts, 0 },
	{ "zsh", K_SHELL, shell_opts, 0 },
	{ "zstd", K_COMPRESS, gzip_opts, 0 },
	{ "zstdcat", K_READ, no_opts, 0 },
};
#define NPROGS	(sizeof(progs) / sizeof(progs[0]))

const char *
sh_target_program(size_t i)
{
	return i < NPROGS ? progs[i].name : NULL;
}

static int
prog_cmp(const void *key, const void *elem)
{
	return strcmp(key, ((const struct prog *)elem)->name);
}

/* ---- the list ------------------------------------------------------------ */

/* One simple command being read. */
struct walk {
	struct sh_targets	*out;
	const struct sh_cmd	*c;
	const struct prog	*p;
	size_t			 budget;	/* bytes joins may still make */
	const char		**ops;		/* operands, in order */
	size_t			 nops;
	size_t			 args_from;	/* operands from here: no files */
	size_t			 dashdash;	/* operands before "--" */
	const char		*dest_dir;	/* -t DIR */
	const char		*chdir;		/* git -C, tar -C, patch -d */
	const char		*archive;	/* tar -f */
	const char		*inplace;	/* how: "sed -i", or NULL */
	bool			 have_script;
	bool			 keep;
	bool			 all_write;
	int			 mode;		/* tar: 1 create, -1 extract */
};

static void
push(struct sh_targets *out, const struct sh_target *t)
{
	if (out->n == out->cap) {
		out->cap = out->cap ? out->cap * 2 : 16;
		out->v = xreallocarray(out->v, out->cap, sizeof(*out->v));
	}
	out->v[out->n++] = *t;
}

/* A word that names no file: "-" (standard input or output), <( ), >( ). */
static bool
no_file(const char *s)
{
	return s[0] == '\0' || strcmp(s, "-") == 0 ||
	    ((s[0] == '<' || s[0] == '>') && s[1] == '(');
}

/*
 * dir/name made in the targets' arena, charged to the budget; NULL when
 * the budget is spent (and the list is then truncated).
 */
static const char *
join(struct walk *w, const char *dir, const char *name)
{
	size_t	dl = strlen(dir), n;

	while (dl > 1 && dir[dl - 1] == '/')
		dl--;
	n = dl + strlen(name) + 2;
	if (n > w->budget) {
		w->out->truncated = true;
		w->budget = 0;
		return NULL;
	}
	w->budget -= n;
	return arena_printf(&w->out->arena, "%.*s/%s", (int)dl, dir, name);
}

static const char *
base_name(const char *s)
{
	const char	*slash;
	size_t		 len = strlen(s);

	/* "dir/" names dir. */
	while (len > 1 && s[len - 1] == '/')
		len--;
	for (slash = s + len; slash > s && slash[-1] != '/'; slash--)
		;
	return slash;
}

/* Adds file, named by `how`, read or written by the current command. */
static void
add(struct walk *w, const char *file, enum sh_access access, const char *how)
{
	struct sh_target	t;

	if (file == NULL || no_file(file))
		return;
	if (w->chdir != NULL && file[0] != '/' && file[0] != '~' &&
	    (file = join(w, w->chdir, file)) == NULL)
		return;
	memset(&t, 0, sizeof(t));
	t.file = file;
	t.wd = w->c->wd;
	t.how = how;
	t.cmd = w->c->text;
	t.access = access;
	push(w->out, &t);
}

/* ---- options --------------------------------------------------------------- */

/*
 * The option named name[0..len) ("-t", "--targ"): an exact long name, or
 * the first of which it is a prefix of at least 3 letters (getopt takes
 * unambiguous abbreviations; a guess at an ambiguous one errs on seeing
 * more).
 */
static const struct opt *
find_opt(const struct opt *opts, const char *name, size_t len)
{
	const struct opt	*o, *prefix = NULL;

	for (o = opts; o->name != NULL; o++) {
		if (strlen(o->name) == len && memcmp(o->name, name, len) == 0)
			return o;
		if (prefix == NULL && name[1] == '-' && len >= 5 &&
		    strncmp(o->name, name, len) == 0)
			prefix = o;
	}
	return prefix;
}

/* A file named in curl's -F NAME=@FILE;type=... or NAME=<FILE. */
static void
form_file(struct walk *w, const char *v, const char *how)
{
	const char	*eq = strchr(v, '=');
	size_t		 n;

	if (eq == NULL || (eq[1] != '@' && eq[1] != '<'))
		return;
	n = strcspn(eq + 2, ";");
	add(w, arena_strndup(&w->out->arena, eq + 2, n), SH_READ, how);
}

/* What an option with its value (or NULL) means for the command. */
static void
apply(struct walk *w, const struct opt *o, const char *v)
{
	const char	*at, *eq;

	switch (o->role) {
	case O_VALUE:
		break;
	case O_READ:
		add(w, v, SH_READ, o->name);
		break;
	case O_WRITE:
		add(w, v, SH_WRITE, o->name);
		break;
	case O_DIR:
		w->dest_dir = v;
		break;
	case O_PROG_FILE:
		add(w, v, SH_READ, o->name);
		/* FALLTHROUGH */
	case O_PROG:
		w->have_script = true;
		break;
	case O_INPLACE:
		w->inplace = arena_printf(&w->out->arena, "%s %s", w->p->name,
		    o->name);
		break;
	case O_INCLUDE:
		if (v != NULL && strcmp(v, "inplace") == 0)
			w->inplace = arena_printf(&w->out->arena,
			    "%s %s inplace", w->p->name, o->name);
		break;
	case O_KEEP:
		w->keep = true;
		break;
	case O_ALL_WRITE:
		w->all_write = true;
		break;
	case O_DATA:
		if (v == NULL)
			break;
		at = strchr(v, '@');
		eq = strchr(v, '=');
		if (at != NULL && (eq == NULL || at < eq))
			add(w, at + 1, SH_READ, o->name);
		break;
	case O_FORM:
		if (v != NULL)
			form_file(w, v, o->name);
		break;
	case O_ARGS:
		w->args_from = w->nops;
		break;
	case O_CHDIR:
		if (v != NULL)
			w->chdir = w->chdir != NULL && v[0] != '/' ?
			    join(w, w->chdir, v) : v;
		break;
	case O_CREATE:
		w->mode = 1;
		break;
	case O_EXTRACT:
		w->mode = -1;
		break;
	case O_ARCHIVE:
		w->archive = v;
		break;
	}
}

/* chmod's symbolic modes that look like options: -w, -rwx, -x,u+w. */
static bool
is_mode(const char *s)
{
	return (s[0] == '-' || s[0] == '+' || s[0] == '=') &&
	    s[1] != '\0' && strspn(s + 1, "rwxXstugoa+-=,0123456789") ==
	    strlen(s + 1);
}

/*
 * A bundle of short options at s (after the '-'); *i is the word's index
 * and moves past the values taken.  old: tar's first word, whose
 * options take their values from the next words in turn.
 */
static void
short_opts(struct walk *w, const char *s, size_t *i, bool old)
{
	const struct sh_cmd	*c = w->c;
	const struct opt	*o;
	char			 name[3] = { '-', 0, 0 };
	const char		*v;

	for (; *s; s++) {
		name[1] = *s;
		if ((o = find_opt(w->p->opts, name, 2)) == NULL)
			continue;			/* a flag */
		switch (o->arity) {
		case A_FLAG:
			apply(w, o, NULL);
			continue;
		case A_ATTACHED:
			apply(w, o, s + 1);
			return;
		case A_ONE:
			if (!old && s[1] != '\0') {
				apply(w, o, s + 1);
				return;
			}
			v = *i + 1 < c->argc ? c->argv[++*i] : NULL;
			apply(w, o, v);
			if (!old)
				return;
			continue;
		case A_TWO:
			if (*i + 2 < c->argc) {
				*i += 2;
				apply(w, o, c->argv[*i]);
			} else
				*i = c->argc;
			return;
		}
	}
}

/* A long option at s ("--name" or "--name=value"). */
static void
long_opt(struct walk *w, const char *s, size_t *i)
{
	const struct sh_cmd	*c = w->c;
	const struct opt	*o;
	const char		*eq = strchr(s, '=');
	size_t			 len = eq ? (size_t)(eq - s) : strlen(s);

	if ((o = find_opt(w->p->opts, s, len)) == NULL)
		return;
	switch (o->arity) {
	case A_FLAG:
		apply(w, o, NULL);
		break;
	case A_ATTACHED:
		apply(w, o, eq ? eq + 1 : NULL);
		break;
	case A_ONE:
		if (eq != NULL)
			apply(w, o, eq + 1);
		else
			apply(w, o, *i + 1 < c->argc ? c->argv[++*i] : NULL);
		break;
	case A_TWO:
		if (*i + 2 < c->argc) {
			*i += 2;
			apply(w, o, c->argv[*i]);
		} else
			*i = c->argc;
		break;
	}
}

/* Reads the options of the command and collects its operands. */
static void
read_words(struct walk *w)
{
	const struct sh_cmd	*c = w->c;
	const char		*s;
	size_t			 i;
	bool			 opts_done = false;

	w->ops = xcalloc(c->argc, sizeof(*w->ops));
	w->args_from = w->dashdash = c->argc;
	for (i = 1; i < c->argc; i++) {
		s = c->argv[i];
		if (!opts_done && strcmp(s, "--") == 0) {
			opts_done = true;
			w->dashdash = w->nops;
			continue;
		}
		if (!opts_done && i == 1 && (w->p->flags & P_OLD_BUNDLE) &&
		    s[0] != '-') {
			short_opts(w, s, &i, true);
			continue;
		}
		if (opts_done || s[0] != '-' || s[1] == '\0' ||
		    ((w->p->flags & P_MODES) && is_mode(s))) {
			if (!opts_done && s[0] == '+' && (w->p->flags & P_PLUS))
				continue;
			w->ops[w->nops++] = s;
			continue;
		}
		if (s[1] == '-')
			long_opt(w, s, &i);
		else
			short_opts(w, s + 1, &i, false);
	}
	if (w->args_from > w->nops)
		w->args_from = w->nops;
	if (w->dashdash > w->nops)
		w->dashdash = w->nops;
}

/* ---- programs ------------------------------------------------------------- */

/*
 * cp, mv, install, ln (and git mv) on operands ops[from..n): the
 * destination written, and what each source becomes in it when it is a
 * directory (cp a b DIR: DIR/a, DIR/b); the sources read (cp, install),
 * or moved away (mv).  `dest` and `src` say so for explain.
 */
static void
copy_like(struct walk *w, size_t from, size_t n, enum kind kind,
    const char *dest_how, const char *src_how)
{
	const char	*dest = w->dest_dir, *f;
	size_t		 k;

	if (dest == NULL) {
		if (n <= from)
			return;
		if (n == from + 1) {
			/* ln TARGET: the link is made here, by its name. */
			if (kind == K_LINK)
				add(w, base_name(w->ops[from]), SH_WRITE,
				    dest_how);
			return;
		}
		dest = w->ops[--n];
	}
	add(w, dest, SH_WRITE, dest_how);
	for (k = from; k < n; k++) {
		if (no_file(w->ops[k]))
			continue;
		if ((f = join(w, dest, base_name(w->ops[k]))) != NULL)
			add(w, f, SH_WRITE, dest_how);
		if (kind == K_MOVE)
			add(w, w->ops[k], SH_WRITE, src_how);
		else if (kind != K_LINK)
			add(w, w->ops[k], SH_READ, src_how);
	}
}

/* A local path of scp or rsync: not HOST:PATH. */
static bool
is_local(const char *s)
{
	const char	*colon = strchr(s, ':'), *slash = strchr(s, '/');

	return colon == NULL || (slash != NULL && slash < colon);
}

/*
 * tar: with -c, -r, -u the archive is written and the files read; with
 * -x, -t, -d the archive is read (what -x writes is in the archive, out
 * of sight).  zip: the archive, then the files read.
 */
static void
archive(struct walk *w)
{
	size_t	k, from = 0, n = w->args_from;

	if (w->p->name[0] == 'z') {
		if (n == 0)
			return;
		add(w, w->ops[0], SH_WRITE, "zip archive");
		for (k = 1; k < n; k++)
			add(w, w->ops[k], SH_READ, "zip");
		return;
	}
	add(w, w->archive, w->mode > 0 ? SH_WRITE : SH_READ, "tar -f");
	if (w->mode > 0)
		for (k = from; k < n; k++)
			add(w, w->ops[k], SH_READ, "tar");
}

/*
 * git: restore and checkout write the paths they name (checkout's
 * operands after "--", or all of them without it: a branch name then
 * counts too), rm deletes them (not with --cached), mv moves them.
 * operand 0 is the subcommand.
 */
static void
git(struct walk *w)
{
	const char	*sub;
	size_t		 k, from = 1, n = w->args_from;

	if (n == 0)
		return;
	sub = w->ops[0];
	if (strcmp(sub, "restore") == 0) {
		if (w->keep && !w->all_write)
			return;			/* --staged: the index only */
	} else if (strcmp(sub, "checkout") == 0) {
		if (w->dashdash > 0 && w->dashdash < n)
			from = w->dashdash;
	} else if (strcmp(sub, "rm") == 0) {
		if (w->keep)
			return;			/* --cached */
	} else if (strcmp(sub, "mv") == 0) {
		copy_like(w, 1, n, K_MOVE, "git mv destination",
		    "git mv source");
		return;
	} else
		return;
	for (k = from; k < n; k++)
		add(w, w->ops[k], SH_WRITE, sub[0] == 'r' && sub[1] == 'm' ?
		    "git rm" : sub[0] == 'r' ? "git restore" : "git checkout");
}

/* openssl's one-dash options: -in FILE read, -out FILE written. */
static void
openssl(struct walk *w)
{
	static const char *const reads[] = {
		"-in", "-inkey", "-key", "-kfile", "-certfile", "-CAfile",
		"-signkey", "-keyfile", "-infiles", NULL
	};
	static const char *const writes[] = { "-out", "-keyout", NULL };
	const struct sh_cmd	*c = w->c;
	size_t			 i, k;

	for (i = 1; i + 1 < c->argc; i++) {
		for (k = 0; reads[k] != NULL; k++)
			if (strcmp(c->argv[i], reads[k]) == 0)
				add(w, c->argv[i + 1], SH_READ, reads[k]);
		for (k = 0; writes[k] != NULL; k++)
			if (strcmp(c->argv[i], writes[k]) == 0)
				add(w, c->argv[i + 1], SH_WRITE, writes[k]);
	}
}

/* The targets of the program of w->c, from its operands and options. */
static void
program(struct walk *w)
{
	const struct prog	*p = w->p;
	const char		*s, *how = p->name;
	size_t			 k, first, n;

	if (p->kind == K_OPENSSL) {
		openssl(w);
		return;
	}
	read_words(w);
	n = w->args_from;
	switch (p->kind) {
	case K_WRITE:
		for (k = 0; k < n; k++)
			add(w, w->ops[k], SH_WRITE, how);
		break;
	case K_READ:
		for (k = 0; k < n; k++)
			add(w, w->ops[k], SH_READ, how);
		break;
	case K_MODE_WRITE:
		/* chmod MODE FILE..., unless --reference gave the mode. */
		for (k = w->have_script ? 0 : 1; k < n; k++)
			add(w, w->ops[k], SH_WRITE, how);
		break;
	case K_COPY:
		if (w->all_write) {
			for (k = 0; k < n; k++)
				add(w, w->ops[k], SH_WRITE, "install -d");
			break;
		}
		if (p->name[0] == 'c')
			copy_like(w, 0, n, K_COPY, "cp destination",
			    "cp source");
		else
			copy_like(w, 0, n, K_COPY, "install destination",
			    "install source");
		break;
	case K_MOVE:
		copy_like(w, 0, n, K_MOVE, "mv destination", "mv source");
		break;
	case K_LINK:
		copy_like(w, 0, n, K_LINK, "ln link", NULL);
		break;
	case K_DD:
		for (k = 0; k < n; k++) {
			s = w->ops[k];
			if (strncmp(s, "of=", 3) == 0)
				add(w, s + 3, SH_WRITE, "dd of=");
			else if (strncmp(s, "if=", 3) == 0)
				add(w, s + 3, SH_READ, "dd if=");
		}
		break;
	case K_SCRIPT:
		for (k = w->have_script ? 0 : 1; k < n; k++) {
			s = w->ops[k];
			if ((p->flags & P_ASSIGN) && strchr(s, '=') != NULL &&
			    strchr(s, '/') == NULL)
				continue;
			if (w->inplace != NULL)
				add(w, s, SH_WRITE, w->inplace);
			else
				add(w, s, SH_READ, how);
		}
		break;
	case K_PERL:
		first = 0;
		if (!w->have_script && n > 0) {
			add(w, w->ops[0], SH_READ, "perl script");
			first = 1;
		}
		/* Without -e, the script's arguments mean what it makes them. */
		for (k = first; k < n; k++)
			if (w->inplace != NULL)
				add(w, w->ops[k], SH_WRITE, w->inplace);
			else if (w->have_script)
				add(w, w->ops[k], SH_READ, how);
		break;
	case K_SOURCE:
		if (n > 0)
			add(w, w->ops[0], SH_READ, how);
		break;
	case K_SHELL:
		if (!w->have_script && n > 0)
			add(w, w->ops[0], SH_READ, "shell script");
		break;
	case K_IN_OUT:
		if (n > 0)
			add(w, w->ops[0], SH_READ, how);
		if (n > 1)
			add(w, w->ops[1], SH_WRITE, how);
		break;
	case K_PATCH:
		if (n > 0)
			add(w, w->ops[0], SH_WRITE, how);
		if (n > 1)
			add(w, w->ops[1], SH_READ, "patch file");
		break;
	case K_COPY_REMOTE:
		if (n < 2)
			break;
		for (k = 0; k + 1 < n; k++)
			if (is_local(w->ops[k]))
				add(w, w->ops[k], SH_READ, how);
		if (is_local(w->ops[n - 1]))
			add(w, w->ops[n - 1], SH_WRITE, how);
		break;
	case K_ARCHIVE:
		archive(w);
		break;
	case K_UNZIP:
		if (n > 0)
			add(w, w->ops[0], SH_READ, how);
		break;
	case K_COMPRESS:
		for (k = 0; k < n; k++)
			add(w, w->ops[k], w->keep ? SH_READ : SH_WRITE, how);
		break;
	case K_GIT:
		git(w);
		break;
	case K_OPTIONS:
	case K_OPENSSL:
		break;
	}
	free(w->ops);
}

/* ---- the script -------------------------------------------------------- */

/* A redirection: < and <& read, <> both, the others write. */
static void
redirection(struct sh_targets *out, const char *target, const char *op,
    const char *wd, const char *cmd)
{
	struct sh_target	t;

	if (no_file(target))
		return;
	memset(&t, 0, sizeof(t));
	t.file = target;
	t.wd = wd;
	t.how = op;
	t.redirect = true;
	t.cmd = cmd;
	t.access = op[0] == '<' ? SH_READ : SH_WRITE;
	push(out, &t);
	if (strcmp(op, "<>") == 0) {
		t.access = SH_WRITE;
		push(out, &t);
	}
}

/*
 * What joins may make: as much as the tokenizer may (shellwords_priv.h,
 * SH_WORK_BASE and SH_WORK_PER_BYTE) for the text of the commands.
 */
#define TARGETS_WORK_BASE	(1u << 20)
#define TARGETS_WORK_PER_BYTE	8

void
sh_targets_collect(const struct sh_script *sc, struct sh_targets *out)
{
	const struct sh_cmd	*c;
	struct walk		 w;
	size_t			 i, k, text = 0;

	memset(out, 0, sizeof(*out));
	arena_init(&out->arena);
	for (i = 0; i < sc->n; i++)
		text += strlen(sc->cmds[i].text);
	memset(&w, 0, sizeof(w));
	w.budget = TARGETS_WORK_BASE + (text > (SIZE_MAX - TARGETS_WORK_BASE) /
	    TARGETS_WORK_PER_BYTE ? SIZE_MAX - TARGETS_WORK_BASE :
	    text * TARGETS_WORK_PER_BYTE);
	for (i = 0; i < sc->n; i++) {
		c = &sc->cmds[i];
		for (k = 0; k < c->nredirects; k++)
			redirection(out, c->redirects[k], c->redirect_ops[k],
			    c->wd, c->text);
		w.p = bsearch(c->program, progs, NPROGS, sizeof(progs[0]),
		    prog_cmp);
		if (w.p == NULL)
			continue;
		w.out = out;
		w.c = c;
		w.ops = NULL;
		w.nops = 0;
		w.dest_dir = w.chdir = w.archive = w.inplace = NULL;
		w.have_script = w.keep = w.all_write = false;
		w.mode = 0;
		program(&w);
	}
	for (i = 0; i < sc->nloose; i++)
		redirection(out, sc->loose[i].target, sc->loose[i].op,
		    sc->loose[i].wd, NULL);
}

void
sh_targets_release(struct sh_targets *t)
{
	free(t->v);
	arena_release(&t->arena);
	memset(t, 0, sizeof(*t));
}
