#!/bin/bash
# The policy in force is the one the caller chose (CONTRACT, guarantee
# 12): -p NAME is an installed policy only; a policy the command could
# change runs only when its bytes were trusted with --trust; -r and
# --learn never write through a symlink.  Each case attacks it the way
# a hostile command (that may write its working directory) would.
. "$TOP_SRCDIR/tests/integ/lib.sh"
plan 7

unset XDG_CONFIG_HOME XDG_STATE_HOME
NAME="gx-trust-test-$$"
mkdir -p "$T/home/.config/guardexec" "$T/repo/.guardexec" "$T/repo2/$NAME/.guardexec"
cat > "$T/home/.config/guardexec/$NAME.cfg" <<'EOF2'
version = 1;
name = "installed";
audit: { sync = false; };
EOF2
# What a command that may write the repository plants there.
printf 'version = 1;\nname = "planted";\naudit: { sync = false; };\n' \
	> "$T/repo/$NAME"
cp "$T/repo/$NAME" "$T/repo2/$NAME/.guardexec/agent.cfg"
printf 'version = 1;\nname = "repo-dot";\naudit: { sync = false; };\n' \
	> "$T/repo/.guardexec/agent.cfg"

# 1. -p NAME: the installed policy, never ./NAME or ./NAME/.guardexec.
cd "$T/repo" && HOME=$T/home run_gx -p "$NAME" -- true; cd "$T"
like "-p NAME loads ~/.config/guardexec/NAME.cfg, not ./NAME" \
	"$rc|$rec" '^0\|.*"policy":\{"name":"installed"'
rm "$T/home/.config/guardexec/$NAME.cfg"
cd "$T/repo" && HOME=$T/home run_gx -p "$NAME" -- touch "$T/ran-name"; cd "$T"
is "a NAME installed nowhere is refused (125), even with ./NAME here" \
	"$rc|$(test -e "$T/ran-name" && echo ran)" "125|"
like "... and the message says where it looked" "$err" \
	"^guardexec: -p $NAME: no installed policy named \"$NAME\" \\(looked in /.*/guardexec/$NAME.cfg and $T/home/.config/guardexec/$NAME.cfg\\)"
cd "$T/repo" && run_gx -p "./$NAME" -- true; cd "$T"
like "-p ./NAME is a path: the file here" "$rc|$rec" '^0\|.*"name":"planted"'
cd "$T/repo" && run_gx -p . -- true; cd "$T"
like "-p . is ./.guardexec/agent.cfg" "$rc|$rec" '^0\|.*"name":"repo-dot"'
cd "$T/repo2" && run_gx -p "$NAME" -- true; cd "$T"
is "... nor ./NAME/.guardexec/agent.cfg" "$rc" 125
cd "$T/repo2" && run_gx -p "$NAME/" -- true; cd "$T"
like "-p DIR/ is DIR/.guardexec/agent.cfg" "$rc|$rec" '^0\|.*"name":"planted"'

finish
