package scenarios

import (
	"fmt"
	"strconv"
)

// All returns the scenarios, in the order of the issue's list. Each call
// returns fresh values.
func All() []Scenario {
	return []Scenario{
		fig79Config(),
		pidFile(),
		portInUse(),
		openEarlyReadLate(),
		writeReadBack(),
		processTree(),
		serverClient(),
		noFailure(),
		inputOnly(),
		envVar(),
		divergence(),
		pollingThreads(),
	}
}

// ByName returns the scenario called name.
func ByName(name string) (Scenario, bool) {
	for _, s := range All() {
		if s.Name == name {
			return s, true
		}
	}
	return Scenario{}, false
}

// fig79Good is a well-formed config for fig79.c.
const fig79Good = "key=value\n"

// 1. The thesis' Figure 7.9 program with a badly formatted config.
func fig79Config() Scenario {
	return Scenario{
		Name:    "fig79-config",
		Issue:   1,
		Summary: "the thesis' Figure 7.9 program (fig79.c) reads a badly formatted config",
		Differs: `env/config.txt reads "key=value\n" in the good environment and "value\n" in the bad one`,
		Victims: []string{"fig79.c"},
		Setup: func(w *Work) error {
			return firstErr(
				w.Write(Good, "config.txt", fig79Good),
				w.Write(Bad, "config.txt", "value\n"),
			)
		},
		Command: func(w *Work) []string { return []string{w.Victim("fig79"), w.EnvPath("config.txt")} },
		Want: Want{
			GoodExit: 0, BadExit: 1, Status: "located", ExitCode: 0,
			Culprit: &Culprit{Syscalls: []string{"openat", "open"}, Path: "config.txt", Exe: "fig79", Content: true},
		},
	}
}

// 2. A pid file in a directory that the bad environment lacks.
func pidFile() Scenario {
	return Scenario{
		Name:    "pidfile",
		Issue:   2,
		Summary: "a daemon-like program (pidfile.c) writes its pid file into env/run/, as MPD writes /var/run/mpd/pid",
		Differs: "env/run/ exists in the good environment and is missing in the bad one",
		Victims: []string{"pidfile.c"},
		Setup: func(w *Work) error {
			return firstErr(
				w.Mkdir(Good, "run"),
				w.Write(Good, "README", "run/ holds the pid file\n"),
				w.Write(Bad, "README", "run/ holds the pid file\n"),
			)
		},
		Command: func(w *Work) []string { return []string{w.Victim("pidfile"), w.EnvPath("run/app.pid")} },
		Want: Want{
			GoodExit: 0, BadExit: 1, Status: "located", ExitCode: 0,
			Culprit: &Culprit{Syscalls: []string{"openat", "open", "creat"}, Path: "run/app.pid", BadErrno: "ENOENT"},
		},
	}
}

// serverLifetime is how long tcpserver serves in scenario 3 before it
// exits 0 by itself: above the --alive duration, so that a run that works
// is still alive when judged, and a recording (which has no --alive) ends.
const serverLifetime = "3"

// 3. A TCP server whose port is taken, judged with --alive 2s.
func portInUse() Scenario {
	return Scenario{
		Name:      "port-in-use",
		Issue:     3,
		Summary:   "a TCP server (tcpserver.c) binds 127.0.0.1:PORT; success is being alive after 2 s (the thesis' web-server case)",
		Differs:   "in the bad environment the test itself listens on PORT, so the server's bind fails with EADDRINUSE; the trees are the same",
		Victims:   []string{"tcpserver.c"},
		NeedsPort: true,
		Command: func(w *Work) []string {
			return []string{w.Victim("tcpserver"), strconv.Itoa(w.Port), serverLifetime}
		},
		Occupy:  HoldPort,
		Verdict: []string{"--alive", "2s"},
		Want: Want{
			GoodExit: 0, BadExit: 1, Status: "located", ExitCode: 0,
			Culprit: &Culprit{Syscalls: []string{"bind"}, Resource: "{port}", BadErrno: "EADDRINUSE"},
		},
	}
}

// 4. A config opened early and read late (the fd dependency).
func openEarlyReadLate() Scenario {
	return Scenario{
		Name:  "open-early-read-late",
		Issue: 4,
		Summary: "openlate.c opens env/app.conf first, stats env/data/ready, reads app.conf last: " +
			"replaying the open without executing it would make the late read fail with EBADF",
		Differs: "env/data/ready exists in the good environment only; env/app.conf is the same in both",
		Victims: []string{"openlate.c"},
		Setup: func(w *Work) error {
			return firstErr(
				w.WriteBoth("app.conf", "mode=ok\n"),
				w.Write(Good, "data/ready", ""),
				w.Mkdir(Bad, "data"),
			)
		},
		Command: func(w *Work) []string { return []string{w.Victim("openlate"), w.Env} },
		Want: Want{
			GoodExit: 0, BadExit: 1, Status: "located", ExitCode: 0,
			Culprit: &Culprit{Syscalls: []string{"newfstatat", "stat", "statx", "fstatat64"}, Path: "data/ready", BadErrno: "ENOENT"},
		},
	}
}

// 5. The program writes a file, then reads it back (the implicit
// dependency through a path).
func writeReadBack() Scenario {
	return Scenario{
		Name:  "write-read-back",
		Issue: 5,
		Summary: "readback.c writes env/state.txt, reads env/app.conf, then reads state.txt back: " +
			"the write must execute for the read-back to see it",
		Differs: `env/app.conf reads "mode=ok\n" in the good environment and "mode=broken\n" in the bad one`,
		Victims: []string{"readback.c"},
		Setup: func(w *Work) error {
			return firstErr(
				w.Write(Good, "app.conf", "mode=ok\n"),
				w.Write(Bad, "app.conf", "mode=broken\n"),
			)
		},
		Command: func(w *Work) []string { return []string{w.Victim("readback"), w.Env} },
		Want: Want{
			GoodExit: 0, BadExit: 1, Status: "located", ExitCode: 0,
			Culprit: &Culprit{Syscalls: []string{"openat", "open"}, Path: "app.conf", Content: true},
		},
	}
}

// treeScript runs $1 $2 in a child of the shell and passes on its status.
const treeScript = `echo "checking $2"; "$1" "$2"; st=$?; echo "fig79 exited $st"; exit $st`

// 6. A process tree: sh -c starts a child that reads the config.
func processTree() Scenario {
	return Scenario{
		Name:    "process-tree",
		Issue:   6,
		Summary: "sh -c runs fig79 in a child process, which reads the config",
		Differs: `env/config.txt reads "key=value\n" in the good environment and "key=\n" (empty value) in the bad one`,
		Victims: []string{"fig79.c"},
		Setup: func(w *Work) error {
			return firstErr(
				w.Write(Good, "config.txt", fig79Good),
				w.Write(Bad, "config.txt", "key=\n"),
			)
		},
		Command: func(w *Work) []string {
			return []string{"/bin/sh", "-c", treeScript, "sh", w.Victim("fig79"), w.EnvPath("config.txt")}
		},
		Want: Want{
			GoodExit: 0, BadExit: 1, Status: "located", ExitCode: 0,
			Culprit: &Culprit{Syscalls: []string{"openat", "open"}, Path: "config.txt", Child: true, Exe: "fig79", Content: true},
		},
	}
}

// greetScript starts greetserver ($1 $3 $4) and, once it said "ready" on
// the pipe, greetclient ($2 $3 hello); the pipeline's status is the
// client's.
const greetScript = `"$1" "$3" "$4" | { read line && [ "$line" = ready ] || exit 2; "$2" "$3" hello; }`

// 7. A server and its check client started by one script.
func serverClient() Scenario {
	return Scenario{
		Name:  "server-client",
		Issue: 7,
		Summary: "one sh -c script starts greetserver and then greetclient, which asks it for its greeting: " +
			"the connection is internal and must not pass on replayed answers",
		Differs:   `env/greeting.conf reads "greeting=hello\n" in the good environment and "greeting=bonjour\n" in the bad one`,
		Victims:   []string{"greetserver.c", "greetclient.c"},
		NeedsPort: true,
		Setup: func(w *Work) error {
			return firstErr(
				w.Write(Good, "greeting.conf", "greeting=hello\n"),
				w.Write(Bad, "greeting.conf", "greeting=bonjour\n"),
			)
		},
		Command: func(w *Work) []string {
			return []string{"/bin/sh", "-c", greetScript, "sh",
				w.Victim("greetserver"), w.Victim("greetclient"), strconv.Itoa(w.Port), w.EnvPath("greeting.conf")}
		},
		Want: Want{
			GoodExit: 0, BadExit: 1, Status: "located", ExitCode: 0,
			Culprit: &Culprit{Syscalls: []string{"openat", "open"}, Path: "greeting.conf", Child: true, Exe: "greetserver", Content: true},
		},
	}
}

// 8a. Endpoint check: nothing fails here.
func noFailure() Scenario {
	return Scenario{
		Name:    "no-failure",
		Issue:   8,
		Summary: "endpoint check: the command does not fail in the \"bad\" environment, so there is nothing to locate",
		Differs: "nothing: both environments hold the same well-formed env/config.txt",
		Victims: []string{"fig79.c"},
		Setup:   func(w *Work) error { return w.WriteBoth("config.txt", fig79Good) },
		Command: func(w *Work) []string { return []string{w.Victim("fig79"), w.EnvPath("config.txt")} },
		Want:    Want{GoodExit: 0, BadExit: 0, Status: "no-failure", ExitCode: 3},
	}
}

// 8b. Endpoint check: the difference is outside the syscall interface.
func inputOnly() Scenario {
	return Scenario{
		Name:    "input-only",
		Issue:   8,
		Summary: "endpoint check: modecheck.c fails because of an argument, the command's input, which no replayed call can change",
		Differs: "the trees are the same; bad runs get the extra argument \"broken\"",
		Victims: []string{"modecheck.c"},
		Setup:   func(w *Work) error { return w.WriteBoth("config.txt", fig79Good) },
		Command: func(w *Work) []string { return []string{w.Victim("modecheck"), w.EnvPath("config.txt")} },
		BadArgs: []string{"broken"},
		Want:    Want{GoodExit: 0, BadExit: 1, Status: "replay-still-fails", ExitCode: 3},
	}
}

// 8c. A start item: the environment variable is the cause, located as one.
func envVar() Scenario {
	return Scenario{
		Name:    "env-var",
		Issue:   8,
		Summary: "modecheck.c fails because of an environment variable: no call differs, the start item does (BRIEF: \"LANG differs\")",
		Differs: "the trees are the same; bad runs have SCENARIO_MODE=broken in their environment",
		Victims: []string{"modecheck.c"},
		Setup:   func(w *Work) error { return w.WriteBoth("config.txt", fig79Good) },
		Command: func(w *Work) []string { return []string{w.Victim("modecheck"), w.EnvPath("config.txt")} },
		BadEnv:  []string{"SCENARIO_MODE=broken"},
		Want:    Want{GoodExit: 0, BadExit: 1, Status: "located", ExitCode: 0, Start: "env SCENARIO_MODE"},
	}
}

// 9. A divergence inside the prefix.
func divergence() Scenario {
	return Scenario{
		Name:  "divergence",
		Issue: 9,
		Summary: "profiles.c reads env/app.conf, then the profile its argument names: bad runs open another " +
			"profile than the recording, after the culprit, inside every passing run's prefix",
		Differs: `env/app.conf reads "level=ok\n" in the good environment and "level=broken\n" in the bad one; ` +
			"bad runs get the argument alt (their input differs), so they open env/profiles/alt.conf where the recording opened env/profiles/default.conf",
		Victims: []string{"profiles.c"},
		Setup: func(w *Work) error {
			return firstErr(
				w.Write(Good, "app.conf", "level=ok\n"),
				w.Write(Bad, "app.conf", "level=broken\n"),
				w.WriteBoth("profiles/default.conf", "profile=default\n"),
				w.WriteBoth("profiles/alt.conf", "profile=alt\n"),
			)
		},
		Command: func(w *Work) []string { return []string{w.Victim("profiles"), w.Env} },
		BadArgs: []string{"alt"},
		Want: Want{
			GoodExit: 0, BadExit: 1, Status: "located", ExitCode: 0,
			Culprit:    &Culprit{Syscalls: []string{"openat", "open"}, Path: "app.conf", Content: true},
			Divergence: &Divergence{Recorded: "profiles/default.conf", Live: "profiles/alt.conf"},
		},
	}
}

// pollScript starts tcpserver ($1: port $4, serving 30 s at most, after a
// 200 ms start-up delay) in the background, polls for its port with
// tcpprobe ($2) and `sleep 0.1` as real test scripts do (a different
// number of times in every run), runs workers ($3 on $5), stops the
// server and exits with the workers' status.
const pollScript = `server=$1 probe=$2 workers=$3 port=$4 confdir=$5
"$server" "$port" 30 200 &
pid=$!
n=0
until "$probe" "$port"; do
	n=$((n + 1))
	if [ "$n" -gt 100 ]; then kill "$pid"; echo "server never came up" >&2; exit 2; fi
	sleep 0.1
done
"$workers" "$confdir" 4
st=$?
kill "$pid"
wait "$pid"
exit "$st"`

// 10. A timing-dependent polling loop and threads in varying order.
func pollingThreads() Scenario {
	return Scenario{
		Name:  "polling-threads",
		Issue: 10,
		Summary: "a script polls for its server's port with sleep 0.1 (a varying number of iterations), then runs " +
			"workers.c, whose 4 threads read their configs in a varying order",
		Differs:   `env/conf.d/w2.conf reads "ok\n" in the good environment and "no\n" in the bad one; the other workers' files are the same`,
		Victims:   []string{"tcpserver.c", "tcpprobe.c", "workers.c"},
		NeedsPort: true,
		Setup: func(w *Work) error {
			var errs []error
			for i := range 4 {
				name := fmt.Sprintf("conf.d/w%d.conf", i)
				if i == 2 {
					errs = append(errs, w.Write(Good, name, "ok\n"), w.Write(Bad, name, "no\n"))
				} else {
					errs = append(errs, w.WriteBoth(name, "ok\n"))
				}
			}
			return firstErr(errs...)
		},
		Command: func(w *Work) []string {
			return []string{"/bin/sh", "-c", pollScript, "sh",
				w.Victim("tcpserver"), w.Victim("tcpprobe"), w.Victim("workers"), strconv.Itoa(w.Port), w.EnvPath("conf.d")}
		},
		Want: Want{
			GoodExit: 0, BadExit: 1, Status: "located", ExitCode: 0,
			Culprit: &Culprit{Syscalls: []string{"openat", "open"}, Path: "conf.d/w2.conf", Child: true, Exe: "workers", Content: true},
		},
		Repeat: 3,
	}
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
