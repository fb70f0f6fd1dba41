package render

import "testing"

func TestMarkdownEscapes(t *testing.T) {
	for _, tt := range []struct {
		name, got, want string
	}{
		{"table pipe and tags", mdText("/srv/a|b/<x>&y"), `/srv/a\|b/&lt;x&gt;&amp;y`},
		{"emphasis and code", mdText("*a* _b_ `c` [d](e) ~f~"), "\\*a\\* \\_b\\_ \\`c\\` \\[d\\](e) \\~f\\~"},
		{"line start", mdText("# not a heading"), `\# not a heading`},
		{"list start", mdText("- x-y"), `\- x-y`},
		{"ordered list start", mdText("12. x 3. y"), `12\. x 3. y`},
		{"newline in a path", mdText("/tmp/a\nb\x1b"), `/tmp/a\\nb\\x1b`},
		{"plain", mdText("exit status 1 (round 2)"), "exit status 1 (round 2)"},
		{"code span", mdCodeText("/etc/x"), "`/etc/x`"},
		{"code span with backticks", mdCodeText("a`b``c"), "```a`b``c```"},
		{"code span starting with a backtick", mdCodeText("`x"), "`` `x ``"},
		{"code span in a cell", mdCode("a|b"), "`a\\|b`"},
		{"empty code span", mdCodeText(""), "` `"},
		{"control in a code span", mdCodeText("a\nb"), "`a\\nb`"},
		{"fence longer than the data's", mdFence("diff", []string{"+```", "-````"}), "`````diff\n+```\n-````\n`````\n"},
		{"summary", htmlText(`<a href="x">&`), "&lt;a href=&quot;x&quot;&gt;&amp;"},
	} {
		if tt.got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, tt.got, tt.want)
		}
	}
}
