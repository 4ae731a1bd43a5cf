#!/bin/bash
# The --init template (guardexec --init DIR): what `guardexec -p . --
# make test` meets on a project's first day (see tests/compat/lib.sh).
. "$TOP_SRCDIR/tests/compat/lib.sh"
mkdir -p "$POL/init" &&
	"$GUARDEXEC" --init "$POL/init" > /dev/null 2>&1 &&
	cp "$POL/init/.guardexec/agent.cfg" "$POL/init.cfg" &&
	chmod 644 "$POL/init.cfg" ||
	{ echo "Bail out! guardexec --init failed"; exit 1; }
P=$POL/init.cfg
setup_whos
need_landlock "$P"
project_tools "$P"

# What the template refuses by design.
copy_helper try-syscall
project_refusals "$P"
echo "1..$_tap_n"
finish
