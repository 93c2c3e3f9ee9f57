/*
 * buf_printf() and xasprintf(): formatted once when the text fits, again
 * when it does not; the result is the same at every length.
 */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "tap.h"
#include "xmalloc.h"

/* n bytes of a repeating pattern, NUL-terminated; owned. */
static char *
pattern(size_t n)
{
	char	*s = xmalloc(n + 1);
	size_t	 i;

	for (i = 0; i < n; i++)
		s[i] = (char)('a' + i % 26);
	s[n] = '\0';
	return s;
}

int
main(void)
{
	static const size_t lens[] = { 0, 1, 62, 63, 64, 65, 127, 255, 256,
	    257, 511, 4096, 100000 };
	struct buf	 b;
	char		*p, *s, *want;
	size_t		 i, j, bad = 0;

	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		p = pattern(lens[i]);
		s = xasprintf("<%s>", p);
		if (strlen(s) != lens[i] + 2 || s[0] != '<' ||
		    memcmp(s + 1, p, lens[i]) != 0 || s[lens[i] + 1] != '>')
			bad++;
		free(s);
		free(p);
	}
	ok(bad == 0, "xasprintf: every length from 0 to 100000, around the "
	    "256-byte stack buffer");

	/* Appends of every length onto a buffer that grows from nothing. */
	buf_init(&b);
	want = xstrdup("");
	bad = 0;
	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++)
		for (j = 0; j < 3; j++) {
			p = pattern(lens[i] + j);
			buf_printf(&b, "%s|", p);
			s = xasprintf("%s%s|", want, p);
			free(want);
			want = s;
			free(p);
			if (b.len != strlen(want) ||
			    memcmp(b.data, want, b.len) != 0 ||
			    b.data[b.len] != '\0')
				bad++;
		}
	ok(bad == 0, "buf_printf: appends that fit and that do not, "
	    "NUL-terminated after each");
	free(want);
	buf_release(&b);

	buf_init(&b);
	buf_printf(&b, "%s", "");
	ok(b.len == 0 && b.data[0] == '\0', "an empty format: nothing added");
	buf_printf(&b, "%d-%s", 42, "x");
	ok(b.len == 4 && strcmp(b.data, "42-x") == 0, "then a short one");
	buf_release(&b);

	/* Numbers without printf, as printf writes them. */
	{
		static const unsigned long long u[] = {
			0, 1, 9, 10, 99, 100, 123456789, 4294967295ULL,
			18446744073709551615ULL
		};
		static const long long sv[] = {
			0, -1, 42, -1000000007LL, 9223372036854775807LL,
			-9223372036854775807LL - 1
		};
		char	want2[64];
		int	w;

		bad = 0;
		for (i = 0; i < sizeof(u) / sizeof(u[0]); i++)
			for (w = 0; w <= 20; w += 4) {
				buf_init(&b);
				buf_add_u64(&b, u[i], w);
				snprintf(want2, sizeof(want2), "%0*llu", w, u[i]);
				bad += strcmp(b.data, want2) != 0;
				buf_reset(&b);
				buf_add_hex(&b, u[i], w);
				snprintf(want2, sizeof(want2), "%0*llx", w, u[i]);
				bad += strcmp(b.data, want2) != 0;
				buf_release(&b);
			}
		for (i = 0; i < sizeof(sv) / sizeof(sv[0]); i++) {
			buf_init(&b);
			buf_add_i64(&b, sv[i]);
			snprintf(want2, sizeof(want2), "%lld", sv[i]);
			bad += strcmp(b.data, want2) != 0;
			buf_release(&b);
		}
		ok(bad == 0, "buf_add_u64, buf_add_hex, buf_add_i64: as %%0*llu, "
		    "%%0*llx and %%lld");
		s = xstrjoin("a", "", "bc", "/d", NULL);
		is_str(s, "abc/d", "xstrjoin");
		free(s);
		s = xstrjoin("", NULL);
		is_str(s, "", "xstrjoin of nothing");
		free(s);
	}
	return done_testing();
}
