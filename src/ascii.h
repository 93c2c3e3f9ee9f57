/*
 * Byte-level ASCII helpers for parsers that must not depend on the
 * locale (hook input is UTF-8 whatever LC_CTYPE says).
 */
#ifndef RR_ASCII_H
#define RR_ASCII_H

/* The value of a hexadecimal digit, or -1. */
static inline int
ascii_hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

#endif
