package main

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/envbisect/envbisect/bpf"
	"github.com/envbisect/envbisect/recorder"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// recorderOptions are the flags of envbisect recorder.
type recorderOptions struct {
	socket     string
	group      string
	ringSize   string
	maxCapture string
	docker     bool
	label      string
	dir        string
	engine     string
}

func newRecorderCommand(s streams) *cobra.Command {
	var opts recorderOptions
	cmd := &cobra.Command{
		Use:   "recorder [--socket PATH] [--group GROUP] [--docker [--label KEY=VALUE] --dir DIR]",
		Short: "keep the eBPF recorder loaded and record on request (a service)",
		Long: `Load and verify the eBPF recorder's programs once, then record on request
until SIGTERM or SIGINT. 'record --backend ebpf' asks the recorder at the
socket (--recorder, $` + recorderEnv + `, or ` + recorder.DefaultSocket + `) to follow the
command it starts, instead of loading the programs itself (0.2-0.3 s a
recording); when no recorder answers, it loads them itself. Several
recordings go through one recorder at once; each client still writes its own
trace and reads file contents with its own rights.

The socket is root's, mode 0600, or 0660 with --group: the members of
GROUP may record through it. A client that is not root may only have its
own child processes followed, with its own user and group ids and no
capability it lacks; a program of its tree that gains privileges at exec
(set-user-ID, file capabilities) is no longer passed on to it. The recorder
never shows a client more than ptrace would.

With --docker, it also records every container the Docker daemon starts
(those with --label KEY=VALUE, or KEY for any value), each to its own
observation trace in --dir, named NAME-ID.envb, from the container's start
until it dies. Such a trace begins when the daemon reports the start: the
first calls of the container's init process, before that, are not in it.

On SIGTERM or SIGINT it finishes the traces it writes, detaches and unloads
its programs and removes the socket.`,
		Example: `  envbisect recorder --group envbisect
  envbisect recorder --docker --label ci.record=1 --dir /var/lib/envbisect/traces`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			return runRecorder(c.Context(), s, opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.socket, "socket", recorder.DefaultSocket, "listen on the unix socket `PATH`")
	f.StringVar(&opts.group, "group", "", "let the members of `GROUP` record through the socket (mode 0660); default: root only")
	f.StringVar(&opts.ringSize, "ring-size", "auto", "the ring buffer's `SIZE`, shared by every recording (a power of two, at least 4K), or auto: 4M per CPU, from 8M to 64M, as record's")
	f.StringVar(&opts.maxCapture, "max-capture", "64K", "store at most `SIZE` bytes of each buffer; recordings that ask for another limit load their own probe")
	f.BoolVar(&opts.docker, "docker", false, "also record every container the Docker daemon starts (see --label), one trace each in --dir")
	f.StringVar(&opts.label, "label", "", "with --docker: only containers with the label `KEY=VALUE` (or KEY)")
	f.StringVar(&opts.dir, "dir", "", "with --docker: write the containers' traces to `DIR`")
	f.StringVar(&opts.engine, "engine", "", "with --docker: the daemon's socket `PATH` (default $DOCKER_HOST's unix path or /var/run/docker.sock)")
	return cmd
}

func runRecorder(ctx context.Context, s streams, opts recorderOptions) error {
	switch {
	case !opts.docker && (opts.label != "" || opts.dir != "" || opts.engine != ""):
		return usageError("--label, --dir and --engine go with --docker")
	case opts.docker && opts.dir == "":
		return usageError("--docker writes one trace per container: give --dir DIR")
	}
	// The ring is sized to the rate the CPUs can fill it at, as a
	// recording's own is (issue 29: memory ≤ 64 MiB at default settings;
	// the reader maps the ring twice, so a 64M ring alone was 128 MiB of
	// the recorder's RSS).
	ring := uint64(bpf.DefaultRingSize(runtime.NumCPU()))
	if opts.ringSize != "auto" {
		var err error
		ring, err = parseSize(opts.ringSize)
		if err != nil || ring < 4096 || ring&(ring-1) != 0 || ring > 1<<30 {
			return usageError("--ring-size %q: give a power of two from 4K to 1G, or auto", opts.ringSize)
		}
	}
	maxCapture, err := parseSize(opts.maxCapture)
	if err != nil || maxCapture == 0 || maxCapture > 1<<31 {
		return usageError("--max-capture %q: give a size such as 64K", opts.maxCapture)
	}
	gid := -1
	if opts.group != "" {
		g, err := lookupGroup(opts.group)
		if err != nil {
			return usageError("--group: %v", err)
		}
		gid, _ = strconv.Atoi(g.Gid)
	}
	if opts.docker {
		if err := os.MkdirAll(opts.dir, 0o755); err != nil {
			return withCode(exitError, fmt.Errorf("recorder: --dir: %w", err))
		}
	}
	// Its Go memory is the records on their way to the clients: the
	// collector runs before the heap doubles, as in a recording's.
	limitEBPFMemory(trace.BackendEBPF)
	table, err := systable.Native()
	if err != nil {
		return withCode(exitError, err)
	}
	po := bpf.Options{RingSize: int(ring), MaxCapture: uint32(maxCapture)}
	po.Syscalls, po.Ioctls, po.Fcntls, po.Prctls = bpf.DescribeTable(table)
	logf := func(msg string) { fmt.Fprintf(s.err, "envbisect recorder: %s\n", msg) }
	srv, err := recorder.Start(recorder.Config{Socket: opts.socket, GID: gid, Probe: po, Log: logf})
	if err != nil {
		return withCode(exitError, err)
	}
	ids, err := srv.ProgramIDs()
	if err != nil {
		srv.Close()
		return withCode(exitError, err)
	}
	logf(fmt.Sprintf("listening on %s (programs %s loaded)", opts.socket, joinIDs(ids)))

	var containers *dockerFollower
	if opts.docker {
		containers, err = followContainers(ctx, srv, opts, logf)
		if err != nil {
			srv.Close()
			return withCode(exitError, err)
		}
	}
	<-ctx.Done()
	logf("stopping")
	if containers != nil {
		containers.stop()
	}
	if err := srv.Close(); err != nil {
		return withCode(exitError, err)
	}
	logf("stopped: programs unloaded, socket removed")
	return nil
}

func joinIDs(ids []uint32) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = strconv.FormatUint(uint64(id), 10)
	}
	return strings.Join(s, " ")
}
