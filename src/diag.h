/*
 * Diagnostics: located messages about rule files and inputs.
 *
 * A struct diag_list owns every diag in it and every string of each diag
 * (file, message, hint, source line).  Lines and columns are 1-based
 * everywhere in this interface; the YAML loader converts libyaml's 0-based
 * marks once.  A line of 0 means "the whole file".
 */
#ifndef RR_DIAG_H
#define RR_DIAG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum diag_code {
#define X(num, name, summary) DIAG_##name = num,
#include "diag.def"
#undef X
};

enum diag_severity {
	DIAG_ERROR,
	DIAG_WARNING,
	DIAG_NOTE
};

struct diag {
	enum diag_code		 code;
	enum diag_severity	 severity;
	char			*file;
	int			 line, col;
	int			 end_line, end_col;	/* inclusive; 0 = same as start */
	char			*message;
	char			*hint;		/* or NULL */
	char			*source_line;	/* text of `line`, or NULL */
};

struct diag_list {
	struct diag	*items;
	size_t		 n, cap;
	size_t		 errors;
};

/* Where a diagnostic points: a file, a span, and the file's text. */
struct diag_loc {
	const char	*file;
	int		 line, col, end_line, end_col;
	const char	*text;		/* whole file text, borrowed; may be NULL */
	size_t		 text_len;
};

/*
 * Where the last source line was found in one text: the caller's, zeroed
 * for each text.  With it, the many diagnostics of one file cost one pass
 * over the file, not one each.
 */
struct diag_cursor {
	size_t		 off;
	int		 line;
};

void	 diag_list_init(struct diag_list *);
void	 diag_list_release(struct diag_list *);
/* Appends a diagnostic; returns it so a caller may set a hint. */
struct diag *diag_add(struct diag_list *, enum diag_severity, enum diag_code,
	     const struct diag_loc *, const char *fmt, ...)
	     __attribute__((format(printf, 5, 6)));
struct diag *diag_vadd(struct diag_list *, enum diag_severity,
	     enum diag_code, const struct diag_loc *, const char *fmt, va_list)
	     __attribute__((format(printf, 5, 0)));
/* The same, looking for the source line from cursor (or NULL). */
struct diag *diag_vadd_at(struct diag_list *, enum diag_severity,
	     enum diag_code, const struct diag_loc *, struct diag_cursor *,
	     const char *fmt, va_list) __attribute__((format(printf, 6, 0)));
void	 diag_set_hint(struct diag *, const char *fmt, ...)
	     __attribute__((format(printf, 2, 3)));
void	 diag_sort(struct diag_list *);
/* Moves every diagnostic of `src` to the end of `dst`. */
void	 diag_list_take(struct diag_list *dst, struct diag_list *src);

const char *diag_code_name(enum diag_code);
/* "RR0101" */
void	 diag_code_str(enum diag_code, char out[8]);

/* `file:line:col: error: message [RR0101]`, then the line and a caret. */
void	 diag_print_text(FILE *, const struct diag *);
/* The same, with ANSI colours when color is true (color.h decides). */
void	 diag_print_text_color(FILE *, const struct diag *, bool color);
/* One JSON array of all diagnostics. */
void	 diag_print_json(FILE *, const struct diag_list *);
/* GitHub Actions workflow commands. */
void	 diag_print_github(FILE *, const struct diag_list *);
/*
 * A SARIF 2.1.0 log of one run: the tool (named with version), every
 * code as a rule with its help text, and each diagnostic as a result.
 */
void	 diag_print_sarif(FILE *, const struct diag_list *,
	     const char *version);
/*
 * One line, for a hook's stderr or systemMessage: no source, no caret.
 * The file name and the message are escaped as data (textesc.h): a rule
 * file's name or a key quoted from it can add no line and no terminal
 * code to what the user sees.
 */
char	*diag_format_short(const struct diag *);

#endif
