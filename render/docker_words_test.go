package render

import (
	"testing"

	"github.com/envbisect/envbisect/trace"
)

func TestDockerWords(t *testing.T) {
	s := func(v string) *string { return &v }
	uid := StartItem{Kind: string(trace.StartCreds), Name: trace.CredsUID, Good: s("0 0 0 0"), Here: s("1000 1000 1000 1000")}
	gid := StartItem{Kind: string(trace.StartCreds), Name: trace.CredsGID, Good: s("0 0 0 0"), Here: s("1000 1000 1000 1000")}
	cases := []struct {
		name string
		it   StartItem
		all  []StartItem
		want string
	}{
		{"cap dropped", StartItem{Kind: string(trace.StartCaps), Name: "bounding", Good: s("00000000a80425fb"), Here: s("00000000a80425fa")}, nil, "--cap-drop CHOWN"},
		{"cap added", StartItem{Kind: string(trace.StartCaps), Name: "bounding", Good: s("00000000a80425fb"), Here: s("00000000a80435fb")}, nil, "--cap-add NET_ADMIN"},
		{"no_new_privs", StartItem{Kind: string(trace.StartNoNewPrivs), Good: s("0"), Here: s("1")}, nil, "--security-opt no-new-privileges"},
		{"no mapping", StartItem{Kind: string(trace.StartCaps), Name: "ambient", Good: s("0"), Here: s("1")}, nil, ""},
		{"user and group", uid, []StartItem{uid, gid}, "--user 1000:1000"},
		{"user alone", uid, []StartItem{uid}, "--user 1000"},
		{"gid said with the uid", gid, []StartItem{uid, gid}, ""},
		{"group added", StartItem{Kind: string(trace.StartCreds), Name: trace.CredsGroups, Good: s("1000"), Here: s("1000 1600")},
			nil, "--group-add 1600"},
		{"ulimit", StartItem{Kind: string(trace.StartRlimit), Name: "RLIMIT_NOFILE", Good: s("1024 1024"), Here: s("64 64")}, nil, "--ulimit nofile=64:64"},
		{"read-only root", StartItem{Kind: string(trace.StartMount), Name: "/", Good: s("rw"), Here: s("ro")}, nil, "--read-only"},
		{"tmpfs noexec", StartItem{Kind: string(trace.StartMount), Name: "/tmp", Good: s("rw"), Here: s("noexec,nosuid,nodev")}, nil, "--tmpfs /tmp (noexec)"},
		{"seccomp", StartItem{Kind: string(trace.StartSeccompFilter), Name: "1", Good: s("sha256:00"), Here: s("sha256:11")}, nil, "--security-opt seccomp=..."},
		{"seccomp denying", StartItem{Kind: string(trace.StartSeccompFilter), Name: "1", Good: s("sha256:00"), Here: s("sha256:11"),
			Denies: []string{"chmod", "fchmodat"}}, nil, "--security-opt seccomp=... (denies chmod, fchmodat)"},
		{"pids", StartItem{Kind: string(trace.StartCgroup), Name: trace.CgroupPidsMax, Good: s("max"), Here: s("20")}, nil, "--pids-limit 20"},
		{"cpus", StartItem{Kind: string(trace.StartCgroup), Name: trace.CgroupCPUMax, Good: s("max 100000"), Here: s("50000 100000")}, nil, "--cpus 0.5"},
		{"cpuset", StartItem{Kind: string(trace.StartAffinity), Good: s("0-3"), Here: s("1")}, nil, "--cpuset-cpus 1"},
		{"workdir", StartItem{Kind: string(trace.StartCwd), Good: s("/src/build-a"), Here: s("/app")}, nil, "--workdir /app"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := DockerWords(tc.it, tc.all); got != tc.want {
				t.Errorf("DockerWords = %q, want %q", got, tc.want)
			}
		})
	}
}
