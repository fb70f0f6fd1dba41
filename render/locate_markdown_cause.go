package render

import (
	"fmt"
	"strings"
)

// The causes of locate's Markdown report: each one's section (its
// call, results and data diff) and its words in the summary line.

// culpritShort names a cause in a few words: "`openat` of `/etc/a.conf`
// (call 412 of 1038 recorded): good `3`, here `-1 ENOENT (...)`",
// "start item `env LANG`: good `"C"`, here `(not set)`", a DNS answer by
// how it differs.
func culpritShort(r *LocateReport, c *Culprit) string {
	if it := c.Start; it != nil {
		return "start item " + mdCodeText(it.Label()) + ": good " + mdCodeText(it.ValueWords(it.Good)) + ", here " + mdCodeText(it.ValueWords(it.Here))
	}
	if d := c.DNS; d != nil {
		return mdText(d.Line()) + fmt.Sprintf(" (call %d of %d recorded)", c.Seq, r.RecordedCalls)
	}
	s := mdCodeText(c.Syscall)
	if c.Path != "" {
		s += " of " + mdCodeText(c.Path)
	} else if c.Resource != "" {
		s += " of " + mdText(c.Resource)
	}
	s += fmt.Sprintf(" (call %d of %d recorded): good %s, here ", c.Seq, r.RecordedCalls, mdCodeText(c.Good.Return))
	switch {
	case c.Here.Missing:
		return s + "not made"
	case c.Content != nil:
		return s + mdCodeText(c.Here.Return) + ", and the file's content differs"
	case c.DataDiff != nil && c.DataDiff.Entries != nil:
		return s + mdCodeText(c.Here.Return) + ", and its entries differ: " + mdText(entriesShort(c.DataDiff.Entries))
	case c.DataDiff != nil:
		return s + mdCodeText(c.Here.Return) + ", and its data differs"
	}
	return s + mdCodeText(c.Here.Return)
}

// cause writes one cause: a heading naming its resource, its results,
// the data diff, the explanations, and for the first, its group and
// what the runs showed.
func (m *mdWriter) cause(r *LocateReport, mc mdCause, i, n int) {
	c := mc.Culprit
	title := c.Resource
	switch {
	case c.Start != nil:
		title = "start item " + c.Start.Label()
	case title == "" && i == 0 && r.Group != nil:
		title = r.Group.Title
	case title == "":
		title = c.Syscall + " of " + c.Path
		if c.Path == "" {
			title = fmt.Sprintf("call %d", c.Seq)
		}
	}
	if how := differsText(c); how != "" && c.Start == nil {
		title += " (" + how + ")" // the resource and how it differs lead
	}
	heading := "Cause"
	if n > 1 {
		heading = fmt.Sprintf("Cause %d of %d", i+1, n)
	}
	if r.Status != Located {
		// A culprit the report keeps without naming it located (one
		// that confirmation runs did not confirm): said so at once.
		heading = strings.Replace(heading, "Cause", "Culprit", 1) + ", " + string(r.Status)
	}
	m.printf("\n#### %s: %s\n\n", heading, mdText(title))
	if it := c.Start; it != nil {
		m.startItem(r, it)
	} else {
		m.call(r, c, i == 0)
	}
	// Members laid out by nobody (an explanation) continue the list.
	m.fields(extras(mc.Fields, culpritLaidOut), "")
	m.dataDiff(c, r.Verbose)
	if cc := c.Content; cc != nil {
		m.dataDiff(cc, r.Verbose)
	}
	if i > 0 || r.Status != Located {
		return
	}
	if cs := r.Cause; cs != nil {
		m.printf("\n- **Cause** %s%s\n", mdCodeText(cs.Item.Label()), mdText(dockerSuffix(cs.Item)))
		m.para(causeConclusion(r, cs))
	}
	m.para(firstConclusion(r, c))
}

// startItem lists a start item's values.
func (m *mdWriter) startItem(r *LocateReport, it *StartItem) {
	m.printf("- **Start item** %s, as the command starts\n", mdCodeText(it.Label()))
	m.printf("- **Good** %s\n- **Here** %s\n", mdCodeText(it.ValueWords(it.Good)), mdCodeText(it.ValueWords(it.Here)))
	if it.Docker != "" {
		m.printf("- **Docker** %s\n", mdCodeText(it.Docker))
	}
	if it.Text != "" {
		m.printf("- %s\n", mdText(strings.ToUpper(it.Text[:1])+it.Text[1:]+"."))
	}
}

// call lists a located call's results; withGroup adds the report's group
// (the first cause's).
func (m *mdWriter) call(r *LocateReport, c *Culprit, withGroup bool) {
	who := c.Who
	if c.Exe != "" {
		who += " " + c.Exe
	}
	m.printf("- **Call** %d by %s: %s\n", c.Seq, mdCodeText(who), mdCodeText(c.Call))
	if c.Path != "" {
		m.printf("- **Path** %s\n", mdCodeText(c.Path))
	}
	if c.HerePath != "" {
		m.printf("- **Path here** %s (%s)\n", mdCodeText(c.HerePath), mdText(HerePathWords))
	}
	m.results(c, "")
	if d := c.DNS; d != nil {
		m.printf("- **DNS** %s\n", mdText(d.Line()))
	}
	if cc := c.Content; cc != nil {
		m.printf("- **Content** the file differs here: call %d, %s\n", cc.Seq, mdCodeText(cc.Call))
		m.results(cc, "  ")
	}
	if g := r.Group; g != nil && withGroup {
		m.printf("- **Group** %s: %s\n", mdText(g.Title), mdText(groupCalls(g)))
	}
	if im := c.Image; im != nil {
		m.printf("- **Image** %s\n", mdText(imageText(im)))
	}
	if c.Flip != nil {
		m.printf("- **Flip** %s\n", mdText(FlipText(c)))
	}
}

// results lists a call's result in the recording and here, at indent.
func (m *mdWriter) results(c *Culprit, indent string) {
	m.printf("%s- **Good** %s\n", indent, mdCodeText(c.Good.Return))
	switch {
	case c.Here.Missing:
		m.printf("%s- **Here** did not happen in this environment (the failing run took another path before it)\n", indent)
	case c.DataDiff != nil && c.DataDiff.Entries != nil:
		m.printf("%s- **Here** %s, entries differ: %s\n", indent, mdCodeText(c.Here.Return), mdText(entriesShort(c.DataDiff.Entries)))
	case c.DataDiff != nil && c.DataDiff.Struct != "":
		m.printf("%s- **Here** %s, %s\n", indent, mdCodeText(c.Here.Return), mdText(structDiffers(c)))
	case c.DataDiff != nil:
		m.printf("%s- **Here** %s, %s: %s\n", indent, mdCodeText(c.Here.Return), mdText(differs(c)), mdText(sizes(c.DataDiff)))
	case c.Here.Return == c.Good.Return:
		m.printf("%s- **Here** %s (the same as recorded)\n", indent, mdCodeText(c.Here.Return))
	default:
		m.printf("%s- **Here** %s\n", indent, mdCodeText(c.Here.Return))
	}
}

// dataDiff writes how a call's data differs: a text diff in a diff
// block, a struct's members that differ in a plain one; binary bytes
// from the first difference only with verbose (-v): a directory
// listing's entries are in the Here line, other bytes in the JSON
// report.
func (m *mdWriter) dataDiff(c *Culprit, verbose bool) {
	d := c.DataDiff
	if d == nil || c.Here.Missing {
		return
	}
	if !d.Text && d.Struct == "" && !verbose {
		return
	}
	m.para(fmt.Sprintf("How the data of call %d differs (%s):", c.Seq, d.Buffer))
	if d.Text && len(d.Diff) > 0 {
		m.printf("\n%s", mdFence("diff", d.Diff))
		return
	}
	if d.Struct != "" {
		// The members that differ, decoded, never the struct's bytes.
		lines := make([]string, len(d.Fields))
		for i, f := range d.Fields {
			lines[i] = f.Field + ": good " + f.Good + ", here " + f.Here
		}
		if len(lines) > 0 {
			m.printf("\n%s", mdFence("", lines))
		}
		return
	}
	m.printf("\n%s", mdFence("", []string{"good: " + d.GoodBytes, "here: " + d.HereBytes}))
}
