# prefix.sh: run any tool command under guardexec.  Source it, then prefix:
#
#     . examples/prefix.sh
#     guarded git status --short    # exit status: the command's own,
#                                   # 124 timed out, 125 refused (nothing ran)
#     GUARDEXEC_POLICY=.guardexec/agent.cfg guarded make test
#
# GUARDEXEC_POLICY: a policy file, a directory holding .guardexec/agent.cfg,
# or an installed policy's name (default "agent": /etc/guardexec/agent.cfg).
# -q keeps advisory warnings out of the output; the audit record has them.
#
# An agent framework's tool runner that execs an argv: prefix the argv,
#     argv = ["guardexec", "-p", policy, "-q", "--", *argv]
# One that takes a shell command line from the model: hand the whole line
# to a shell *inside* guardexec, as one argument, so the policy (not the
# runner's shell) governs everything it starts:
#     guarded sh -c "$model_command"
guarded() { guardexec -p "${GUARDEXEC_POLICY:-agent}" -q -- "$@"; }
