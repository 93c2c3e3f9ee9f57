/*
 * What shelltargets.c knows of each program (shelltargets_tab.c): the
 * table of programs and their options, private to the two files.
 */
#ifndef RR_SHELLTARGETS_PRIV_H
#define RR_SHELLTARGETS_PRIV_H

/* What an option means here. */
enum role {
	O_VALUE,	/* takes a value that is no file */
	O_READ,		/* its value is a file read */
	O_WRITE,	/* its value is a file written */
	O_DIR,		/* its value is the destination directory (cp -t) */
	O_PROG,		/* it gives the script (sed -e): no script operand */
	O_PROG_FILE,	/* the script is in its value, a file read */
	O_INPLACE,	/* the files are edited in place (sed -i) */
	O_INCLUDE,	/* gawk -i: in place when the value is "inplace" */
	O_KEEP,		/* the operands are only read (gzip -c, git rm
			   --cached) */
	O_ALL_WRITE,	/* every operand is written (install -d) */
	O_DATA,		/* curl -d: @FILE, or NAME@FILE, is a file read */
	O_FORM,		/* curl -F: NAME=@FILE or NAME=<FILE is read */
	O_ARGS,		/* the operands after it are no files (jq --args) */
	O_CHDIR,	/* its value is the directory operands are in */
	O_CREATE,	/* tar: the archive is written, the files read */
	O_EXTRACT,	/* tar: the archive is read */
	O_ARCHIVE	/* tar -f: its value is the archive */
};

/* How many words an option takes. */
enum arity {
	A_FLAG,		/* none */
	A_ONE,		/* one, attached or the next word */
	A_ATTACHED,	/* an optional value, attached only (sed -i.bak) */
	A_TWO		/* two words (jq --arg NAME VALUE) */
};

struct opt {
	/*
	 * "-t" or "--target-directory"; "" ends a table.  Arrays, not
	 * pointers: a pointer in a table is a relocation the loader makes
	 * at every start of the hook, for every option.
	 */
	char		 name[28];
	enum role	 role;
	enum arity	 arity;
};

enum kind {
	K_WRITE,	/* every operand written: tee, rm, touch, vim */
	K_READ,		/* every operand read: cat, head, diff */
	K_MODE_WRITE,	/* chmod, chown: a mode or owner, then files written */
	K_COPY,		/* cp, install: sources read, destination written */
	K_MOVE,		/* mv: sources moved away, destination written */
	K_LINK,		/* ln: the link written */
	K_DD,		/* dd: if= read, of= written */
	K_SCRIPT,	/* sed, grep, awk, jq: a script, then files read
			   (written in place) */
	K_PERL,		/* perl: -e CODE or a script file, then files */
	K_SOURCE,	/* source, .: the file read */
	K_SHELL,	/* sh FILE: the script read (not with -c) */
	K_IN_OUT,	/* uniq, xxd: the first read, the second written */
	K_PATCH,	/* patch: the first written, the patch read */
	K_OPTIONS,	/* curl, wget: only options name files */
	K_COPY_REMOTE,	/* scp, rsync: local sources read, destination
			   written */
	K_ARCHIVE,	/* tar, zip: the archive and the files */
	K_UNZIP,	/* unzip: the archive read */
	K_COMPRESS,	/* gzip: files replaced (read with -c, -k) */
	K_OPENSSL,	/* openssl: -in read, -out written */
	K_GIT		/* git restore, checkout, rm, mv */
};

/* Program flags. */
#define P_PLUS		0x01	/* +N words are options (tail +5, vim +10) */
#define P_MODES		0x02	/* -w, +x are operands (chmod's modes) */
#define P_OLD_BUNDLE	0x04	/* a first word without '-' is a bundle of
				   options whose values follow (tar czf F) */
#define P_ASSIGN	0x08	/* K_SCRIPT: NAME=value operands are no files
				   (awk) */

struct prog {
	char			 name[12];	/* an array: see struct opt */
	enum kind		 kind;
	const struct opt	*opts;	/* ended by a name "" */
	unsigned		 flags;
};

/* The program of that name (its file name), or NULL: not understood. */
const struct prog *sh_prog_find(const char *name);

#endif
