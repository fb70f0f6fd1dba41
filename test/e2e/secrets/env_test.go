package secrets_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// The values of the test's secrets: long and short, default names and
// one redacted by --exclude-env only.
const (
	awsSecret   = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
	githubToken = "ghp_16C7e42F292c6912E7710c838347Ae178B4a"
	deployPin   = "4711"
)

// TestEnvironmentValuesNeverReachTheTrace records a shell that prints
// its environment three ways (env, a read of /proc/self/environ, env
// exec'd): the secrets' values are nowhere in the trace, decompressed,
// while their names are; record says how many it redacted. Then a
// command that reads a file fails here, where the file is missing and
// GITHUB_TOKEN has another value: locate names the file, and lists
// GITHUB_TOKEN as differing and not tried, with --keep-env as the
// remedy, without its values. (A command that reads its environ file
// where a redacted value differs cannot have that read replayed: see
// docs/secrets.md.)
func TestEnvironmentValuesNeverReachTheTrace(t *testing.T) {
	testutil.Require(t, testutil.Binary("env"), testutil.Binary("cat"))
	out := testutil.InWorkNS(t, `
cd good
echo data > need.txt
AWS_SECRET_ACCESS_KEY='`+awsSecret+`' GITHUB_TOKEN='`+githubToken+`' DEPLOY_PIN='`+deployPin+`' \
	"$EB" record --exclude-env 'DEPLOY_*' --no-content-cache -o "$OUT/env.envb" -- \
	sh -c 'env; cat /proc/self/environ; exec env' > "$OUT/record.out" 2> "$OUT/record.err"
AWS_SECRET_ACCESS_KEY='`+awsSecret+`' GITHUB_TOKEN='`+githubToken+`' DEPLOY_PIN='`+deployPin+`' \
	"$EB" record -q --exclude-env 'DEPLOY_*' --no-content-cache -o "$OUT/need.envb" -- sh -c 'cat need.txt'
rm need.txt
set +e
AWS_SECRET_ACCESS_KEY='`+awsSecret+`' GITHUB_TOKEN='ghp_another_value_on_the_bad_machine_0000' DEPLOY_PIN='`+deployPin+`' \
	"$EB" locate --json "$OUT/need.envb" -- sh -c 'cat need.txt' > "$OUT/locate.json" 2> "$OUT/locate.err"
echo $? > "$OUT/locate.rc"
`)
	recOut, err := os.ReadFile(filepath.Join(out, "record.out"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(recOut, []byte(githubToken)) {
		t.Fatalf("the command did not print its environment (the test's premise): %q", recOut)
	}
	data := traceBytes(t, filepath.Join(out, "env.envb"))
	for name, v := range map[string]string{"AWS_SECRET_ACCESS_KEY": awsSecret, "GITHUB_TOKEN": githubToken, "DEPLOY_PIN": "DEPLOY_PIN=" + deployPin} {
		if bytes.Contains(data, []byte(v)) {
			t.Errorf("the value of %s is in the trace", name)
		}
		if !bytes.Contains(data, []byte(name)) {
			t.Errorf("the name %s is not in the trace", name)
		}
	}
	if w := carriesAny(data, []byte(githubToken), 12); w != nil {
		t.Errorf("a piece of GITHUB_TOKEN's value is in the trace: %q", w)
	}
	recErr := testutil.ReadText(t, out, "record.err")
	if !strings.Contains(recErr, "redacted the values of 3 environment variables (AWS_SECRET_ACCESS_KEY, DEPLOY_PIN, GITHUB_TOKEN)") {
		t.Errorf("record did not say what it redacted:\n%s", recErr)
	}

	var rep struct {
		Status  string `json:"status"`
		Culprit *struct {
			Path string `json:"path"`
		} `json:"culprit"`
		Unapplied []struct {
			Kind, Name, Why, Remedy string
			Good, Here              *string
		} `json:"unapplied"`
	}
	text := testutil.ReadJSONText(t, filepath.Join(out, "locate.json"), &rep)
	if rc := strings.TrimSpace(testutil.ReadText(t, out, "locate.rc")); rc != "0" {
		t.Fatalf("locate exited %s:\n%s\n%s", rc, text, testutil.ReadText(t, out, "locate.err"))
	}
	if rep.Culprit == nil || filepath.Base(rep.Culprit.Path) != "need.txt" {
		t.Errorf("culprit %+v, want the read of need.txt", rep.Culprit)
	}
	var names []string
	for _, u := range rep.Unapplied {
		names = append(names, u.Name)
		if u.Name != "GITHUB_TOKEN" {
			continue
		}
		if u.Kind != "env" || !strings.Contains(u.Remedy, "--keep-env GITHUB_TOKEN") || u.Why == "" {
			t.Errorf("GITHUB_TOKEN listed as %+v, want an env item with why and the remedy --keep-env GITHUB_TOKEN", u)
		}
	}
	if len(names) != 1 || names[0] != "GITHUB_TOKEN" {
		t.Errorf("differs and not tried: %v, want [GITHUB_TOKEN] (the secrets with the same value here do not differ)", names)
	}
	for _, v := range []string{githubToken, "ghp_another_value", awsSecret} {
		if strings.Contains(text, v) || strings.Contains(testutil.ReadText(t, out, "locate.err"), v) {
			t.Errorf("locate printed a secret's value %q", v)
		}
	}
}
