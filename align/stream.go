package align

// Verdict is what Stream.Feed decided about a live call.
type Verdict uint8

const (
	// Matched: the live call is recorded call Rec; the Skipped recorded
	// calls before it (from the previous position on) did not happen live.
	Matched Verdict = iota + 1
	// Extra: the live call has no recorded counterpart (yet): an extra
	// iteration of a loop, or the start of a divergence. It must run for
	// real; the recorded position stays where it was.
	Extra
	// Diverged: the thread could not be realigned within the window; it
	// and every later call of the thread run for real.
	Diverged
)

// Fed is the outcome of Stream.Feed.
type Fed struct {
	Verdict Verdict
	Rec     int // index of the matched recorded call (Matched)
	Skipped int // recorded calls passed over before Rec (Matched)
	// Generated: the live call matched a recorded call whose key differs
	// from its own in a generated name (FeedLike); the caller maps the
	// live name to the recorded one (Keyer.MapName).
	Generated bool
}

// Stream matches the live calls of one thread, one at a time as they
// happen, to the recorded calls of the thread it was matched with: the
// online form of Align, for locate and replay, which must decide about
// each live call before it runs and cannot look ahead.
//
// A live call whose key is the next recorded key matches it. Otherwise
// the live call is either a recorded call a little further on (the live
// run made fewer iterations of a loop: the calls in between are skipped)
// or an extra call (it made more). The stream takes the first reading
// when the live key occurs within window recorded calls ahead and not
// nearer behind, among the last window calls already matched (an extra
// iteration repeats what was just done); else the second. After more than
// window extra calls in a row the thread has diverged for good.
type Stream struct {
	rec      Keys
	next     int // index of the next expected recorded call
	window   int
	extra    int // consecutive extra live calls
	last     int // index of the recorded call matched last, -1: none
	diverged bool
}

// NewStream returns a Stream over a thread's recorded keys; window 0
// means DefaultWindow.
func NewStream(rec []Key, window int) *Stream { return NewStreamOf(ListOf(rec), window) }

// NewStreamOf is NewStream over keys held in a KeyTable.
func NewStreamOf(rec Keys, window int) *Stream {
	if window <= 0 {
		window = DefaultWindow
	}
	return &Stream{rec: rec, window: window, last: -1}
}

// Again makes the recorded call matched last the next expected one once
// more: the live call matched to it was answered "try again" (EAGAIN on
// a non-blocking read whose recorded twin got data), and the program's
// retry, not that answer, is its live counterpart.
func (s *Stream) Again() {
	if s.last >= 0 && !s.diverged {
		s.next = s.last
	}
}

// Next returns the index of the next expected recorded call; it equals
// the number of recorded calls when all were matched or skipped.
func (s *Stream) Next() int { return s.next }

// Diverged reports whether the thread has diverged.
func (s *Stream) Diverged() bool { return s.diverged }

// Feed decides about the next live call of the thread, whose key is k.
func (s *Stream) Feed(k Key) Fed { return s.FeedLike(k, nil) }

// FeedLike is Feed for a live call that may create a generated name: when
// no recorded key within the window equals k, the nearest recorded call
// from the next expected one on whose key like accepts (Keyer.Like) is
// matched, Fed.Generated set. like nil is Feed.
func (s *Stream) FeedLike(k Key, like func(rec Key) bool) Fed {
	if s.diverged {
		return Fed{Verdict: Diverged}
	}
	if s.next < s.rec.Len() && s.rec.At(s.next) == k {
		return s.match(s.next)
	}
	ahead := -1
	for d := 1; d <= s.window && s.next+d < s.rec.Len(); d++ {
		if s.rec.At(s.next+d) == k {
			ahead = d
			break
		}
	}
	behind := -1
	for d := 1; d <= s.window && s.next-d >= 0; d++ {
		if s.rec.At(s.next-d) == k {
			behind = d
			break
		}
	}
	if ahead > 0 && (behind < 0 || ahead < behind) {
		return s.match(s.next + ahead)
	}
	if like != nil && ahead < 0 && behind < 0 {
		for d := 0; d <= s.window && s.next+d < s.rec.Len(); d++ {
			if like(s.rec.At(s.next + d)) {
				f := s.match(s.next + d)
				f.Generated = true
				return f
			}
		}
	}
	s.extra++
	if s.extra > s.window {
		s.diverged = true
		return Fed{Verdict: Diverged}
	}
	return Fed{Verdict: Extra}
}

func (s *Stream) match(i int) Fed {
	f := Fed{Verdict: Matched, Rec: i, Skipped: i - s.next}
	s.next, s.extra, s.last = i+1, 0, i
	return f
}
