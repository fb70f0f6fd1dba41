package render

// cause prints what explains the culprit's error, when something does.
func (t *textWriter) cause(c *Culprit) {
	if c.Cause == nil {
		return
	}
	t.printf("cause     %s%s\n", c.Cause.Item.Label(), dockerSuffix(c.Cause.Item))
	t.para(c.Cause.Text + ". No run can give the command the good value of this, so the search found the call it makes fail.")
}

// unapplied lists the identity items that differ here and no run could
// apply.
func (t *textWriter) unapplied(r *LocateReport) {
	if len(r.Unapplied) == 0 {
		return
	}
	t.printf("\nDiffers here and could not be applied by a run:\n")
	for _, l := range unappliedText(r.Unapplied) {
		t.printf("  %s\n", l)
	}
}
