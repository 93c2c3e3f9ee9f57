/*
 * The programs whose arguments shelltargets.c understands, and their
 * options (shelltargets_priv.h): data only, and its lookup.
 */
#include <stdlib.h>
#include <string.h>

#include "shelltargets.h"
#include "shelltargets_priv.h"

/* ---- options of the programs -------------------------------------------- */

static const struct opt no_opts[] = { { "", O_VALUE, A_FLAG } };

static const struct opt cp_opts[] = {
	{ "-t", O_DIR, A_ONE }, { "--target-directory", O_DIR, A_ONE },
	{ "-S", O_VALUE, A_ONE }, { "--suffix", O_VALUE, A_ONE },
	{ "--backup", O_VALUE, A_ATTACHED },
	{ "--reflink", O_VALUE, A_ATTACHED },
	{ "--sparse", O_VALUE, A_ONE }, { "--preserve", O_VALUE, A_ATTACHED },
	{ "--no-preserve", O_VALUE, A_ONE }, { "--context", O_VALUE, A_ATTACHED },
	{ "", O_VALUE, A_FLAG }
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
	{ "", O_VALUE, A_FLAG }
};
static const struct opt tee_opts[] = {
	{ "--output-error", O_VALUE, A_ATTACHED }, { "", O_VALUE, A_FLAG }
};
static const struct opt rm_opts[] = {
	{ "--interactive", O_VALUE, A_ATTACHED }, { "", O_VALUE, A_FLAG }
};
static const struct opt shred_opts[] = {
	{ "-n", O_VALUE, A_ONE }, { "--iterations", O_VALUE, A_ONE },
	{ "-s", O_VALUE, A_ONE }, { "--size", O_VALUE, A_ONE },
	{ "--random-source", O_READ, A_ONE },
	{ "--remove", O_VALUE, A_ATTACHED },
	{ "", O_VALUE, A_FLAG }
};
static const struct opt truncate_opts[] = {
	{ "-s", O_VALUE, A_ONE }, { "--size", O_VALUE, A_ONE },
	{ "-r", O_READ, A_ONE }, { "--reference", O_READ, A_ONE },
	{ "", O_VALUE, A_FLAG }
};
static const struct opt touch_opts[] = {
	{ "-d", O_VALUE, A_ONE }, { "--date", O_VALUE, A_ONE },
	{ "-t", O_VALUE, A_ONE }, { "--time", O_VALUE, A_ONE },
	{ "-r", O_READ, A_ONE }, { "--reference", O_READ, A_ONE },
	{ "", O_VALUE, A_FLAG }
};
static const struct opt mkdir_opts[] = {
	{ "-m", O_VALUE, A_ONE }, { "--mode", O_VALUE, A_ONE },
	{ "--context", O_VALUE, A_ATTACHED }, { "", O_VALUE, A_FLAG }
};
static const struct opt chmod_opts[] = {
	{ "--reference", O_PROG_FILE, A_ONE }, { "--from", O_VALUE, A_ONE },
	{ "", O_VALUE, A_FLAG }
};
static const struct opt sed_opts[] = {
	{ "-e", O_PROG, A_ONE }, { "--expression", O_PROG, A_ONE },
	{ "-f", O_PROG_FILE, A_ONE }, { "--file", O_PROG_FILE, A_ONE },
	{ "-i", O_INPLACE, A_ATTACHED }, { "--in-place", O_INPLACE, A_ATTACHED },
	{ "-l", O_VALUE, A_ONE }, { "--line-length", O_VALUE, A_ONE },
	{ "", O_VALUE, A_FLAG }
};
static const struct opt perl_opts[] = {
	{ "-e", O_PROG, A_ONE }, { "-E", O_PROG, A_ONE },
	{ "-i", O_INPLACE, A_ATTACHED }, { "-I", O_VALUE, A_ONE },
	{ "-M", O_VALUE, A_ONE }, { "-m", O_VALUE, A_ONE },
	{ "-0", O_VALUE, A_ATTACHED }, { "-l", O_VALUE, A_ATTACHED },
	{ "-F", O_VALUE, A_ATTACHED }, { "-C", O_VALUE, A_ATTACHED },
	{ "-d", O_VALUE, A_ATTACHED }, { "-D", O_VALUE, A_ATTACHED },
	{ "-x", O_VALUE, A_ATTACHED }, { "-V", O_VALUE, A_ATTACHED },
	{ "", O_VALUE, A_FLAG }
};
static const struct opt awk_opts[] = {
	{ "-f", O_PROG_FILE, A_ONE }, { "--file", O_PROG_FILE, A_ONE },
	{ "-E", O_PROG_FILE, A_ONE }, { "--exec", O_PROG_FILE, A_ONE },
	{ "-v", O_VALUE, A_ONE }, { "--assign", O_VALUE, A_ONE },
	{ "-F", O_VALUE, A_ONE }, { "--field-separator", O_VALUE, A_ONE },
	{ "-i", O_INCLUDE, A_ONE }, { "--include", O_INCLUDE, A_ONE },
	{ "-l", O_VALUE, A_ONE }, { "--load", O_VALUE, A_ONE },
	{ "", O_VALUE, A_FLAG }
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
	{ "", O_VALUE, A_FLAG }
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
	{ "", O_VALUE, A_FLAG }
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
	{ "", O_VALUE, A_FLAG }
};
static const struct opt jq_opts[] = {
	{ "-f", O_PROG_FILE, A_ONE }, { "--from-file", O_PROG_FILE, A_ONE },
	{ "--arg", O_VALUE, A_TWO }, { "--argjson", O_VALUE, A_TWO },
	{ "--slurpfile", O_READ, A_TWO }, { "--rawfile", O_READ, A_TWO },
	{ "--args", O_ARGS, A_FLAG }, { "--jsonargs", O_ARGS, A_FLAG },
	{ "-L", O_VALUE, A_ONE }, { "--indent", O_VALUE, A_ONE },
	{ "", O_VALUE, A_FLAG }
};
static const struct opt yq_opts[] = {
	{ "-i", O_INPLACE, A_FLAG }, { "--inplace", O_INPLACE, A_FLAG },
	{ "--from-file", O_PROG_FILE, A_ONE },
	{ "-o", O_VALUE, A_ONE }, { "--output-format", O_VALUE, A_ONE },
	{ "-p", O_VALUE, A_ONE }, { "--input-format", O_VALUE, A_ONE },
	{ "-I", O_VALUE, A_ONE }, { "--indent", O_VALUE, A_ONE },
	{ "--arg", O_VALUE, A_TWO }, { "--argjson", O_VALUE, A_TWO },
	{ "", O_VALUE, A_FLAG }
};
static const struct opt head_opts[] = {
	{ "-n", O_VALUE, A_ONE }, { "--lines", O_VALUE, A_ONE },
	{ "-c", O_VALUE, A_ONE }, { "--bytes", O_VALUE, A_ONE },
	{ "-s", O_VALUE, A_ONE }, { "--sleep-interval", O_VALUE, A_ONE },
	{ "--pid", O_VALUE, A_ONE }, { "--max-unchanged-stats", O_VALUE, A_ONE },
	{ "--follow", O_VALUE, A_ATTACHED },
	{ "", O_VALUE, A_FLAG }
};
static const struct opt less_opts[] = {
	{ "-b", O_VALUE, A_ONE }, { "-h", O_VALUE, A_ONE },
	{ "-j", O_VALUE, A_ONE }, { "-k", O_READ, A_ONE },
	{ "-o", O_WRITE, A_ONE }, { "-O", O_WRITE, A_ONE },
	{ "-p", O_VALUE, A_ONE }, { "-P", O_VALUE, A_ONE },
	{ "-t", O_VALUE, A_ONE }, { "-T", O_READ, A_ONE },
	{ "-x", O_VALUE, A_ONE }, { "-y", O_VALUE, A_ONE },
	{ "-z", O_VALUE, A_ONE }, { "-#", O_VALUE, A_ONE },
	{ "", O_VALUE, A_FLAG }
};
static const struct opt od_opts[] = {
	{ "-A", O_VALUE, A_ONE }, { "-j", O_VALUE, A_ONE },
	{ "-N", O_VALUE, A_ONE }, { "-S", O_VALUE, A_ONE },
	{ "-t", O_VALUE, A_ONE }, { "-w", O_VALUE, A_ATTACHED },
	{ "-e", O_VALUE, A_ONE }, { "-f", O_READ, A_ONE },
	{ "-n", O_VALUE, A_ONE }, { "-s", O_VALUE, A_ONE },
	{ "", O_VALUE, A_FLAG }
};
static const struct opt strings_opts[] = {
	{ "-n", O_VALUE, A_ONE }, { "--bytes", O_VALUE, A_ONE },
	{ "-t", O_VALUE, A_ONE }, { "--radix", O_VALUE, A_ONE },
	{ "-e", O_VALUE, A_ONE }, { "--encoding", O_VALUE, A_ONE },
	{ "", O_VALUE, A_FLAG }
};
static const struct opt base64_opts[] = {
	{ "-w", O_VALUE, A_ONE }, { "--wrap", O_VALUE, A_ONE },
	{ "-b", O_VALUE, A_ONE }, { "--base", O_VALUE, A_ATTACHED },
	{ "-i", O_READ, A_ONE }, { "--input", O_READ, A_ONE },
	{ "-o", O_WRITE, A_ONE }, { "--output", O_WRITE, A_ONE },
	{ "", O_VALUE, A_FLAG }
};
static const struct opt wc_opts[] = {
	{ "--files0-from", O_READ, A_ONE }, { "", O_VALUE, A_FLAG }
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
	{ "", O_VALUE, A_FLAG }
};
static const struct opt cmp_opts[] = {
	{ "-i", O_VALUE, A_ONE }, { "--ignore-initial", O_VALUE, A_ONE },
	{ "-n", O_VALUE, A_ONE }, { "--bytes", O_VALUE, A_ONE },
	{ "", O_VALUE, A_FLAG }
};
static const struct opt cut_opts[] = {
	{ "-b", O_VALUE, A_ONE }, { "--bytes", O_VALUE, A_ONE },
	{ "-c", O_VALUE, A_ONE }, { "--characters", O_VALUE, A_ONE },
	{ "-d", O_VALUE, A_ONE }, { "--delimiter", O_VALUE, A_ONE },
	{ "-f", O_VALUE, A_ONE }, { "--fields", O_VALUE, A_ONE },
	{ "--output-delimiter", O_VALUE, A_ONE },
	{ "", O_VALUE, A_FLAG }
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
	{ "", O_VALUE, A_FLAG }
};
static const struct opt uniq_opts[] = {
	{ "-f", O_VALUE, A_ONE }, { "--skip-fields", O_VALUE, A_ONE },
	{ "-s", O_VALUE, A_ONE }, { "--skip-chars", O_VALUE, A_ONE },
	{ "-w", O_VALUE, A_ONE }, { "--check-chars", O_VALUE, A_ONE },
	{ "--all-repeated", O_VALUE, A_ATTACHED },
	{ "--group", O_VALUE, A_ATTACHED },
	{ "", O_VALUE, A_FLAG }
};
static const struct opt xxd_opts[] = {
	{ "-c", O_VALUE, A_ONE }, { "-g", O_VALUE, A_ONE },
	{ "-l", O_VALUE, A_ONE }, { "-o", O_VALUE, A_ONE },
	{ "-s", O_VALUE, A_ONE }, { "-n", O_VALUE, A_ONE },
	{ "-cols", O_VALUE, A_ONE }, { "-len", O_VALUE, A_ONE },
	{ "-seek", O_VALUE, A_ONE },
	{ "", O_VALUE, A_FLAG }
};
static const struct opt iconv_opts[] = {
	{ "-f", O_VALUE, A_ONE }, { "--from-code", O_VALUE, A_ONE },
	{ "-t", O_VALUE, A_ONE }, { "--to-code", O_VALUE, A_ONE },
	{ "-o", O_WRITE, A_ONE }, { "--output", O_WRITE, A_ONE },
	{ "", O_VALUE, A_FLAG }
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
	{ "", O_VALUE, A_FLAG }
};
static const struct opt vim_opts[] = {
	{ "-c", O_VALUE, A_ONE }, { "--cmd", O_VALUE, A_ONE },
	{ "-S", O_READ, A_ONE }, { "-u", O_READ, A_ONE }, { "-U", O_READ, A_ONE },
	{ "-T", O_VALUE, A_ONE }, { "-i", O_VALUE, A_ONE },
	{ "-w", O_WRITE, A_ONE }, { "-W", O_WRITE, A_ONE },
	{ "-s", O_READ, A_ONE }, { "-t", O_VALUE, A_ONE },
	{ "-q", O_VALUE, A_ONE },
	{ "", O_VALUE, A_FLAG }
};
static const struct opt ed_opts[] = {
	{ "-p", O_VALUE, A_ONE }, { "--prompt", O_VALUE, A_ONE },
	{ "", O_VALUE, A_FLAG }
};
static const struct opt shell_opts[] = {
	{ "-c", O_PROG, A_FLAG }, { "-o", O_VALUE, A_ONE },
	{ "-O", O_VALUE, A_ONE }, { "--rcfile", O_READ, A_ONE },
	{ "--init-file", O_READ, A_ONE },
	{ "", O_VALUE, A_FLAG }
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
	{ "", O_VALUE, A_FLAG }
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
	{ "", O_VALUE, A_FLAG }
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
	{ "", O_VALUE, A_FLAG }
};
static const struct opt scp_opts[] = {
	{ "-c", O_VALUE, A_ONE }, { "-F", O_READ, A_ONE },
	{ "-i", O_READ, A_ONE }, { "-J", O_VALUE, A_ONE },
	{ "-l", O_VALUE, A_ONE }, { "-o", O_VALUE, A_ONE },
	{ "-P", O_VALUE, A_ONE }, { "-S", O_VALUE, A_ONE },
	{ "-D", O_VALUE, A_ONE }, { "-X", O_VALUE, A_ONE },
	{ "", O_VALUE, A_FLAG }
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
	{ "", O_VALUE, A_FLAG }
};
static const struct opt zip_opts[] = {
	{ "-b", O_VALUE, A_ONE }, { "-n", O_VALUE, A_ONE },
	{ "-t", O_VALUE, A_ONE }, { "-tt", O_VALUE, A_ONE },
	{ "-O", O_WRITE, A_ONE }, { "--output-file", O_WRITE, A_ONE },
	{ "-P", O_VALUE, A_ONE }, { "--password", O_VALUE, A_ONE },
	{ "-Z", O_VALUE, A_ONE }, { "", O_VALUE, A_FLAG }
};
static const struct opt unzip_opts[] = {
	{ "-d", O_VALUE, A_ONE }, { "-P", O_VALUE, A_ONE },
	{ "", O_VALUE, A_FLAG }
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
	{ "", O_VALUE, A_FLAG }
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
	{ "", O_VALUE, A_FLAG }
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

const struct prog *
sh_prog_find(const char *name)
{
	return bsearch(name, progs, NPROGS, sizeof(progs[0]), prog_cmp);
}
