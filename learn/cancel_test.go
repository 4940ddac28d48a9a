package learn

import (
	"context"
	"errors"
	"testing"
	"time"
)

// cancelledSoon runs run with a context cancelled after the given time and
// fails t unless run returns context.Canceled within the time allowed.
func cancelledSoon(t *testing.T, what string, after, within time.Duration, run func(ctx context.Context) error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(after, cancel)
	start := time.Now()
	err := run(ctx)
	if took := time.Since(start); !errors.Is(err, context.Canceled) || took > within {
		t.Errorf("%s cancelled after %v: %v after %v, want context.Canceled within %v", what, after, err, took, within)
	}
}
