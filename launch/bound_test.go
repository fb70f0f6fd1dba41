package launch

import (
	"os"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/trace"
)

// TestBoundGrants: what a recorded identity would hold beyond its
// environment's, case by case.
func TestBoundGrants(t *testing.T) {
	const dockerDefault, hostFull = 0xa80425fb, 0x1ffffffffff
	root := trace.ExecSpec{Caps: trace.CapSets{Bounding: dockerDefault, Permitted: dockerDefault, Effective: dockerDefault}}
	user := root
	user.UID, user.GID = 1000, 1000
	hostRoot := trace.ExecSpec{Caps: trace.CapSets{Bounding: hostFull, Permitted: hostFull, Effective: hostFull}}
	with := func(s trace.ExecSpec, f func(*trace.ExecSpec)) trace.ExecSpec { f(&s); return s }
	for _, tc := range []struct {
		name string
		env  trace.ExecSpec
		want trace.ExecSpec
		says []string // each a phrase of the answer; nil: within
	}{
		{"the same", user, user, nil},
		{"host root into a user container", user, hostRoot, []string{"uid 0 (root)", "CAP_SYS_ADMIN", "in the bounding set", "held after the exec"}},
		{"root into a user container, the container's bounding set", user, root, []string{"uid 0 (root)", "group 0 (root)", "CAP_CHOWN, CAP_DAC_OVERRIDE", "held after the exec"}},
		{"lower: a user where the container runs root", root, user, nil},
		{"another unprivileged user", user, with(user, func(s *trace.ExecSpec) { s.UID = 1001 }), nil},
		{"group 0", user, with(user, func(s *trace.ExecSpec) { s.Groups = []uint32{0} }), []string{"group 0 (root)"}},
		{"a capability the container dropped", with(root, func(s *trace.ExecSpec) { s.Caps.Bounding &^= 1 }), root,
			[]string{"CAP_CHOWN in the bounding set"}},
		{"ambient for a user, within root's", root, with(user, func(s *trace.ExecSpec) { s.Caps.Ambient = 1 << 10 }), nil},
		{"ambient a user container does not give", user, with(user, func(s *trace.ExecSpec) { s.Caps.Ambient = 1 << 21 }),
			[]string{"CAP_SYS_ADMIN held after the exec", "CAP_SYS_ADMIN in the ambient set"}},
		{"inheritable", user, with(user, func(s *trace.ExecSpec) { s.Caps.Inheritable = 1 << 21 }), []string{"CAP_SYS_ADMIN in the inheritable set"}},
		{"no_new_privs unset", with(user, func(s *trace.ExecSpec) { s.NoNewPrivs = true }), user, []string{"no_new_privs unset"}},
		{"no_new_privs set", user, with(user, func(s *trace.ExecSpec) { s.NoNewPrivs = true }), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Bound{Spec: tc.env}.Grants(tc.want)
			all := strings.Join(got, "; ")
			if tc.says == nil && len(got) > 0 {
				t.Fatalf("grants %q, want nothing", all)
			}
			if tc.says != nil && len(got) == 0 {
				t.Fatalf("grants nothing, want %q", tc.says)
			}
			for _, p := range tc.says {
				if !strings.Contains(all, p) {
					t.Errorf("grants %q, want it to say %q", all, p)
				}
			}
		})
	}
}

// TestStartRefusesBeyondBound: Start refuses an exec spec or a hard
// limit beyond the Bound before it starts anything, with an error naming
// the environment and what would be granted.
func TestStartRefusesBeyondBound(t *testing.T) {
	user := trace.ExecSpec{UID: 1000, GID: 1000, Rlimits: []trace.Limit{{Resource: 7, Cur: 64, Max: 64}}}
	b := &Bound{Spec: user, Where: "the container bad", Container: true}
	for _, tc := range []struct {
		name string
		cfg  Config
		says string
	}{
		{"root", Config{Argv: []string{"true"}, Join: &trace.Join{Exec: &trace.ExecSpec{}}, Bound: b}, "uid 0 (root)"},
		{"a hard limit", Config{Argv: []string{"true"}, Join: &trace.Join{Exec: &user}, Limits: []trace.Limit{{Resource: 7, Cur: 1024, Max: 1024}}, Bound: b},
			"a hard RLIMIT_NOFILE of 1024"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Start(&tc.cfg)
			if err == nil || !strings.Contains(err.Error(), tc.says) || !strings.Contains(err.Error(), "the container bad") {
				t.Errorf("Start: %v; want a refusal naming the container and %q", err, tc.says)
			}
		})
	}
}

// TestSelfSpec: envbisect's own identity, as the kernel reports it.
func TestSelfSpec(t *testing.T) {
	spec, err := SelfSpec()
	if err != nil {
		t.Fatal(err)
	}
	if spec.UID != uint32(os.Geteuid()) || spec.GID != uint32(os.Getegid()) {
		t.Errorf("ids %d:%d, want %d:%d", spec.UID, spec.GID, os.Geteuid(), os.Getegid())
	}
	own, err := OwnBounding()
	if err != nil {
		t.Fatal(err)
	}
	if spec.Caps.Bounding != own {
		t.Errorf("bounding %x, want %x", spec.Caps.Bounding, own)
	}
	if _, err := statusSpec("/nonexistent/status"); err == nil {
		t.Error("statusSpec of a missing file: no error")
	}
}

// TestPlainReach: a plain run may give the command only what envbisect
// itself may set: other groups need CAP_SETGID, another user CAP_SETUID,
// a smaller bounding set CAP_SETPCAP, held after the exec of envbisect's
// helper (root: its bounding set; anyone else: its ambient set).
func TestPlainReach(t *testing.T) {
	const all = uint64(1)<<41 - 1
	user := trace.ExecSpec{UID: 1000, GID: 1000, Groups: []uint32{1000}, Caps: trace.CapSets{Bounding: all}}
	withGroup := user
	withGroup.Groups = []uint32{44, 1000}
	if got := PlainReach(user, withGroup); len(got) != 1 || got[0] != "setting the group ids and supplementary groups needs CAP_SETGID, which envbisect does not hold" {
		t.Errorf("user 1000 without capabilities giving group 44: %q", got)
	}
	setgid := user
	setgid.Caps.Ambient, setgid.Caps.Inheritable, setgid.Caps.Permitted = 1<<capSetGID, 1<<capSetGID, 1<<capSetGID
	if got := PlainReach(setgid, withGroup); got != nil {
		t.Errorf("user 1000 with ambient CAP_SETGID giving group 44: %q; want nothing missing", got)
	}
	reordered := user
	reordered.Groups = []uint32{1000, 1000}
	if got := PlainReach(user, reordered); got != nil {
		t.Errorf("the same groups: %q; want nothing to set", got)
	}
	root := trace.ExecSpec{Caps: trace.CapSets{Bounding: all}}
	less := root
	less.UID, less.Groups, less.Caps.Bounding = 1000, []uint32{44}, all&^(1<<13)
	if got := PlainReach(root, less); got != nil {
		t.Errorf("root giving user 1000, group 44, a bounding set without CAP_NET_RAW: %q; want nothing missing", got)
	}
	noPcap := user
	noPcap.Caps.Bounding = all &^ (1 << 13)
	if got := PlainReach(user, noPcap); len(got) != 1 || got[0] != "dropping CAP_NET_RAW from the bounding set needs CAP_SETPCAP, which envbisect does not hold" {
		t.Errorf("user 1000 dropping CAP_NET_RAW: %q", got)
	}
}
