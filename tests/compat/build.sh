#!/bin/bash
# build.cfg: building a checked-out project without the network
# (see tests/compat/lib.sh).
. "$TOP_SRCDIR/tests/compat/lib.sh"
P=$POL/build.cfg
setup_whos
need_landlock "$P"
project_tools "$P"

# What build.cfg refuses by design.
copy_helper try-syscall
start_listener
refuses "$P" "the network (a listener on the host's loopback)" . \
	'connect-tcp: E' ./try-syscall connect-tcp "$TCP"
project_refusals "$P"
echo "1..$_tap_n"
finish
