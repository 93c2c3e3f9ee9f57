/*
 * Hints for YAML syntax errors (lint, RR0001): libyaml says what it could
 * not parse; the hint says what the writer most likely did and how to
 * write it, for the mistakes people make in rule files by hand: a tab in
 * the indentation, a ": " inside a plain value, a line indented to no
 * level of its block, a glob that starts with * or {, a quote that ends
 * early or never, a [ or { not closed.
 */
#ifndef RR_YAMLHINT_H
#define RR_YAMLHINT_H

#include <stddef.h>

/*
 * The hint for libyaml's problem (and context) at line:col of text
 * (1-based; ctx_line 0 when there is no context mark), or NULL.  Owned.
 * text[len] is a NUL byte (the loader's copy of the file).
 */
char	*yaml_syntax_hint(const char *text, size_t len, int line, int col,
	     const char *problem, const char *context, int ctx_line,
	     int ctx_col);

#endif
