package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer that goroutines may write and read.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestInterrupts: the first interrupt cancels the run and quits nothing;
// a run still going stoppingAfter later is told that another interrupt
// quits at once; the second interrupt quits with exit code 1, at once
// whether or not that notice was given.
func TestInterrupts(t *testing.T) {
	t.Parallel() // 1.2 s of waiting, beside the package's other tests
	for _, wait := range []time.Duration{0, stoppingAfter + 200*time.Millisecond} {
		sig := make(chan os.Signal, 1)
		ctx, cancel := context.WithCancel(context.Background())
		var stderr syncBuffer
		quit := make(chan int, 1)
		go interrupts(sig, cancel, &stderr, func(code int) { quit <- code })
		sig <- os.Interrupt
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
			t.Fatalf("wait %v: the first interrupt did not cancel the run", wait)
		}
		time.Sleep(wait)
		select {
		case code := <-quit:
			t.Fatalf("wait %v: quit(%d) at the first interrupt", wait, code)
		default:
		}
		notice := strings.Contains(stderr.String(), "interrupt again to quit at once")
		if notice != (wait > stoppingAfter) {
			t.Errorf("wait %v after the first interrupt: notice given %v, want %v (stderr %q)", wait, notice, wait > stoppingAfter, stderr.String())
		}
		sig <- syscall.SIGTERM
		select {
		case code := <-quit:
			if code != exitFailed {
				t.Errorf("wait %v: quit(%d) at the second interrupt, want %d", wait, code, exitFailed)
			}
		case <-time.After(time.Second):
			t.Fatalf("wait %v: the second interrupt did not quit", wait)
		}
		if !strings.Contains(stderr.String(), "quit at a second interrupt") {
			t.Errorf("wait %v: stderr %q does not say why featmap quit", wait, stderr.String())
		}
	}
}

// TestSecondInterruptQuits: gen writing 91 KB of Go to a pipe nobody reads
// (a pager left open) is stuck in the write, where a cancel cannot reach:
// Ctrl-C leaves it running and, a second later, says that another quits at
// once; the second Ctrl-C ends it with exit 1. Before, the second was
// swallowed and featmap waited for the pipe's reader for ever.
func TestSecondInterruptQuits(t *testing.T) {
	// vz's 7-D χ² map on an interval with fast tables: 91 KB of Go in
	// about 0.2 s, more than a pipe holds (64 KB on Linux).
	bin, spec := binaryAndSpec(t, "big.yaml", "version: 1\nname: Big\nkernel: {type: chi2}\ndomain: {interval: [0.001, 1]}\ntarget: {dim: 7}\nmethod: {name: vz}\nemit: {tables: fast}\n")
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cmd := exec.Command(bin, "gen", spec)
	var stderr syncBuffer
	cmd.Stdout, cmd.Stderr = w, &stderr
	done := startCmd(t, cmd)
	w.Close()
	// The first byte read means the design is made and the write begun;
	// the rest (more than the pipe holds) is never read.
	if _, err := r.Read(make([]byte, 1)); err != nil {
		cmd.Process.Kill()
		<-done
		t.Fatalf("reading gen's output: %v; stderr:\n%s", err, stderr.String())
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
		t.Fatalf("exit %d at the first Ctrl-C: the write should have held it (stderr %q)", cmd.ProcessState.ExitCode(), stderr.String())
	case <-time.After(stoppingAfter + 500*time.Millisecond):
	}
	if !strings.Contains(stderr.String(), "interrupt again to quit at once") {
		t.Errorf("still running %v after Ctrl-C without saying how to quit (stderr %q)", stoppingAfter+500*time.Millisecond, stderr.String())
	}
	took := interruptAndWait(t, cmd, done, "second Ctrl-C")
	if code := cmd.ProcessState.ExitCode(); code != exitFailed || !strings.Contains(stderr.String(), "quit at a second interrupt") {
		t.Errorf("after the second Ctrl-C: exit %d, stderr %q; want %d, saying it quit", code, stderr.String(), exitFailed)
	}
	t.Logf("exited %v after the second Ctrl-C", took.Round(time.Millisecond))
}
