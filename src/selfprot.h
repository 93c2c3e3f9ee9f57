/*
 * The self-protection pack (rules/self-protection.yaml), built into the
 * program: the agent may not switch its own guard off by writing the
 * rule files, the data directory or the hook settings.  Built in, not
 * read from the packs directory, so that it is on wherever the program
 * runs (installed or not, whatever REFLEXION_PACKS_DIR says) and always
 * in the rule language of the program that reads it.  The loader
 * (sources.c) adds it with the packs, first, unless config.yaml says
 * `self_protection: false`; --rules replaces it with everything else.
 * The text is generated from the pack's file at build time
 * (selfprot_text.c); it is static data, owned by no one.
 */
#ifndef RR_SELFPROT_H
#define RR_SELFPROT_H

#include <stddef.h>

#define SELFPROT_PACK	"self-protection"
/* The name rules and messages give its file. */
#define SELFPROT_FILE	"(built in)/self-protection.yaml"

extern const char	selfprot_text[];
extern const size_t	selfprot_len;

#endif
