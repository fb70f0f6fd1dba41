package reportschema

import (
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// ReadReport is testutil.ReadJSONText for a report of `envbisect locate
// --json`: it also fails the test when the report does not follow the
// schema. (Not in testutil: the schema imports render, whose own tests'
// dependencies import testutil.)
func ReadReport(t testing.TB, path string, v any) string {
	t.Helper()
	text := testutil.ReadJSONText(t, path, v)
	Check(t, path, []byte(text))
	return text
}

// Check fails the test when report (named by what, for the message)
// does not follow the schema.
func Check(t testing.TB, what string, report []byte) {
	t.Helper()
	if err := Validate(report); err != nil {
		t.Errorf("%s: %v", what, err)
	}
}
