/*
 * The compiled cache file (see cache.h).  Layout, native-endian:
 *
 *   header   "RRCACHE\x1a", u32 format, u32 byte-order mark, u32 word
 *            sizes, u32 header length, u64 file length, u64 header
 *            checksum, u32 rules, files, regex slots, chunks, chunk size;
 *            at 64, seven section references (u32 offset, u32 length,
 *            u64 checksum): identity, manifest, files, diagnostics,
 *            prefilter index, rule table, chunk table; at 192, the
 *            stamp: u64 inode, i64 and u32 modification time (seconds,
 *            nanoseconds), u32 1 (or all zero: no stamp)
 *   identity engine version, PCRE2 version, key (checksummed)
 *   manifest manifest.h's encoding (checksummed)
 *   files    the rule files' names, those that declare on_error:
 *            deny, whether the project is trusted (checksummed)
 *   diags    the load diagnostics, in order (checksummed)
 *   index    prefilter.h's bytes (checksummed inside, per bucket)
 *   rules    per rule: u32 offset, u32 length, u64 checksum of its body
 *   chunks   per chunk of regexes: the same, of its serialized patterns
 *   bodies   cache_rule.h's encoding, each starting with its number
 *   chunk data: u32 chunk number, u32 count, pcre2_serialize_encode()
 *
 * The rule and chunk tables are not checksummed as a whole: each entry
 * checks itself (a bad offset, length or checksum fails the body's
 * check), so a call reads only the entries it needs.
 *
 * The stamp is the file's identity as written (fileio.h): the writer
 * checksums everything, and the inode and modification time it gives
 * the file say, from the fstat() every open makes anyway, that nobody
 * has written to it since (any write, truncation or copy changes one of
 * them, or the size).  What a call reads in full (the header, the
 * identity, manifest, file list and diagnostics) and the rules and regex
 * chunks it decodes (PCRE2 trusts what it deserializes) are checksummed
 * on every call; the prefilter index, of which a call reads a few pages
 * but would have to checksum whole buckets, is trusted on the stamp.  A
 * file whose stamp does not hold was changed, and is refused and built
 * again.  A file without a stamp (a file system that does not keep the
 * time to the nanosecond) has its index checksummed as it is read.
 * Every offset is bounds-checked: bits that rot under the file system,
 * or a crafted file that forges a stamp (as it could forge checksums),
 * can change which rules an event reaches, as an edit of the rule files
 * themselves could, but cannot crash the reader.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bytes.h"
#include "cache.h"
#include "cache_priv.h"
#include "cache_rule.h"
#include "checksum.h"
#include "fileio.h"
#include "match_re.h"
#include "xmalloc.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "0.0.0"
#endif

/* ---- the mapped file, as the ruleset's lazy supplier -------------------- */

struct cache_view {
	struct ruleset_lazy	 lazy;		/* rs->lazy points here */
	struct rr_regex_source	 rsrc;
	const unsigned char	*map;
	size_t			 size;
	struct ruleset		 owner;		/* decoded rules' memory */
	struct cache_decode_ctx	 ctx;
	const char		**files;
	struct fail_closed_file	*fc;		/* until handed to the ruleset */
	size_t			 nfc;
	uint32_t		 nrules, nslots, nchunks, chunk_size;
	struct sref		 sec[S__COUNT];
	void			***codes;	/* per chunk, once decoded */
	unsigned char		*chunk_state;	/* 0 new, 1 decoded, 2 bad */
	bool			 corrupt;
	bool			 intact;	/* the stamp holds */
};

static struct cache_view *
view_of_lazy(struct ruleset_lazy *l)
{
	return (struct cache_view *)(void *)((char *)l -
	    offsetof(struct cache_view, lazy));
}

static struct cache_view *
view_of_rsrc(struct rr_regex_source *s)
{
	return (struct cache_view *)(void *)((char *)s -
	    offsetof(struct cache_view, rsrc));
}

/* A table entry (offset, length, checksum) whose bytes check out. */
static const unsigned char *
table_entry(const struct cache_view *v, enum section sec, uint32_t i,
    size_t *len)
{
	struct rd	r;
	uint32_t	off, n;
	uint64_t	sum;

	if ((uint64_t)i * 16 + 16 > v->sec[sec].len)
		return NULL;
	rd_init(&r, v->map + v->sec[sec].off + (size_t)i * 16, 16);
	off = rd_u32(&r);
	n = rd_u32(&r);
	sum = rd_u64(&r);
	if (off < CACHE_HEADER || off > v->size || n > v->size - off ||
	    rr_checksum(v->map + off, n) != sum)
		return NULL;
	*len = n;
	return v->map + off;
}

static struct rule *
view_rule(struct ruleset_lazy *l, size_t i)
{
	struct cache_view	*v = view_of_lazy(l);
	const unsigned char	*p;
	struct rule		*r = NULL;
	size_t			 len;

	if (!v->corrupt && i < v->nrules &&
	    (p = table_entry(v, S_RULES, (uint32_t)i, &len)) != NULL)
		r = cache_rule_decode(p, len, (uint32_t)i, &v->ctx);
	if (r == NULL)
		v->corrupt = true;
	return r;
}

/* Decodes chunk c of the serialized patterns; false when unusable. */
static bool
decode_chunk(struct cache_view *v, uint32_t c)
{
	const unsigned char	*p;
	struct rd		 r;
	size_t			 len, count;

	count = v->nslots - (size_t)c * v->chunk_size;
	if (count > v->chunk_size)
		count = v->chunk_size;
	p = table_entry(v, S_CHUNKS, c, &len);
	if (p == NULL || len < 8)
		return false;
	rd_init(&r, p, len);
	if (rd_u32(&r) != c || rd_u32(&r) != count)
		return false;
	v->codes[c] = xcalloc(count, sizeof(void *));
	if (rr_regex_decode(r.p, len - 8, count, v->codes[c]) < 0) {
		free(v->codes[c]);
		v->codes[c] = NULL;
		return false;
	}
	return true;
}

/* Hands a decoded pattern to its lazy regex; NULL: compile the source. */
static void *
view_take(struct rr_regex_source *s, size_t slot)
{
	struct cache_view	*v = view_of_rsrc(s);
	uint32_t		 c;
	void			*code;

	if (v->chunk_size == 0 || slot >= v->nslots)
		return NULL;
	c = (uint32_t)(slot / v->chunk_size);
	if (v->chunk_state[c] == 0)
		v->chunk_state[c] = decode_chunk(v, c) ? 1 : 2;
	if (v->chunk_state[c] != 1)
		return NULL;
	code = v->codes[c][slot % v->chunk_size];
	v->codes[c][slot % v->chunk_size] = NULL;
	return code;
}

static void
view_free(struct ruleset_lazy *l)
{
	struct cache_view	*v = view_of_lazy(l);
	size_t			 c, i, count;

	/* Regexes first: they own the codes they took. */
	ruleset_release(&v->owner);
	for (c = 0; v->codes != NULL && c < v->nchunks; c++) {
		if (v->codes[c] == NULL)
			continue;
		count = v->nslots - c * v->chunk_size;
		if (count > v->chunk_size)
			count = v->chunk_size;
		for (i = 0; i < count; i++)
			if (v->codes[c][i] != NULL)
				rr_regex_code_free(v->codes[c][i]);
		free(v->codes[c]);
	}
	free(v->codes);
	free(v->chunk_state);
	free(v->files);
	free(v->fc);
	munmap((void *)v->map, v->size);
	free(v);
}

void
cache_skip_tests(struct ruleset *rs)
{
	if (rs->lazy != NULL && rs->lazy->free == view_free)
		view_of_lazy(rs->lazy)->ctx.skip_tests = true;
}

/* ---- identity and key ------------------------------------------------- */

const struct cache_identity *
cache_identity_current(void)
{
	static struct cache_identity	id;

	id.engine = PACKAGE_VERSION;
	id.pcre2 = rr_regex_version();
	return &id;
}

char *
cache_key(const char *request, const struct cache_identity *id)
{
	struct buf	 b;
	struct stat	 st;

	/* Without printf, as all of a hook's common path (buf.h). */
	buf_init(&b);
	buf_adds(&b, "reflexion-rules cache\nformat ");
	buf_add_u64(&b, CACHE_FORMAT, 0);
	buf_adds(&b, "\nengine ");
	buf_adds(&b, id->engine);
	buf_adds(&b, "\npcre2 ");
	buf_adds(&b, id->pcre2);
	buf_adds(&b, "\nword ");
	buf_add_u64(&b, sizeof(void *), 0);
	buf_addc(&b, '\n');
	/*
	 * The binary itself: a rebuilt engine with the same version gets its
	 * own cache (two binaries in use never fight over one file).
	 */
	if (stat("/proc/self/exe", &st) == 0) {
		buf_adds(&b, "exe ");
		buf_add_u64(&b, (unsigned long long)st.st_ino, 0);
		buf_addc(&b, ' ');
		buf_add_u64(&b, (unsigned long long)st.st_size, 0);
		buf_addc(&b, ' ');
		buf_add_i64(&b, (long long)st.st_mtim.tv_sec);
		buf_addc(&b, '.');
		buf_add_u64(&b, (unsigned long long)st.st_mtim.tv_nsec, 9);
		buf_addc(&b, '\n');
	}
	buf_adds(&b, request);
	return buf_detach(&b, NULL);
}

char *
cache_file(const char *home, const char *key)
{
	struct buf	b;

	buf_init(&b);
	buf_adds(&b, home);
	buf_adds(&b, "/cache/");
	buf_add_hex(&b, rr_checksum(key, strlen(key)), 16);
	buf_adds(&b, ".rrc");
	return buf_detach(&b, NULL);
}

/* ---- opening ------------------------------------------------------------ */

/*
 * The array of rs->cap rules, all NULL until decoded.  A large one is
 * anonymous memory: its pages are zero without being written, and only
 * those of the rules an event reaches are ever touched (calloc() would
 * clear 80 KB at 10,000 rules, on every call).
 */
static void
rules_array(struct ruleset *rs)
{
	void	*p;

	if (rs->cap * sizeof(*rs->rules) >= CACHE_RULES_MAPPED) {
		p = mmap(NULL, rs->cap * sizeof(*rs->rules), PROT_READ |
		    PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p != MAP_FAILED) {
			rs->rules = p;
			rs->rules_mapped = true;
			return;
		}
	}
	rs->rules = xcalloc(rs->cap + 1, sizeof(*rs->rules));
}

/* A string written by wr_cstr(), NUL-checked, pointing into the map. */
static const char *
rd_cstr(struct rd *r, bool *isnull)
{
	uint32_t		 len = rd_u32(r);
	const unsigned char	*p;

	*isnull = false;
	if (len == 0xffffffffu) {
		*isnull = true;
		return NULL;
	}
	p = rd_bytes(r, (size_t)len + 1);
	if (p == NULL || p[len] != '\0' || memchr(p, '\0', len) != NULL) {
		r->bad = true;
		return NULL;
	}
	return (const char *)p;
}

static const char *
rd_cstr_nn(struct rd *r)
{
	bool		 isnull;
	const char	*s = rd_cstr(r, &isnull);

	if (isnull)
		r->bad = true;
	return s;
}

static int
decode_diags(struct rd *r, struct diag_list *dl)
{
	struct diag_loc	 loc;
	struct diag	*d;
	const char	*msg, *hint, *src;
	uint32_t	 n, i, code;
	uint8_t		 sev;
	bool		 isnull;

	n = rd_u32(r);
	if (n > (size_t)(r->end - r->p) / 30)
		return -1;
	for (i = 0; i < n && !r->bad; i++) {
		memset(&loc, 0, sizeof(loc));
		code = rd_u32(r);
		sev = rd_u8(r);
		loc.file = rd_cstr_nn(r);
		loc.line = (int)rd_u32(r);
		loc.col = (int)rd_u32(r);
		loc.end_line = (int)rd_u32(r);
		loc.end_col = (int)rd_u32(r);
		msg = rd_cstr_nn(r);
		hint = rd_cstr(r, &isnull);
		src = rd_cstr(r, &isnull);
		if (r->bad || sev > DIAG_NOTE || code > 9999)
			return -1;
		d = diag_add(dl, (enum diag_severity)sev, (enum diag_code)code,
		    &loc, "%s", msg);
		if (hint != NULL)
			diag_set_hint(d, "%s", hint);
		if (src != NULL)
			d->source_line = xstrdup(src);
	}
	return r->bad || r->p != r->end ? -1 : 0;
}

static bool
section_ok(const struct cache_view *v, enum section s, bool summed)
{
	const struct sref	*sr = &v->sec[s];

	if (sr->off < CACHE_HEADER || sr->off > v->size ||
	    sr->len > v->size - sr->off)
		return false;
	return !summed || rr_checksum(v->map + sr->off, sr->len) == sr->sum;
}

static int
open_fail(struct cache_view *v, int fd, char **why, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int
open_fail(struct cache_view *v, int fd, char **why, const char *fmt, ...)
{
	va_list		ap;

	/* The message may quote the mapping: format it before unmapping. */
	va_start(ap, fmt);
	*why = xvasprintf(fmt, ap);
	va_end(ap);
	if (v != NULL)
		view_free(&v->lazy);
	if (fd >= 0)
		close(fd);
	return -1;
}

int
cache_open(struct ruleset *rs, struct diag_list *diags, const char *path,
    const char *key, const struct cache_identity *id, char **why)
{
	struct cache_view	*v = NULL;
	struct stat		 st;
	struct rd		 r;
	const char		*engine, *pcre2, *k, *lang;
	void			*map;
	uint64_t		 file_len, sum, ino, nsec;
	int64_t			 sec;
	uint32_t		 i, words, fcf;
	uint8_t			 trusted;
	bool			 isnull;
	char			*stale = NULL;
	unsigned char		 hdr[CACHE_HEADER];
	int			 fd;

	ruleset_init(rs);
	diag_list_init(diags);
	*why = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return open_fail(NULL, -1, why, errno == ENOENT ?
		    "no cache yet" : "cannot open: %s", strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return open_fail(NULL, fd, why, "not a regular file");
	/*
	 * Checksums catch accidents, not a crafted file, and PCRE2 trusts
	 * what it deserializes: only a file of ours that nobody else can
	 * write is used, whatever its directory (places.h checks that too).
	 */
	if (st.st_uid != geteuid() || (st.st_mode & 022) != 0)
		return open_fail(NULL, fd, why, "not owned by this user, or "
		    "writable by others");
	if (st.st_size < CACHE_HEADER || (uint64_t)st.st_size > CACHE_MAX)
		return open_fail(NULL, fd, why,
		    "truncated or not a cache file");
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED)
		return open_fail(NULL, fd, why, "cannot map: %s",
		    strerror(errno));
	close(fd);
	fd = -1;
	/*
	 * A call reads a few scattered pages: no read-ahead, and no mapping
	 * of whole large page-cache folios around them (which made a
	 * 10,000-rule cache cost 2 MB of RSS to read its header).
	 */
	madvise(map, (size_t)st.st_size, MADV_RANDOM);
	v = xcalloc(1, sizeof(*v));
	v->map = map;
	v->size = (size_t)st.st_size;
	v->lazy.rule = view_rule;
	v->lazy.free = view_free;
	v->rsrc.take = view_take;
	ruleset_init(&v->owner);

	/* The header, checked with its checksum field zeroed. */
	memcpy(hdr, v->map, CACHE_HEADER);
	memset(hdr + 32, 0, 8);
	rd_init(&r, v->map, CACHE_HEADER);
	if (memcmp(rd_bytes(&r, 8), CACHE_MAGIC, 8) != 0)
		return open_fail(v, fd, why, "not a cache file");
	if (rd_u32(&r) != CACHE_FORMAT || rd_u32(&r) != CACHE_BOM)
		return open_fail(v, fd, why, "another cache format");
	words = rd_u32(&r);
	if (words != (sizeof(void *) | sizeof(size_t) << 8) ||
	    rd_u32(&r) != CACHE_HEADER)
		return open_fail(v, fd, why, "another cache format");
	file_len = rd_u64(&r);
	sum = rd_u64(&r);
	if (sum != rr_checksum(hdr, CACHE_HEADER))
		return open_fail(v, fd, why, "corrupt header");
	if (file_len != v->size)
		return open_fail(v, fd, why, "truncated (%zu of %llu bytes)",
		    v->size, (unsigned long long)file_len);
	v->nrules = rd_u32(&r);
	v->ctx.nfiles = rd_u32(&r);
	v->nslots = rd_u32(&r);
	v->nchunks = rd_u32(&r);
	v->chunk_size = rd_u32(&r);
	rd_init(&r, v->map + CACHE_STAMP, 24);
	ino = rd_u64(&r);
	sec = rd_i64(&r);
	nsec = rd_u32(&r);
	if (rd_u32(&r) == 1) {
		if (ino != (uint64_t)st.st_ino || sec != st.st_mtim.tv_sec ||
		    nsec != (uint64_t)st.st_mtim.tv_nsec)
			return open_fail(v, fd, why, "written to since it was "
			    "made");
		v->intact = true;
	}
	rd_init(&r, v->map + CACHE_SECTIONS, S__COUNT * 16);
	for (i = 0; i < S__COUNT; i++) {
		v->sec[i].off = rd_u32(&r);
		v->sec[i].len = rd_u32(&r);
		v->sec[i].sum = rd_u64(&r);
	}
	if (!section_ok(v, S_IDENT, true) || !section_ok(v, S_MANIFEST, true) ||
	    !section_ok(v, S_FILES, true) || !section_ok(v, S_DIAGS, true) ||
	    !section_ok(v, S_INDEX, false) || !section_ok(v, S_RULES, false) ||
	    !section_ok(v, S_CHUNKS, false) ||
	    v->sec[S_RULES].len != 16ULL * v->nrules ||
	    v->sec[S_CHUNKS].len != 16ULL * v->nchunks ||
	    v->chunk_size == 0 || v->chunk_size > 4096 ||
	    (uint64_t)v->nchunks * v->chunk_size < v->nslots ||
	    v->nrules > v->size / 16 || v->ctx.nfiles > v->size / 5)
		return open_fail(v, fd, why, "corrupt section table");

	rd_init(&r, v->map + v->sec[S_IDENT].off, v->sec[S_IDENT].len);
	engine = rd_cstr_nn(&r);
	pcre2 = rd_cstr_nn(&r);
	k = rd_cstr_nn(&r);
	if (r.bad)
		return open_fail(v, fd, why, "corrupt identity");
	if (strcmp(engine, id->engine) != 0)
		return open_fail(v, fd, why, "built by reflexion-rules %s",
		    engine);
	if (strcmp(pcre2, id->pcre2) != 0)
		return open_fail(v, fd, why, "built with PCRE2 %s", pcre2);
	if (strcmp(k, key) != 0)
		return open_fail(v, fd, why, "built for other rule sources");

	switch (manifest_check(v->map + v->sec[S_MANIFEST].off,
	    v->sec[S_MANIFEST].len, manifest_now_ns(), &stale)) {
	case MANIFEST_FRESH:
		break;
	case MANIFEST_STALE:
		open_fail(v, fd, why, "%s", stale);
		free(stale);
		return -1;
	case MANIFEST_CORRUPT:
		return open_fail(v, fd, why, "corrupt source manifest");
	}

	v->files = xcalloc(v->ctx.nfiles + 1, sizeof(*v->files));
	rd_init(&r, v->map + v->sec[S_FILES].off, v->sec[S_FILES].len);
	for (i = 0; i < v->ctx.nfiles; i++)
		v->files[i] = rd_cstr_nn(&r);
	v->nfc = rd_u32(&r);
	if (r.bad || v->nfc > (size_t)(r.end - r.p) / 16)
		return open_fail(v, fd, why, "corrupt file list");
	v->fc = xcalloc(v->nfc + 1, sizeof(*v->fc));
	for (i = 0; i < v->nfc; i++) {
		fcf = rd_u32(&r);
		v->fc[i].events = rd_u32(&r);
		v->fc[i].errors = (size_t)rd_u64(&r);
		if (fcf >= v->ctx.nfiles || (v->fc[i].events >> EV__COUNT))
			r.bad = true;
		else
			v->fc[i].file = v->files[fcf];
	}
	trusted = rd_u8(&r);
	lang = rd_cstr(&r, &isnull);
	if (r.bad || r.p != r.end || trusted > 1)
		return open_fail(v, fd, why, "corrupt file list");
	rd_init(&r, v->map + v->sec[S_DIAGS].off, v->sec[S_DIAGS].len);
	if (decode_diags(&r, diags) < 0) {
		diag_list_release(diags);
		return open_fail(v, fd, why, "corrupt diagnostics");
	}

	v->ctx.owner = &v->owner;
	v->ctx.files = v->files;
	v->ctx.regex_src = &v->rsrc;
	v->ctx.nslots = v->nslots;
	v->codes = xcalloc(v->nchunks + 1, sizeof(*v->codes));
	v->chunk_state = xcalloc(v->nchunks + 1, 1);

	rs->n = rs->cap = v->nrules;
	rules_array(rs);
	rs->nfiles = rs->files_cap = v->ctx.nfiles;
	rs->files = xcalloc(v->ctx.nfiles + 1, sizeof(*rs->files));
	memcpy(rs->files, v->files, v->ctx.nfiles * sizeof(*rs->files));
	rs->project_trusted = trusted;
	rs->lang = lang;
	rs->nfc_files = rs->fc_files_cap = v->nfc;
	rs->fc_files = v->fc;
	v->fc = NULL;
	rs->pf = v->map + v->sec[S_INDEX].off;
	rs->pflen = v->sec[S_INDEX].len;
	rs->pf_owned = false;
	rs->pf_intact = v->intact;
	rs->lazy = &v->lazy;
	return 0;
}
