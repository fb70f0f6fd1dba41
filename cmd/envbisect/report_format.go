package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/envbisect/envbisect/render"
)

// reportFormat is how locate prints its report (--format).
type reportFormat string

const (
	formatText     reportFormat = "text"
	formatJSON     reportFormat = "json"
	formatMarkdown reportFormat = "markdown"
)

const formatHelp = "print the report as `FORMAT`: text (for people), json (one JSON object; --json is the same) " +
	"or markdown (GitHub-flavoured, for $GITHUB_STEP_SUMMARY); with json and markdown the command's own output goes to stderr"

// parseReportFormat resolves --format and --json: --json is --format
// json, and a --format that says otherwise is a usage error.
func parseReportFormat(format string, asJSON bool) (reportFormat, error) {
	f := reportFormat(format)
	switch f {
	case "":
		f = formatText
		if asJSON {
			f = formatJSON
		}
	case formatText, formatMarkdown:
		if asJSON {
			return "", usageError("--json and --format %s: give one (--json is --format json)", format)
		}
	case formatJSON:
	default:
		return "", usageError("--format %q: give text, json or markdown", format)
	}
	return f, nil
}

// machineOutput says whether the report is for a program or a file
// (JSON, Markdown), so that stdout must hold the report alone: the
// command's own output then goes to stderr.
func (f reportFormat) machineOutput() bool { return f != formatText }

// writeReport prints rep on w in the format f.
func (f reportFormat) writeReport(w io.Writer, rep *render.LocateReport) error {
	switch f {
	case formatJSON:
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return fmt.Errorf("write the report as JSON: %w", err)
		}
		return nil
	case formatMarkdown:
		return rep.WriteMarkdown(w)
	}
	return rep.WriteText(w)
}
