package learn

import "time"

// reporter passes learning's progress messages on to a Progress function,
// at most one a second (the first at once): an evaluation of the
// objective takes milliseconds at small D and seconds at large D, and a
// line per evaluation would flood a quick design's output. The messages
// are progress only: nothing learned depends on when they are said.
type reporter struct {
	fn   func(string)
	last time.Time
}

// newReporter returns a reporter to fn (nil: messages are dropped).
func newReporter(fn func(string)) *reporter {
	return &reporter{fn: fn}
}

// say passes msg on unless a message was passed on less than a second ago.
func (r *reporter) say(msg string) {
	if r.fn == nil {
		return
	}
	if now := time.Now(); r.last.IsZero() || now.Sub(r.last) >= time.Second {
		r.last = now
		r.fn(msg)
	}
}

// to returns a function saying messages after prefix and a colon; nil
// when there is no Progress function.
func (r *reporter) to(prefix string) func(string) {
	if r.fn == nil {
		return nil
	}
	return func(msg string) { r.say(prefix + ": " + msg) }
}
