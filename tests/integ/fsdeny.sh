#!/bin/bash
# Filesystem denials name the path and the rule (issue 15, deliverable 3),
# and --learn learns paths (deliverable 4): attacked as a command would
# meet them, as root and as uid 65534.
. "$TOP_SRCDIR/tests/integ/lib.sh"
plan 46

SYSDIRS='"/usr", "/etc", "/lib", "/lib64", "/bin", "/dev/null", "/proc"'
mkdir -p "$T/secret" "$T/out" "$T/ro" "$T/work"
echo hidden > "$T/secret/f"
echo old > "$T/ro/f"
chmod -R a+rwX "$T/secret" "$T/out" "$T/ro" "$T/work"

# rec_fs: the record's filesystem.paths as "path|access|rule|syscall" lines.
rec_fs() {
	printf '%s\n' "$rec" | python3 -c '
import json, sys
r = json.loads(sys.stdin.read() or "{}")
fs = r.get("filesystem") or {}
if len(sys.argv) > 1:
    print(fs.get("observed", ""))
    sys.exit(0)
for d in fs.get("paths", []):
    print("%s|%s|%s|%s" % (d["path"], d["access"], d["rule"], d["syscall"]))
' "$@"
}

P=$(policy fs <<EOF2
version = 1;
name = "fsdeny";
// the calls sh, cat and touch make
syscalls: {
  allow = [ "@default", "@file-read", "@signal", "write", "writev", "clone",
            "clone3", "fork", "vfork", "wait4", "execve" ];
};
/* read-only but for
   /dev/null */
filesystem: { read = [ $SYSDIRS, "$T/ro", "." ]; write = [ "/dev/null" ]; };
EOF2
)

# 1. An ordinary run: a syscall refused by the allowlist (utimensat, from
# touch) on a path outside filesystem.write is explained as both, so that
# allowing the syscall alone is not mistaken for the fix.
run_gx -C "$T/work" -p "$P" -- touch newfile
check "touch under a read-only policy fails" test "$rc" != 0
like "stderr: the syscall denial" "$err" '^guardexec: denied: utimensat'
like "stderr: the path and the rule" "$err" \
	"^guardexec: filesystem: $T/work/newfile is outside filesystem.write \\((openat|utimensat)(, x[0-9]+)?\\)\$"
like "the record has it: path, access, rule, syscall" "$(rec_fs)" \
	"^$T/work/newfile\\|write\\|filesystem.write\\|(openat|utimensat)\$"
like "the record says what is not observable in ordinary runs" \
	"$(rec_fs r)" '^path syscalls: .*not observable here \(needs --learn'
like "the notice is in the record's notices" "$rec" \
	"\"notices\":\\[[^]]*filesystem: $T/work/newfile is outside filesystem.write"
run_gx -C "$T/work" -q -p "$P" -- touch newfile
unlike "-q: no guardexec line on stderr" "$err" '^guardexec:'
like "-q: the record still names the path" "$(rec_fs)" "^$T/work/newfile\\|write"

# No existence oracle: what an ordinary run says about a path outside the
# command's view does not depend on what exists there on the host.
run_gx -C "$T/work" -p "$P" -- touch -c "$T/secret/f" "$T/secret/nodir/f"
like "a hidden file that exists is named" "$err" \
	"filesystem: $T/secret/f is outside filesystem.write \\(utimensat\\)"
like "a hidden path that does not exist is named the same way" "$err" \
	"filesystem: $T/secret/nodir/f is outside filesystem.write \\(utimensat\\)"

run_gx -p "$P" --check
like "--check says how filesystem denials are observed" "$out" \
	'^# filesystem denials: named for path syscalls that open, create, remove or change .*--learn OUT'
# No syscalls group: nothing is notified, and the record says so.
P2=$(policy fs2 <<EOF2
version = 1;
name = "fsdeny-nosys";
filesystem: { read = [ $SYSDIRS ]; write = [ "/dev/null" ]; };
EOF2
)
run_gx -p "$P2" -- cat "$T/secret/f"
like "without a syscalls group: not observable, said once in the record" \
	"$(rec_fs r)" '^not observable here'
run_gx -p "$P2" --check
like "--check says so too" "$out" '^# filesystem denials: not observable in a run'

# 2. --learn names what the lists refused, read and write, and learns it.
cmd="cat $T/secret/f; echo new > $T/out/file; echo more >> $T/ro/f"
run_gx -p "$P" --learn "$T/learned.cfg" -- sh -c "$cmd"
like "learn: the read outside filesystem.read is named" "$err" \
	"^guardexec: filesystem: $T/secret/f is outside filesystem.read \\(open(at)?\\)\$"
like "learn: the write outside filesystem.write is named" "$err" \
	"^guardexec: filesystem: $T/out/file is outside filesystem.write \\(open(at)?\\)\$"
like "learn: the write into a read-only path too" "$err" \
	"filesystem: $T/ro/f is outside filesystem.write"
like "learn: the record has them" "$(rec_fs)" "^$T/secret/f\\|read\\|filesystem.read\\|"
like "learn: reporting is learn" "$(rec_fs r)" '^learn'
learned=$(cat "$T/learned.cfg" 2>/dev/null)
like "the learned read list adds the file read" "$learned" \
	"read = \\[ .*\"$T/secret/f\""
like "the learned write list adds the directory written" "$learned" \
	"write = \\[ \"/dev/null\", .*\"$T/out\""
like "a comment says what --learn added" "$learned" "# --learn added: .*\"$T/out\""
like "// and /* */ comments are kept, above their group" \
	"$(grep -B2 '^filesystem: {' "$T/learned.cfg" | tr '\n' '|')" \
	'^# read-only but for\|# /dev/null\|filesystem: \{'
unlike "an allowed path syscall is not reported as used" \
	"$(printf '%s\n' "$rec" | grep -o '"used":\[[^]]*\]')" '"openat"'
if python3 -c 'import jsonschema' 2> /dev/null; then
	printf '%s\n' "$rec" | python3 -c '
import json, sys, jsonschema
jsonschema.validate(json.loads(sys.stdin.read()), json.load(open(sys.argv[1])))
' "$TOP_SRCDIR/audit/record.schema.json"
	is "the record, filesystem object included, validates against record.schema.json" "$?" 0
else
	skip "python3 jsonschema is not installed"
fi
rm -f "$T/out/file"
run_gx -p "$T/learned.cfg" -- sh -c "$cmd"
is "the command runs under the learned policy" "$rc|$err" "0|"
is "and wrote what it wrote" "$(cat "$T/out/file" 2>/dev/null)" new

# A descriptor opened before the run (stdin from a file outside the lists)
# is no denial: fstat on it looks up no path.
sed 's/^name = "fsdeny";/name = "fsdeny-stdin";\ncommand: { stdin = "inherit"; };/' \
	"$P" > "$T/stdin.cfg"
run_gx -p "$T/stdin.cfg" --learn "$T/stdin-out.cfg" -- cat < "$T/secret/f"
is "learn: stdin from a hidden file is read, and no denial" \
	"$rc|$out|$(rec_fs)" "0|hidden|"

# 3. touch under the shipped readonly.cfg: --learn proposes the path (and
# the syscall); the learned policy lets touch work.
shipped_policies
run_gx -C "$T/work" -p "$POL/readonly.cfg" --learn "$T/ro.cfg" -- touch newfile
like "readonly.cfg: learning touch names the filesystem denial" "$err" \
	"filesystem: $T/work/newfile is outside filesystem.write"
learned=$(cat "$T/ro.cfg" 2>/dev/null)
like "the learned policy keeps the base policy's header comment" "$learned" \
	'^# readonly.cfg: inspecting a tree'
is "a key's comment stays above that key" \
	"$(grep -B1 '^  read = ' "$T/ro.cfg" | head -n 1)" \
	'  # "/proc", not "/proc/self" (that would name guardexec'"'"'s process).'
is "a comment beside a key is kept above it" \
	"$(grep -B1 '^  processes = ' "$T/ro.cfg" | head -n 1)" \
	'  # tasks, threads included (uid-wide where no cgroup)'
like "limits as written, not as raised for the run" "$learned" '^  processes = 256;$'
run_gx -C "$T/work" -p "$T/ro.cfg" -- touch newfile
is "touch works under its learned policy" "$rc|$err" "0|"
check "and made the file" test -e "$T/work/newfile"

# 4. git status in a subdirectory of a repository under $HOME: the walk up
# to .git is a filesystem denial; --learn proposes the work tree.
if command -v git > /dev/null 2>&1; then
	H=$T/home
	mkdir -p "$H/src/repo/sub"
	git -C "$H/src/repo" init -q 2>/dev/null
	echo x > "$H/src/repo/sub/file"
	PG=$(policy git <<EOF2
version = 1;
name = "fsdeny-git";
env: { set = { PATH = "/usr/bin:/bin"; HOME = "/nonexistent"; }; };
syscalls: {
  allow = [ "@default", "@file-read", "@signal", "write", "writev", "clone",
            "clone3", "fork", "vfork", "wait4", "execve" ];
};
filesystem: { read = [ $SYSDIRS, "." ]; write = [ "/dev/null" ]; };
EOF2
)
	HOME=$H run_gx -C "$H/src/repo/sub" -p "$PG" -- git status --short
	check "git status in the subdirectory fails under the policy" test "$rc" != 0
	HOME=$H run_gx -C "$H/src/repo/sub" -p "$PG" --learn "$T/git.cfg" \
		-- git status --short
	like "learning names the repository's work tree" "$err" \
		"filesystem: $H/src/repo is outside filesystem.read"
	like "the learned read list has the work tree (grouped), not its files" \
		"$(grep 'read = ' "$T/git.cfg")" "\"$H/src/repo\" \\];"
	HOME=$H run_gx -C "$H/src/repo/sub" -p "$T/git.cfg" -- git status --short
	# git's opportunistic index refresh (.git/index.lock) is refused and
	# named: the learned policy reads the work tree, it does not write it.
	is "git status works under the learned policy" \
		"$rc|$(printf '%s\n' "$err" | grep -v 'index.lock is outside filesystem.write')" "0|"
else
	for i in 1 2 3 4; do skip "git is not installed"; done
fi

# 5. Grouping below $HOME: a cache directory, not every file in it.
H=$T/home
mkdir -p "$H/.cache/pip/http/a" "$H/.cache/pip/http/b"
HOME=$H run_gx -p "$P" --learn "$T/pip.cfg" -- sh -c \
	"echo 1 > $H/.cache/pip/http/a/x; echo 2 > $H/.cache/pip/http/b/y"
like "~/.cache/pip is proposed as one write entry" \
	"$(grep 'write = ' "$T/pip.cfg")" "\"/dev/null\", \"$H/.cache/pip\" \\];"

# Never "/" nor the whole home: withheld, and said so.
HOME=$H run_gx -p "$P" --learn "$T/wide.cfg" -- sh -c "echo 1 >> $H/.history; ls / > /dev/null"
like "learning does not propose write access to the whole home" "$err" \
	"not proposed, add it by hand if you mean it: filesystem.write $H \\(for $H/.history\\)"
like "nor reading /" "$err" \
	'not proposed, add it by hand if you mean it: filesystem.read / \(for /\)'
unlike "the learned lists have neither" "$(grep -E '^  (read|write) = ' "$T/wide.cfg")" \
	"\"$H\"|\"/\""

# 6. The same as uid 65534.
if ! unpriv_setup; then
	for i in 1 2 3 4; do skip "$UNPRIV_REASON"; done
	finish
fi
chmod 644 "$P"
rm -f "$T/out/file"
as_user "$GUARDEXEC" -l "$T/u.log" -r "$T/u.json" -p "$P" -C "$T/work" \
	--learn "$T/u-learned.cfg" -- sh -c "$cmd" > "$T/stdout" 2> "$T/stderr"
rc=$?
err=$(cat "$T/stderr")
rec=$(cat "$T/u.json" 2>/dev/null)
like "as a user: the read outside filesystem.read is named" "$err" \
	"filesystem: $T/secret/f is outside filesystem.read"
like "as a user: the write outside filesystem.write is named" "$(rec_fs)" \
	"^$T/out/file\\|write\\|filesystem.write"
rm -f "$T/out/file"
as_user "$GUARDEXEC" -l "$T/u.log" -p "$T/u-learned.cfg" -C "$T/work" \
	-- sh -c "$cmd" > "$T/stdout" 2> "$T/stderr"
is "as a user: the command runs under its learned policy" \
	"$?|$(cat "$T/stderr")" "0|"
as_user "$GUARDEXEC" -l "$T/u.log" -r "$T/u.json" -p "$P" \
	-C "$T/work" -- touch newfile2 > "$T/stdout" 2> "$T/stderr"
like "as a user: touch's refused utimensat is explained by path" \
	"$(cat "$T/stderr")" "filesystem: $T/work/newfile2 is outside filesystem.write \\((openat|utimensat)"
finish
