/*
 * Writing the compiled cache (the layout is described in cache.c): the
 * whole file is built in memory, then replaced by file_replace(), and
 * the temporary files of writers that died are removed.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bytes.h"
#include "cache.h"
#include "cache_priv.h"
#include "cache_rule.h"
#include "checksum.h"
#include "fileio.h"
#include "match_re.h"
#include "xmalloc.h"

static void
wr_cstr(struct buf *b, const char *s)
{
	size_t	len = s ? strlen(s) : 0;

	wr_u32(b, s ? (uint32_t)len : 0xffffffffu);
	if (s != NULL) {
		buf_add(b, s, len);
		wr_u8(b, 0);
	}
}

static void
encode_diags(struct buf *b, const struct diag_list *dl)
{
	const struct diag	*d;
	size_t			 i;

	wr_u32(b, (uint32_t)dl->n);
	for (i = 0; i < dl->n; i++) {
		d = &dl->items[i];
		wr_u32(b, (uint32_t)d->code);
		wr_u8(b, (uint8_t)d->severity);
		wr_cstr(b, d->file);
		wr_u32(b, (uint32_t)d->line);
		wr_u32(b, (uint32_t)d->col);
		wr_u32(b, (uint32_t)d->end_line);
		wr_u32(b, (uint32_t)d->end_col);
		wr_cstr(b, d->message);
		wr_cstr(b, d->hint);
		wr_cstr(b, d->source_line);
	}
}

static void
section_end(struct buf *f, enum section s, size_t start, bool sum)
{
	size_t	len = f->len - start;

	wr_u32_at(f, CACHE_SECTIONS + s * 16, (uint32_t)start);
	wr_u32_at(f, CACHE_SECTIONS + s * 16 + 4, (uint32_t)len);
	wr_u64_at(f, CACHE_SECTIONS + s * 16 + 8, sum ?
	    rr_checksum(f->data + start, len) : 0);
}

static size_t
file_index(const struct ruleset *rs, const char *file, size_t *hint)
{
	size_t	i;

	if (*hint < rs->nfiles && rs->files[*hint] == file)
		return *hint;
	for (i = 0; i < rs->nfiles; i++)
		if (rs->files[i] == file || strcmp(rs->files[i], file) == 0)
			return *hint = i;
	return SIZE_MAX;
}

/* Serializes everything into f; -1 with *err when it cannot. */
static int
serialize(struct buf *f, const char *key, const struct cache_identity *id,
    const struct ruleset *rs, const struct diag_list *diags,
    const struct manifest *mf, char **err)
{
	struct cache_regexes	 res;
	struct buf		 bodies;
	size_t			*body_off, i, start, hint = 0, fidx, nchunks;
	size_t			 rules_tab, chunks_tab, off, count, cstart;

	memset(&res, 0, sizeof(res));
	buf_init(&bodies);
	body_off = xcalloc(rs->n + 1, sizeof(*body_off));
	for (i = 0; i < rs->n; i++) {
		body_off[i] = bodies.len;
		fidx = file_index(rs, rs->rules[i]->file, &hint);
		if (fidx == SIZE_MAX || cache_rule_encode(&bodies,
		    rs->rules[i], (uint32_t)i, (uint32_t)fidx, &res) < 0) {
			*err = xasprintf("rule '%s' cannot be cached",
			    rs->rules[i]->id);
			goto fail;
		}
	}
	body_off[rs->n] = bodies.len;
	nchunks = (res.n + CACHE_CHUNK - 1) / CACHE_CHUNK;

	buf_add(f, CACHE_MAGIC, 8);
	wr_u32(f, CACHE_FORMAT);
	wr_u32(f, CACHE_BOM);
	wr_u32(f, (uint32_t)(sizeof(void *) | sizeof(size_t) << 8));
	wr_u32(f, CACHE_HEADER);
	wr_u64(f, 0);			/* file length */
	wr_u64(f, 0);			/* header checksum */
	wr_u32(f, (uint32_t)rs->n);
	wr_u32(f, (uint32_t)rs->nfiles);
	wr_u32(f, (uint32_t)res.n);
	wr_u32(f, (uint32_t)nchunks);
	wr_u32(f, CACHE_CHUNK);
	while (f->len < CACHE_HEADER)
		wr_u8(f, 0);

	start = f->len;
	wr_cstr(f, id->engine);
	wr_cstr(f, id->pcre2);
	wr_cstr(f, key);
	section_end(f, S_IDENT, start, true);
	start = f->len;
	manifest_encode(mf, f);
	section_end(f, S_MANIFEST, start, true);
	start = f->len;
	for (i = 0; i < rs->nfiles; i++)
		wr_cstr(f, rs->files[i]);
	/* The files that declare on_error: deny, by file number. */
	wr_u32(f, (uint32_t)rs->nfc_files);
	for (i = 0; i < rs->nfc_files; i++) {
		fidx = file_index(rs, rs->fc_files[i].file, &hint);
		if (fidx == SIZE_MAX) {
			*err = xasprintf("'%s' cannot be cached",
			    rs->fc_files[i].file);
			goto fail;
		}
		wr_u32(f, (uint32_t)fidx);
		wr_u32(f, rs->fc_files[i].events);
		wr_u64(f, (uint64_t)rs->fc_files[i].errors);
	}
	/* Whether config.yaml trusts the project (rule.h), its lang. */
	wr_u8(f, rs->project_trusted);
	wr_cstr(f, rs->lang);
	section_end(f, S_FILES, start, true);
	start = f->len;
	encode_diags(f, diags);
	section_end(f, S_DIAGS, start, true);
	start = f->len;
	buf_add(f, rs->pf, rs->pflen);
	section_end(f, S_INDEX, start, false);

	rules_tab = f->len;
	for (i = 0; i < 16 * (rs->n + nchunks); i++)
		wr_u8(f, 0);
	chunks_tab = rules_tab + 16 * rs->n;
	wr_u32_at(f, CACHE_SECTIONS + S_RULES * 16, (uint32_t)rules_tab);
	wr_u32_at(f, CACHE_SECTIONS + S_RULES * 16 + 4, (uint32_t)(16 * rs->n));
	wr_u32_at(f, CACHE_SECTIONS + S_CHUNKS * 16, (uint32_t)chunks_tab);
	wr_u32_at(f, CACHE_SECTIONS + S_CHUNKS * 16 + 4,
	    (uint32_t)(16 * nchunks));

	start = f->len;
	buf_add(f, bodies.data, bodies.len);
	for (i = 0; i < rs->n; i++) {
		off = start + body_off[i];
		wr_u32_at(f, rules_tab + 16 * i, (uint32_t)off);
		wr_u32_at(f, rules_tab + 16 * i + 4,
		    (uint32_t)(body_off[i + 1] - body_off[i]));
		wr_u64_at(f, rules_tab + 16 * i + 8, rr_checksum(f->data + off,
		    body_off[i + 1] - body_off[i]));
	}
	for (i = 0; i < nchunks; i++) {
		count = res.n - i * CACHE_CHUNK;
		if (count > CACHE_CHUNK)
			count = CACHE_CHUNK;
		cstart = f->len;
		wr_u32(f, (uint32_t)i);
		wr_u32(f, (uint32_t)count);
		/* Without serialized code, the patterns compile from source. */
		if (rr_regex_encode(res.v + i * CACHE_CHUNK, count, f) < 0)
			buf_truncate(f, cstart);
		wr_u32_at(f, chunks_tab + 16 * i, (uint32_t)cstart);
		wr_u32_at(f, chunks_tab + 16 * i + 4,
		    (uint32_t)(f->len - cstart));
		wr_u64_at(f, chunks_tab + 16 * i + 8,
		    rr_checksum(f->data + cstart, f->len - cstart));
	}
	if (f->len > CACHE_MAX) {
		*err = xasprintf("the compiled rules take %zu bytes, more than "
		    "the cache holds", f->len);
		goto fail;
	}
	wr_u64_at(f, 24, (uint64_t)f->len);
	wr_u64_at(f, 32, rr_checksum(f->data, CACHE_HEADER));
	free(res.v);
	free(body_off);
	buf_release(&bodies);
	return 0;
fail:
	free(res.v);
	free(body_off);
	buf_release(&bodies);
	return -1;
}

/*
 * Temporary files of writers that died before their rename(), and cache
 * files not rebuilt for CACHE_MAX_AGE (other engines, old sources; one
 * still in use is simply built again).
 */
static void
remove_old_files(const char *dir)
{
	struct dirent	*de;
	struct stat	 st;
	DIR		*d;
	char		*p;
	time_t		 now = time(NULL);
	bool		 tmp, old;

	if ((d = opendir(dir)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		tmp = file_is_replace_temp(de->d_name);
		old = de->d_name[0] != '.' &&
		    str_has_suffix(de->d_name, ".rrc");
		if (!tmp && !old)
			continue;
		p = xasprintf("%s/%s", dir, de->d_name);
		if (lstat(p, &st) == 0 && S_ISREG(st.st_mode) &&
		    st.st_mtime < now - (tmp ? CACHE_TMP_MAX_AGE :
		    CACHE_MAX_AGE))
			unlink(p);
		free(p);
	}
	closedir(d);
}

/*
 * The file's identity as written: its inode and modification time, or
 * none (zeroes) where the file system cannot keep the time exactly; the
 * header checksum is made again over them.
 */
static void
stamp_header(void *arg, void *data, size_t len, const struct stat *st,
    const struct timespec *mtime)
{
	unsigned char	*h = data;
	uint64_t	 v, sum;
	int64_t		 sec = mtime ? (int64_t)mtime->tv_sec : 0;
	uint32_t	 nsec = mtime ? (uint32_t)mtime->tv_nsec : 0;
	uint32_t	 stamped = mtime != NULL;

	(void)arg;
	if (len < CACHE_HEADER)
		return;
	v = mtime ? (uint64_t)st->st_ino : 0;
	memcpy(h + CACHE_STAMP, &v, 8);
	memcpy(h + CACHE_STAMP + 8, &sec, 8);
	memcpy(h + CACHE_STAMP + 16, &nsec, 4);
	memcpy(h + CACHE_STAMP + 20, &stamped, 4);
	memset(h + 32, 0, 8);
	sum = rr_checksum(h, CACHE_HEADER);
	memcpy(h + 32, &sum, 8);
}

int
cache_write(const char *path, const char *key,
    const struct cache_identity *id, const struct ruleset *rs,
    const struct diag_list *diags, const struct manifest *mf, char **err)
{
	struct buf	 f;
	char		*dir, *slash;
	int		 rc = -1;

	*err = NULL;
	buf_init(&f);
	if (serialize(&f, key, id, rs, diags, mf, err) < 0) {
		buf_release(&f);
		return -1;
	}
	dir = xstrdup(path);
	if ((slash = strrchr(dir, '/')) != NULL)
		*slash = '\0';
	if (mkdir_p(dir, err) == 0) {
		remove_old_files(dir);
		/* The engine's data is the user's alone, as its directory. */
		rc = file_replace_stamped(path, f.data, f.len, 0600,
		    &(struct file_stamp){ stamp_header, NULL }, err);
	}
	free(dir);
	buf_release(&f);
	return rc;
}
