#!/bin/bash
# The environment is built from nothing: a secret in the caller's
# environment never reaches the command, and only names are logged.
. "$TOP_SRCDIR/tests/integ/lib.sh"
plan 12

P=$(policy env <<'EOF2'
version = 1;
name = "env";
env: {
  allow = [ "LANG", "GXT_*" ];
  set = { PATH = "/usr/bin:/bin"; HOME = "/tmp"; GXT_FORCED = "policy"; };
};
audit: { sync = false; };
EOF2
)
export AWS_SECRET_ACCESS_KEY=gx-secret-value-123
export LANG=C.UTF-8 GXT_ONE=1 GXT_FORCED=caller LANGUAGE=xx

run_gx -p "$P" -- env
unlike "the secret does not reach the command" "$out" 'AWS_SECRET_ACCESS_KEY|gx-secret-value'
like "an allowed name passes" "$out" '^LANG=C.UTF-8$'
like "a prefix pattern passes" "$out" '^GXT_ONE=1$'
like "set wins over the caller's value" "$out" '^GXT_FORCED=policy$'
unlike "a name sharing a prefix without * does not pass" "$out" '^LANGUAGE='
is "exactly the expected names" "$(printf '%s\n' "$out" | cut -d= -f1 | sort | tr '\n' ' ')" \
	"GXT_FORCED GXT_ONE HOME LANG PATH "
like "record lists passed names" "$rec" '"passed":\["GXT_FORCED","GXT_ONE","HOME","LANG","PATH"\]'
like "record lists the dropped secret's name" "$rec" '"dropped":\[[^]]*"AWS_SECRET_ACCESS_KEY"'
unlike "no value is logged" "$(cat "$T/audit.log")" 'gx-secret-value|C\.UTF-8'

P2=$(plain_policy noenv)
run_gx -p "$P2" -- env
is "no env group: only PATH" "$out" "PATH=/usr/bin:/bin"

# PATH lookup happens on the built PATH, not the caller's.
mkdir -p "$T/bin"
printf '#!/bin/sh\necho fake\n' > "$T/bin/gx-only-here"
chmod 755 "$T/bin/gx-only-here"
PATH="$T/bin:$PATH" run_gx -p "$P2" -- gx-only-here
is "the caller's PATH is not used for the lookup" "$rc" 127
P3=$(policy withpath <<EOF2
version = 1;
name = "withpath";
env: { set = { PATH = "$T/bin:/usr/bin:/bin"; }; };
audit: { sync = false; };
EOF2
)
run_gx -p "$P3" -- gx-only-here
is "the policy's PATH is used for the lookup" "$out" "fake"
finish
