package main

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"
)

// progressQuiet is how long a run stays silent before its progress lines
// are printed, so that quick designs print nothing.
const progressQuiet = time.Second

// progressPrinter prints a run's progress lines on stderr, each with the
// seconds since the run started. A line said during the first quiet
// period is held, not dropped: when the period ends with a line pending
// (the latest one said, the step the run is in), it is printed then,
// with the time it was said, so that a long step announced in the first
// second does not run silently. Lines may be said from several goroutines.
type progressPrinter struct {
	w     io.Writer
	quiet time.Duration
	start time.Time

	mu      sync.Mutex
	pending string        // the latest line said before quiet, not printed
	saidAt  time.Duration // when pending was said
	timer   *time.Timer   // prints pending when quiet has passed
	stopped bool
}

// newProgress returns a printer on w whose run starts now.
func newProgress(w io.Writer, quiet time.Duration) *progressPrinter {
	return &progressPrinter{w: w, quiet: quiet, start: time.Now()}
}

// say prints msg, or holds it during the quiet period.
func (p *progressPrinter) say(msg string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return
	}
	d := time.Since(p.start)
	if d < p.quiet {
		p.pending, p.saidAt = msg, d
		if p.timer == nil {
			p.timer = time.AfterFunc(p.quiet-d, p.flush)
		}
		return
	}
	p.pending = ""
	fmt.Fprintf(p.w, "[%5.1fs] %s\n", d.Seconds(), msg)
}

// flush prints the line pending when the quiet period ends.
func (p *progressPrinter) flush() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped || p.pending == "" {
		return
	}
	fmt.Fprintf(p.w, "[%5.1fs] %s\n", p.saidAt.Seconds(), p.pending)
	p.pending = ""
}

// stop ends the printer: nothing is printed once it returns, a line still
// pending included (the run ended within the quiet period).
func (p *progressPrinter) stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stopped = true
	if p.timer != nil {
		p.timer.Stop()
	}
}

// progressKey is the context key of a command's progress printer.
type progressKey struct{}

// withProgress returns ctx carrying the command's progress printer.
func withProgress(ctx context.Context, p *progressPrinter) context.Context {
	return context.WithValue(ctx, progressKey{}, p)
}

// progressOf returns the progress function of ctx's printer (runCommand
// gives every command one), or else of a new printer on w that is never
// stopped.
func progressOf(ctx context.Context, w io.Writer) func(string) {
	if p, ok := ctx.Value(progressKey{}).(*progressPrinter); ok {
		return p.say
	}
	return newProgress(w, progressQuiet).say
}
