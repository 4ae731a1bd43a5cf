#!/bin/bash
# Filesystem denials explain themselves in ORDINARY runs (issue 15,
# deliverable 3): a read or write the kernel refuses through Landlock
# (EACCES) or the mount view (ENOENT, EROFS) is named by path and rule,
# once, with the mount view and without it (the forced fallback), as root
# and as uid 65534; allowed paths are never named.
. "$TOP_SRCDIR/tests/integ/lib.sh"
plan 36

SYSDIRS='"/usr", "/etc", "/lib", "/lib64", "/bin", "/dev/null", "/proc"'
mkdir -p "$T/secret" "$T/ro/d" "$T/rw"
echo hidden > "$T/secret/f"
echo old > "$T/ro/f"
echo old > "$T/ro/g"
chmod -R a+rwX "$T/secret" "$T/ro" "$T/rw"

P=$(policy fsx <<EOF2
version = 1;
name = "fsexplain";
syscalls: {
  allow = [ "@default", "@file-read", "@file-write", "@signal", "@process",
            "write", "writev" ];
};
filesystem: { read = [ $SYSDIRS, "$T/ro" ]; write = [ "/dev/null", "$T/rw" ]; };
EOF2
)
chmod 644 "$P"

# Where the seccomp listener cannot be had (nested, or an old kernel),
# nothing is observable: the record says so (fsdeny.sh), this is skipped.
run_gx -p "$P" -- true
case $rec in
*'"observed":"not observable'*) skip_all "no seccomp listener here: $(printf '%s' "$rec" | sed -n 's/.*"observed":"\([^"]*\)".*/\1/p')" ;;
esac

# The denials one command meets: a read, an open for writing, a creation,
# mkdir, unlink, rename, each outside its list; and the same read twice.
cmd="cat $T/secret/f; cat $T/secret/f; echo x > $T/ro/f; echo y > $T/ro/new;
mkdir $T/ro/dir; rm -f $T/ro/g; mv $T/ro/d $T/ro/e; cat $T/ro/f; true"

# check_all LABEL: the denials of $cmd in $err and $rec.
check_all() {
	local l=$1 w='is outside filesystem.write'
	like "$l: the read outside filesystem.read is named" "$err" \
		"^guardexec: filesystem: $T/secret/f is outside filesystem.read \\(open(at)?, x2\\)\$"
	is "$l: named once" "$(printf '%s\n' "$err" | grep -c "^guardexec: .*$T/secret/f")" 1
	like "$l: open for writing" "$err" "filesystem: $T/ro/f $w \\(open(at)?\\)"
	like "$l: creating a file" "$err" "filesystem: $T/ro/new $w \\(open(at)?\\)"
	like "$l: mkdir" "$err" "filesystem: $T/ro/dir $w \\(mkdir(at)?\\)"
	like "$l: unlink" "$err" "filesystem: $T/ro/g $w \\(unlink(at)?\\)"
	like "$l: rename" "$err" "filesystem: $T/ro/d $w \\(rename"
	like "$l: the record has them" "$(printf '%s\n' "$rec" | grep -o \
		'"paths":\[.*')" "\"path\":\"$T/secret/f\",\"access\":\"read\""
	unlike "$l: an allowed read is not named" "$err" "filesystem: $T/ro/f is outside filesystem.read"
}

run_gx -p "$P" -- sh -c "$cmd"
check_all "mount view or Landlock"
like "the record says what an ordinary run observes" "$rec" \
	'"observed":"path syscalls:'

# -q: nothing on stderr, the record still has it.
run_gx -q -p "$P" -- cat "$T/secret/f"
unlike "-q: no guardexec line" "$err" '^guardexec:'
like "-q: the record names it" "$rec" "\"path\":\"$T/secret/f\""

# The issue's example: head of a file outside the read list.
run_gx -p "$P" -- head -n 1 "$T/secret/f"
is "head outside filesystem.read: one line, the rule" "$(printf '%s\n' "$err" | grep '^guardexec:')" \
	"guardexec: filesystem: $T/secret/f is outside filesystem.read (openat)"

# No noise: a compile and Python imports inside the read tree, probing
# paths that do not exist there, produce no filesystem line.
if command -v cc > /dev/null 2>&1; then
	printf '#include <stdio.h>\nint main(void){puts("hi");return 0;}\n' \
		> "$T/rw/hello.c"
	run_gx -C "$T/rw" -p "$P" -- cc -o hello hello.c
	is "cc inside the lists: no filesystem line" "$rc|$(printf '%s\n' "$err" | grep -c filesystem:)" "0|0"
else
	skip "cc is not installed"
fi
if command -v python3 > /dev/null 2>&1; then
	run_gx -C "$T/rw" -p "$P" -- python3 -c 'import json, email.mime.text, xml.dom.minidom, importlib.util; print(importlib.util.find_spec("nosuchmodule"))'
	is "python imports inside the lists: no filesystem line" "$rc|$(printf '%s\n' "$err" | grep -c filesystem:)" "0|0"
else
	skip "python3 is not installed"
fi

# A flood of watched calls does not stall the timeout; the list is bounded.
sed 's/^name = "fsexplain";/name = "fsexplain-flood";\nlimits: { timeout = 2; };/' \
	"$P" > "$T/flood.cfg"
run_gx -p "$T/flood.cfg" -- sh -c "i=0; while :; do i=\$((i+1)); cat $T/secret/x\$i 2>/dev/null; done"
is "a flood of denials still times out" "$rc" 124
n=$(printf '%s\n' "$rec" | grep -o '"access":"read"' | wc -l)
check "the record's list is bounded ($n)" test "$n" -le 256

# --check says what an ordinary run observes.
run_gx -p "$P" --check
like "--check: named in ordinary runs" "$out" '^# filesystem denials: named for path syscalls'

reset_tree() {
	rm -rf "$T/ro/e" "$T/ro/dir" "$T/ro/new"; mkdir -p "$T/ro/d"
	echo old > "$T/ro/g"; chmod -R a+rwX "$T/ro"
}

# As uid 65534.
if ! unpriv_setup; then
	for i in $(seq 18); do skip "$UNPRIV_REASON"; done
	finish
fi
reset_tree
as_user "$GUARDEXEC" -l "$T/u.log" -r "$T/u.json" -p "$P" -- sh -c "$cmd" \
	> "$T/stdout" 2> "$T/stderr"
err=$(cat "$T/stderr"); rec=$(cat "$T/u.json" 2>/dev/null)
check_all "as a user"

# Without namespaces (the fallback: Landlock only, EACCES), as uid 65534
# (as root without a mount namespace the filesystem group needs
# command.user, which the wrapper's user namespace cannot switch to).
if no_ns_setup; then
	reset_tree
	rm -f "$T/u.json"
	as_user $NO_NS "$GUARDEXEC" -l "$T/u.log" -r "$T/u.json" -p "$P" -- sh -c "$cmd" \
		> "$T/stdout" 2> "$T/stderr"
	err=$(cat "$T/stderr"); rec=$(cat "$T/u.json" 2>/dev/null)
	check_all "no namespaces"
else
	for i in $(seq 9); do skip "$NO_NS_REASON"; done
fi
finish
