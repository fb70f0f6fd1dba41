#!/bin/sh
# The smallest locate, end to end: the program of Figure 7.9 in Qi Dawei's
# thesis reads a config file; record it where the file is well formed,
# break the file, and let envbisect locate name the call that differs.
# Run from the repository root after `make build`, as root (it traces).
set -eu
bin=${ENVBISECT:-./bin/envbisect}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gcc -O2 -o "$work/fig79" testdata/victims/fig79.c
cd "$work"
printf 'key=value\n' > config.txt
echo "== record where it works (config.txt holds 'key=value')"
"$OLDPWD/$bin" record -o good.envb -- ./fig79 config.txt
printf 'key value\n' > config.txt
echo
echo "== here config.txt holds 'key value', and the program fails:"
./fig79 config.txt || true
echo
echo "== envbisect locate good.envb -- ./fig79 config.txt"
"$OLDPWD/$bin" locate good.envb -- ./fig79 config.txt
