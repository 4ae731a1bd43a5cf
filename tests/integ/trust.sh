#!/bin/bash
# The policy in force is the one the caller chose (CONTRACT, guarantee
# 12): -p NAME is an installed policy only; a policy the command could
# change runs only when its bytes were trusted with --trust; -r and
# --learn never write through a symlink.  Each case attacks it the way
# a hostile command (that may write its working directory) would.
. "$TOP_SRCDIR/tests/integ/lib.sh"
plan 16

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

# 2. -r FILE and --learn OUT never write through a symlink (issue 11, bug 5).
P=$(policy plain <<'EOF2'
version = 1;
name = "plain";
syscalls: { allow = [ "@default", "@process", "@signal", "@file-read", "@file-write", "@ipc", "@time" ]; };
audit: { sync = false; };
EOF2
)
echo precious > "$T/victim"
ln -s "$T/victim" "$T/planted.json"
"$GUARDEXEC" -l "$T/audit.log" -r "$T/planted.json" -p "$P" -- touch "$T/ran-r" \
	> /dev/null 2> "$T/err"
is "-r through a planted symlink: refused (125), nothing run" \
	"$?|$(test -e "$T/ran-r" && echo ran)" "125|"
is "... the symlink's target is untouched" "$(cat "$T/victim")" precious
like "... and the message says why" "$(cat "$T/err")" \
	"^guardexec: --result $T/planted.json: is a symbolic link; refusing to write through it"
mkfifo "$T/fifo.json"
timeout 20 "$GUARDEXEC" -l "$T/audit.log" -r "$T/fifo.json" -p "$P" -- true \
	> /dev/null 2> "$T/err"
is "-r on a planted FIFO: refused at once (125), no hang" "$?" 125
"$GUARDEXEC" -l "$T/audit.log" -r /dev/fd/3 -p "$P" -- true 3> "$T/fd3.json" 2>/dev/null
like "-r /dev/fd/3 still works" "$(cat "$T/fd3.json")" '^\{"v":1,.*"hash":"[0-9a-f]{64}"\}$'
"$GUARDEXEC" -l "$T/audit.log" -r /dev/stdout -p "$P" -- true > "$T/stdout.json" 2>/dev/null
like "-r /dev/stdout still works" "$(cat "$T/stdout.json")" '^\{"v":1,.*"hash":"[0-9a-f]{64}"\}$'

ln -s "$T/victim" "$T/learned.cfg"
run_gx -p "$P" --learn "$T/learned.cfg" -- touch "$T/ran-learn"
is "--learn OUT a planted symlink: refused before the run (125)" \
	"$rc|$(test -e "$T/ran-learn" && echo ran)|$(cat "$T/victim")" "125||precious"
rm "$T/learned.cfg"
run_gx -p "$P" --learn "$T/learned.cfg" -- true
is "--learn writes a regular file" "$rc|$(test -f "$T/learned.cfg" && ! test -L "$T/learned.cfg" && echo file)" "0|file"
check "... leaving no temporary file behind" test -z "$(ls -A "$T" | grep '^\.learned')"

finish
