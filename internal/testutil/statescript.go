package testutil

// StateScript is the state-creating command of the hermetic-run tests
// (test/e2e/sandbox, and in a container test/e2e/containers), run in a
// work directory that holds old.log, data/ and conf: it refuses to
// initialise over a state directory it finds, creates, deletes, renames
// and chmods files, fails on a bad configuration (conf without
// mode=good), and will not overwrite its output. A run that leaked its
// state into the next one would make every later run fail for that.
const StateScript = `#!/bin/sh
[ -e state ] && { echo "state exists: refusing to initialise over it" >&2; exit 1; }
mkdir state
echo 1 > state/a; mv state/a state/b; chmod 600 state/b
rm old.log; echo new > new.log; chmod 700 data
grep -q mode=good conf || { echo "bad configuration" >&2; exit 1; }
set -C; echo done > out
`
