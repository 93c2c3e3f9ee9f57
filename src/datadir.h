/*
 * Where this installation keeps its data (the packs, the JSON schema of
 * rule files): $(pkgdatadir), as configured, or, when the program has
 * been installed or unpacked somewhere else (make install prefix=/opt/x,
 * a package extracted into a scratch directory), the same place relative
 * to the program itself: BINDIR/../share/reflexion-rules for the usual
 * layout.  reflexion-rules(1), FILES.
 */
#ifndef RR_DATADIR_H
#define RR_DATADIR_H

/*
 * The directory sub ("rules", "schemas") of the installed data: beside
 * the running program when it is there, else under the configured
 * $(pkgdatadir).  Owned.
 */
char	*datadir_path(const char *sub);

/* The configured $(pkgdatadir)/sub, whatever the program's place; owned. */
char	*datadir_configured(const char *sub);

#endif
