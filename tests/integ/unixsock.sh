#!/bin/bash
# Issue 13, bullet 4: under network "none" a pathname AF_UNIX socket the
# caller's side bound (a docker.sock, the system bus, an ssh-agent) is out
# of the command's reach even where the policy lets it read the path:
# connect (stream and datagram), sendto and sendmsg with a destination
# are refused, named on stderr and in the record.  Local IPC keeps
# working with no denial noise: sockets the command binds in the write
# tree or a private /tmp, socketpairs.  network.unix allows named
# sockets; network "all" changes nothing.  As root and as uid 65534.
. "$TOP_SRCDIR/tests/integ/lib.sh"

PLAN_PER=38
whos_setup
U="$HELPERS/unix-gate"
NW=$(echo $WHOS | wc -w)
plan $((NW * PLAN_PER))
chmod 1777 "$T"
sys_reads "$HELPERS"

# count WORD FILE: lines of FILE that are WORD.
count() { grep -c "^$1\$" "$2" 2>/dev/null || true; }

for who in $WHOS; do
	NS_REASON=""
	if ! command -v unshare > /dev/null 2>&1; then
		NS_REASON="no unshare(1) to ask the kernel about namespaces"
	elif ! as "$who" unshare --user --pid --mount --ipc --net --fork true \
		2> /dev/null; then
		NS_REASON="the kernel refuses user namespaces to $who here"
	fi
	if [ -n "$NS_REASON" ]; then
		for _i in $(seq 1 $PLAN_PER); do skip "$who: $NS_REASON"; done
		continue
	fi
	W="$T/w-$who" R="$T/r-$who"
	mkdir -p "$W" "$R"
	chmod 777 "$W" "$R"
	POL_NONE=$(policy "none-$who" <<EOF
version = 1;
name = "unix-none";
filesystem: { read = [ $READS"$R" ]; write = [ "$W" ]; tmp = "private"; };
network: { mode = "none"; };
audit: { sync = false; syslog = false; };
EOF
)
	POL_ALLOW=$(policy "allow-$who" <<EOF
version = 1;
name = "unix-allow";
filesystem: { read = [ $READS"$R" ]; write = [ "$W" ]; tmp = "private"; };
network: { mode = "none"; unix = [ "$R/s.sock" ]; };
audit: { sync = false; syslog = false; };
EOF
)
	POL_SC=$(policy "sc-$who" <<EOF
version = 1;
name = "unix-sc";
syscalls: { allow = [ "@default", "@file-read", "@file-write", "@process",
  "@signal", "@ipc", "@time", "@network" ]; };
filesystem: { read = [ $READS"$R", "/proc", "/dev" ]; write = [ "$W", "/dev/null", "/dev/shm" ];
  tmp = "private"; };
network: { mode = "none"; };
audit: { sync = false; syslog = false; };
EOF
)
	POL_REQ=$(policy "req-$who" <<EOF
version = 1;
name = "unix-req";
filesystem: { read = [ $READS"$R" ]; write = [ "$W" ]; };
network: { mode = "none"; };
isolation: { require = [ "unix" ]; };
audit: { sync = false; syslog = false; };
EOF
)
	POL_REQALL=$(policy "reqall-$who" <<EOF
version = 1;
name = "unix-reqall";
filesystem: { read = [ $READS"$R" ]; write = [ "$W" ]; };
isolation: { require = [ "unix" ]; };
audit: { sync = false; syslog = false; };
EOF
)
	POL_ALL=$(policy "all-$who" <<EOF
version = 1;
name = "unix-all";
filesystem: { read = [ $READS"$R" ]; write = [ "$W" ]; tmp = "private"; };
network: { mode = "all"; };
audit: { sync = false; syslog = false; };
EOF
)
	# The caller's listeners, on a path the policy only reads.  They
	# write their own pids ($! is the subshell of as()).
	rm -f "$T/ss-$who.pid" "$T/sd-$who.pid"
	# shellcheck disable=SC2016
	as "$who" sh -c 'echo $$ > "$1"; exec "$2" serve-stream "$3"' sh \
		"$T/ss-$who.pid" "$U" "$R/s.sock" > "$T/ss-$who.out" 2>&1 &
	# shellcheck disable=SC2016
	as "$who" sh -c 'echo $$ > "$1"; exec "$2" serve-dgram "$3"' sh \
		"$T/sd-$who.pid" "$U" "$R/d.sock" > "$T/sd-$who.out" 2>&1 &
	wait_for test -s "$T/ss-$who.pid"
	wait_for test -s "$T/sd-$who.pid"
	track_pid "$(cat "$T/ss-$who.pid")" "$(cat "$T/sd-$who.pid")"
	wait_for grep -q listening "$T/ss-$who.out"
	wait_for grep -q listening "$T/sd-$who.out"

	# 1. network none: the caller's sockets are out of reach.
	g "$who" "$POL_NONE" -- "$U" connect-stream "$R/s.sock" \
		connect-dgram "$R/d.sock" sendto-dgram "$R/d.sock" \
		sendmsg-dgram "$R/d.sock" uring-setup connect-long
	is "$who, network none: an address longer than sockaddr_un" \
		"$(line connect-long)" 'connect-long: EINVAL'
	like "$who, network none: no io_uring (its connect passes by seccomp)" \
		"$(line uring-setup)" '^uring-setup: E[A-Z]+$'
	for op in connect-stream connect-dgram sendto-dgram sendmsg-dgram; do
		like "$who, network none: $op to a read-only path's socket is refused" \
			"$(line $op)" "^$op: E[A-Z]+\$"
	done
	is "$who, network none: nothing reached the stream listener" \
		"$(count accepted "$T/ss-$who.out")" 0
	is "$who, network none: nothing reached the datagram listener" \
		"$(count received "$T/sd-$who.out")" 0
	like "$who, network none: stderr names the refused socket" "$err" \
		"AF_UNIX.*$R/s\\.sock"
	like "$who, network none: stderr names the datagram destination" "$err" \
		"AF_UNIX.*$R/d\\.sock"
	like "$who, network none: the record names the refused socket" "$rec" \
		"AF_UNIX[^\"]*$R/s\\.sock"
	like "$who, network none: the record's isolation says how unix is gated" \
		"$rec" '"unix":"[a-z]'
	like "$who, network none: --check says how unix is gated" \
		"$(as "$who" "$GUARDEXEC" -p "$POL_NONE" --check 2>&1)" \
		'# unix: notify: '

	# 2. Local IPC: sockets the command binds itself, socketpairs.
	g "$who" "$POL_NONE" -- "$U" self-stream "$W/own.sock" \
		self-dgram "$W/own-d.sock" self-stream "/tmp/gx-own-$$.sock" \
		self-dgram "/tmp/gx-own-d-$$.sock" socketpair
	is "$who, network none: all local IPC works" "$rc" 0
	is "$who, network none: a stream socket bound in the write tree" \
		"$(line self-stream)" "self-stream: ok"
	is "$who, network none: a datagram socket bound in the write tree" \
		"$(line self-dgram)" "self-dgram: ok"
	is "$who, network none: a socketpair" "$(line socketpair)" \
		"socketpair: ok"
	unlike "$who, network none: local IPC makes no denial noise" "$err" \
		'AF_UNIX|denied|refused'
	unlike "$who, network none: ... nor in the record" "$rec" \
		'AF_UNIX|"denied":\[\{'
	check "$who, tmp private: the command's /tmp sockets stayed private" \
		test ! -e "/tmp/gx-own-$$.sock" -a ! -e "/tmp/gx-own-d-$$.sock"

	# 3. network.unix names a socket the command may reach.
	g "$who" "$POL_ALLOW" -- "$U" connect-stream "$R/s.sock" \
		sendto-dgram "$R/d.sock"
	is "$who, network.unix: the named socket connects" \
		"$(line connect-stream)" "connect-stream: ok"
	like "$who, network.unix: another one stays refused" \
		"$(line sendto-dgram)" '^sendto-dgram: E[A-Z]+$'
	wait_for test "$(count accepted "$T/ss-$who.out")" = 1
	is "$who, network.unix: the listener saw one connection" \
		"$(count accepted "$T/ss-$who.out")" 1
	is "$who, network.unix: ... and no datagram" \
		"$(count received "$T/sd-$who.out")" 0

	# 4. network all: nothing changes.
	g "$who" "$POL_ALL" -- "$U" connect-stream "$R/s.sock" \
		connect-dgram "$R/d.sock" sendto-dgram "$R/d.sock" \
		sendmsg-dgram "$R/d.sock"
	is "$who, network all: every operation works" "$rc" 0
	unlike "$who, network all: no denial noise" "$err" 'AF_UNIX|denied'
	wait_for test "$(count received "$T/sd-$who.out")" = 2
	is "$who, network all: the datagram listener got both datagrams" \
		"$(count received "$T/sd-$who.out")" 2

	# 5. The same under a syscalls group (every sendto is notified).
	g "$who" "$POL_SC" -- "$U" connect-stream "$R/s.sock" \
		sendto-dgram "$R/d.sock" sendto-hi "$R/d.sock"
	is "$who, syscalls group: connect to the caller's socket is refused" \
		"$(line connect-stream)" 'connect-stream: EACCES'
	is "$who, syscalls group: sendto it too" \
		"$(line sendto-dgram)" 'sendto-dgram: EACCES'
	is "$who, syscalls group: ... with an address whose low 32 bits are 0" \
		"$(line sendto-hi)" 'sendto-hi: EACCES'
	g "$who" "$POL_SC" -- "$U" self-stream "$W/sc.sock" \
		self-dgram "/tmp/gx-sc-$$.sock" socketpair
	is "$who, syscalls group: local IPC works" "$rc" 0
	unlike "$who, syscalls group: ... with no denial noise" "$err" \
		'AF_UNIX|denied|refused'
	is "$who: the listeners saw nothing more" \
		"$(count accepted "$T/ss-$who.out") $(count received "$T/sd-$who.out")" \
		"2 2"

	# isolation.require = [ "unix" ]: the gate or nothing.
	g "$who" "$POL_REQ" -- "$U" connect-stream "$R/s.sock"
	is "$who, require unix: runs with the gate" "$rc|$(line connect-stream)" \
		"1|connect-stream: EACCES"
	g "$who" "$POL_REQALL" -- "$U" socketpair
	like "$who, require unix with network all: refused, nothing run" \
		"$rc|$out|$err" '^125\|\|.*isolation.require: "unix" is not available'

	# 6. Python's multiprocessing and an asyncio unix server (they bind
	# in /tmp and the write tree) under network none.
	if ! command -v python3 > /dev/null 2>&1; then
		skip "$who: no python3"; skip "$who: no python3"
		skip "$who: no python3"
		continue
	fi
	cp "$TOP_SRCDIR/tests/integ/unixsock-ipc.py" "$R/ipc.py"
	chmod 644 "$R/ipc.py"
	g "$who" "$POL_SC" -C "$W" -- /usr/bin/env TMPDIR=/tmp python3 \
		"$R/ipc.py" "$W/aio.sock"
	is "$who, python under network none: asyncio and multiprocessing work" \
		"$rc|$out" "0|ipc ok"
	unlike "$who, python: no denial noise" "$err" 'AF_UNIX|denied|refused'
	like "$who, python: the record says the gate was in force" "$rec" \
		'"unix":"notify"'
done
finish
