// Command contentsize measures what keeping the good environment's files
// costs (issue 13): for a few real workloads it records the command with
// file contents kept (record's default) and prints the trace's size, the
// bytes of content it holds, how much deduplication and compression
// saved; then it times, interleaved, recording with --max-content 0
// (identity and hash only), a first recording with content (an empty
// content cache), and a repeated one (the cache holding what the first
// stored), and prints the medians and their ratios to the first.
// Markdown, for docs/performance.md. It needs ptrace (run as root) and
// the workloads' programs: python3, gcc, mpd.
//
//	go run ./tools/contentsize                   # all workloads, 5 timed repetitions
//	go run ./tools/contentsize -n 3 -workloads python,gcc
//	go run ./tools/contentsize -cpu -1 -workloads gcc  # unpinned (record --cpu any)
package main

import (
	"flag"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strings"
	"time"

	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/record"
	"github.com/envbisect/envbisect/tracefile"
	"github.com/envbisect/envbisect/verdict"
)

// workload is a command to record.
type workload struct {
	name, label string
	argv        []string
	judge       *verdict.Spec // mpd: up after 2 s, then stopped
	timed       bool          // part of the overhead table
}

func main() {
	launch.MaybeRunHelper() // record re-executes this program as the traced command's helper
	var reps int
	var list string
	flag.IntVar(&reps, "n", 5, "timed repetitions of each of the two recordings (the median is reported); 0: sizes only")
	flag.StringVar(&list, "workloads", "python,gcc,mpd", "comma-separated workloads: python, gcc, mpd")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the timed recordings to this file")
	cpu := flag.Int("cpu", launch.DefaultCPU(), "record --cpu: the CPU tracer and command share; -1: any (unpinned)")
	flag.Parse()
	dir, err := os.MkdirTemp("", "contentsize")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(dir)
	var ws []workload
	for _, name := range strings.Split(list, ",") {
		w, err := newWorkload(strings.TrimSpace(name), dir)
		if err != nil {
			fail(err)
		}
		ws = append(ws, w)
	}

	fmt.Println("| workload | trace | content in the trace | files (stored) | opened and run | unique content | deduplication | compression |")
	fmt.Println("|---|---|---|---|---|---|---|---|")
	warm := filepath.Join(dir, "cache")
	for _, w := range ws {
		sum, _, err := recordOnce(w, dir, *cpu, contentFirst, warm)
		if err != nil {
			fail(fmt.Errorf("%s: %w", w.name, err))
		}
		opened, err := openedBytes(filepath.Join(dir, w.name+".envb"))
		if err != nil {
			fail(fmt.Errorf("%s: %w", w.name, err))
		}
		st := sum.Written
		stored := st.Files - uint64(len(sum.OverBudget))
		fmt.Printf("| %s | %s | %s | %d (%d) | %s | %s | %.2f× | %.2f× |\n", w.label,
			mib(uint64(sum.Bytes)), mib(st.ChunkStored), st.Files, stored, mib(opened), mib(st.ChunkBytes),
			ratio(opened, st.ChunkBytes), ratio(st.ChunkBytes, st.ChunkStored))
		if len(sum.OverBudget) > 0 {
			fmt.Fprintf(os.Stderr, "contentsize: %s: %d files over --max-content\n", w.name, len(sum.OverBudget))
		}
	}
	if reps == 0 {
		return
	}
	if *cpuProfile != "" {
		stop, err := startProfile(*cpuProfile)
		if err != nil {
			fail(err)
		}
		defer stop()
	}
	fmt.Println()
	fmt.Printf("| workload | record, --max-content 0 | first recording (content kept, empty cache) | ratio | repeated recording (cache holds the files) | ratio |\n")
	fmt.Println("|---|---|---|---|---|---|")
	for _, w := range ws {
		if !w.timed {
			continue
		}
		times := map[contentMode][]time.Duration{}
		modes := []contentMode{noContent, contentFirst, contentRepeated}
		for i := 0; i < reps; i++ {
			// Interleaved, rotating which goes first.
			for j := range modes {
				m := modes[(i+j)%len(modes)]
				cache := warm
				if m == contentFirst {
					cache = filepath.Join(dir, fmt.Sprintf("cache-%d", i))
				}
				_, d, err := recordOnce(w, dir, *cpu, m, cache)
				if err != nil {
					fail(fmt.Errorf("%s: %w", w.name, err))
				}
				times[m] = append(times[m], d)
				if m == contentFirst {
					os.RemoveAll(cache)
				}
			}
		}
		a, b, c := median(times[noContent]), median(times[contentFirst]), median(times[contentRepeated])
		fmt.Printf("| %s | %.3f s | %.3f s | %.3f× | %.3f s | %.3f× |\n", w.label, a.Seconds(),
			b.Seconds(), b.Seconds()/a.Seconds(), c.Seconds(), c.Seconds()/a.Seconds())
	}
}

// contentMode is how a timed recording treats file contents.
type contentMode int

const (
	noContent       contentMode = iota // --max-content 0
	contentFirst                       // contents kept, the cache empty
	contentRepeated                    // contents kept, the cache warm
)

// recordOnce records w as m says, with the content cache in cache, and
// returns the summary and the wall time of the recording.
func recordOnce(w workload, dir string, cpu int, m contentMode, cache string) (*record.Summary, time.Duration, error) {
	devnull, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return nil, 0, err
	}
	defer devnull.Close()
	out := filepath.Join(dir, w.name+".envb")
	start := time.Now()
	sum, err := record.Run(record.Options{
		Output: out, Argv: w.argv, Dir: dir, CPU: cpu, NoContent: m == noContent, Judge: w.judge,
		ContentCache: cache,
		Stdin:        devnull, Stdout: devnull, Stderr: devnull,
	})
	d := time.Since(start)
	if err == nil && sum.Verdict.Verdict != verdict.Pass {
		err = fmt.Errorf("the recorded run did not pass: %s", sum.Verdict.Detail)
	}
	return sum, d, err
}

// openedBytes sums the size of the file each call of the trace at path
// opened or ran, every open counted: what the trace would hold without
// deduplication of files and chunks.
func openedBytes(path string) (uint64, error) {
	tr, err := tracefile.ReadFile(path)
	if err != nil {
		return 0, err
	}
	defer os.Remove(path)
	var n uint64
	for _, ev := range tr.Events {
		if ev.Call != nil && ev.Call.Obj != 0 {
			if f := tr.File(ev.Call.Obj); f != nil {
				n += uint64(f.Size)
			}
		}
	}
	// The ELF interpreters no call names, once each.
	named := map[uint32]bool{}
	for _, ev := range tr.Events {
		if ev.Call != nil {
			named[ev.Call.Obj] = true
		}
	}
	for _, f := range tr.Files {
		if !named[f.ID] {
			n += uint64(f.Size)
		}
	}
	return n, nil
}

func newWorkload(name, dir string) (workload, error) {
	switch name {
	case "python":
		return workload{name: name, label: "python: 20 × python3 imports", timed: true, argv: []string{"/bin/sh", "-c",
			"for i in $(seq 20); do /usr/bin/python3 -c 'import json, ssl, sqlite3, email, http.client' || exit 1; done"}}, nil
	case "gcc":
		src := filepath.Join(dir, "hello.c")
		code := "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n" +
			"int main(int argc, char **argv) { printf(\"%zu\\n\", strlen(argc > 1 ? argv[1] : \"hello\")); return EXIT_SUCCESS; }\n"
		if err := os.WriteFile(src, []byte(code), 0o644); err != nil {
			return workload{}, err
		}
		return workload{name: name, label: "gcc: compile and link a C file", timed: true,
			argv: []string{"gcc", "-O2", "-o", filepath.Join(dir, "hello"), src}}, nil
	case "mpd":
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return workload{}, err
		}
		port := l.Addr().(*net.TCPAddr).Port
		l.Close()
		conf := filepath.Join(dir, "mpd.conf")
		text := fmt.Sprintf("pid_file \"%s/mpd.pid\"\nbind_to_address \"127.0.0.1\"\nport \"%d\"\nzeroconf_enabled \"no\"\n"+
			"audio_output {\n\ttype \"null\"\n\tname \"null output\"\n}\n", dir, port)
		if err := os.WriteFile(conf, []byte(text), 0o644); err != nil {
			return workload{}, err
		}
		return workload{name: name, label: "mpd: start (up 2 s)", judge: &verdict.Spec{Alive: 2 * time.Second},
			argv: []string{"mpd", "--no-daemon", "--stderr", conf}}, nil
	}
	return workload{}, fmt.Errorf("unknown workload %q (python, gcc, mpd)", name)
}

func mib(n uint64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

func ratio(a, b uint64) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

// startProfile starts a CPU profile into path; the function it returns
// stops and writes it.
func startProfile(path string) (func(), error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "contentsize:", err)
	os.Exit(1)
}
