# fish completion for reflexion-rules.  The commands, their options and
# the values an option takes are read from the program's own --help, so
# this file never falls behind the program: an option shown as
# --format text|json offers text and json, one shown as --rules PATH
# offers file names.

function __reflexion_rules_complete
	set -l tokens (commandline -opc)
	set -l cur (commandline -ct)
	set -l prog $tokens[1]
	if test (count $tokens) -eq 1
		$prog --help 2>/dev/null | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p'
		printf '%s\n' --help --version
		return
	end
	set -l cmd $tokens[2]
	if test "$cmd" = kb
		if test (count $tokens) -eq 2
			$prog kb --help 2>/dev/null | sed -n 's/^.*reflexion-rules kb \([a-z][a-z]*\).*/\1/p'
			return
		end
		set cmd kb $tokens[3]
	end
	set -l usage ($prog $cmd --help 2>/dev/null | sed -n '1s/^usage: //p')
	set -l prev $tokens[-1]
	if string match -q -- '--*' $prev
		set -l values (printf '%s\n' $usage | tr ' ' '\n' | sed -n "/^\[\{0,1\}$prev\$/{n;s/[]].*//;p;}")
		switch "$values"
			case ''
			case '*|*'
				string split '|' -- $values
				return
			case PATH DIR FILE
				__fish_complete_path $cur
				return
			case '*'
				return
		end
	end
	if string match -q -- '-*' $cur
		printf '%s\n' $usage | grep -o -- '--[a-z0-9][a-z0-9-]*' | sort -u
		echo --help
	else
		__fish_complete_path $cur
	end
end

complete -c reflexion-rules -f -a '(__reflexion_rules_complete)'
