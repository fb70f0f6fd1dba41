package testutil

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ReadJSON decodes the JSON file path (a report a test's script left)
// into v, failing the test with the file's bytes when it cannot.
func ReadJSON(t testing.TB, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v\n%s", path, err, b)
	}
}

// ReadJSONText is ReadJSON that also returns the file's text, for
// assertions on what a user reads in the raw report.
func ReadJSONText(t testing.TB, path string, v any) string {
	t.Helper()
	ReadJSON(t, path, v)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// ReadText returns file name under dir (a result a test's script left in
// $OUT), trimmed of surrounding white space.
func ReadText(t testing.TB, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}
