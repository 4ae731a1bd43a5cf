#!/bin/bash
# Guarantee 4: only fds 0-2, no controlling terminal, no_new_privs, and
# guardexec's own environment unreadable.
. "$TOP_SRCDIR/tests/integ/lib.sh"
plan 7

P=$(plain_policy fds)
export GX_SECRET_MARKER=leak-me
run_gx -p "$P" -- "$HELPERS/fds" 7>"$T/seven" 9<"$P"
like "only 0 1 2 are open (7 and 9 were open in guardexec)" "$out" '^fds: 0 1 2$'
like "no_new_privs is set" "$out" '^nnp: 1$'
like "no controlling terminal" "$out" '^ctty: none$'
like "guardexec's environment holds no secret" "$out" '^parent_environ_secret: no$'

# With a real terminal on the caller's side (script(1) makes one).
if command -v script >/dev/null 2>&1; then
	script -qec "$GUARDEXEC -l $T/audit.log -p $P -- $HELPERS/fds" /dev/null \
		> "$T/tty.out" 2>&1 < /dev/null
	like "no controlling terminal even when the caller has one" \
		"$(tr -d '\r' < "$T/tty.out")" '^ctty: none$'
	P2=$(policy inherit <<'EOF2'
version = 1;
name = "inherit";
command: { stdin = "inherit"; };
audit: { sync = false; };
EOF2
)
	script -qec "$GUARDEXEC -l $T/audit.log -p $P2 -- $HELPERS/try-syscall tiocsti" \
		/dev/null > "$T/tty2.out" 2>&1 < /dev/null
	like "TIOCSTI into the caller's terminal is refused" \
		"$(tr -d '\r' < "$T/tty2.out")" '^tiocsti: (EPERM|EIO|ENOTTY|EACCES)'
else
	skip "script(1) is not installed"
	skip "script(1) is not installed"
fi

echo data > "$T/in"
P3=$(plain_policy stdin)
run_gx -p "$P3" -- cat < "$T/in"
is "stdin is /dev/null by default" "$out" ""
finish
