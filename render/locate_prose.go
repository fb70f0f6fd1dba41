package render

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/envbisect/envbisect/trace"
)

// The sentences of locate's report, shared by the text (WriteText) and
// Markdown (WriteMarkdown) forms so that the two never say a thing two
// ways.

const (
	noFailureAdvice = "There is no failure here to explain. " +
		"If it fails only sometimes, run locate with more runs per step; if its failure shows " +
		"another way (output, a check command, a timeout), tell locate how to judge a run."
	notRepeatableAdvice = "Two runs of the command as it is here (nothing replayed, nothing put in place) gave " +
		"different verdicts, so nothing here can be blamed. " +
		"The command may be flaky (run locate with --repeat N to take a majority of N runs per step), " +
		"or depend on state outside the sandbox (a running service, the network, --persist paths): " +
		"reset that state before every run with --reset CMD."
	stillFailsAdvice = "No call can be named: the run that gives back everything replay can (every recorded call, " +
		"and the start items that differ) still fails. The cause may be outside what replay gives back (argv, the " +
		"auxiliary vector, CPU features, timing, a start item no run could apply), or the run diverged from the " +
		"recording and executed for real calls it was asked to replay."
	inconclusiveEndsAdvice = "An end of the search could not be checked: its runs were skipped (exit 125) or " +
		"disagreed. No culprit is named. Check that the command can run here, or run locate " +
		"with more runs per step if it is flaky."
	unconfirmedAdvice = "The search ended at this suspect, but the runs that check it did not confirm it, so it is not " +
		"named as the cause: the command may be flaky, or depend on state no call shows. Run locate with " +
		"more runs per step, or try the suspect with envbisect replay."
	inconclusiveAdvice = "The runs between them were skipped (exit 125), disagreed, or diverged from the recording. " +
		"Run locate again, with more runs per step, or try them one by one with envbisect replay."
)

// lostText says what an incomplete eBPF trace means for the search.
func lostText(r *LocateReport) string {
	l := r.Lost
	return fmt.Sprintf("The trace is incomplete: the eBPF recorder lost %d calls, and %d recorded calls lost part of their data "+
		"(its ring buffer was full). Those calls executed in every run instead of being replayed, so none of them "+
		"can be named here; record again with a larger --ring-size, or with the ptrace backend, which loses nothing.",
		l.Calls, l.Incomplete)
}

// notServedText introduces the list of files not served.
func notServedText(r *LocateReport) string {
	return fmt.Sprintf("%d file(s) the program uses could not be served from the trace, so their opens and execs "+
		"ran here and the program read or ran this environment's file in every run:", len(r.NotServed))
}

// startConclusion says what the runs showed of a start item culprit.
func startConclusion(it *StartItem) string {
	return fmt.Sprintf("With %s as recorded (and no call replayed), the command passes here; with this "+
		"environment's value it fails.", it.Label())
}

// firstConclusion says what the runs showed of c, the first cause of a
// located report: alone, what they showed of it (startConclusion,
// locatedConclusion); one of several, that it is not enough alone
// (causesConclusion).
func firstConclusion(r *LocateReport, c *Culprit) string {
	switch {
	case len(r.Causes) > 1:
		return causesConclusion(r, c)
	case c.Start != nil:
		return startConclusion(c.Start)
	case c.Unreplayed:
		// Named at the fail end (bisect's identityEnd): no run flipped it.
		return "No run replayed this call or started the command past it: no run can give the command what the cause " +
			"below names, and a stand-in for what the call makes (or runs) would not be it."
	}
	return locatedConclusion(r, c)
}

// causesConclusion says what the runs showed of c, the first of the
// report's several causes: replayed alone it does not make the command
// pass; all of them together do, and each is needed.
func causesConclusion(r *LocateReport, c *Culprit) string {
	name := c.Resource
	switch {
	case c.Start != nil:
		name = c.Start.Label()
	case name == "":
		name = fmt.Sprintf("call %d", c.Seq)
	}
	n := len(r.Causes)
	all, anyOne := fmt.Sprintf("all %d together", n), "any one of them"
	if n == 2 {
		all, anyOne = "both together", "either of them"
	}
	return fmt.Sprintf("%s is one of %d causes: replaying it alone does not make the command pass here; replaying "+
		"%s does, and leaving out %s fails.", strings.ToUpper(name[:1])+name[1:], n, all, anyOne)
}

// disagreeingText points at the steps that did not confirm a suspect:
// "Steps that did not confirm it: 3, 4 (below)."
func disagreeingText(r *LocateReport) string {
	var steps []string
	for _, s := range r.Disagreeing {
		steps = append(steps, strconv.Itoa(s))
	}
	return "Steps that did not confirm it: " + strings.Join(steps, ", ") + " (below)."
}

// locatedConclusion says what the runs showed of the located call c.
func locatedConclusion(r *LocateReport, c *Culprit) string {
	replayed := fmt.Sprintf("the recorded result of call %d replayed", c.Seq)
	executed := "it"
	switch {
	case c.Content != nil:
		replayed = fmt.Sprintf("call %d replayed (it hands out the good environment's file, which the trace keeps)", c.Seq)
	case c.Image != nil:
		replayed = fmt.Sprintf("the image recorded at call %d run in its place", c.Seq)
		executed = "the exec"
	}
	if sp := r.Space; sp != nil && sp.Over == SpaceDiffering && r.Group != nil && c.DNS != nil {
		return fmt.Sprintf("With %s as recorded (its %d calls replayed, and the resources that differ here "+
			"before it), the command passes here; with this environment's answer, it fails.", r.Group.Title, len(r.Group.Calls))
	}
	if sp := r.Space; sp != nil && sp.Over == SpaceDiffering && r.Group != nil {
		return fmt.Sprintf("With the recorded answers of %s replayed (its %d calls, and the resources "+
			"that differ here before it), the command passes here; with this environment's answers, it fails. "+
			"Call %d is where it differs.", r.Group.Title, len(r.Group.Calls), c.Seq)
	}
	return "With " + replayed + " (and every call before it that replay " +
		"can change), the command passes here; with " + executed + " executed for real, it fails."
}

// causeConclusion follows a cause of the located culprit's error; its
// text is left out when the culprit's explanation already says it
// (CauseSentence).
func causeConclusion(r *LocateReport, c *Cause) string {
	s := "No run could give the command the good value of this, so no run confirmed it: it is what " +
		"differs here that explains this error."
	if r.Culprit != nil && r.Culprit.Explanation == CauseSentence(c) {
		return s
	}
	return c.Text + ". " + s
}

// unlocatedCause says what explains a failing call when no culprit was
// located.
func unlocatedCause(c *Cause) string {
	return "Cause: " + c.Item.Label() + dockerSuffix(c.Item) + ". " + c.Text +
		". No run could give the command the good value of this, so no run confirmed it: it is what differs here " +
		"that explains the error of a call that failed " + causeRun(c) + "."
}

// causeRun is the run a Cause's evidence failed in, as the prose says it.
func causeRun(c *Cause) string {
	if c.Run == "" {
		return CauseRunEverything
	}
	return c.Run
}

// imageText says which image a replayed exec ran: "the recording ran
// /opt/sh (1234 bytes, sha256 abcd000000000000), which the trace holds".
func imageText(im *trace.FileObject) string {
	ran := im.Path
	if im.Resolved != "" {
		ran = im.Resolved // where the path led: for a #! script, its interpreter
	}
	return fmt.Sprintf("the recording ran %s (%d bytes, sha256 %x), which the trace holds", ran, im.Size, im.SHA256[:8])
}
