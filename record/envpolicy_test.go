package record

import (
	"bytes"
	"fmt"
	"testing"
)

func TestEnvPolicyRedactsSecretNamesByComponent(t *testing.T) {
	p, err := newEnvPolicy([]string{"MYAPP_*"}, []string{"GIT_ASKPASS_KEY"})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{
		"API_KEY":                true,
		"GITHUB_TOKEN":           true,
		"AWS_SECRET_ACCESS_KEY":  true,
		"AWS_SESSION_TOKEN":      true,
		"ACTIONS_RUNTIME_TOKEN":  true,
		"CI_JOB_TOKEN":           true,
		"CI_JOB_JWT_V2":          true, // a well-known name without a component
		"DATABASE_URL":           true,
		"NPM_TOKEN":              true,
		"DB_PASSWORD":            true,
		"MYSQL_PASSWD":           true,
		"GOOGLE_CREDENTIALS":     true,
		"BASIC_AUTH":             true,
		"MYAPP_PIN":              true, // --exclude-env
		"KEYBOARD_LAYOUT":        false,
		"TOKENIZERS_PARALLELISM": false,
		"MONKEY":                 false,
		"AUTHOR":                 false,
		"PATH":                   false,
		"LANG":                   false,
		"PWD":                    false,
		"SSH_AUTH_SOCK":          false, // a socket path that differs everywhere
		"GIT_ASKPASS_KEY":        false, // --keep-env
	} {
		if got := p.redacts(name); got != want {
			t.Errorf("redacts(%s) = %v, want %v", name, got, want)
		}
	}
	if _, err := newEnvPolicy([]string{"[A-"}, nil); err == nil {
		t.Error("a malformed --exclude-env glob was accepted")
	}
}

func TestSecretGuardRedactsByVariable(t *testing.T) {
	g := newSecretGuard(envPolicy{}, []byte("0123456789abcdef"))
	block := []byte("LANG=C\x00API_KEY=k1\x00GITHUB_TOKEN=ghp_0123456789abcdef\x00HOME=/root\x00")
	got := g.environBlock(block)
	want := "LANG=C\x00API_KEY=<redacted>\x00GITHUB_TOKEN=<redacted>\x00HOME=/root\x00"
	if string(got) != want {
		t.Fatalf("environBlock = %q, want %q", got, want)
	}
	for buf, name := range map[string]string{
		"GITHUB_TOKEN=ghp_0123456789abcdef\n": "GITHUB_TOKEN",
		"Authorization: ghp_0123456789abcdef": "GITHUB_TOKEN", // a long value alone
		"API_KEY=k1\n":                        "API_KEY",
		"monkey k1 is short: never alone":     "",
		"API_KEY=k12":                         "", // another value: not the entry
		"MY_API_KEY=k1":                       "", // another variable
	} {
		if got := g.carries([]byte(buf)); got != name {
			t.Errorf("carries(%q) = %q, want %q", buf, got, name)
		}
	}
}

// BenchmarkSecretGuardCarries is the cost of scanning one 64 KiB buffer
// for 10 remembered values.
func BenchmarkSecretGuardCarries(b *testing.B) {
	g := newSecretGuard(envPolicy{}, []byte("0123456789abcdef"))
	for i := range 10 {
		g.remember(fmt.Sprintf("TOKEN_%d", i), fmt.Sprintf("ghp_%036d", i))
	}
	buf := bytes.Repeat([]byte("x=1\n"), 16<<10)
	b.SetBytes(int64(len(buf)))
	for b.Loop() {
		if g.carries(buf) != "" {
			b.Fatal("carries a value it does not hold")
		}
	}
}
