#!/usr/bin/env python3
# Drafts a known-gaps list from the runner's CORPUS_FAILING file
# (tests/corpus/README, "Regenerating the known gaps"): one line per
# failing command, "id TAB reason", the reason from the command's class
# and text.  A draft only: read every line before committing it, since a
# wrong expectation is a corpus bug to fix in gen.py, not a gap; a class
# without a reason here says REVIEW.
#   python3 tests/corpus/gaps.py /tmp/failing > tests/corpus/known-gaps
import json
import sys

BY_CLASS = {
    "interp": "interpreter one-liners (python -c, node -e, ruby/perl -e, awk, php -r) are not read",
    "parallel": "GNU parallel is not unwrapped (its ::: arguments, or commands and targets on stdin)",
    "stdin-sh": "command text fed to a shell on stdin is not read",
    "positional": "positional parameters of sh -c ($1, \"$@\", $*, $0) are not substituted",
    "arith": "a command substitution inside $(( )) or $[ ] is not read",
    "targets": "globs, .., /./, ~user, ${HOME:?} or a macOS system folder in a target are not resolved",
    "more-git": "no rule yet for this git command (issue 14: more git)",
    "help-dry": "false positive: the rule does not see that --help, --dry-run, -n or a list-only form changes nothing",
    "safe.db": "false positive: DROP DATABASE inside a quoted SQL string is matched as text",
    "dd-disk": "tee to a disk device is not seen as a write of it",
    "env-opts": "this env option is not understood (-P DIR, -)",
    "secret": "no secrets pack rule for this read or write yet",
    "container": "no containers pack rule for this command yet",
    "cloud": "no cloud pack rule for this command yet",
}

# for smaller.* and git-forms.*: the first key found in the command
BY_TEXT = [
    ("bash -n", "false positive: bash -n only checks the syntax"),
    (".img", "false positive: mkfs of an image file, not a device"),
    ("GIT_SSH_COMMAND", "GIT_SSH_COMMAND is a command git runs: not read"),
    ("<<", "a here-document inside \"$( )\" is not read"),
    ("BASH_ENV", "BASH_ENV and --rcfile name a script bash runs: not read"),
    ("rcfile", "BASH_ENV and --rcfile name a script bash runs: not read"),
    ("watch", "watch runs its arguments as a command: not unwrapped"),
    ("ssh", "the remote command of ssh is not judged"),
    ("SHELL", "$SHELL -c is not known to be a shell"),
    ("trap", "the command of trap is not read"),
    ("for ", "the loop variable over a literal list is not substituted"),
    ("alias", "git aliases from -c or GIT_CONFIG_* are not resolved"),
    ("GIT_CONFIG", "git aliases from -c or GIT_CONFIG_* are not resolved"),
    ("git.exe", "git.exe is not known as git"),
    ("--", "an abbreviated long option (--har, --forc, --rec, --recur) is not resolved"),
]


def reason(cls, cmd):
    if cls.startswith(("smaller", "git-forms")):
        for key, r in BY_TEXT:
            if key in cmd:
                return r
    for key in (cls, cls.split(".")[0], cls.split("-")[0]):
        if key in BY_CLASS:
            return BY_CLASS[key]
    return "REVIEW"


print("# Known gaps of the command corpus (tests/corpus/README): id TAB reason.")
print("# Each command below does not get its verdict today: a miss or a false")
print("# positive, reviewed one by one.")
for line in open(sys.argv[1]):
    i, cls, cmd = line.rstrip("\n").split("\t")
    print("%s\t%s" % (i, reason(cls, json.loads(cmd))))
