#!/bin/bash
# The policy in force is the one the caller chose (CONTRACT, guarantee
# 12): -p NAME is an installed policy only; a policy the command could
# change runs only when its bytes were trusted with --trust; -r and
# --learn never write through a symlink.  Each case attacks it the way
# a hostile command (that may write its working directory) would.
. "$TOP_SRCDIR/tests/integ/lib.sh"
plan 56

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

# 3. Trust on first use for policies the command could change.
export GUARDEXEC_TRUST_STORE="$T/state/trusted"
R="$T/trepo"
mkdir -p "$R/.guardexec"
cat > "$R/.guardexec/agent.cfg" <<'EOF2'
version = 1;
name = "repo";
filesystem: { read = [ "/" ]; write = [ "." ]; };
audit: { sync = false; };
EOF2
RP="$R/.guardexec/agent.cfg"
run_gx -p "$R" -C "$R" -- touch "$R/ran1"
is "a policy inside the run's write path, never trusted: 125, nothing run" \
	"$rc|$(test -e "$R/ran1" && echo ran)" "125|"
is "... one message naming the file and the way to review it" "$err" \
	"guardexec: $RP: not trusted: the command may change it (it lies inside filesystem.write \"$R\"); review it with: guardexec --trust $RP"
like "... and the record of the refusal says trusted: null" "$rec" \
	'"status":"refused".*|"trusted":null'
"$GUARDEXEC" -p "$R" -C "$R" --check > "$T/check.out" 2> "$T/check.err"
like "--check of an untrusted policy: exit 0, says it is not trusted" \
	"$?|$(grep '^# trusted' "$T/check.out")" '^0\|# trusted: no \(a run is refused until: guardexec --trust FILE\)$'
"$GUARDEXEC" --trust "$RP" > "$T/trust.out" 2> "$T/trust.err"
is "--trust FILE exits 0 and runs nothing" "$?" 0
like "--trust shows the policy" "$(cat "$T/trust.out")" '^name = "repo";$'
is "... and records its sha256 and path in the store" \
	"$(cat "$T/state/trusted")" "$(sha256sum < "$RP" | cut -c1-64) $RP"
run_gx -p "$R" -C "$R" -- touch "$R/ran2"
LL=""
if [ "$rc" = 125 ] && printf '%s\n' "$err" | grep -qi 'landlock\|filesystem'; then
	LL="no Landlock or mount namespace here: $err"
fi
if [ -z "$LL" ]; then
	like "the trusted policy runs; the record says trusted by hash" \
		"$rc|$rec" '^0\|.*"policy":\{[^}]*"trusted":"hash"'
else
	skip "$LL"
fi
# The attack: the command rewrites its own policy for the next run.
run_gx -p "$R" -C "$R" -- sh -c 'printf "version = 1;\nname = \"repo\";\n" > .guardexec/agent.cfg'
run_gx -p "$R" -C "$R" -- touch "$R/ran3"
is "the policy the command rewrote is refused (125), nothing run" \
	"$rc|$(test -e "$R/ran3" && echo ran)" "125|"
like "... saying it changed and how to review it" "$err" \
	"^guardexec: $RP: changed since it was trusted(: the command may change it .*)?; review it with: guardexec --trust $RP$"
"$GUARDEXEC" --trust "$RP" > "$T/trust.out" 2> "$T/trust.err"
if [ -x /usr/bin/diff ]; then
	like "--trust again shows the diff from the trusted version" \
		"$(cat "$T/trust.out")" '^-filesystem: \{ read = \[ "/" \]; write = \[ "." \]; \};$'
else
	skip "diff(1) is not installed"
fi
run_gx -p "$R" -C "$R" -- true
like "once trusted again it runs, by hash" "$rc|$rec" '^0\|.*"trusted":"hash"'

# --learn OUT inside a write path: -p OUT works at once (guardexec trusts
# what it wrote itself), unless the command edited its policy meanwhile.
L="$T/lrepo"
mkdir -p "$L/.guardexec"
cat > "$L/.guardexec/agent.cfg" <<'EOF2'
version = 1;
name = "lrepo";
filesystem: { read = [ "/" ]; write = [ ".", "/dev/null" ]; };
syscalls: { allow = [ "@default" ]; };
audit: { sync = false; };
EOF2
"$GUARDEXEC" --trust "$L/.guardexec/agent.cfg" > /dev/null 2>&1
run_gx -p "$L" -C "$L" --learn "$L/.guardexec/learned.cfg" -- sh -c 'ls > /dev/null'
run_gx -p "$L/.guardexec/learned.cfg" -C "$L" -- sh -c 'ls > /dev/null'
if [ -z "$LL" ]; then
	like "-p OUT of --learn runs at once, trusted by hash" "$rc|$rec" \
		'^0\|.*"trusted":"hash"'
else
	skip "$LL"
fi
run_gx -p "$L" -C "$L" --learn "$L/.guardexec/learned2.cfg" -- \
	sh -c 'echo "# edited" >> .guardexec/agent.cfg'
run_gx -p "$L/.guardexec/learned2.cfg" -C "$L" -- touch "$L/ran-l2"
if [ -z "$LL" ]; then
	is "a policy learned while the command edited its policy is not trusted (125)" \
		"$rc|$(test -e "$L/ran-l2" && echo ran)" "125|"
else
	skip "$LL"
fi

# Through a symlinked directory: the real path decides.
ln -s "$R" "$T/link"
printf 'version = 1;\nname = "via-link";\nfilesystem: { read = [ "/" ]; write = [ "%s" ]; };\naudit: { sync = false; };\n' "$R" > "$R/p2.cfg"
run_gx -p "$T/link/p2.cfg" -- touch "$R/ran4"
is "a policy reached through a symlinked directory inside a write path: 125" \
	"$rc|$(test -e "$R/ran4" && echo ran)" "125|"

# Outside every write path and owned by root or the caller: by owner.
mkdir -p "$T/pol"
printf 'version = 1;\nname = "owned";\nfilesystem: { read = [ "/" ]; write = [ "%s" ]; };\naudit: { sync = false; };\n' "$R" > "$T/pol/owned.cfg"
run_gx -p "$T/pol/owned.cfg" -- true
if [ -z "$LL" ]; then
	like "a policy the command cannot change runs, trusted by owner" \
		"$rc|$rec" '^0\|.*"policy":\{[^}]*"trusted":"owner"'
else
	skip "$LL"
fi

# The trust store inside a write path would let the command trust its own.
GUARDEXEC_TRUST_STORE="$R/state/trusted" run_gx -p "$T/pol/owned.cfg" -- touch "$R/ran5"
like "a trust store inside a write path of the run: 125, nothing run" \
	"$rc|$(test -e "$R/ran5" && echo ran)|$err" \
	"^125\|\|guardexec: trust store $R/state/trusted lies inside filesystem.write \"$R\""

# Owned by another user (or in a directory another user owns).
if is_root; then
	mkdir -p "$T/other"
	cp "$T/pol/owned.cfg" "$T/other/p.cfg"
	chown 65534 "$T/other/p.cfg"
	run_gx -p "$T/other/p.cfg" -- touch "$T/ran6"
	like "as root, a policy owned by another user: 125 until trusted" \
		"$rc|$(test -e "$T/ran6" && echo ran)|$err" \
		"^125\|\|.*owned by uid 65534, not by root or you.*--trust"
	chown 0 "$T/other/p.cfg"
	chown 65534 "$T/other"
	run_gx -p "$T/other/p.cfg" -- touch "$T/ran7"
	like "as root, a root-owned policy in another user's directory: 125" \
		"$rc|$(test -e "$T/ran7" && echo ran)|$err" \
		"^125\|\|.*its directory $T/other is owned by uid 65534"
	"$GUARDEXEC" --trust "$T/other/p.cfg" > /dev/null 2>&1
	run_gx -p "$T/other/p.cfg" -- true
	if [ -z "$LL" ]; then
		like "... and runs once its bytes are trusted" "$rc|$rec" '^0\|.*"trusted":"hash"'
	else
		skip "$LL"
	fi
else
	for i in 1 2 3; do skip "needs root to chown"; done
fi

# 5. Every refusal explains itself, on stderr (unless -q) and in "notices".
unset GUARDEXEC_TRUST_STORE
SYS='"@default", "@process", "@signal", "@file-read", "@file-write", "@ipc", "@time"'
TO=$(policy to <<EOF2
version = 1;
name = "to";
limits: { timeout = 1; kill_grace = 0.5; };
audit: { sync = false; };
EOF2
)
run_gx -p "$TO" -- sleep 60
is "a timeout says so on stderr" "$rc|$err" \
	"124|guardexec: timed out after 1 s (limits.timeout)"
like "... and in the record's notices" "$rec" \
	'"notices":\["timed out after 1 s \(limits.timeout\)"\]'
run_gx -q -p "$TO" -- sleep 60
is "-q: nothing of guardexec's on stderr" "$rc|$err" "124|"
like "... the notice is still in the record" "$rec" '"notices":\["timed out after 1 s'
run_gx -p "$P" -- true
like "a clean run has an empty notices list" "$rc|$rec" '^0\|.*"notices":\[\]'
DG=$(policy dg <<EOF2
version = 1;
name = "dg";
syscalls: { allow = [ $SYS, "ptrace" ]; deny = [ "@debug" ]; };
audit: { sync = false; };
EOF2
)
run_gx -p "$DG" -- "$HELPERS/try-syscall" ptrace
is "a syscall denied by a deny group names the group" "$out|$err" \
	"ptrace: EPERM|guardexec: denied: ptrace (x1) by syscalls.deny (@debug)"
"$GUARDEXEC" -p "$DG" --check > /dev/null 2> "$T/err"
like "--check warns that allow and deny overlap" "$(cat "$T/err")" \
	'^guardexec: warning: syscalls: "ptrace" in allow and "@debug" in deny overlap \(ptrace\); deny wins$'
run_gx -p "$P" -- "$HELPERS/try-syscall" socket-inet
like "a syscall outside the allowlist names the group that would allow it" \
	"$err" '^guardexec: denied: socket \(x[0-9]+\): not in syscalls.allow \(@network or "socket" would allow it\)$'
FS=$(policy fsz <<EOF2
version = 1;
name = "fsz";
limits: { file_size = "1K"; };
audit: { sync = false; };
EOF2
)
run_gx -p "$FS" -C "$T" -- dd if=/dev/zero of=big bs=1024 count=100
like "a file_size limit says which and its value" "$rc|$(grep '^guardexec' "$T/stderr")" \
	'^153\|guardexec: file_size limit \(1K\) reached: killed$'
OK=$(policy ok <<EOF2
version = 1;
name = "ok";
output: { max_bytes = 100; on_overflow = "kill"; };
audit: { sync = false; };
EOF2
)
run_gx -p "$OK" -- yes
like "an output kill says so" "$rc|$(grep -v '^\[' "$T/stderr")" \
	'^1[0-9][0-9]\|guardexec: output limit \(100 bytes, output.max_bytes\) reached: killed$'
MEM=$(limits_policy mem 'memory = "64M"; timeout = 30;')
run_gx -p "$MEM" -- "$HELPERS/memhog" 1024
if printf '%s' "$rec" | grep -q '"limit_hit":"memory"'; then
	is "a memory kill says which limit and its value" "$rc|$err" \
		"137|guardexec: memory limit (64M) reached: killed"
else
	skip "no cgroup memory limit for this run (RLIMIT_AS: the allocation fails, nothing is killed)"
fi
PR=$(limits_policy procs 'processes = 20; timeout = 30; kill_grace = 1;')
run_gx -p "$PR" -- "$HELPERS/forkbomb" 200 "gxtrust-fb-$$"
if printf '%s' "$rec" | grep -q '"limit_hit":"processes"'; then
	like "a processes limit says which and its value" "$err" \
		'^guardexec: processes limit \(20\) reached'
else
	skip "no cgroup pids limit for this run (limit_hit: $(field limit_hit))"
fi

# 4. The same as an unprivileged user, with the default store in HOME.
if unpriv_setup; then
	U="$T/urepo"
	mkdir -p "$U/.guardexec" "$T/uhome"
	printf 'version = 1;\nname = "urepo";\nfilesystem: { read = [ "/" ]; write = [ "." ]; };\naudit: { sync = false; };\n' \
		> "$U/.guardexec/agent.cfg"
	if is_root; then chown -R 65534:65534 "$U" "$T/uhome"; fi
	ux() {
		as_user env -u GUARDEXEC_TRUST_STORE -u XDG_STATE_HOME \
			HOME="$T/uhome" "$GUARDEXEC" "$@" > "$T/u.out" 2> "$T/u.err"
		rc=$?
		err=$(cat "$T/u.err")
	}
	ux -l "$T/uhome/audit.log" -p "$U" -C "$U" -- touch "$U/ran-u1"
	is "unprivileged: an untrusted writable policy is refused (125)" \
		"$rc|$(test -e "$U/ran-u1" && echo ran)" "125|"
	ux --trust "$U/.guardexec/agent.cfg"
	is "unprivileged: --trust writes ~/.local/state/guardexec/trusted" \
		"$rc|$(cut -d' ' -f2 "$T/uhome/.local/state/guardexec/trusted")" \
		"0|$U/.guardexec/agent.cfg"
	ux -l "$T/uhome/audit.log" -p "$U" -C "$U" -- sh -c 'echo "# edited" >> .guardexec/agent.cfg'
	if [ -z "$LL" ]; then
		is "unprivileged: the trusted policy runs" "$rc" 0
	else
		skip "$LL"
	fi
	ux -l "$T/uhome/audit.log" -p "$U" -C "$U" -- touch "$U/ran-u2"
	if [ -z "$LL" ]; then
		is "unprivileged: once the command edited it, it is refused (125)" \
			"$rc|$(test -e "$U/ran-u2" && echo ran)" "125|"
	else
		skip "$LL"
	fi
else
	for i in 1 2 3 4; do skip "$UNPRIV_REASON"; done
fi

# 4b. guardexec inside a user namespace (another run's, a container's):
# an owner the namespace does not map shows as the overflow uid 65534,
# which is also the id of a caller running as uid 65534.  A policy of
# another user (12345, unmapped) must not pass as the caller's own.
if is_root && [ -n "$AS_USER" ] && [ "$AS_USER" != " " ]; then
	mkdir -p "$T/ns-other"
	cp "$T/pol/owned.cfg" "$T/ns-other/p.cfg"
	chown -R 12345:12345 "$T/ns-other"
	for how in "--map-user=65534 --map-group=65534" ""; do
		# shellcheck disable=SC2086
		if ! as_user unshare -U $how true 2> "$T/un.err"; then
			skip "unshare -U $how as uid 65534: $(cat "$T/un.err")"
			continue
		fi
		# shellcheck disable=SC2086
		as_user unshare -U $how "$GUARDEXEC" -l "$T/ns-$$.log" \
			-p "$T/ns-other/p.cfg" -- touch "$T/ran-ns" \
			> /dev/null 2> "$T/err"
		like "in a user namespace (unshare -U ${how:-without a map}), another user's policy seen as uid 65534 by uid 65534: 125" \
			"$?|$(test -e "$T/ran-ns" && echo ran)|$(cat "$T/err")" \
			"^125\|\|.*the file $T/ns-other/p.cfg is owned by a user this user namespace does not map \(shown as uid 65534\).*--trust"
		rm -f "$T/ran-ns"
	done
else
	for i in 1 2; do skip "needs root to make a file of another user, and uid 65534 (${UNPRIV_REASON:-running unprivileged})"; done
fi

# 6. No unrecorded run without saying so.
NOLOG=$(policy nolog <<'EOF2'
version = 1;
name = "nolog";
audit: { sync = false; syslog = false; on_log_failure = "refuse"; };
EOF2
)
WARNLOG=$(policy warnlog <<'EOF2'
version = 1;
name = "warnlog";
audit: { sync = false; syslog = false; on_log_failure = "warn"; };
EOF2
)
if [ -n "$AS_USER" ]; then
	mkdir -p "$T/rohome"
	chmod 555 "$T/rohome"
	as_user env -u XDG_STATE_HOME HOME="$T/rohome" "$GUARDEXEC" \
		-p "$NOLOG" -- touch "$T/ran-nolog" > /dev/null 2> "$T/err"
	is "refuse holds for the default log: an unwritable HOME gives 125, nothing run" \
		"$?|$(test -e "$T/ran-nolog" && echo ran)" "125|"
	as_user env -u XDG_STATE_HOME HOME="$T/rohome" "$GUARDEXEC" \
		-p "$WARNLOG" -- true > /dev/null 2> "$T/err"
	like "warn: with no log and no syslog, it runs and says nothing records it" \
		"$?|$(grep 'nothing records' "$T/err")" '^0\|guardexec: warning: nothing records this run'
else
	skip "$UNPRIV_REASON"; skip "$UNPRIV_REASON"
fi

finish
