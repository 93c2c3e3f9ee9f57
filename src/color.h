/*
 * Colour on a terminal only (reflexion-rules(1), ENVIRONMENT): when the
 * stream is a terminal, NO_COLOR is unset or empty (no-color.org) and
 * TERM is not "dumb".  Commands ask once and print the codes themselves.
 */
#ifndef RR_COLOR_H
#define RR_COLOR_H

#include <stdbool.h>
#include <stdio.h>

#define COLOR_RED	"\033[31m"
#define COLOR_GREEN	"\033[32m"
#define COLOR_YELLOW	"\033[33m"
#define COLOR_BOLD	"\033[1m"
#define COLOR_RESET	"\033[0m"

bool	 color_wanted(FILE *);

#endif
