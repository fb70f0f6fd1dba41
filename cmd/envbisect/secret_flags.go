package main

import (
	"fmt"
	"strings"

	"github.com/spf13/pflag"

	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/record"
)

// secretFlags are record's flags that keep secrets out of a trace:
// --exclude-content, --exclude-env and --keep-env.
type secretFlags struct {
	excludeContent []string
	excludeEnv     []string
	keepEnv        []string
}

const secretHelp = `Secrets. The values of environment variables whose names look like secrets
(a name component TOKEN, SECRET, PASSWORD, PASSWD, KEY, CREDENTIAL(S) or AUTH,
as in API_KEY but not KEYBOARD_LAYOUT, and the CI providers' well-known names:
GITHUB_TOKEN, ACTIONS_*_TOKEN, CI_JOB_TOKEN, NPM_TOKEN, AWS_SECRET_ACCESS_KEY,
...) never reach the trace: not in the start events, an exec's environment,
a read of /proc/PID/environ or a buffer that carries them. The trace keeps
the name and a salted scrypt hash, so locate can still say such a variable
differs here (it cannot replay it). --exclude-env GLOB redacts more names,
--keep-env NAME keeps one (then locate can replay it). --exclude-content GLOB
keeps a file's content out of the trace, also where the command passes it
on (a write to stdout, a pipe, a copy); GLOB is matched against absolute
paths, "**" crossing directories: '**/*.pem', '/home/*/.ssh/**'.`

func (o *secretFlags) add(f *pflag.FlagSet) {
	f.StringArrayVar(&o.excludeContent, "exclude-content", nil, "keep the content of files matching `GLOB` out of the trace, and of every buffer that carries it "+
		"(repeatable; matched against absolute paths: '**/*.pem', '/home/*/.ssh/**')")
	f.StringArrayVar(&o.excludeEnv, "exclude-env", nil, "record the name but not the value of environment variables matching `GLOB` (repeatable; "+
		"names that look like secrets are redacted by default)")
	f.StringArrayVar(&o.keepEnv, "keep-env", nil, "keep the value of environment variable `NAME` although its name looks like a secret (repeatable)")
}

// validate refuses patterns that are malformed or can never match.
func (o *secretFlags) validate() error {
	if _, err := launch.NewContentFilter(o.excludeContent); err != nil {
		return usageError("%v", err)
	}
	if err := record.CheckEnvFlags(o.excludeEnv, o.keepEnv); err != nil {
		return usageError("%v", err)
	}
	return nil
}

// sayRedacted prints record's one line about what it kept out.
func sayRedacted(s streams, sum *record.Summary) {
	n := len(sum.Redacted)
	line := fmt.Sprintf("envbisect: redacted the values of %d environment variables", n)
	if n > 0 {
		line += " (" + strings.Join(sum.Redacted, ", ") + ")"
	}
	if sum.RedactedBuffers > 0 {
		line += fmt.Sprintf("; dropped %d buffers that carried them", sum.RedactedBuffers)
	}
	if sum.ExcludedBuffers > 0 {
		line += fmt.Sprintf("; dropped %d buffers that carried excluded content", sum.ExcludedBuffers)
	}
	fmt.Fprintln(s.err, line)
}
