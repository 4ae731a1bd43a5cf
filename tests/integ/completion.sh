#!/bin/bash
# Shell completion: the script parses, and (with bash-completion) offers
# options, installed policy names after -p, and commands after --.
. "$TOP_SRCDIR/tests/integ/lib.sh"
plan 5

C=$TOP_SRCDIR/completion/guardexec
bash -n "$C"
is "completion/guardexec parses (bash -n)" "$?" 0
bc=/usr/share/bash-completion/bash_completion
if [ ! -r "$bc" ]; then
	for i in 1 2 3 4; do skip "bash-completion is not installed"; done
	finish
fi
complete_words() {   # complete_words WORD... : COMPREPLY for the last word
	bash -c '
		. "$1"; . "$2"; shift 2
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		case $1 in
		guardexec) _guardexec guardexec "${!#}" ;;
		*) _guardexec_audit guardexec-audit "${!#}" ;;
		esac
		printf "%s\n" "${COMPREPLY[@]}" | sort' sh "$bc" "$C" "$@"
}
like "options after guardexec -" "$(complete_words guardexec --ch)" '^--check$'
like "guardexec-audit subcommands" "$(complete_words guardexec-audit ver)" '^verify$'
like "show filters" "$(complete_words guardexec-audit show --sta)" '^--status$'
like "a command after --" "$(complete_words guardexec -p x.cfg -- lsbl)" '^lsblk$'
finish
