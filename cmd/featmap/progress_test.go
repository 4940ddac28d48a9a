package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// waitFor waits until s holds want, at most 60 s (a loaded machine
// stretches every wait; the time is no assertion), and reports whether it
// did.
func waitFor(s *syncBuffer, want string, done <-chan int) bool {
	deadline := time.After(time.Minute)
	for !strings.Contains(s.String(), want) {
		select {
		case <-deadline:
			return false
		case <-done:
			return strings.Contains(s.String(), want)
		case <-time.After(10 * time.Millisecond):
		}
	}
	return true
}

// TestProgressHoldsTheQuietPeriod: a line said during the quiet period is
// not dropped: the latest one is printed when the period ends, with the
// time it was said, without waiting for another line (a step announced in
// the first second that then runs for minutes); lines after the period
// are printed at once; nothing is printed once the printer is stopped.
func TestProgressHoldsTheQuietPeriod(t *testing.T) {
	var out syncBuffer
	p := newProgress(&out, 30*time.Millisecond)
	p.say("a finished step")
	p.say("a long step")
	if !waitFor(&out, "a long step", nil) {
		t.Fatalf("the line said in the quiet period was never printed: %q", out.String())
	}
	got := out.String()
	if strings.Contains(got, "a finished step") || !strings.HasPrefix(got, "[  0.0s] a long step\n") {
		t.Errorf("printed %q, want only the latest line, with the time it was said", got)
	}
	p.say("the next step")
	if got := out.String(); !strings.HasSuffix(got, "s] the next step\n") {
		t.Errorf("a line after the quiet period: printed %q", got)
	}
	p.stop()
	p.say("after the run")
	if strings.Contains(out.String(), "after the run") {
		t.Errorf("a line printed after stop: %q", out.String())
	}
}

// TestProgressQuickRunSilent: a run that ends within the quiet period
// prints nothing, even with a line pending, then or later.
func TestProgressQuickRunSilent(t *testing.T) {
	var out syncBuffer
	p := newProgress(&out, 100*time.Millisecond)
	p.say("a step")
	p.stop()
	time.Sleep(300 * time.Millisecond)
	if got := out.String(); got != "" {
		t.Errorf("a quick run printed %q", got)
	}
}

// TestProgressAnnouncesALongStep: rf-pca with 2048 random features says
// that it starts the 2048 × 2048 eigendecomposition within the first
// second, then works on it for minutes: the line reaches stderr while it
// runs (it was swallowed, and the step ran silently). The run is then
// interrupted.
func TestProgressAnnouncesALongStep(t *testing.T) {
	if testing.Short() {
		t.Skip("cancels a 2048 × 2048 eigendecomposition, which cannot stop: its goroutine spends seconds of CPU beside the other tests")
	}
	dir := t.TempDir()
	var data strings.Builder
	for i := range 200 {
		data.WriteString([]string{"0.5", "1.25", "2", "3.75", "4.5", "6", "7.25", "8", "9.5"}[i%9])
		data.WriteByte('\n')
	}
	if err := os.WriteFile(filepath.Join(dir, "rows.csv"), []byte(data.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	spec := filepath.Join(dir, "s.yaml")
	src := "version: 1\nname: P\nkernel: {type: rbf, sigma: 2}\ndomain: {interval: [0, 10]}\ntarget: {dim: 4}\ndata: {file: rows.csv}\nmethod: {name: rf-pca, features: 2048}\n"
	if err := os.WriteFile(spec, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr syncBuffer
	done := make(chan int, 1)
	go func() { done <- run(ctx, []string{"design", spec}, &stdout, &stderr) }()
	const want = "rf-pca: eigendecomposition of the 2048 × 2048 moment matrix"
	announced := waitFor(&stderr, want, done)
	cancel()
	<-done
	if !announced {
		t.Errorf("the eigendecomposition ran without its progress line; stderr:\n%s", stderr.String())
	}
}
