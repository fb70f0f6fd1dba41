package main

import (
	"bytes"
	"encoding/json"
	"runtime"
	"strings"
	"testing"
)

func runSyscallsCLI(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(append([]string{"syscalls"}, args...), strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func TestSyscallsText(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("the table is x86-64 only")
	}
	code, out, errs := runSyscallsCLI()
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	for _, want := range []string{
		"  0 read(fd FD, buf OutBuf[ret<=arg2], count Int) Int\n      effects  UsesFD|MovesOffset\n      policy   Replayable\n",
		"257 openat(dirfd DirFD, pathname Path, flags Flags(open_flags), mode Mode) FD\n" +
			"      effects  CreatesFD|UsesFD|NamesPath\n" +
			"               +CreatesPath when flags has O_CREAT\n" +
			"               +ModifiesFile when flags has O_TRUNC\n",
		"  4 stat(pathname Path, statbuf OutBuf[144] struct stat) Int",
		" 45 recvfrom(sockfd FD, buf OutBuf[min(arg2,ret)], len Int, flags Flags(msg_flags), src_addr OutBuf[*arg5] struct sockaddr, addrlen InOutBuf[4] socklen_t) Int",
		"               +CreatesFD|DupsFD when cmd is F_DUPFD or F_DUPFD_CLOEXEC\n",
		"  7 poll(fds InOutBuf[arg1*8] struct pollfd[], nfds Int, timeout Int) Int\n      effects  none\n",
		"202 futex(",
		"      nostop   waits on or wakes a futex word",
		"# amd64: 295 calls described, 90 known by name and number only (not shown; --all shows them), 14 never stop the tracee\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if strings.Contains(out, " shmget") {
		t.Error("unknown rows shown without --all")
	}
	_, all, _ := runSyscallsCLI("--all")
	if !strings.Contains(all, " 29 shmget (arguments not described; recorded raw)\n      policy   AlwaysExecute\n") {
		t.Error("--all does not show the unknown rows")
	}
}

func TestSyscallsJSON(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("the table is x86-64 only")
	}
	for _, c := range []struct {
		args []string
		rows int
	}{{[]string{"--json"}, 295}, {[]string{"--json", "--all"}, 385}} {
		code, out, errs := runSyscallsCLI(c.args...)
		if code != 0 || errs != "" {
			t.Fatalf("%v: exit %d, stderr %q", c.args, code, errs)
		}
		var rows []jsonSyscall
		if err := json.Unmarshal([]byte(out), &rows); err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		if len(rows) != c.rows {
			t.Errorf("%v: %d rows, want %d", c.args, len(rows), c.rows)
		}
		for _, r := range rows {
			if r.Name != "fcntl" {
				continue
			}
			if r.Args[2].Len == nil || r.Args[2].Len.From != "LenFcntl" || r.Args[1].Flags != "fcntl_cmd" || len(r.Cond) != 2 {
				t.Errorf("fcntl row: %+v", r)
			}
		}
	}
}

func TestSyscallsUsage(t *testing.T) {
	if code, _, errs := runSyscallsCLI("extra"); code != exitUsage || !strings.Contains(errs, "takes no arguments") {
		t.Errorf("extra argument: exit %d, %q", code, errs)
	}
	if code, _, _ := runSyscallsCLI("--bogus"); code != exitUsage {
		t.Errorf("unknown flag: exit %d", code)
	}
	if code, _, errs := runSyscallsCLI("--arch", "mips"); code != exitError || !strings.Contains(errs, "not supported") {
		t.Errorf("--arch mips: exit %d, %q", code, errs)
	}
}
