// Package scenarios holds envbisect's end-to-end cases: small victim
// programs (C sources in testdata/victims), a good and a bad environment
// for each, and what `envbisect locate` must find when the program is
// recorded in the good environment and located in the bad one.
//
// The package is not a test: the tests in test/e2e/scenarios run every
// case, and `make bench` runs the same cases to report recorded calls,
// runs and wall times (`make locate-runs`: the runs per locate of every
// scenario and case study). A caller
//
//  1. picks a Scenario from All,
//  2. calls Prepare with the repository root and an empty work directory:
//     it builds the victims into WORK/bin and writes the two environments,
//     WORK/good and WORK/bad,
//  3. runs RecordArgv (good), LocateArgv or ReplayArgv (bad), or NativeArgv
//     (either) with Run, passing Environ(side) as the environment and
//     holding Occupy (via Work.Hold) around every bad run.
//
// # Environments
//
// Both environments are real directory trees. A command runs in one of them
// through a wrapper,
//
//	unshare --mount --propagation private -- sh -c 'mount --bind "$1" "$2" && shift 2 && exec "$@"' sh WORK/good WORK/env CMD...
//
// so that the one absolute path WORK/env holds the good tree in one run and
// the bad tree in the other, as /etc would on two machines, without
// touching the host: the mount lives in a private mount namespace that
// disappears with its last process. Everything the program is given
// (argv, the trace file, the victims in WORK/bin) lies outside WORK/env and
// is the same in both runs. A few scenarios differ in something else as
// well: a TCP port that another process holds during bad runs (Occupy), or
// an environment variable set for bad runs only (BadEnv).
//
// # Expected culprits
//
// No sequence number is written down here: it is found in the recorded
// trace (`envbisect show --json`, see ReadTrace) as the first call that
// Culprit.Find matches, by syscall, path under WORK/env and process, and a
// test then compares locate's culprit with that call.
package scenarios
