package render

// cause prints, under the located culprit, what explains its error, when
// something does.
func (t *textWriter) cause(r *LocateReport) {
	c := r.Cause
	if c == nil {
		return
	}
	t.printf("cause     %s%s\n", c.Item.Label(), dockerSuffix(c.Item))
	t.para(causeConclusion(r, c))
}

// unapplied lists the identity items that differ here and no run could
// apply, and, when the search named no culprit, the one that explains a
// failing call.
func (t *textWriter) unapplied(r *LocateReport) {
	if c := r.Cause; c != nil && r.Status != Located {
		t.para(unlocatedCause(c))
		if c.Call != "" {
			t.printf("evidence  call %d: %s\n", c.Seq, c.Call)
		}
	}
	if len(r.Unapplied) == 0 {
		return
	}
	t.printf("\nDiffers here and could not be applied by a run:\n")
	for _, l := range unappliedText(r.Unapplied) {
		t.printf("  %s\n", l)
	}
}
